"""Application emoji (the bot's own, usable in any guild's reactions by that bot only) and stickers:
standard packs of the default world, a sticker by id, the ``sticker_packs`` fixture section."""

from __future__ import annotations

import asyncio
import base64
import io
import json
from pathlib import Path

import httpx
import pytest
from channel_helpers import grant_bot, set_clock
from emulator_world import ALICE, APP_ID, BOT_ID, BOT_TOKEN, GUILD_ID
from PIL import Image
from platformpp.emulator import Emulator
from platformpp.emulator.admin_error import AdminError
from platformpp.emulator.core.permissions import Permission
from platformpp.emulator.default_world import GENERAL_CHANNEL_ID, STICKER_PACK_ID, WAVE_STICKER_ID
from social_helpers import GatewayClient, bot

EMOJIS = f"/applications/{APP_ID}/emojis"
REACTIONS = 1 << 10   # GUILD_MESSAGE_REACTIONS


def image(fmt: str = "PNG") -> str:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), (0, 200, 0)).save(buffer, fmt)
    return f"data:image/{fmt.lower()};base64," + base64.b64encode(buffer.getvalue()).decode()


def test_emoji_lifecycle_and_names_unique_within_the_application(emu: Emulator) -> None:
    with bot(emu) as http:
        created = http.post(EMOJIS, json={"name": "app_star", "image": image(), "roles": ["1"]})
        assert created.status_code == 201, created.text
        emoji = created.json()
        assert emoji["roles"] == [] and emoji["animated"] is False and emoji["user"]["id"] == str(BOT_ID)
        animated = http.post(EMOJIS, json={"name": "app_spin", "image": image("GIF")}).json()
        assert animated["animated"] is True
        assert [e["id"] for e in http.get(EMOJIS).json()["items"]] == [emoji["id"], animated["id"]]
        clash = http.post(EMOJIS, json={"name": "app_star", "image": image()})
        assert clash.status_code == 400
        assert clash.json()["errors"]["name"]["_errors"][0]["code"] == "APPLICATION_EMOJI_NAME_ALREADY_TAKEN"
        rename_clash = http.patch(f"{EMOJIS}/{animated['id']}", json={"name": "app_star"})
        assert rename_clash.status_code == 400
        renamed = http.patch(f"{EMOJIS}/{emoji['id']}", json={"name": "app_sun"})
        assert renamed.json()["name"] == "app_sun"
        assert http.get(f"{EMOJIS}/{emoji['id']}").json()["name"] == "app_sun"
        assert http.delete(f"{EMOJIS}/{emoji['id']}").status_code == 204
        gone = http.get(f"{EMOJIS}/{emoji['id']}")
        assert gone.status_code == 404 and gone.json()["code"] == 10014
        assert [e["id"] for e in http.get(EMOJIS).json()["items"]] == [animated["id"]]


def test_bad_emoji_input_names_the_field_and_creates_nothing(emu: Emulator) -> None:
    with bot(emu) as http:
        for body, field in (({"name": "a b", "image": image()}, "name"),
                            ({"name": "ok_name", "image": "data:text/plain;base64,aGk="}, "image"),
                            ({"name": "ok_name"}, "image"), ({"image": image()}, "name")):
            answer = http.post(EMOJIS, json=body)
            assert answer.status_code == 400 and field in answer.json()["errors"], (body, answer.text)
        assert http.get(EMOJIS).json() == {"items": []}
        assert http.get("/applications/4243/emojis").status_code == 404


def test_the_bot_reacts_with_its_application_emoji_and_a_user_cannot(emu: Emulator) -> None:
    with bot(emu) as http:
        emoji = http.post(EMOJIS, json={"name": "app_heart", "image": image()}).json()
        message = http.post(f"/channels/{GENERAL_CHANNEL_ID}/messages", json={"content": "react"}).json()
        path = f"/channels/{GENERAL_CHANNEL_ID}/messages/{message['id']}/reactions/app_heart:{emoji['id']}"

        async def scenario() -> dict:
            session = await GatewayClient.connect(emu)
            await session.identify(BOT_TOKEN, intents=REACTIONS | 1)
            answer = await asyncio.to_thread(http.put, path + "/@me")
            assert answer.status_code == 204, answer.text
            added = (await session.dispatch("MESSAGE_REACTION_ADD"))["d"]
            await session.close()
            return added

        added = asyncio.run(scenario())
        assert added["emoji"] == {"id": emoji["id"], "name": "app_heart", "animated": False}
        reacted = http.get(f"/channels/{GENERAL_CHANNEL_ID}/messages/{message['id']}").json()["reactions"]
        assert reacted[0]["emoji"]["id"] == emoji["id"] and reacted[0]["count"] == 1
    with pytest.raises(AdminError) as refused:   # a user is not the application's bot
        emu.admin.react(GENERAL_CHANNEL_ID, message["id"], ALICE, f"app_heart:{emoji['id']}")
    assert refused.value.status == 400 and refused.value.body["code"] == 10014


def test_standard_sticker_packs_of_the_default_world(emu: Emulator) -> None:
    with bot(emu) as http:
        [pack] = http.get("/sticker-packs").json()["sticker_packs"]
        assert pack["id"] == str(STICKER_PACK_ID) and pack["cover_sticker_id"] == str(WAVE_STICKER_ID)
        assert [s["sort_value"] for s in pack["stickers"]] == [0, 1, 2]
        assert http.get(f"/sticker-packs/{STICKER_PACK_ID}").json() == pack
        wave = http.get(f"/stickers/{WAVE_STICKER_ID}").json()
        assert wave == pack["stickers"][0] and wave["type"] == 1 and wave["pack_id"] == str(STICKER_PACK_ID)
        missing = http.get("/sticker-packs/1")
        assert missing.status_code == 404 and missing.json()["code"] == 10061
        assert http.get("/stickers/1").json()["code"] == 10060


def test_a_guild_sticker_by_id(emu: Emulator) -> None:
    set_clock(emu, "2026-03-01T00:00:00Z")
    grant_bot(emu, Permission.CREATE_GUILD_EXPRESSIONS)
    with bot(emu) as http:
        png = base64.b64decode(image().split(",", 1)[1])
        made = http.post(f"/guilds/{GUILD_ID}/stickers", data={"name": "wave2", "tags": "wave"},
                         files={"file": ("wave.png", png, "image/png")}).json()
        fetched = http.get(f"/stickers/{made['id']}").json()
    assert fetched["type"] == 2 and fetched["guild_id"] == str(GUILD_ID) and fetched["name"] == "wave2"


def test_sticker_packs_fixture_section(tmp_path: Path) -> None:
    world = tmp_path / "world.json"
    world.write_text(json.dumps({"sticker_packs": [{
        "id": "500", "sku_id": "501", "name": "Pack", "cover_sticker_id": "511",
        "stickers": [{"id": "510", "name": "One", "tags": "one", "format_type": 1},
                     {"id": "511", "name": "Two", "tags": "two", "format_type": 4}]}]}))
    with Emulator(seed=world) as emu:
        response = httpx.post(emu.base_url + "/_emulator/seed", json={"sticker_packs": [{
            "sku_id": "1", "name": "Bad", "cover_sticker_id": "9",
            "stickers": [{"name": "x", "tags": "", "format_type": 9}]}]})
        assert response.status_code == 400
        errors = response.json()["errors"]["sticker_packs"]["0"]
        assert set(errors["stickers"]["0"]) == {"name", "tags", "format_type"}
        assert "cover_sticker_id" in errors
        packs = emu.admin.snapshot()["tables"]["sticker_packs"]
        assert [p["id"] for p in packs] == [500] and packs[0]["cover_sticker_id"] == 511
