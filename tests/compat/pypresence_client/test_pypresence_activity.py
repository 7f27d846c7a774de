"""pypresence's rich presence against the emulator's desktop client: connect (Presence and AioPresence),
update with buttons, timestamps, a party, state, details and a large image; what a friend sees of it (over
the Gateway and by HTTP: button labels only, milliseconds); clear; close. Bad input gives the library's
own errors, never a hang; an unknown client id is the library's InvalidID."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pypresence
import pytest
from emulator_world import ALICE, APP_ID, BOB
from platformpp.emulator import Emulator
from pypresence_desktop import (CALL_TIMEOUT_S, LIBRARY_TIMEOUTS, alices_game_activity, desktop_client,
                                friends_with_alice, within)
from social_helpers import GatewayClient, user_token

BUTTONS = [{"label": "Join the match", "url": "https://example.test/join"},
           {"label": "Watch", "url": "https://example.test/watch"}]
URLS = [b["url"] for b in BUTTONS]
LABELS = [b["label"] for b in BUTTONS]


@pytest.fixture
def emu(monkeypatch: pytest.MonkeyPatch) -> Any:
    with desktop_client(monkeypatch) as running:
        yield running


def _assert_friends_view(activity: dict[str, Any], start_s: int, end_s: int) -> None:
    assert activity["buttons"] == LABELS
    assert "metadata" not in activity and not any(url in str(activity) for url in URLS)
    assert activity["timestamps"] == {"start": start_s * 1000, "end": end_s * 1000}
    assert activity["party"] == {"id": "party-1", "size": [1, 4]}
    assert (activity["state"], activity["details"]) == ("In a match", "Ranked")
    assert activity["assets"]["large_image"] == "logo"


def test_presence_update_seen_by_a_friend_then_cleared_and_closed(emu: Emulator) -> None:
    bob = friends_with_alice(emu)
    start_s = int(time.time()) - 60
    end_s = start_s + 3600

    async def scenario() -> None:
        friend = await GatewayClient.connect(emu)
        await friend.identify(user_token(emu, BOB))
        try:
            rpc = pypresence.Presence(str(APP_ID), **LIBRARY_TIMEOUTS)
            await asyncio.to_thread(within, rpc.connect)
            answer = await asyncio.to_thread(within, lambda: rpc.update(
                activity_type=pypresence.ActivityType.COMPETING, state="In a match", details="Ranked",
                large_image="logo", large_text="Demo Game", start=start_s, end=end_s, party_id="party-1",
                party_size=[1, 4], buttons=BUTTONS))
            # What the library returns: the activity as the desktop client stored it, for the game.
            data = answer["data"]
            assert answer["cmd"] == "SET_ACTIVITY" and answer["evt"] is None
            assert data["application_id"] == str(APP_ID) and data["name"] == "Demo Game" and data["type"] == 5
            assert data["buttons"] == LABELS and data["metadata"] == {"button_urls": URLS}
            assert data["timestamps"] == {"start": start_s * 1000, "end": end_s * 1000}
            assert data["party"] == {"id": "party-1", "size": [1, 4]}
            assert data["assets"] == {"large_image": "logo", "large_text": "Demo Game"}

            # A friend: live over the Gateway, by HTTP, and in a new session's READY.
            update = await friend.dispatch("PRESENCE_UPDATE")
            assert update["d"]["user"]["id"] == str(ALICE) and update["d"]["status"] == "online"
            _assert_friends_view(update["d"]["activities"][0], start_s, end_s)
            seen = alices_game_activity(bob)
            assert seen is not None
            _assert_friends_view(seen, start_s, end_s)
            later = await GatewayClient.connect(emu)
            ready = await later.identify(user_token(emu, BOB))
            await later.close()
            alice = next(p for p in ready["d"]["presences"] if p["user"]["id"] == str(ALICE))
            _assert_friends_view(alice["activities"][0], start_s, end_s)

            cleared = await asyncio.to_thread(within, rpc.clear)
            assert cleared["cmd"] == "SET_ACTIVITY" and cleared["data"] is None
            assert (await friend.dispatch("PRESENCE_UPDATE"))["d"]["activities"] == []
            assert alices_game_activity(bob) is None
            await asyncio.to_thread(within, rpc.close)
        finally:
            await friend.close()
    asyncio.run(scenario())
    # The desktop client still holds alice online once the game has gone.
    assert bob.get(f"/users/{ALICE}/presence").json()["status"] == "online"


def test_aio_presence_update_clear_close(emu: Emulator) -> None:
    bob = friends_with_alice(emu)
    start_s = int(time.time())
    loop = asyncio.new_event_loop()
    rpc = pypresence.AioPresence(str(APP_ID), loop=loop, **LIBRARY_TIMEOUTS)

    def run(coroutine: Any) -> Any:
        return loop.run_until_complete(asyncio.wait_for(coroutine, CALL_TIMEOUT_S))

    run(rpc.connect())
    answer = run(rpc.update(state="In a match", details="Ranked", large_image="logo", start=start_s,
                            end=start_s + 600, party_id="party-1", party_size=[2, 4], buttons=BUTTONS[:1]))
    assert answer["data"]["buttons"] == LABELS[:1] and answer["data"]["metadata"] == {"button_urls": URLS[:1]}
    assert answer["data"]["timestamps"] == {"start": start_s * 1000, "end": (start_s + 600) * 1000}
    seen = alices_game_activity(bob)
    assert seen is not None and seen["buttons"] == LABELS[:1] and "metadata" not in seen
    assert seen["party"] == {"id": "party-1", "size": [2, 4]}
    assert run(rpc.clear())["data"] is None
    assert alices_game_activity(bob) is None
    rpc.close()
    assert loop.is_closed()


def test_bad_input_is_the_library_s_own_errors_and_nothing_changes(emu: Emulator) -> None:
    bob = friends_with_alice(emu)
    rpc = pypresence.Presence(str(APP_ID), **LIBRARY_TIMEOUTS)
    within(rpc.connect)
    within(lambda: rpc.update(state="In the lobby", details="Waiting"))
    refused: dict[str, dict[str, Any]] = {
        "three buttons": dict(buttons=[*BUTTONS, {"label": "More", "url": "https://example.test/more"}]),
        "a number as the state": dict(state=5),
        "a party fuller than its size": dict(party_id="party-1", party_size=[5, 2]),
        "a button without a URL": dict(buttons=[{"label": "Join"}]),
        "secrets with buttons": dict(join="join-secret", buttons=BUTTONS),
        "a state over 128 characters": dict(state="x" * 129),
    }
    for case, fields in refused.items():
        with pytest.raises(pypresence.ServerError) as raised:
            within(lambda: rpc.update(**fields))
        assert str(raised.value), case
        # The connection goes on and alice's activity is the last good one.
        seen = alices_game_activity(bob)
        assert seen is not None and (seen["state"], seen["details"]) == ("In the lobby", "Waiting"), case
    # What the library checks itself, before anything is sent: an activity type it does not know.
    with pytest.raises(ValueError):
        pypresence.payloads.Payload.set_activity(activity_type=4)
    assert within(lambda: rpc.update(state="Back in a match"))["data"]["state"] == "Back in a match"
    within(rpc.close)


def test_unknown_client_id_is_invalid_id(emu: Emulator) -> None:
    rpc = pypresence.Presence("123456789012345678", **LIBRARY_TIMEOUTS)
    with pytest.raises(pypresence.InvalidID):
        within(rpc.connect)
    aio_loop = asyncio.new_event_loop()
    aio = pypresence.AioPresence("123456789012345678", loop=aio_loop, **LIBRARY_TIMEOUTS)
    with pytest.raises(pypresence.InvalidID):
        aio_loop.run_until_complete(asyncio.wait_for(aio.connect(), CALL_TIMEOUT_S))
    aio_loop.close()


def test_no_desktop_client_running_is_an_error_not_a_hang(monkeypatch: pytest.MonkeyPatch) -> None:
    with desktop_client(monkeypatch) as emu:
        # The desktop client quits: its socket goes.
        assert httpx.delete(f"{emu.base_url}/_emulator/desktop").status_code == 204
        rpc = pypresence.Presence(str(APP_ID), **LIBRARY_TIMEOUTS)
        with pytest.raises(pypresence.PyPresenceException):
            within(rpc.connect)
