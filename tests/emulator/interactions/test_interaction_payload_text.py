"""An interaction's payload is encoded once, in parts (core of ``store.start``): the text delivered
(the bot's frame, the simulated user's response) must be exactly the compact JSON of the payload, and
the stored text must decode to it without the token, whatever characters it carries."""

from __future__ import annotations

import json
from typing import Any

import httpx
from channel_helpers import GENERAL
from emulator_world import ALICE, APP_ID
from platformpp.emulator import Emulator
from social_helpers import bot


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def test_delivered_and_stored_payload_texts(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as http:
        created = http.post(f"/applications/{APP_ID}/commands", json={
            "name": "say", "description": "Says", "options": [{"type": 3, "name": "text", "description": "What"}]})
    assert created.status_code == 201, created.text
    with httpx.Client(base_url=emu.base_url) as admin:
        response = admin.post("/_emulator/interactions", json={
            "action": "command", "application_id": APP_ID, "user_id": ALICE, "channel_id": GENERAL,
            "command_name": "say", "options": [{"name": "text", "value": "h\u00e9llo \u2603 \"quoted\" \\ done"}],
            "wait_s": 0})
    assert response.status_code == 200, response.text
    raw = response.content.decode("utf-8")
    interaction = response.json()["interaction"]
    assert list(interaction)[:4] == ["id", "type", "data", "token"]
    assert raw.startswith('{"interaction":' + _compact(interaction) + ',"answer":')
    assert interaction["data"]["options"][0]["value"] == "h\u00e9llo \u2603 \"quoted\" \\ done"
    stored = emu.state.db.query_one("SELECT payload FROM interactions WHERE id = ?", (int(interaction["id"]),))
    assert stored is not None
    expected = {key: value for key, value in interaction.items() if key != "token"}
    assert json.loads(stored["payload"]) == expected
    assert list(json.loads(stored["payload"])) == list(expected)
