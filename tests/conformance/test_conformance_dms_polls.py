"""Conformance of the DM, group DM and poll operations: success and error bodies checked against
the published schema."""

from __future__ import annotations

import httpx
import pytest
from emulator_world import ALICE, BOB, BOT_TOKEN, CAROL, GUILD_ID
from platformpp.emulator import Emulator
from social_helpers import user_token

from conformance_client import ClientFactory

BOT = f"Bot {BOT_TOKEN}"
GDM = "openid sdk.social_layer gdm.join"
GENERAL, BOT_ROLE = GUILD_ID + 101, GUILD_ID + 11
SEND_POLLS = 1 << 49


@pytest.mark.covers("POST /users/@me/channels", "PUT /channels/{channel_id}/recipients/{user_id}",
                    "DELETE /channels/{channel_id}/recipients/{user_id}")
def test_dms_and_group_dms(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.post("/users/@me/channels", json={"recipient_id": str(ALICE)}).status_code == 200
    assert bot.post("/users/@me/channels", json={"recipient_id": "42"}).status_code == 404
    assert bot.post("/users/@me/channels", json={"recipient_id": "x"}).status_code == 400
    group = bot.post("/users/@me/channels", json={"access_tokens": [user_token(emu, ALICE, GDM)]})
    assert group.status_code == 200 and group.json()["type"] == 3
    assert bot.post("/users/@me/channels", json={"access_tokens": ["nope"]}).status_code == 400
    url = f"/channels/{group.json()['id']}/recipients/{CAROL}"
    assert bot.put(url, json={"access_token": user_token(emu, CAROL, GDM)}).status_code == 201
    assert bot.put(url, json={"access_token": "nope"}).status_code == 400
    assert bot.delete(url).status_code == 204
    assert bot.delete(url).status_code == 404


@pytest.mark.covers("PUT /partner-sdk/dms/{user_id_1}/{user_id_2}/messages/{message_id}/moderation-metadata")
def test_dm_moderation_metadata(emu: Emulator, client: ClientFactory) -> None:
    bot, alice = client(BOT), client(f"Bearer {user_token(emu, ALICE)}")
    user_token(emu, BOB)
    message = alice.post(f"/users/{BOB}/messages", json={"content": "gg"}).json()
    url = f"/partner-sdk/dms/{BOB}/{ALICE}/messages/{message['id']}/moderation-metadata"
    assert bot.put(url, json={"flagged": "true"}).status_code == 204
    assert bot.put(url, json={"score": 3}).status_code == 400
    assert bot.put(f"/partner-sdk/dms/{BOB}/{CAROL}/messages/{message['id']}/moderation-metadata",
                   json={"a": "b"}).status_code == 404


@pytest.mark.covers("GET /channels/{channel_id}/polls/{message_id}/answers/{answer_id}",
                    "POST /channels/{channel_id}/polls/{message_id}/expire")
def test_polls(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    emu.state.db.execute("UPDATE roles SET permissions = ? WHERE id = ?", (str(SEND_POLLS), BOT_ROLE))
    poll = {"question": {"text": "Which map?"}, "answers": [{"poll_media": {"text": "Dust"}},
                                                            {"poll_media": {"text": "Nuke"}}]}
    message = bot.post(f"/channels/{GENERAL}/messages", json={"poll": poll}).json()
    voted = httpx.put(f"{emu.base_url}/_emulator/channels/{GENERAL}/polls/{message['id']}/answers/1/voters/{ALICE}")
    assert voted.status_code == 204
    voters = bot.get(f"/channels/{GENERAL}/polls/{message['id']}/answers/1")
    assert voters.status_code == 200 and voters.json()["users"][0]["id"] == str(ALICE)
    assert bot.get(f"/channels/{GENERAL}/polls/{message['id']}/answers/1", params={"limit": 0}).status_code == 400
    assert bot.get(f"/channels/{GENERAL}/polls/1/answers/1").status_code == 404
    ended = bot.post(f"/channels/{GENERAL}/polls/{message['id']}/expire")
    assert ended.status_code == 200 and ended.json()["poll"]["results"]["is_finalized"] is True
    assert bot.post(f"/channels/{GENERAL}/polls/{message['id']}/expire").status_code == 400
    assert bot.post(f"/channels/{GENERAL}/polls/1/expire").status_code == 404
