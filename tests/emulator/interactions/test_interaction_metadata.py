"""An answer message's ``interaction_metadata`` is the published schema's variant for its interaction:
a command's (``target_user`` of a user command, ``target_message_id`` of a message command), a
component's (``interacted_message_id``: the message the component is on) or a modal submit's
(``triggering_interaction_metadata``: the command or component interaction the modal answered). A
followup names its ``original_response_message_id``. The simulated user's answer, the Gateway's
MESSAGE_CREATE / MESSAGE_UPDATE, ``GET /channels/{id}/messages/{id}``, the channel's list, search and
the token's ``@original`` show the same metadata, each valid against the published schema."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from channel_helpers import GENERAL, set_message_content
from emulator_world import ALICE, APP_ID, BOB, BOT_TOKEN, GUILD_ID
from interaction_bots import GatewayBot, Replies
from platformpp.emulator import Emulator
from platformpp.emulator.simulated_user import Answer, SimulatedUser
from social_helpers import GatewayClient, api, bot

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "conformance"))
from schema_hook import published_api  # noqa: E402

GUILD_MESSAGES = 1 << 9
BUTTON_ROW = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}
MODAL = {"custom_id": "ask", "title": "Ask", "components": [
    {"type": 18, "label": "Question", "component": {"type": 4, "custom_id": "question", "style": 1}}]}
OWNERS = {"0": str(GUILD_ID)}


class Dispatches:
    """A second Gateway session of the app's bot (GUILD_MESSAGES), on its own thread, keeping every
    MESSAGE_CREATE and MESSAGE_UPDATE it receives."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu
        self.received: list[tuple[str, dict[str, Any]]] = []
        self._changed = threading.Condition()
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)

    def __enter__(self) -> Dispatches:
        self._thread.start()
        assert self._ready.wait(10), "the listening session did not receive READY"
        return self

    def __exit__(self, *exc: object) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)

    async def _main(self) -> None:
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        session = await GatewayClient.connect(self.emu)
        await session.identify(BOT_TOKEN, intents=GUILD_MESSAGES)
        self._ready.set()
        reader = asyncio.create_task(self._read(session))
        await self._stop.wait()
        reader.cancel()
        await session.close()

    async def _read(self, session: GatewayClient) -> None:
        while True:
            try:
                payload = await session.recv(timeout=3600)
            except asyncio.TimeoutError:
                continue
            if payload["op"] == 0 and payload["t"] in ("MESSAGE_CREATE", "MESSAGE_UPDATE"):
                with self._changed:
                    self.received.append((payload["t"], payload["d"]))
                    self._changed.notify_all()

    def latest(self, name: str, message_id: str, count: int = 1) -> dict[str, Any]:
        """The ``count``-th dispatch ``name`` of the message (waiting for it)."""
        def found() -> list[dict[str, Any]]:
            return [d for t, d in self.received if t == name and d["id"] == message_id]
        with self._changed:
            assert self._changed.wait_for(lambda: len(found()) >= count, 5), (name, message_id, self.received)
            return found()[count - 1]


@pytest.fixture
def dispatches(emu: Emulator) -> Iterator[Dispatches]:
    with Dispatches(emu) as listening:
        yield listening


def create_commands(emu: Emulator) -> None:
    with bot(emu) as http:
        for body in ({"name": "ask", "description": "d"}, {"name": "Inspect", "type": 2},
                     {"name": "Quote", "type": 3}):
            assert http.post(f"/applications/{APP_ID}/commands", json=body).status_code == 201


@pytest.fixture
def alice(emu: Emulator, platformpp_user: Callable[..., SimulatedUser]) -> SimulatedUser:
    create_commands(emu)
    return platformpp_user(ALICE, channel_id=GENERAL)


def user_json(emu: Emulator, user_id: int) -> dict[str, Any]:
    with bot(emu) as http:
        return dict(http.get(f"/users/{user_id}").json())


def everywhere(emu: Emulator, dispatches: Dispatches, answer: Answer, message: dict[str, Any],
               dispatch: str = "MESSAGE_CREATE", count: int = 1) -> dict[str, Any]:
    """The message's metadata, checked to be the same in every place a client reads it, and valid."""
    metadata = message["interaction_metadata"]
    dispatched = dispatches.latest(dispatch, message["id"], count)
    assert dispatched["interaction_metadata"] == metadata
    assert published_api().check_object("MessageResponse", dispatched) == []
    with bot(emu) as http:   # the schema hook checks each answer
        assert http.get(f"/channels/{GENERAL}/messages/{message['id']}").json()["interaction_metadata"] == metadata
        listed = {m["id"]: m for m in http.get(f"/channels/{GENERAL}/messages", params={"limit": 50}).json()}
        assert listed[message["id"]]["interaction_metadata"] == metadata
    with api(emu, None) as app:
        if message["id"] == answer.message["id"]:   # the original response
            original = app.get(f"/webhooks/{APP_ID}/{answer.interaction['token']}/messages/@original").json()
            assert original["interaction_metadata"] == metadata
        else:
            followup = app.get(f"/webhooks/{APP_ID}/{answer.interaction['token']}/messages/{message['id']}").json()
            assert followup["interaction_metadata"] == metadata
    return dict(metadata)


def test_a_slash_command_reply_and_its_followup(emu: Emulator, gateway_bot: GatewayBot, replies: Replies,
                                                dispatches: Dispatches, alice: SimulatedUser) -> None:
    replies.next = lambda p: {"type": 4, "data": {"content": "asked"}}
    asked = alice.command("ask")
    alice_json = user_json(emu, ALICE)
    assert everywhere(emu, dispatches, asked, asked.message) == {
        "id": asked.id, "type": 2, "user": alice_json, "authorizing_integration_owners": OWNERS}
    with api(emu, None) as app:
        followup = app.post(f"/webhooks/{APP_ID}/{asked.interaction['token']}", json={"content": "more"}).json()
    assert everywhere(emu, dispatches, asked, followup) == {
        "id": asked.id, "type": 2, "user": alice_json, "authorizing_integration_owners": OWNERS,
        "original_response_message_id": asked.message["id"]}
    set_message_content(emu, APP_ID, True)
    with bot(emu) as http:   # search results carry it too (202 while the guild is being indexed)
        deadline = time.monotonic() + 10
        while (found := http.get(f"/guilds/{GUILD_ID}/messages/search", params={"content": "asked"})).status_code \
                == 202 and time.monotonic() < deadline:
            time.sleep(0.05)
    assert [m["interaction_metadata"] for group in found.json()["messages"] for m in group] == [
        asked.message["interaction_metadata"]]


def test_a_user_command_reply_names_its_target_user(emu: Emulator, gateway_bot: GatewayBot, replies: Replies,
                                                    dispatches: Dispatches, alice: SimulatedUser) -> None:
    replies.next = lambda p: {"type": 4, "data": {"content": "inspected"}}
    inspected = alice.user_command("Inspect", BOB)
    assert everywhere(emu, dispatches, inspected, inspected.message) == {
        "id": inspected.id, "type": 2, "user": user_json(emu, ALICE), "authorizing_integration_owners": OWNERS,
        "target_user": inspected.interaction["data"]["resolved"]["users"][str(BOB)]}
    assert inspected.message["interaction_metadata"]["target_user"]["username"] == "bob"


def test_a_message_command_reply_names_its_target_message(emu: Emulator, gateway_bot: GatewayBot, replies: Replies,
                                                          dispatches: Dispatches, alice: SimulatedUser) -> None:
    replies.next = lambda p: {"type": 4, "data": {"content": "target"}}
    target = alice.command("ask").message
    replies.next = lambda p: {"type": 4, "data": {"content": "quoted"}}
    quoted = alice.message_command("Quote", target["id"])
    assert everywhere(emu, dispatches, quoted, quoted.message) == {
        "id": quoted.id, "type": 2, "user": user_json(emu, ALICE), "authorizing_integration_owners": OWNERS,
        "target_message_id": target["id"]}


def test_a_button_answered_with_a_new_message_names_the_button_s_message(
        emu: Emulator, gateway_bot: GatewayBot, replies: Replies, dispatches: Dispatches, alice: SimulatedUser) -> None:
    replies.next = lambda p: {"type": 4, "data": {"content": "press", "components": [BUTTON_ROW]}}
    panel = alice.command("ask")
    replies.next = lambda p: {"type": 4, "data": {"content": "pressed"}}
    clicked = alice.click(panel.message["id"], "go")
    assert everywhere(emu, dispatches, clicked, clicked.message) == {
        "id": clicked.id, "type": 3, "user": user_json(emu, ALICE), "authorizing_integration_owners": OWNERS,
        "interacted_message_id": panel.message["id"]}


def test_a_button_answered_with_an_update_keeps_the_message_s_own_metadata(
        emu: Emulator, gateway_bot: GatewayBot, replies: Replies, dispatches: Dispatches, alice: SimulatedUser) -> None:
    replies.next = lambda p: {"type": 4, "data": {"content": "press", "components": [BUTTON_ROW]}}
    panel = alice.command("ask")
    before = everywhere(emu, dispatches, panel, panel.message)
    replies.next = lambda p: {"type": 7, "data": {"content": "pressed", "components": []}}
    clicked = alice.click(panel.message["id"], "go")
    assert clicked.answer["response_type"] == 7
    updated = alice.conversation(panel.id)["message"]
    assert updated["content"] == "pressed"
    assert everywhere(emu, dispatches, panel, updated, "MESSAGE_UPDATE") == before
    # A followup of the click names the message the update answered with.
    with api(emu, None) as app:
        followup = app.post(f"/webhooks/{APP_ID}/{clicked.interaction['token']}", json={"content": "also"}).json()
    assert followup["interaction_metadata"] == {
        "id": clicked.id, "type": 3, "user": user_json(emu, ALICE), "authorizing_integration_owners": OWNERS,
        "interacted_message_id": panel.message["id"], "original_response_message_id": panel.message["id"]}
    assert dispatches.latest("MESSAGE_CREATE", followup["id"])["interaction_metadata"] == followup[
        "interaction_metadata"]


def test_a_modal_opened_by_a_slash_command_names_the_command(
        emu: Emulator, gateway_bot: GatewayBot, replies: Replies, dispatches: Dispatches, alice: SimulatedUser) -> None:
    replies.next = lambda p: {"type": 9, "data": MODAL}
    opened = alice.command("ask")
    assert opened.modal is not None
    replies.next = lambda p: {"type": 4, "data": {"content": "submitted"}}
    submitted = alice.submit_modal(opened, {"question": "why?"})
    alice_json = user_json(emu, ALICE)
    assert everywhere(emu, dispatches, submitted, submitted.message) == {
        "id": submitted.id, "type": 5, "user": alice_json, "authorizing_integration_owners": OWNERS,
        "triggering_interaction_metadata": {"id": opened.id, "type": 2, "user": alice_json,
                                            "authorizing_integration_owners": OWNERS}}


def test_a_modal_opened_by_a_button_names_the_click_and_its_message(
        emu: Emulator, gateway_bot: GatewayBot, replies: Replies, dispatches: Dispatches, alice: SimulatedUser) -> None:
    replies.next = lambda p: {"type": 4, "data": {"content": "press", "components": [BUTTON_ROW]}}
    panel = alice.command("ask")
    replies.next = lambda p: {"type": 9, "data": MODAL}
    opened = alice.click(panel.message["id"], "go")
    replies.next = lambda p: {"type": 4, "data": {"content": "submitted"}}
    submitted = alice.submit_modal(opened, {"question": "why?"})
    alice_json = user_json(emu, ALICE)
    assert everywhere(emu, dispatches, submitted, submitted.message) == {
        "id": submitted.id, "type": 5, "user": alice_json, "authorizing_integration_owners": OWNERS,
        "triggering_interaction_metadata": {"id": opened.id, "type": 3, "user": alice_json,
                                            "authorizing_integration_owners": OWNERS,
                                            "interacted_message_id": panel.message["id"]}}


def test_answers_stored_by_an_earlier_version_get_their_variant_when_the_database_is_upgraded(
        tmp_path: Path) -> None:
    path = tmp_path / "world.sqlite3"
    replies = Replies()
    with Emulator(db=path) as emu, GatewayBot(emu.base_url, replies), \
            closing(SimulatedUser(emu.base_url, ALICE, channel_id=GENERAL, admin_secret=emu.admin_secret)) as alice:
        create_commands(emu)
        replies.next = lambda p: {"type": 4, "data": {"content": "press", "components": [BUTTON_ROW]}}
        panel = alice.command("ask").message
        replies.next = lambda p: {"type": 4, "data": {"content": "answer"}}
        answers = [alice.user_command("Inspect", BOB).message, alice.message_command("Quote", panel["id"]).message,
                   alice.click(panel["id"], "go").message]
        replies.next = lambda p: {"type": 9, "data": MODAL}
        opened = alice.click(panel["id"], "go")
        replies.next = lambda p: {"type": 4, "data": {"content": "answer"}}
        answers.append(alice.submit_modal(opened, {"question": "why?"}).message)
    expected = {m["id"]: m["interaction_metadata"] for m in answers}
    assert {m["type"] for m in expected.values()} == {2, 3, 5}
    # The file as the version before the variants left it: no opener column, the common fields only.
    with sqlite3.connect(path) as conn:
        conn.execute("ALTER TABLE interactions DROP COLUMN triggering_interaction_id")
        conn.execute("DELETE FROM schema_version WHERE version = 722")
        for message_id, text in conn.execute("SELECT id, interaction FROM channel_messages"
                                             " WHERE interaction IS NOT NULL").fetchall():
            extra = json.loads(text)
            extra["interaction_metadata"] = {key: extra["interaction_metadata"][key] for key in
                                             ("id", "type", "user", "authorizing_integration_owners")}
            conn.execute("UPDATE channel_messages SET interaction = ? WHERE id = ?", (json.dumps(extra), message_id))
    conn.close()
    with Emulator(db=path) as emu, bot(emu) as http:
        for message_id, metadata in expected.items():
            assert http.get(f"/channels/{GENERAL}/messages/{message_id}").json()["interaction_metadata"] == metadata
