"""Conformance of the stage instance operations: every success and error body checked against the
published schema."""

from __future__ import annotations

import pytest
from conformance_client import ClientFactory
from emulator_world import BOT_TOKEN
from platformpp.emulator import Emulator
from stage_soundboard_helpers import GENERAL, STAGE_MODERATOR, grant_bot, make_stage_channel

BOT = f"Bot {BOT_TOKEN}"


@pytest.mark.covers("POST /stage-instances", "GET /stage-instances/{channel_id}",
                    "PATCH /stage-instances/{channel_id}", "DELETE /stage-instances/{channel_id}")
def test_stage_instances(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    stage = make_stage_channel(emu)
    refused = bot.post("/stage-instances", json={"channel_id": str(stage), "topic": "launch"})
    assert refused.status_code == 403 and refused.json()["code"] == 50013
    grant_bot(emu, STAGE_MODERATOR)
    assert bot.post("/stage-instances", json={"channel_id": str(GENERAL), "topic": "x"}).status_code == 400
    assert bot.post("/stage-instances", json={"channel_id": str(stage), "topic": ""}).status_code == 400
    opened = bot.post("/stage-instances", json={"channel_id": str(stage), "topic": "launch",
                                                "send_start_notification": False})
    assert opened.status_code == 200 and opened.json()["topic"] == "launch"
    again = bot.post("/stage-instances", json={"channel_id": str(stage), "topic": "launch"})
    assert again.status_code == 400 and again.json()["code"] == 150006
    assert bot.get(f"/stage-instances/{stage}").json() == opened.json()
    assert bot.get(f"/stage-instances/{GENERAL}").status_code == 404
    assert bot.patch(f"/stage-instances/{stage}", json={"privacy_level": 1}).status_code == 400
    edited = bot.patch(f"/stage-instances/{stage}", json={"topic": "launch, part two"})
    assert edited.status_code == 200 and edited.json()["topic"] == "launch, part two"
    assert bot.delete(f"/stage-instances/{stage}").status_code == 204
    gone = bot.delete(f"/stage-instances/{stage}")
    assert gone.status_code == 404 and gone.json()["code"] == 10067
