"""Conformance of channel webhooks (managed by a bot, used by their token, executed, their messages, the
Slack-compatible execute) and announcement channels (follow, crosspost): success and error bodies."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from emulator_world import BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission
from platformpp.emulator.default_world import GENERAL_CHANNEL_ID

from conformance_client import ClientFactory

BOT = f"Bot {BOT_TOKEN}"
BOT_ROLE = 1200000000000000011
UNKNOWN = 1200000000000009999


def _grant(emu: Emulator, bits: int) -> None:
    emu.state.db.execute("UPDATE roles SET permissions = ? WHERE id = ?", (str(int(bits)), BOT_ROLE))


def _hook(me: httpx.Client, channel_id: int = GENERAL_CHANNEL_ID) -> dict[str, Any]:
    created = me.post(f"/channels/{channel_id}/webhooks", json={"name": "hook"})
    assert created.status_code == 200, created.text
    return dict(created.json())


@pytest.mark.covers("POST /channels/{channel_id}/webhooks", "GET /channels/{channel_id}/webhooks",
                    "GET /guilds/{guild_id}/webhooks", "GET /webhooks/{webhook_id}",
                    "PATCH /webhooks/{webhook_id}", "DELETE /webhooks/{webhook_id}")
def test_webhooks_managed_by_a_bot(emu: Emulator, client: ClientFactory) -> None:
    me = client(BOT)
    _grant(emu, 0)
    assert me.post(f"/channels/{GENERAL_CHANNEL_ID}/webhooks", json={"name": "hook"}).status_code == 403
    assert me.get(f"/channels/{GENERAL_CHANNEL_ID}/webhooks").status_code == 403
    assert me.get(f"/guilds/{GUILD_ID}/webhooks").status_code == 403
    _grant(emu, Permission.MANAGE_WEBHOOKS)
    hook = _hook(me)
    assert me.post(f"/channels/{GENERAL_CHANNEL_ID}/webhooks", json={"name": ""}).status_code == 400
    assert me.get(f"/channels/{GENERAL_CHANNEL_ID}/webhooks").status_code == 200
    assert me.get(f"/guilds/{GUILD_ID}/webhooks").status_code == 200
    assert me.get(f"/webhooks/{hook['id']}").status_code == 200
    assert me.get(f"/webhooks/{UNKNOWN}").status_code == 404
    assert me.patch(f"/webhooks/{hook['id']}", json={"name": "renamed"}).status_code == 200
    assert me.patch(f"/webhooks/{hook['id']}", json={"name": 5}).status_code == 400
    assert me.delete(f"/webhooks/{hook['id']}").status_code == 204
    assert me.delete(f"/webhooks/{hook['id']}").status_code == 404


@pytest.mark.covers("GET /webhooks/{webhook_id}/{webhook_token}", "PATCH /webhooks/{webhook_id}/{webhook_token}",
                    "DELETE /webhooks/{webhook_id}/{webhook_token}",
                    "POST /webhooks/{webhook_id}/{webhook_token}/slack")
def test_webhooks_used_by_their_token(emu: Emulator, client: ClientFactory) -> None:
    _grant(emu, Permission.MANAGE_WEBHOOKS)
    hook = _hook(client(BOT))
    anyone = client()
    path = f"/webhooks/{hook['id']}/{hook['token']}"
    wrong = f"/webhooks/{hook['id']}/{'x' * 68}"
    assert anyone.get(path).status_code == 200
    assert anyone.get(wrong).status_code == 401
    assert anyone.patch(path, json={"name": "renamed"}).status_code == 200
    assert anyone.patch(path, json={"name": ""}).status_code == 400
    assert anyone.post(path + "/slack", json={"text": "hello"}).status_code == 200
    assert anyone.post(path + "/slack", json={"text": 5}).status_code == 400
    assert anyone.delete(wrong).status_code == 401
    assert anyone.delete(path).status_code == 204


@pytest.mark.covers("POST /webhooks/{webhook_id}/{webhook_token}",
                    "GET /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                    "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
def test_a_channel_webhooks_execute_and_messages(emu: Emulator, client: ClientFactory) -> None:
    _grant(emu, Permission.MANAGE_WEBHOOKS)
    hook = _hook(client(BOT))
    anyone = client()
    path = f"/webhooks/{hook['id']}/{hook['token']}"
    sent = anyone.post(path + "?wait=true", json={"content": "hi", "username": "Alerts"})
    assert sent.status_code == 200, sent.text
    assert anyone.post(path, json={"content": "quiet"}).status_code == 204
    assert anyone.post(path, json={}).status_code == 400
    message = f"{path}/messages/{sent.json()['id']}"
    assert anyone.get(message).status_code == 200
    assert anyone.get(f"{path}/messages/{UNKNOWN}").status_code == 404
    assert anyone.get(f"{path}/messages/@original").status_code == 404
    assert anyone.patch(message, json={"content": "edited"}).status_code == 200
    assert anyone.patch(message, json={"content": 5}).status_code == 400
    assert anyone.delete(message).status_code == 204
    assert anyone.delete(message).status_code == 404


@pytest.mark.covers("POST /channels/{channel_id}/followers",
                    "POST /channels/{channel_id}/messages/{message_id}/crosspost")
def test_announcement_channels(emu: Emulator, client: ClientFactory) -> None:
    _grant(emu, Permission.MANAGE_WEBHOOKS | Permission.MANAGE_CHANNELS)
    me = client(BOT)
    news = me.post(f"/guilds/{GUILD_ID}/channels", json={"name": "news", "type": 5})
    assert news.status_code in (200, 201), news.text
    news_id = news.json()["id"]
    follow = {"webhook_channel_id": str(GENERAL_CHANNEL_ID)}
    assert me.post(f"/channels/{GENERAL_CHANNEL_ID}/followers", json=follow).status_code == 400
    assert me.post(f"/channels/{news_id}/followers", json=follow).status_code == 200
    posted = me.post(f"/channels/{news_id}/messages", json={"content": "news"})
    assert posted.status_code == 200, posted.text
    crosspost = f"/channels/{news_id}/messages/{posted.json()['id']}/crosspost"
    assert me.post(crosspost).status_code == 200
    assert me.post(crosspost).status_code == 400


@pytest.mark.covers("POST /webhooks/{webhook_id}/{webhook_token}/github")
def test_the_github_compatible_execute(emu: Emulator, client: ClientFactory) -> None:
    _grant(emu, Permission.MANAGE_WEBHOOKS)
    hook = _hook(client(BOT))
    anyone = client()
    path = f"/webhooks/{hook['id']}/{hook['token']}/github"
    push = {"ref": "refs/heads/main", "repository": {"id": 1, "name": "game", "full_name": "studio/game",
                                                     "html_url": "https://example.com/studio/game"},
            "commits": [{"id": "0123456789abcdef", "url": "https://example.com/c/0123456", "message": "fix",
                         "author": {"name": "dev"}}]}
    assert anyone.post(path, json=push, headers={"X-GitHub-Event": "push"}).status_code == 204
    assert anyone.post(path, json={"zen": "ok"}, headers={"X-GitHub-Event": "ping"}).status_code == 204
    assert anyone.post(path, json={"ref": "x"}, headers={"X-GitHub-Event": "push"}).status_code == 400
