"""Conformance of guild channel messages, pins, reactions, typing, Search Guild Messages, emoji,
stickers and scheduled events: every success and error body validated against the published schema.

Known deviation (the seed wins over the schema): a forward's ``message_reference.type`` is 1 (FORWARD),
which the published MessageReferenceType (only 0) does not list; forwards are therefore tested in
tests/emulator/channel_messages/test_channel_message_forwards.py, outside the schema hook."""

from __future__ import annotations

import json
import time
import urllib.parse

import httpx
import pytest
from emulator_world import ALICE, APP_ID, BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator

from conformance_client import ClientFactory

BOT = f"Bot {BOT_TOKEN}"
GENERAL, LOUNGE, BOT_ROLE = 1200000000000000101, 1200000000000000201, 1200000000000000011
UNKNOWN = 1
MANAGE_MESSAGES, PIN_MESSAGES = 1 << 13, 1 << 51
CREATE_EXPRESSIONS, CREATE_EVENTS = 1 << 43, 1 << 44
THUMBS = urllib.parse.quote("👍")


def _grant(emu: Emulator, bits: int) -> None:
    emu.state.db.execute("UPDATE roles SET permissions = ? WHERE id = ?", (str(bits), BOT_ROLE))
    emu.state.db.execute("UPDATE applications SET flags = flags | ? WHERE id = ?", (1 << 18, APP_ID))


def _user_posts(emu: Emulator, content: str) -> str:
    answer = httpx.post(f"{emu.base_url}/_emulator/channels/{GENERAL}/messages",
                        json={"author_id": str(ALICE), "content": content})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["id"])


@pytest.mark.covers(
    "POST /channels/{channel_id}/messages", "GET /channels/{channel_id}/messages",
    "GET /channels/{channel_id}/messages/{message_id}", "PATCH /channels/{channel_id}/messages/{message_id}",
    "DELETE /channels/{channel_id}/messages/{message_id}", "POST /channels/{channel_id}/messages/bulk-delete",
    "POST /channels/{channel_id}/typing")
def test_messages(emu: Emulator, client: ClientFactory) -> None:
    _grant(emu, MANAGE_MESSAGES)
    bot = client(BOT)
    created = bot.post(f"/channels/{GENERAL}/messages", data={"payload_json": json.dumps({
        "content": f"hi <@{ALICE}>", "embeds": [{"title": "t", "description": "d"}],
        "attachments": [{"id": 0, "description": "a file", "is_spoiler": True}]})},
        files={"files[0]": ("a.png", b"png", "image/png")})
    assert created.status_code == 200, created.text
    message_id = created.json()["id"]
    assert bot.post(f"/channels/{GENERAL}/messages", json={"content": ""}).status_code == 400
    assert bot.post(f"/channels/{UNKNOWN}/messages", json={"content": "x"}).status_code == 404
    assert bot.get(f"/channels/{GENERAL}/messages", params={"limit": 5}).status_code == 200
    assert bot.get(f"/channels/{GENERAL}/messages", params={"limit": 0}).status_code == 400
    assert bot.get(f"/channels/{GENERAL}/messages/{message_id}").status_code == 200
    assert bot.get(f"/channels/{GENERAL}/messages/{UNKNOWN}").status_code == 404
    assert bot.patch(f"/channels/{GENERAL}/messages/{message_id}", json={"content": "edited"}).status_code == 200
    assert bot.patch(f"/channels/{GENERAL}/messages/{message_id}", json={"flags": 1}).status_code == 400
    assert bot.post(f"/channels/{GENERAL}/typing").status_code == 204
    assert bot.post(f"/channels/{UNKNOWN}/typing").status_code == 404
    others = [_user_posts(emu, "one"), _user_posts(emu, "two")]
    assert bot.post(f"/channels/{GENERAL}/messages/bulk-delete", json={"messages": others}).status_code == 204
    assert bot.post(f"/channels/{GENERAL}/messages/bulk-delete", json={"messages": others[:1]}).status_code == 400
    assert bot.delete(f"/channels/{GENERAL}/messages/{message_id}").status_code == 204
    assert bot.delete(f"/channels/{GENERAL}/messages/{message_id}").status_code == 404


@pytest.mark.covers(
    "PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me",
    "DELETE /channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me",
    "DELETE /channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/{user_id}",
    "GET /channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}",
    "DELETE /channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}",
    "DELETE /channels/{channel_id}/messages/{message_id}/reactions")
def test_reactions(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    path = f"/channels/{GENERAL}/messages/{_user_posts(emu, 'react')}/reactions"
    assert bot.put(f"{path}/{THUMBS}/@me").status_code == 204
    assert bot.put(f"{path}/nope/@me").status_code == 400
    assert bot.get(f"{path}/{THUMBS}").status_code == 200
    assert bot.get(f"{path}/{THUMBS}", params={"limit": 101}).status_code == 400
    assert bot.delete(f"{path}/{THUMBS}/@me").status_code == 204
    assert bot.delete(f"{path}/nope/@me").status_code == 400
    assert bot.delete(f"{path}/{THUMBS}/{ALICE}").status_code == 403   # needs MANAGE_MESSAGES
    assert bot.delete(f"{path}/{THUMBS}").status_code == 403
    assert bot.delete(path).status_code == 403
    _grant(emu, MANAGE_MESSAGES)
    assert bot.delete(f"{path}/{THUMBS}/{ALICE}").status_code == 204
    assert bot.delete(f"{path}/{THUMBS}").status_code == 204
    assert bot.delete(path).status_code == 204


@pytest.mark.covers(
    "GET /channels/{channel_id}/messages/pins", "PUT /channels/{channel_id}/messages/pins/{message_id}",
    "DELETE /channels/{channel_id}/messages/pins/{message_id}", "GET /channels/{channel_id}/pins",
    "PUT /channels/{channel_id}/pins/{message_id}", "DELETE /channels/{channel_id}/pins/{message_id}")
def test_pins(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    message_id = _user_posts(emu, "pin")
    for base in (f"/channels/{GENERAL}/messages/pins", f"/channels/{GENERAL}/pins"):
        assert bot.put(f"{base}/{message_id}").status_code == 403   # no PIN_MESSAGES yet
        assert bot.delete(f"{base}/{message_id}").status_code == 403
    _grant(emu, PIN_MESSAGES)
    for base in (f"/channels/{GENERAL}/messages/pins", f"/channels/{GENERAL}/pins"):
        assert bot.put(f"{base}/{message_id}").status_code == 204
        assert bot.get(base).status_code == 200
        assert bot.delete(f"{base}/{message_id}").status_code == 204
    assert bot.get(f"/channels/{GENERAL}/messages/pins", params={"limit": 51}).status_code == 400
    assert bot.get(f"/channels/{UNKNOWN}/pins").status_code == 404


@pytest.mark.covers("GET /guilds/{guild_id}/messages/search")
def test_search(emu: Emulator, client: ClientFactory) -> None:
    _grant(emu, 0)
    bot = client(BOT)
    _user_posts(emu, "searchable words")
    httpx.post(f"{emu.base_url}/_emulator/guilds/{GUILD_ID}/search-index", json={"indexed": False,
                                                                                 "index_after_s": 600})
    assert bot.get(f"/guilds/{GUILD_ID}/messages/search").status_code == 202
    httpx.post(f"{emu.base_url}/_emulator/guilds/{GUILD_ID}/search-index", json={"indexed": True})
    found = bot.get(f"/guilds/{GUILD_ID}/messages/search", params={"content": "words", "sort_by": "relevance"})
    assert found.status_code == 200 and found.json()["total_results"] == 1
    assert bot.get(f"/guilds/{GUILD_ID}/messages/search", params={"has": "nothing"}).status_code == 400


@pytest.mark.covers(
    "GET /guilds/{guild_id}/emojis", "POST /guilds/{guild_id}/emojis", "GET /guilds/{guild_id}/emojis/{emoji_id}",
    "PATCH /guilds/{guild_id}/emojis/{emoji_id}", "DELETE /guilds/{guild_id}/emojis/{emoji_id}",
    "GET /guilds/{guild_id}/stickers", "POST /guilds/{guild_id}/stickers", "GET /guilds/{guild_id}/stickers/{sticker_id}",
    "PATCH /guilds/{guild_id}/stickers/{sticker_id}", "DELETE /guilds/{guild_id}/stickers/{sticker_id}")
def test_expressions(emu: Emulator, client: ClientFactory) -> None:
    _grant(emu, CREATE_EXPRESSIONS)
    bot = client(BOT)
    emojis, stickers = f"/guilds/{GUILD_ID}/emojis", f"/guilds/{GUILD_ID}/stickers"
    emoji = bot.post(emojis, json={"name": "blob", "image": "data:image/png;base64,iVBORw0KGgo="}).json()
    assert bot.post(emojis, json={"name": "blob"}).status_code == 400
    assert bot.get(emojis).status_code == 200 and bot.get(f"/guilds/{UNKNOWN}/emojis").status_code == 404
    assert bot.get(f"{emojis}/{emoji['id']}").status_code == 200 and bot.get(f"{emojis}/{UNKNOWN}").status_code == 404
    assert bot.patch(f"{emojis}/{emoji['id']}", json={"name": "blob2"}).status_code == 200
    assert bot.patch(f"{emojis}/{emoji['id']}", json={"name": "-"}).status_code == 400
    assert bot.delete(f"{emojis}/{emoji['id']}").status_code == 204
    assert bot.delete(f"{emojis}/{emoji['id']}").status_code == 404
    sticker = bot.post(stickers, data={"name": "wave", "tags": "wave"}, files={"file": ("w.png", b"png", "image/png")})
    assert sticker.status_code == 201, sticker.text
    sticker_id = sticker.json()["id"]
    assert bot.post(stickers, data={"name": "w", "tags": "wave"}, files={"file": ("w.png", b"png", "image/png")}
                    ).status_code == 400
    assert bot.get(stickers).status_code == 200 and bot.get(f"/guilds/{UNKNOWN}/stickers").status_code == 404
    assert bot.get(f"{stickers}/{sticker_id}").status_code == 200
    assert bot.get(f"{stickers}/{UNKNOWN}").status_code == 404
    assert bot.patch(f"{stickers}/{sticker_id}", json={"tags": "hello"}).status_code == 200
    assert bot.patch(f"{stickers}/{sticker_id}", json={"tags": ""}).status_code == 400
    assert bot.delete(f"{stickers}/{sticker_id}").status_code == 204
    assert bot.delete(f"{stickers}/{sticker_id}").status_code == 404


@pytest.mark.covers(
    "GET /guilds/{guild_id}/scheduled-events", "POST /guilds/{guild_id}/scheduled-events",
    "GET /guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}",
    "PATCH /guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}",
    "DELETE /guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}",
    "GET /guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}/users")
def test_scheduled_events(emu: Emulator, client: ClientFactory) -> None:
    _grant(emu, CREATE_EVENTS)
    bot = client(BOT)
    events = f"/guilds/{GUILD_ID}/scheduled-events"
    start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 86400 * 365 * 5))
    external = bot.post(events, json={"name": "Meetup", "privacy_level": 2, "entity_type": 3,
                                      "scheduled_start_time": start, "scheduled_end_time": "2099-01-01T00:00:00Z",
                                      "entity_metadata": {"location": "Park"}})
    assert external.status_code == 200, external.text
    voice = bot.post(events, json={"name": "Voice", "privacy_level": 2, "entity_type": 2,
                                   "channel_id": str(LOUNGE), "scheduled_start_time": start}).json()
    assert bot.post(events, json={"name": "x"}).status_code == 400
    assert bot.get(events, params={"with_user_count": "true"}).status_code == 200
    assert bot.get(f"/guilds/{UNKNOWN}/scheduled-events").status_code == 404
    assert bot.get(f"{events}/{voice['id']}").status_code == 200 and bot.get(f"{events}/{UNKNOWN}").status_code == 404
    httpx.put(f"{emu.base_url}/_emulator/guilds/{GUILD_ID}/scheduled-events/{voice['id']}/users/{ALICE}")
    assert bot.get(f"{events}/{voice['id']}/users", params={"with_member": "true"}).status_code == 200
    assert bot.get(f"{events}/{voice['id']}/users", params={"limit": 0}).status_code == 400
    assert bot.patch(f"{events}/{voice['id']}", json={"status": 2}).status_code == 200
    assert bot.patch(f"{events}/{voice['id']}", json={"status": 1}).status_code == 400
    assert bot.delete(f"{events}/{voice['id']}").status_code == 204
    assert bot.delete(f"{events}/{voice['id']}").status_code == 404
