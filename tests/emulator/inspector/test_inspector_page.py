"""The inspector's page in a real headless chromium against a real emulator: the world and its deep
links, the live feed, acting as a user, the clock and faults, as a person sees and uses them.

Screenshots of each view go to docs/images/inspector-*.png when PLATFORMPP_SCREENSHOTS=1."""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from emulator_world import ALICE, BOB, BOT_TOKEN, GUILD_ID, bot_headers
from interaction_bots import GatewayBot, Replies
from platformpp.emulator import Emulator
from platformpp.emulator.core.admin_secret import ENV

GENERAL = 1200000000000000101
MODERATORS = 1200000000000000102
GUILD_MESSAGES = 1 << 9
VIEWPORT = {"width": 1280, "height": 800}


def _post_as_bot(http: httpx.Client, content: str) -> dict[str, Any]:
    response = http.post(f"/api/v10/channels/{GENERAL}/messages", json={"content": content}, headers=bot_headers())
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_the_world_and_its_deep_links(inspector: Any, http: httpx.Client) -> None:
    posted = _post_as_bot(http, "hello from the bot")
    lobby = http.post("/api/v10/lobbies", json={"members": [{"id": str(ALICE)}], "metadata": {"mode": "duel"}},
                      headers=bot_headers())
    assert lobby.status_code == 201, lobby.text
    lobby_id = lobby.json()["id"]
    page = inspector.open()
    tree = page.locator("#world-tree")
    for name in ("Demo Game", "alice", "Demo Guild", "general", f"Lobby {lobby_id}"):
        assert tree.get_by_text(name, exact=False).first.is_visible(), name
    inspector.screenshot("world")

    page.goto(f"{inspector.base_url}/_emulator/ui#/guilds/{GUILD_ID}")
    detail = page.locator("#world-detail")
    detail.get_by_role("heading", name="Guild Demo Guild").wait_for()
    channels = detail.get_by_role("table", name="Channels")
    assert channels.get_by_role("link", name="moderators").is_visible()
    assert "hidden from" in channels.get_by_role("row").filter(has_text="moderators").inner_text()
    assert detail.get_by_role("table", name="Members").get_by_role("link", name="Alice").is_visible()
    inspector.screenshot("guild")

    page.goto(f"{inspector.base_url}/_emulator/ui#/channels/{GENERAL}")
    detail.get_by_role("heading", name="#general").wait_for()
    message = detail.get_by_role("article", name=f"Message {posted['id']}")
    assert "hello from the bot" in message.inner_text()
    inspector.screenshot("channel")

    page.goto(f"{inspector.base_url}/_emulator/ui#/users/{ALICE}")
    detail.get_by_role("heading", name="Alice").wait_for()
    assert detail.get_by_role("link", name="Demo Guild").is_visible()

    page.goto(f"{inspector.base_url}/_emulator/ui#/lobbies/{lobby_id}")
    detail.get_by_role("heading", name=f"Lobby {lobby_id}").wait_for()
    assert detail.get_by_role("table", name="Lobby members").get_by_role("link", name="Alice").is_visible()
    assert "duel" in detail.inner_text()


def test_a_message_posted_over_http_shows_in_the_live_feed_within_a_second(inspector: Any, http: httpx.Client,
                                                                          emu: Any) -> None:
    with GatewayBot(emu.base_url, Replies(), intents=1 | GUILD_MESSAGES):
        _live_feed(inspector, http)


def _live_feed(inspector: Any, http: httpx.Client) -> None:
    page = inspector.open("#/live")
    started = time.monotonic()
    posted = _post_as_bot(http, "live one")
    feed = page.locator("#live-feed")
    feed.locator("li.dispatch", has_text="MESSAGE_CREATE").first.wait_for(timeout=1000)
    feed.locator("li.http", has_text=f"POST /api/v10/channels/{GENERAL}/messages").first.wait_for(timeout=1000)
    assert time.monotonic() - started < 1.5
    # The request's body is shown, its credential redacted; the dispatch names who received it.
    details = feed.locator("li.http", has_text="/messages").first.locator("pre").text_content() or ""
    assert '"live one"' in details and "Bot [REDACTED]" in details and BOT_TOKEN not in page.content()
    dispatch = feed.locator("li.dispatch", has_text="MESSAGE_CREATE").first.text_content() or ""
    assert "→ bot Demo Game" in dispatch and " 0 B" not in dispatch and posted["id"] in dispatch

    # Filter and pause.
    page.get_by_label("Filter").fill("no such thing anywhere")
    assert feed.locator("li").count() == 0
    page.get_by_label("Filter").fill("")
    page.get_by_label("Pause").check()
    before = feed.locator("li").count()
    _post_as_bot(http, "while paused")
    time.sleep(0.8)
    assert feed.locator("li").count() == before
    page.get_by_label("Pause").uncheck()
    feed.locator("li", has_text="MESSAGE_CREATE").nth(1).wait_for(timeout=2000)
    inspector.screenshot("live")


def test_acting_as_a_user_posts_a_message_the_bot_receives(inspector: Any, emu: Any) -> None:
    with GatewayBot(emu.base_url, Replies(), intents=1 | GUILD_MESSAGES) as bot:
        page = inspector.open("#/act")
        post = page.locator("#act-post")
        post.get_by_label("Post as user").select_option(str(ALICE))
        post.get_by_label("Channel to post in").select_option(str(GENERAL))
        post.get_by_label("Message content").fill("typed in the inspector")
        post.get_by_role("button", name="Post").click()
        result = page.locator("#act-result")
        result.filter(has_text="posted message").wait_for()
        message_id = result.inner_text().rsplit(" ", 1)[1]
        deadline = time.monotonic() + 5
        while not any(d["t"] == "MESSAGE_CREATE" and d["d"]["id"] == message_id for d in bot.dispatches):
            assert time.monotonic() < deadline, f"the bot did not receive message {message_id}: {bot.dispatches}"
            time.sleep(0.05)
        created = next(d["d"] for d in bot.dispatches if d["t"] == "MESSAGE_CREATE")
        assert created["author"]["id"] == str(ALICE) and created["channel_id"] == str(GENERAL)
        inspector.screenshot("act")
        # The bot's session shows among the live sessions.
        page.get_by_role("link", name="Live").click()
        sessions = page.get_by_role("table", name="Gateway sessions")
        sessions.get_by_role("cell", name="bot").wait_for()


def test_moving_the_clock_shows_in_the_page(inspector: Any, emu: Any) -> None:
    page = inspector.open("#/act")
    clock = page.locator("#act-clock")
    clock.get_by_label("New clock time (UTC)").fill("2030-01-02T03:04:05")
    clock.get_by_label("Frozen").check()
    clock.get_by_role("button", name="Move the clock").click()
    page.locator("#clock", has_text="2030-01-02 03:04:05 UTC (frozen)").wait_for(timeout=3000)
    assert emu.state.clock.iso().startswith("2030-01-02T03:04:05")


def test_a_fault_added_in_the_page_fails_the_next_matching_request(inspector: Any, http: httpx.Client) -> None:
    page = inspector.open("#/act")
    faults = page.locator("#act-faults")
    faults.get_by_label("Fault path glob").fill("/api/v10/users/@me")
    faults.get_by_label("Fault HTTP method").fill("GET")
    faults.get_by_label("Fault error status").fill("503")
    faults.get_by_role("button", name="Add fault").click()
    page.get_by_role("list", name="Faults in force").get_by_text("GET /api/v10/users/@me").wait_for()
    assert http.get("/api/v10/users/@me", headers=bot_headers()).status_code == 503
    assert http.get(f"/api/v10/guilds/{GUILD_ID}", headers=bot_headers()).status_code == 200   # not matching
    faults.get_by_role("button", name="Clear faults").click()
    page.locator("#act-result", has_text="faults cleared").wait_for()
    assert http.get("/api/v10/users/@me", headers=bot_headers()).status_code == 200


def test_lobby_join_and_leave_from_the_page(inspector: Any, http: httpx.Client) -> None:
    lobby = http.post("/api/v10/lobbies", json={}, headers=bot_headers())
    assert lobby.status_code == 201, lobby.text
    lobby_id = lobby.json()["id"]
    page = inspector.open("#/act")
    form = page.locator("#act-lobby")
    form.get_by_label("Lobby member").select_option(str(ALICE))
    form.get_by_label("Lobby", exact=True).select_option(lobby_id)
    form.get_by_role("button", name="Join").click()
    page.locator("#act-result", has_text=str(ALICE)).wait_for()
    assert [m["id"] for m in http.get(f"/api/v10/lobbies/{lobby_id}", headers=bot_headers()).json()["members"]] \
        == [str(ALICE)]
    form.get_by_role("button", name="Leave").click()
    page.locator("#act-result", has_text="left the lobby").wait_for()
    assert http.get(f"/api/v10/lobbies/{lobby_id}", headers=bot_headers()).json()["members"] == []


def test_voice_view_and_dark_theme(inspector: Any) -> None:
    page = inspector.open("#/voice")
    relay = page.get_by_role("table", name="Relay")
    relay.wait_for()
    assert "packets/s in" in relay.inner_text()
    page.get_by_role("button", name="Switch between dark and light theme").click()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(20, 23, 29)"
    page.goto(f"{inspector.base_url}/_emulator/ui#/guilds/{GUILD_ID}")
    page.locator("#world-detail").get_by_role("heading", name="Guild Demo Guild").wait_for()
    inspector.screenshot("guild-dark")


def test_every_control_has_an_accessible_name(inspector: Any) -> None:
    page = inspector.open("#/act")
    unnamed = page.evaluate("""() => Array.from(document.querySelectorAll('button, input, select, textarea, a'))
        .filter((el) => !(el.getAttribute('aria-label') || el.labels?.length || el.textContent.trim()))
        .map((el) => el.outerHTML)""")
    assert unnamed == []


def test_beyond_loopback_the_page_asks_for_the_admin_secret(browser: Any, monkeypatch: Any) -> None:
    monkeypatch.delenv(ENV, raising=False)
    with Emulator(db=":memory:", host="0.0.0.0") as emu:
        assert emu.admin_secret is not None
        context = browser.new_context(viewport=VIEWPORT)
        try:
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"http://127.0.0.1:{emu.port}/_emulator/ui#/guilds/{GUILD_ID}")
            dialog = page.get_by_role("dialog", name="Admin secret")
            dialog.wait_for()
            dialog.get_by_label("Admin secret").fill(emu.admin_secret)
            dialog.get_by_role("button", name="Use").click()
            page.locator("#world-detail").get_by_role("heading", name="Guild Demo Guild").wait_for()
            page.locator("#connection.ok").wait_for()
            assert errors == [] and emu.admin_secret not in page.content()
        finally:
            context.close()


def test_the_voice_view_shows_a_call_its_dave_group_and_packets(inspector: Any, emu: Any) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "emulator_voice"))
    from voice_helpers import opus_frame
    from voice_state_helpers import LOUNGE, agreed, hears, join_call, sdk_session, until

    in_call, done = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    async def call() -> None:
        alice, alice_sid = await sdk_session(emu, ALICE)
        bob, bob_sid = await sdk_session(emu, BOB)
        voices = [await join_call(alice, alice_sid, ALICE, LOUNGE), await join_call(bob, bob_sid, BOB, LOUNGE)]
        for voice in voices:
            await voice.speak()
        await until(lambda: agreed(voices), timeout=10)
        for _ in range(20):   # audio through the relay, so the page has packets to count
            assert await hears(voices[1], voices[0])
        in_call.set()
        while not done.is_set():   # Alice goes on talking (a 20 ms frame at a time) while the page looks
            voices[0].send_audio(opus_frame())
            await asyncio.sleep(0.02)
        for client in [*voices, alice, bob]:
            await client.close()

    def run() -> None:
        try:
            asyncio.run(call())
        except BaseException as failure:   # reported by the test below
            failures.append(failure)
            in_call.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        assert in_call.wait(30) and not failures, failures
        page = inspector.open("#/voice")
        calls = page.get_by_role("table", name="Voice calls")
        row = calls.get_by_role("row").filter(has_text="Lounge")
        row.wait_for()
        page.wait_for_function("() => /Alice/.test(document.querySelector('#voice-calls').textContent)"
                               " && /Bob/.test(document.querySelector('#voice-calls').textContent)")
        cells = row.get_by_role("cell").all_inner_texts()
        assert cells[2].isdigit() and cells[3] == "2", cells   # a DAVE epoch, two in the MLS group
        # Packets per second in and out, from the relay's counters between two updates.
        page.wait_for_function("() => { const cells = document.querySelectorAll('#voice-relay td');"
                               " return cells.length && +cells[0].textContent > 5 && +cells[1].textContent > 5; }",
                               timeout=5000)
        relay = page.get_by_role("table", name="Relay").get_by_role("cell").all_inner_texts()
        assert int(relay[2]) >= 20 and int(relay[3]) >= 20, relay   # received and forwarded packets
        inspector.screenshot("voice")
    finally:
        done.set()
        thread.join(20)
