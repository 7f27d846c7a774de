"""A guild's soundboard over real HTTP and the Gateway: the built-in sounds, creating (MP3 and Ogg Opus,
their length read from the file), listing, editing and deleting sounds under the dated expressions rule
of 2026-02-23, GUILD_SOUNDBOARD_SOUND_* to bots with GUILD_EXPRESSIONS, audit entries 130/131/132, the
slot limit of an unboosted guild, the file served by the CDN, bad input refused naming the field with
nothing stored, Gateway op 31, and world files."""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any

import httpx
from channel_helpers import set_clock
from emulator_world import ALICE, BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.core.fixtures import default_world
from platformpp.emulator.core.permissions import Permission
from social_helpers import GatewayClient, user_token
from stage_soundboard_helpers import bot_api, data_uri, grant_bot, mp3, ogg_opus

GUILDS, GUILD_EXPRESSIONS = 1 << 0, 1 << 3
SOUNDS = f"/guilds/{GUILD_ID}/soundboard-sounds"
EXPRESSIONS = Permission.CREATE_GUILD_EXPRESSIONS | Permission.MANAGE_GUILD_EXPRESSIONS


def call(emu: Emulator, method: str, path: str, body: Any = None) -> httpx.Response:
    with bot_api(emu) as http:
        return http.request(method, path, json=body)


def create(emu: Emulator, name: str = "boop", sound: str | None = None, **extra: Any) -> httpx.Response:
    return call(emu, "POST", SOUNDS, {"name": name, "sound": sound or data_uri("audio/mpeg", mp3(1.0)), **extra})


def stored_count(emu: Emulator) -> int:
    return int(emu.state.db.query_one("SELECT COUNT(*) FROM soundboard_sounds")[0])


def test_built_in_sounds_and_their_files(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    sounds = call(emu, "GET", "/soundboard-default-sounds").json()
    assert len(sounds) >= 5 and {s["name"] for s in sounds} >= {"quack", "airhorn"}
    for sound in sounds:
        assert set(sound) == {"name", "sound_id", "volume", "emoji_id", "emoji_name", "available"}
        assert sound["available"] and 0 <= sound["volume"] <= 1 and sound["emoji_name"]
    played = httpx.get(f"{emu.base_url}/soundboard-sounds/{sounds[0]['sound_id']}")
    assert played.status_code == 200 and played.headers["content-type"] == "audio/mpeg"
    assert played.content[:2] == b"\xff\xfb"   # an MPEG audio frame
    assert httpx.get(f"{emu.base_url}/soundboard-sounds/999").status_code == 404


def test_sounds_are_created_listed_edited_and_deleted_with_events_and_audit(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, EXPRESSIONS | Permission.VIEW_AUDIT_LOG)
    opus = ogg_opus(3.0)

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILDS | GUILD_EXPRESSIONS)
        created = await asyncio.to_thread(create, emu, "boop", data_uri("audio/ogg", opus), volume=0.5,
                                          emoji_name="\U0001f514", tts=True)   # unknown fields are ignored
        assert created.status_code == 201, created.text
        sound = created.json()
        assert sound["name"] == "boop" and sound["volume"] == 0.5 and sound["emoji_name"] == "\U0001f514"
        assert sound["guild_id"] == str(GUILD_ID) and sound["user"]["id"] == str(emu.state.db.query_one(
            "SELECT bot_user_id FROM applications LIMIT 1")[0])
        assert (await client.dispatch("GUILD_SOUNDBOARD_SOUND_CREATE"))["d"] == sound
        sound_id = sound["sound_id"]

        edited = await asyncio.to_thread(call, emu, "PATCH", f"{SOUNDS}/{sound_id}",
                                         {"name": "beep", "emoji_name": None, "emoji_id": 1200000000000000555})
        assert edited.status_code == 200, edited.text
        assert edited.json()["name"] == "beep" and edited.json()["emoji_id"] == "1200000000000000555"
        assert edited.json()["emoji_name"] is None and edited.json()["volume"] == 0.5
        assert (await client.dispatch("GUILD_SOUNDBOARD_SOUND_UPDATE"))["d"] == edited.json()
        # an edit that changes nothing is answered, neither announced nor audited
        same = await asyncio.to_thread(call, emu, "PATCH", f"{SOUNDS}/{sound_id}", {"name": "beep"})
        assert same.status_code == 200 and same.json() == edited.json()
        await client.no_dispatch("GUILD_SOUNDBOARD_SOUND_UPDATE")
        listed = await asyncio.to_thread(call, emu, "GET", SOUNDS)
        assert listed.json() == {"items": [edited.json()]}

        # the CDN serves the file as uploaded
        served = await asyncio.to_thread(httpx.get, f"{emu.base_url}/soundboard-sounds/{sound_id}")
        assert served.status_code == 200 and served.headers["content-type"] == "audio/ogg"
        assert served.content == opus

        deleted = await asyncio.to_thread(call, emu, "DELETE", f"{SOUNDS}/{sound_id}")
        assert deleted.status_code == 204
        assert (await client.dispatch("GUILD_SOUNDBOARD_SOUND_DELETE"))["d"] == {"sound_id": sound_id,
                                                                                 "guild_id": str(GUILD_ID)}
        gone = await asyncio.to_thread(call, emu, "GET", f"{SOUNDS}/{sound_id}")
        assert gone.status_code == 404 and gone.json()["code"] == 10097
        assert (await asyncio.to_thread(httpx.get, f"{emu.base_url}/soundboard-sounds/{sound_id}")).status_code == 404
        await client.close()

    asyncio.run(scenario())
    log = call(emu, "GET", f"/guilds/{GUILD_ID}/audit-logs").json()["audit_log_entries"]
    assert sorted(e["action_type"] for e in log if e["action_type"] in (130, 131, 132)) == [130, 131, 132]
    entries = {e["action_type"]: e for e in log}
    assert {"key": "name", "new_value": "boop"} in entries[130]["changes"]
    assert {"key": "name", "old_value": "boop", "new_value": "beep"} in entries[131]["changes"]
    assert {"key": "name", "old_value": "beep"} in entries[132]["changes"]


def test_the_dated_expressions_rule_decides_who_creates_and_edits(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    set_clock(emu, "2026-02-22T12:00:00Z")
    grant_bot(emu, Permission.MANAGE_GUILD_EXPRESSIONS)     # before the change: enough to create
    before = create(emu, "before")
    assert before.status_code == 201, before.text
    set_clock(emu, "2026-02-23T00:00:00Z")
    refused = create(emu, "after")
    assert refused.status_code == 403 and "CREATE_GUILD_EXPRESSIONS" in refused.json()["message"]
    grant_bot(emu, Permission.CREATE_GUILD_EXPRESSIONS)
    own = create(emu, "mine")
    assert own.status_code == 201
    # from the change, CREATE_GUILD_EXPRESSIONS edits and deletes one's own sounds, not others'
    assert call(emu, "PATCH", f"{SOUNDS}/{own.json()['sound_id']}", {"volume": 0.1}).status_code == 200
    emu.state.db.execute("UPDATE soundboard_sounds SET user_id = ? WHERE id = ?", (ALICE, int(before.json()["sound_id"])))
    assert call(emu, "PATCH", f"{SOUNDS}/{before.json()['sound_id']}", {"volume": 0.1}).status_code == 403
    assert call(emu, "DELETE", f"{SOUNDS}/{before.json()['sound_id']}").status_code == 403
    assert call(emu, "DELETE", f"{SOUNDS}/{own.json()['sound_id']}").status_code == 204


def test_an_unboosted_guild_holds_eight_sounds(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, EXPRESSIONS)
    for n in range(8):
        assert create(emu, f"sound {n}").status_code == 201
    full = create(emu, "ninth")
    assert full.status_code == 400 and full.json()["code"] == 30045
    assert stored_count(emu) == 8


def test_bad_input_names_the_field_and_stores_nothing(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, EXPRESSIONS)
    png = base64.b64encode(b"\x89PNG\r\n\x1a\n").decode()
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"name": "b", "sound": data_uri("audio/mpeg", mp3(1))}, "name", "BASE_TYPE_BAD_LENGTH"),
        ({"name": "x" * 33, "sound": data_uri("audio/mpeg", mp3(1))}, "name", "BASE_TYPE_BAD_LENGTH"),
        ({"name": "boop"}, "sound", "BASE_TYPE_REQUIRED"),
        ({"name": "boop", "sound": data_uri("audio/mpeg", mp3(5.5))}, "sound", "SOUND_TOO_LONG"),
        ({"name": "boop", "sound": data_uri("audio/ogg", ogg_opus(5.3))}, "sound", "SOUND_TOO_LONG"),
        ({"name": "boop", "sound": data_uri("audio/mpeg", b"not audio at all")}, "sound", "SOUND_INVALID"),
        ({"name": "boop", "sound": data_uri("audio/ogg", mp3(1))}, "sound", "SOUND_INVALID"),
        # MPEG-2.5 (sync 0xFFE, version bits 00): refused, as the platform refuses it
        ({"name": "boop", "sound": data_uri("audio/mpeg", (b"\xff\xe3\x80\xc0" + bytes(200)) * 20)}, "sound",
         "SOUND_INVALID"),
        ({"name": "boop", "sound": "data:image/png;base64," + png}, "sound", "SOUND_INVALID"),
        ({"name": "boop", "sound": "data:audio/mpeg;base64,@@@"}, "sound", "SOUND_INVALID"),
        ({"name": "boop", "sound": data_uri("audio/mpeg", mp3(1) + bytes(600 * 1024))}, "sound",
         "BINARY_TYPE_MAX_SIZE"),
        ({"name": "boop", "sound": data_uri("audio/mpeg", mp3(1)), "volume": 1.5}, "volume",
         "NUMBER_TYPE_OUT_OF_RANGE"),
        ({"name": "boop", "sound": data_uri("audio/mpeg", mp3(1)), "volume": "loud"}, "volume", "NUMBER_TYPE_COERCE"),
        ({"name": "boop", "sound": data_uri("audio/mpeg", mp3(1)), "emoji_id": "smile"}, "emoji_id",
         "NUMBER_TYPE_COERCE"),
        ({"name": "boop", "sound": data_uri("audio/mpeg", mp3(1)), "emoji_name": ""}, "emoji_name",
         "BASE_TYPE_BAD_LENGTH"),
    ]
    for body, field, code in cases:
        response = call(emu, "POST", SOUNDS, body)
        assert response.status_code == 400 and response.json()["code"] == 50035, (field, response.text)
        assert response.json()["errors"][field]["_errors"][0]["code"] == code, (field, response.text)
    assert stored_count(emu) == 0
    assert emu.state.db.query_one("SELECT COUNT(*) FROM cdn_images")[0] == 0
    # an ID3 tag before the frames and a sound just under the limit are fine
    assert create(emu, "tagged", data_uri("audio/mpeg", mp3(5.1, id3=True))).status_code == 201
    sound_id = call(emu, "GET", SOUNDS).json()["items"][0]["sound_id"]
    bad_edit = call(emu, "PATCH", f"{SOUNDS}/{sound_id}", {"name": "", "volume": -1})
    assert bad_edit.status_code == 400 and set(bad_edit.json()["errors"]) == {"name", "volume"}
    assert call(emu, "GET", f"{SOUNDS}/{sound_id}").json()["name"] == "tagged"


def test_gateway_op_31_answers_each_guild_of_the_session(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, EXPRESSIONS)
    sound = create(emu).json()

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILDS)
        guild = (await client.dispatch("GUILD_CREATE"))["d"]
        assert guild["soundboard_sounds"] == [sound]
        # ids as strings or integers; a guild the session does not have is passed over
        await client.send({"op": 31, "d": {"guild_ids": [GUILD_ID, "1"]}})
        answer = (await client.dispatch("SOUNDBOARD_SOUNDS"))["d"]
        assert answer == {"guild_id": str(GUILD_ID), "soundboard_sounds": [sound]}
        await client.no_dispatch("SOUNDBOARD_SOUNDS")
        await client.send({"op": 31, "d": {"guild_ids": "everything"}})
        assert await client.close_code() == 4002
        # the opcode is a bot's: an SDK user's session is closed with 4001
        user = await GatewayClient.connect(emu)
        await user.identify(await asyncio.to_thread(user_token, emu, ALICE))
        await user.send({"op": 31, "d": {"guild_ids": [str(GUILD_ID)]}})
        assert await user.close_code() == 4001

    asyncio.run(scenario())


def test_world_files_load_sounds(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    world = default_world()
    bad = json.loads(json.dumps(world))
    bad["soundboard_sounds"] = [{"guild_id": str(GUILD_ID), "name": "x", "sound": data_uri("audio/mpeg", mp3(9)),
                                 "loudness": 3}]
    refused = httpx.post(f"{emu.base_url}/_emulator/seed?reset=true", json=bad)
    assert refused.status_code == 400
    assert set(refused.json()["errors"]["soundboard_sounds"]["0"]) == {"name", "sound", "loudness"}
    world["soundboard_sounds"] = [
        {"id": "1200000000000000700", "guild_id": str(GUILD_ID), "name": "gong", "user_id": str(ALICE),
         "volume": 0.75, "emoji_name": "\U0001f514"},
        {"id": "1200000000000000701", "guild_id": str(GUILD_ID), "name": "chime",
         "sound": data_uri("audio/ogg", ogg_opus(1.5))},
    ]
    loaded = httpx.post(f"{emu.base_url}/_emulator/seed?reset=true", json=world)
    assert loaded.status_code == 204, loaded.text
    items = call(emu, "GET", SOUNDS).json()["items"]
    assert [(s["sound_id"], s["name"], s["volume"]) for s in items] == [
        ("1200000000000000700", "gong", 0.75), ("1200000000000000701", "chime", 1.0)]
    assert items[0]["user"]["id"] == str(ALICE) and "user" not in items[1]
    served = httpx.get(f"{emu.base_url}/soundboard-sounds/1200000000000000700")
    assert served.status_code == 200 and served.headers["content-type"] == "audio/mpeg"
