"""Stage instances over real HTTP and the Gateway: a moderator (MANAGE_CHANNELS, MUTE_MEMBERS,
MOVE_MEMBERS) opens, edits and closes a stage, heard as STAGE_INSTANCE_* by bots with GUILDS and written
to the audit log (83/84/85); bad input names the field and leaves nothing behind; the instance closes
when the last speaker leaves (not when the audience does); GUILD_CREATE lists the guild's live stages;
world files and the admin API set them up."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from emulator_world import ALICE, BOB, BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.core.fixtures import default_world
from platformpp.emulator.core.permissions import Permission
from social_helpers import GatewayClient, user_token
from stage_soundboard_helpers import (
    GENERAL,
    LOUNGE,
    STAGE_MODERATOR,
    VOICE_CATEGORY,
    bot_api,
    grant_bot,
    make_stage_channel,
)

GUILDS, GUILD_VOICE_STATES, GUILD_SCHEDULED_EVENTS = 1 << 0, 1 << 7, 1 << 16


async def bot_session(emu: Emulator, intents: int = GUILDS | GUILD_VOICE_STATES) -> tuple[GatewayClient, Any]:
    client = await GatewayClient.connect(emu)
    await client.identify(BOT_TOKEN, intents=intents)
    return client, (await client.dispatch("GUILD_CREATE"))["d"]


def call(emu: Emulator, method: str, path: str, body: Any = None) -> httpx.Response:
    with bot_api(emu) as http:
        return http.request(method, path, json=body)


def audit_entries(emu: Emulator, action_type: int) -> list[dict[str, Any]]:
    response = call(emu, "GET", f"/guilds/{GUILD_ID}/audit-logs?action_type={action_type}")
    assert response.status_code == 200, response.text
    return list(response.json()["audit_log_entries"])


def test_a_moderator_opens_edits_and_closes_a_stage(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    stage = make_stage_channel(emu)

    async def scenario() -> None:
        client, _ = await bot_session(emu, GUILDS)
        # each moderator permission is needed: with two of three, the third is named
        grant_bot(emu, Permission.MANAGE_CHANNELS | Permission.MUTE_MEMBERS)
        refused = await asyncio.to_thread(call, emu, "POST", "/stage-instances",
                                          {"channel_id": str(stage), "topic": "Launch"})
        assert refused.status_code == 403 and refused.json()["code"] == 50013
        assert "MOVE_MEMBERS" in refused.json()["message"]

        grant_bot(emu, STAGE_MODERATOR | Permission.VIEW_AUDIT_LOG)
        # a snowflake as an integer, unknown fields and a null privacy level are accepted
        opened = await asyncio.to_thread(call, emu, "POST", "/stage-instances",
                                         {"channel_id": stage, "topic": "Launch", "privacy_level": None,
                                          "send_start_notification": True, "flags": 7})
        assert opened.status_code == 200, opened.text
        instance = opened.json()
        assert instance["channel_id"] == str(stage) and instance["guild_id"] == str(GUILD_ID)
        assert instance["privacy_level"] == 2 and instance["guild_scheduled_event_id"] is None
        assert (await client.dispatch("STAGE_INSTANCE_CREATE"))["d"] == instance

        again = await asyncio.to_thread(call, emu, "POST", "/stage-instances",
                                        {"channel_id": str(stage), "topic": "Twice"})
        assert again.status_code == 400 and again.json()["code"] == 150006

        edited = await asyncio.to_thread(call, emu, "PATCH", f"/stage-instances/{stage}", {"topic": "Q&A"})
        assert edited.status_code == 200 and edited.json()["topic"] == "Q&A"
        assert (await client.dispatch("STAGE_INSTANCE_UPDATE"))["d"]["topic"] == "Q&A"
        # an edit that changes nothing is answered, neither announced nor audited
        same = await asyncio.to_thread(call, emu, "PATCH", f"/stage-instances/{stage}", {"topic": "Q&A"})
        assert same.status_code == 200 and same.json() == edited.json()
        await client.no_dispatch("STAGE_INSTANCE_UPDATE")
        assert (await asyncio.to_thread(call, emu, "GET", f"/stage-instances/{stage}")).json() == edited.json()

        closed = await asyncio.to_thread(call, emu, "DELETE", f"/stage-instances/{stage}")
        assert closed.status_code == 204
        assert (await client.dispatch("STAGE_INSTANCE_DELETE"))["d"]["id"] == instance["id"]
        gone = await asyncio.to_thread(call, emu, "GET", f"/stage-instances/{stage}")
        assert gone.status_code == 404 and gone.json()["code"] == 10067
        await client.close()

    asyncio.run(scenario())
    created, updated, deleted = (audit_entries(emu, n) for n in (83, 84, 85))
    assert [e["options"] for e in created + updated + deleted] == [{"channel_id": str(stage)}] * 3
    assert {"key": "topic", "new_value": "Launch"} in created[0]["changes"]
    assert updated[0]["changes"] == [{"key": "topic", "old_value": "Launch", "new_value": "Q&A"}]
    assert {"key": "topic", "old_value": "Q&A"} in deleted[0]["changes"]


def test_bad_input_names_the_field_and_opens_nothing(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    stage = make_stage_channel(emu)
    grant_bot(emu, STAGE_MODERATOR)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"channel_id": str(stage), "topic": ""}, "topic"),
        ({"channel_id": str(stage), "topic": "x" * 121}, "topic"),
        ({"channel_id": str(stage), "topic": "Launch", "privacy_level": 1}, "privacy_level"),   # PUBLIC: deprecated
        ({"channel_id": str(stage), "topic": "Launch", "privacy_level": 3}, "privacy_level"),
        ({"channel_id": str(stage), "topic": "Launch", "send_start_notification": "maybe"}, "send_start_notification"),
        ({"channel_id": "stage", "topic": "Launch"}, "channel_id"),
        ({"topic": "Launch"}, "channel_id"),
        ({"channel_id": str(GENERAL), "topic": "Launch"}, "channel_id"),   # a text channel
        ({"channel_id": str(stage), "topic": "Launch", "guild_scheduled_event_id": "1"}, "guild_scheduled_event_id"),
    ]
    for body, field in cases:
        response = call(emu, "POST", "/stage-instances", body)
        assert response.status_code == 400 and response.json()["code"] == 50035, (body, response.text)
        assert field in response.json()["errors"], (body, response.text)
    unknown = call(emu, "POST", "/stage-instances", {"channel_id": "1", "topic": "Launch"})
    assert unknown.status_code == 404 and unknown.json()["code"] == 10003
    assert call(emu, "GET", f"/stage-instances/{stage}").status_code == 404
    assert emu.state.db.query_one("SELECT COUNT(*) FROM stage_instances")[0] == 0

    call(emu, "POST", "/stage-instances", {"channel_id": str(stage), "topic": "Launch"})
    for body in ({"topic": ""}, {"privacy_level": 1}, {"topic": 5}):
        response = call(emu, "PATCH", f"/stage-instances/{stage}", body)
        assert response.status_code == 400 and set(response.json()["errors"]) == set(body), response.text
    assert call(emu, "GET", f"/stage-instances/{stage}").json()["topic"] == "Launch"


def test_a_stage_event_links_to_its_instance(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    stage = make_stage_channel(emu)
    grant_bot(emu, STAGE_MODERATOR | Permission.MANAGE_EVENTS | Permission.CREATE_EVENTS)
    event = call(emu, "POST", f"/guilds/{GUILD_ID}/scheduled-events",
                 {"name": "Launch", "entity_type": 1, "channel_id": str(stage), "privacy_level": 2,
                  "scheduled_start_time": "2099-01-01T00:00:00Z"})
    assert event.status_code == 200, event.text
    other_stage = make_stage_channel(emu, "Back Stage")
    mismatch = call(emu, "POST", "/stage-instances", {"channel_id": str(other_stage), "topic": "Launch",
                                                      "guild_scheduled_event_id": event.json()["id"]})
    assert mismatch.status_code == 400 and "guild_scheduled_event_id" in mismatch.json()["errors"]

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILDS | GUILD_SCHEDULED_EVENTS)
        opened = await asyncio.to_thread(call, emu, "POST", "/stage-instances", {
            "channel_id": str(stage), "topic": "Launch", "guild_scheduled_event_id": event.json()["id"]})
        assert opened.status_code == 200 and opened.json()["guild_scheduled_event_id"] == event.json()["id"]
        # opening the stage started its event
        started = (await client.dispatch("GUILD_SCHEDULED_EVENT_UPDATE"))["d"]
        assert started["id"] == event.json()["id"] and started["status"] == 2
        await client.close()

    asyncio.run(scenario())
    assert call(emu, "GET", f"/guilds/{GUILD_ID}/scheduled-events/{event.json()['id']}").json()["status"] == 2
    # a finished event cannot be linked
    assert call(emu, "DELETE", f"/stage-instances/{stage}").status_code == 204
    assert call(emu, "PATCH", f"/guilds/{GUILD_ID}/scheduled-events/{event.json()['id']}",
                {"status": 3}).status_code == 200
    finished = call(emu, "POST", "/stage-instances", {"channel_id": str(stage), "topic": "Encore",
                                                      "guild_scheduled_event_id": event.json()["id"]})
    assert finished.status_code == 400 and "guild_scheduled_event_id" in finished.json()["errors"]


def test_the_stage_closes_when_its_last_speaker_leaves_not_its_audience(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    stage = make_stage_channel(emu)
    grant_bot(emu, STAGE_MODERATOR)

    async def join(client: GatewayClient, channel_id: int | None) -> dict[str, Any]:
        await client.send({"op": 4, "d": {"guild_id": str(GUILD_ID), "self_mute": False, "self_deaf": False,
                                          "channel_id": None if channel_id is None else str(channel_id)}})
        return (await client.dispatch("VOICE_STATE_UPDATE"))["d"]

    async def scenario() -> None:
        client, _ = await bot_session(emu)
        # in the audience (members join a stage suppressed): leaving does not close it
        assert (await join(client, stage))["suppress"] is True
        opened = await asyncio.to_thread(call, emu, "POST", "/stage-instances",
                                         {"channel_id": str(stage), "topic": "Launch"})
        assert opened.status_code == 200
        await join(client, None)
        await client.no_dispatch("STAGE_INSTANCE_DELETE")
        assert (await asyncio.to_thread(call, emu, "GET", f"/stage-instances/{stage}")).status_code == 200

        # on stage (a moderator un-suppresses itself): leaving, the last speaker, closes it
        await join(client, stage)
        spoke = await asyncio.to_thread(call, emu, "PATCH", f"/guilds/{GUILD_ID}/voice-states/@me",
                                        {"channel_id": str(stage), "suppress": False})
        assert spoke.status_code == 204, spoke.text
        assert (await client.dispatch("VOICE_STATE_UPDATE"))["d"]["suppress"] is False
        # a move to another channel is a leave of the stage too (the instance closes before the move's update)
        await client.send({"op": 4, "d": {"guild_id": str(GUILD_ID), "channel_id": str(LOUNGE),
                                          "self_mute": False, "self_deaf": False}})
        closed = (await client.dispatch("STAGE_INSTANCE_DELETE"))["d"]
        assert closed["id"] == opened.json()["id"] and closed["channel_id"] == str(stage)
        gone = await asyncio.to_thread(call, emu, "GET", f"/stage-instances/{stage}")
        assert gone.status_code == 404
        await client.close()

    asyncio.run(scenario())
    # closing by itself writes no audit entry: nobody closed the stage
    assert emu.state.db.query_one("SELECT COUNT(*) FROM audit_log_entries WHERE action_type = 85")[0] == 0


def test_reading_needs_only_the_channel_and_guild_create_lists_live_stages(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    stage = make_stage_channel(emu)
    refused = httpx.post(f"{emu.base_url}/_emulator/stage-instances",
                         json={"user_id": str(BOB), "channel_id": str(stage), "topic": "Town hall"})
    assert refused.status_code == 403 and refused.json()["code"] == 50013   # Bob is no stage moderator
    grant_bot(emu, 0)
    opened = httpx.post(f"{emu.base_url}/_emulator/stage-instances",   # Alice owns the guild
                        json={"user_id": str(ALICE), "channel_id": str(stage), "topic": "Town hall"})
    assert opened.status_code == 200, opened.text
    assert call(emu, "GET", f"/stage-instances/{stage}").json() == opened.json()   # no moderator bits needed
    assert call(emu, "PATCH", f"/stage-instances/{stage}", {"topic": "x"}).status_code == 403

    async def scenario() -> None:
        client, guild = await bot_session(emu, GUILDS)
        assert guild["stage_instances"] == [opened.json()]
        await client.close()

    asyncio.run(scenario())


def test_world_files_load_stage_channels_with_live_stages(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    world = default_world()
    stage_id, instance_id = "1200000000000000290", "1200000000000000291"
    world["guilds"][0]["channels"].append({"id": stage_id, "type": 13, "name": "Town Hall",
                                           "parent_id": str(VOICE_CATEGORY)})
    bad = json.loads(json.dumps(world))
    bad["stage_instances"] = [{"channel_id": str(GENERAL), "topic": "", "privacy_level": 1, "extra": 1}]
    refused = httpx.post(f"{emu.base_url}/_emulator/seed?reset=true", json=bad)
    assert refused.status_code == 400
    assert set(refused.json()["errors"]["stage_instances"]["0"]) == {"channel_id", "topic", "privacy_level", "extra"}
    world["stage_instances"] = [{"id": instance_id, "channel_id": stage_id, "topic": "Always on"}]
    loaded = httpx.post(f"{emu.base_url}/_emulator/seed?reset=true", json=world)
    assert loaded.status_code == 204, loaded.text
    instance = call(emu, "GET", f"/stage-instances/{stage_id}").json()
    assert instance == {"id": instance_id, "guild_id": str(GUILD_ID), "channel_id": stage_id, "topic": "Always on",
                        "privacy_level": 2, "discoverable_disabled": False, "guild_scheduled_event_id": None}


def test_a_moderator_invites_a_user_to_speak_and_moves_them_back(platformpp_emulator: Emulator) -> None:
    """Un-suppressing a user (not a bot) invites them: their request to speak is set to now; suppressing
    clears it."""
    emu = platformpp_emulator
    stage = make_stage_channel(emu)
    grant_bot(emu, STAGE_MODERATOR)

    async def alice_update(client: GatewayClient) -> dict[str, Any]:
        while True:
            state = (await client.dispatch("VOICE_STATE_UPDATE"))["d"]
            if state["user_id"] == str(ALICE):
                return state

    async def scenario() -> None:
        bot, _ = await bot_session(emu)
        alice = await GatewayClient.connect(emu)
        await alice.identify(await asyncio.to_thread(user_token, emu, ALICE))
        await alice.send({"op": 4, "d": {"guild_id": str(GUILD_ID), "channel_id": str(stage),
                                         "self_mute": False, "self_deaf": False}})
        joined = await alice_update(bot)
        assert joined["suppress"] is True and joined["request_to_speak_timestamp"] is None
        path = f"/guilds/{GUILD_ID}/voice-states/{ALICE}"
        invited = await asyncio.to_thread(call, emu, "PATCH", path, {"channel_id": str(stage), "suppress": False})
        assert invited.status_code == 204, invited.text
        state = await alice_update(bot)
        assert state["suppress"] is False and state["request_to_speak_timestamp"] is not None
        back = await asyncio.to_thread(call, emu, "PATCH", path, {"channel_id": str(stage), "suppress": True})
        assert back.status_code == 204
        state = await alice_update(bot)
        assert state["suppress"] is True and state["request_to_speak_timestamp"] is None
        for client in (bot, alice):
            await client.close()

    asyncio.run(scenario())


def test_deleting_the_stage_channel_closes_its_instance(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    stage = make_stage_channel(emu)
    grant_bot(emu, STAGE_MODERATOR)

    async def scenario() -> None:
        client, _ = await bot_session(emu, GUILDS)
        opened = await asyncio.to_thread(call, emu, "POST", "/stage-instances",
                                         {"channel_id": str(stage), "topic": "Launch"})
        assert opened.status_code == 200
        await client.dispatch("STAGE_INSTANCE_CREATE")
        assert (await asyncio.to_thread(call, emu, "DELETE", f"/channels/{stage}")).status_code == 200
        await client.dispatch("CHANNEL_DELETE")
        assert (await client.dispatch("STAGE_INSTANCE_DELETE"))["d"] == opened.json()
        await client.close()

    asyncio.run(scenario())
    assert emu.state.db.query_one("SELECT COUNT(*) FROM stage_instances")[0] == 0
