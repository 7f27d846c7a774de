"""Conformance of the bot's own user, its application by id, application emoji, Activities (attachments
and launched instances) and stickers: success and error bodies."""

from __future__ import annotations

import base64
import io
from collections.abc import Callable

import pytest
from emulator_world import ALICE, APP_ID, BOT_TOKEN
from PIL import Image
from platformpp.emulator import Emulator
from platformpp.emulator.default_world import GENERAL_CHANNEL_ID, STICKER_PACK_ID, WAVE_STICKER_ID
from platformpp.emulator.simulated_user import SimulatedUser
from social_helpers import bot, user_token

from conformance_client import ClientFactory, force_429

BOT = f"Bot {BOT_TOKEN}"


def png_uri() -> str:
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), (0, 128, 255)).save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


@pytest.mark.covers("PATCH /users/@me")
def test_bot_user(emu: Emulator, client: ClientFactory) -> None:
    me = client(BOT)
    changed = me.patch("/users/@me", json={"username": "renamed_bot", "avatar": png_uri(), "banner": None})
    assert changed.status_code == 200, changed.text
    assert me.patch("/users/@me", json={"username": "x"}).status_code == 400
    assert me.patch("/users/@me", json={"avatar": "data:image/png;base64,AAAA"}).status_code == 400
    assert client(f"Bearer {user_token(emu, ALICE, 'identify')}").patch(
        "/users/@me", json={"username": "alice2"}).status_code == 401


@pytest.mark.covers("GET /applications/{application_id}", "PATCH /applications/{application_id}")
def test_application_by_id(client: ClientFactory) -> None:
    me = client(BOT)
    assert me.get(f"/applications/{APP_ID}").status_code == 200
    assert me.patch(f"/applications/{APP_ID}", json={"description": "by id"}).status_code == 200
    assert me.patch(f"/applications/{APP_ID}", json={"flags": "x"}).status_code == 400
    assert me.get("/applications/1").status_code == 404


@pytest.mark.covers("GET /applications/{application_id}/emojis", "POST /applications/{application_id}/emojis",
                    "GET /applications/{application_id}/emojis/{emoji_id}",
                    "PATCH /applications/{application_id}/emojis/{emoji_id}",
                    "DELETE /applications/{application_id}/emojis/{emoji_id}")
def test_application_emojis(client: ClientFactory) -> None:
    me = client(BOT)
    base = f"/applications/{APP_ID}/emojis"
    created = me.post(base, json={"name": "app_blob", "image": png_uri()})
    assert created.status_code == 201, created.text
    emoji_id = created.json()["id"]
    assert me.post(base, json={"name": "app_blob", "image": png_uri()}).status_code == 400
    assert me.get(base).status_code == 200
    assert me.get(f"{base}/{emoji_id}").status_code == 200
    assert me.patch(f"{base}/{emoji_id}", json={"name": "renamed"}).status_code == 200
    assert me.patch(f"{base}/{emoji_id}", json={"name": "no spaces"}).status_code == 400
    assert me.delete(f"{base}/{emoji_id}").status_code == 204
    assert me.get(f"{base}/{emoji_id}").status_code == 404
    assert me.delete(f"{base}/{emoji_id}").status_code == 404
    assert client().get(base).status_code == 401


@pytest.mark.covers("POST /applications/{application_id}/attachment",
                    "GET /applications/{application_id}/activity-instances/{instance_id}")
def test_activities(emu: Emulator, client: ClientFactory,
                    platformpp_user: Callable[..., SimulatedUser]) -> None:
    me = client(BOT)
    uploaded = me.post(f"/applications/{APP_ID}/attachment",
                       files={"file": ("shot.png", b"\x89PNG", "image/png")})
    assert uploaded.status_code == 200, uploaded.text
    assert me.post(f"/applications/{APP_ID}/attachment", files={"other": ("a.txt", b"a", "text/plain")}
                   ).status_code == 400
    with bot(emu) as http:
        assert http.post(f"/applications/{APP_ID}/commands", json={
            "name": "launch", "description": "Play", "type": 4, "handler": 2}).status_code == 201
    launched = platformpp_user(ALICE, channel_id=GENERAL_CHANNEL_ID).launch()
    instance = launched.answer["activity_instance_id"]
    assert me.get(f"/applications/{APP_ID}/activity-instances/{instance}").status_code == 200
    assert me.get(f"/applications/{APP_ID}/activity-instances/i-unknown").status_code == 404


@pytest.mark.covers("GET /stickers/{sticker_id}", "GET /sticker-packs", "GET /sticker-packs/{pack_id}")
def test_stickers(emu: Emulator, client: ClientFactory) -> None:
    me = client(BOT)
    assert me.get(f"/stickers/{WAVE_STICKER_ID}").status_code == 200
    assert me.get("/stickers/1").status_code == 404
    assert me.get("/sticker-packs").status_code == 200
    assert me.get(f"/sticker-packs/{STICKER_PACK_ID}").status_code == 200
    assert me.get("/sticker-packs/1").status_code == 404
    assert client().get("/sticker-packs").status_code == 200
    # the list of packs needs no credentials: its error answer is a rate limit
    force_429(emu, "/api/v10/sticker-packs")
    assert client().get("/sticker-packs").status_code == 429
    assert client().get(f"/stickers/{WAVE_STICKER_ID}").status_code == 401
