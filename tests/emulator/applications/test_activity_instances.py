"""Activities: files an application uploads to share (served back), and the instances the emulator
launched for an entry point command (where, and who is in them)."""

from __future__ import annotations

from collections.abc import Callable

import httpx
from emulator_world import ALICE, APP_ID, BOT_ID, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.default_world import GENERAL_CHANNEL_ID
from platformpp.emulator.simulated_user import SimulatedUser
from social_helpers import bot, user_token

INSTANCES = f"/applications/{APP_ID}/activity-instances"


def _launch_command(emu: Emulator) -> None:
    with bot(emu) as http:
        made = http.post(f"/applications/{APP_ID}/commands", json={
            "name": "launch", "description": "Play", "type": 4, "handler": 2, "contexts": [0, 1, 2],
            "integration_types": [0, 1]})
        assert made.status_code == 201, made.text


def test_a_launched_activity_is_found_in_its_guild_channel_and_dm(
        emu: Emulator, platformpp_user: Callable[..., SimulatedUser]) -> None:
    _launch_command(emu)
    in_guild = platformpp_user(ALICE, channel_id=GENERAL_CHANNEL_ID).launch().answer["activity_instance_id"]
    in_dm = platformpp_user(ALICE, recipient_id=BOT_ID).launch().answer["activity_instance_id"]
    with bot(emu) as http:
        guild = http.get(f"{INSTANCES}/{in_guild}").json()
        assert guild["application_id"] == str(APP_ID) and guild["instance_id"] == in_guild
        assert guild["users"] == [str(ALICE)] and guild["launch_id"]
        assert guild["location"]["kind"] == "gc" and guild["location"]["guild_id"] == str(GUILD_ID)
        assert guild["location"]["channel_id"] == str(GENERAL_CHANNEL_ID)
        dm = http.get(f"{INSTANCES}/{in_dm}").json()
        assert dm["location"]["kind"] == "pc" and "guild_id" not in dm["location"]
        assert http.get(f"{INSTANCES}/i-0-gc-0-0").status_code == 404
    emu.admin.seed({"applications": [{"id": "4244", "name": "Other", "public_client": True}]})
    with bot(emu) as http:
        assert http.get(f"/applications/4244/activity-instances/{in_guild}").json()["code"] == 50001


def test_an_uploaded_attachment_is_served_back_and_a_file_is_required(emu: Emulator) -> None:
    with bot(emu) as http:
        answer = http.post(f"/applications/{APP_ID}/attachment",
                           files={"file": ("score card.txt", b"high score: 42", "text/plain")})
        assert answer.status_code == 200, answer.text
        attachment = answer.json()["attachment"]
        assert attachment["filename"] == "score card.txt" and attachment["size"] == 14
        assert attachment["ephemeral"] is True and attachment["content_type"] == "text/plain"
        served = httpx.get(attachment["url"])
        assert served.status_code == 200 and served.content == b"high score: 42"
        assert httpx.get(attachment["url"] + "x").status_code == 404
        missing = http.post(f"/applications/{APP_ID}/attachment",
                            files={"files[0]": ("a.txt", b"a", "text/plain")})
        assert missing.status_code == 400 and "file" in missing.json()["errors"]
    # the Activity itself uploads with the user's token for the application
    token = user_token(emu, ALICE, "identify")
    as_user = httpx.post(emu.api_base + f"/applications/{APP_ID}/attachment",
                         files={"file": ("a.png", b"\x89PNG", "image/png")},
                         headers={"Authorization": f"Bearer {token}"})
    assert as_user.status_code == 200, as_user.text
