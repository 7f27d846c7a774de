"""Conformance of application commands, command permissions, interaction callbacks and the messages
reached through an interaction token: every success and error body checked against the published
schema. Interactions are started by the admin API's simulated user (``wait_s`` 0: the test itself
answers, through the validated client)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from emulator_world import ALICE, APP_ID, BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from social_helpers import user_token

from conformance_client import ClientFactory

BOT = f"Bot {BOT_TOKEN}"
GENERAL, MODERATOR_ROLE = 1200000000000000101, 1200000000000000010
GLOBAL = f"/applications/{APP_ID}/commands"
GUILD = f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands"


def start(emu: Emulator, command_name: str, **extra: Any) -> dict[str, Any]:
    """A user runs the command; the app has not answered yet. The interaction (with its token)."""
    response = httpx.post(f"{emu.base_url}/_emulator/interactions", timeout=10, json={
        "action": "command", "application_id": str(APP_ID), "user_id": str(ALICE), "channel_id": str(GENERAL),
        "command_name": command_name, "wait_s": 0, **extra})
    assert response.status_code == 200, response.text
    return dict(response.json()["interaction"])


@pytest.mark.covers("GET /applications/{application_id}/commands", "POST /applications/{application_id}/commands",
                    "PUT /applications/{application_id}/commands",
                    "GET /applications/{application_id}/commands/{command_id}",
                    "PATCH /applications/{application_id}/commands/{command_id}",
                    "DELETE /applications/{application_id}/commands/{command_id}")
def test_global_commands(client: ClientFactory) -> None:
    bot = client(BOT)
    made = bot.post(GLOBAL, json={"name": "roll", "description": "Roll dice", "name_localizations": {"de": "wurf"},
                                  "options": [
        {"type": 4, "name": "sides", "description": "n", "required": True, "min_value": 2, "max_value": 99},
        {"type": 3, "name": "label", "description": "l", "autocomplete": True},
        {"type": 7, "name": "where", "description": "c", "channel_types": [0]},
        {"type": 3, "name": "colour", "description": "c", "choices": [{"name": "Red", "value": "red"}]}]})
    assert made.status_code == 201
    assert bot.post(GLOBAL, json={"name": "Bad"}).status_code == 400
    assert bot.get(GLOBAL).status_code == 200
    assert bot.get(GLOBAL, params={"with_localizations": "true"}).status_code == 200
    assert client().get(GLOBAL).status_code == 401
    command = made.json()["id"]
    assert bot.get(f"{GLOBAL}/{command}").status_code == 200
    assert bot.get(f"{GLOBAL}/1").status_code == 404
    assert bot.patch(f"{GLOBAL}/{command}", json={"description": "Roll"}).status_code == 200
    assert bot.patch(f"{GLOBAL}/{command}", json={"type": 2}).status_code == 400
    assert bot.put(GLOBAL, json=[{"name": "roll", "description": "again"}, {"name": "Inspect", "type": 2},
                                 {"name": "Quote", "type": 3}]).status_code == 200
    assert bot.put(GLOBAL, json=[{"name": "x", "type": 9}]).status_code == 400
    assert bot.delete(f"{GLOBAL}/{command}").status_code == 204
    assert bot.delete(f"{GLOBAL}/{command}").status_code == 404


@pytest.mark.covers("GET /applications/{application_id}/guilds/{guild_id}/commands",
                    "POST /applications/{application_id}/guilds/{guild_id}/commands",
                    "PUT /applications/{application_id}/guilds/{guild_id}/commands",
                    "GET /applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
                    "PATCH /applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
                    "DELETE /applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
                    "GET /applications/{application_id}/guilds/{guild_id}/commands/permissions",
                    "GET /applications/{application_id}/guilds/{guild_id}/commands/{command_id}/permissions",
                    "PUT /applications/{application_id}/guilds/{guild_id}/commands/{command_id}/permissions")
def test_guild_commands_and_permissions(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    made = bot.post(GUILD, json={"name": "Profile", "type": 2})
    assert made.status_code == 201
    for _ in range(14):
        bot.post(GUILD, json={"name": f"Profile {_}", "type": 2})
    assert bot.post(GUILD, json={"name": "Profile 16", "type": 2}).status_code == 400   # the 16th
    command = made.json()["id"]
    assert bot.get(GUILD).status_code == 200
    assert bot.get(f"/applications/{APP_ID}/guilds/1/commands").status_code == 404
    assert bot.get(f"{GUILD}/{command}").status_code == 200
    assert bot.get(f"{GUILD}/1").status_code == 404
    assert bot.patch(f"{GUILD}/{command}", json={"name": "Profile card"}).status_code == 200
    assert bot.patch(f"{GUILD}/{command}", json={"description": "no"}).status_code == 400
    assert bot.put(GUILD, json=[{"name": "Profile card", "type": 2}]).status_code == 200
    assert bot.put(GUILD, json={"name": "x"}).status_code == 400
    assert bot.get(f"{GUILD}/permissions").status_code == 200
    assert bot.get(f"/applications/{APP_ID}/guilds/1/commands/permissions").status_code == 404
    path = f"{GUILD}/{command}/permissions"
    assert bot.get(path).status_code == 404
    body = {"permissions": [{"id": str(MODERATOR_ROLE), "type": 1, "permission": True}]}
    assert bot.put(path, json=body).status_code == 403
    manager = client(f"Bearer {user_token(emu, ALICE, 'applications.commands.permissions.update')}")
    assert manager.put(path, json=body).status_code == 200
    assert manager.put(path, json={"permissions": [{"id": "1", "type": 4, "permission": True}]}).status_code == 400
    assert bot.get(path).status_code == 200
    assert bot.delete(f"{GUILD}/{command}").status_code == 204
    assert bot.delete(f"{GUILD}/{command}").status_code == 404


@pytest.mark.covers("POST /interactions/{interaction_id}/{interaction_token}/callback")
def test_interaction_callbacks(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.post(GLOBAL, json={"name": "go", "description": "d", "options": [
        {"type": 3, "name": "q", "description": "q", "autocomplete": True}]}).status_code == 201
    anyone = client()
    for callback in ({"type": 4, "data": {"content": "hi", "flags": 64}}, {"type": 5}, {"type": 12},
                     {"type": 9, "data": {"custom_id": "m", "title": "T", "components": [
                         {"type": 18, "label": "L", "component": {"type": 22, "custom_id": "c", "options": [
                             {"label": "a", "value": "a"}]}}]}}):
        interaction = start(emu, "go")
        path = f"/interactions/{interaction['id']}/{interaction['token']}/callback"
        assert anyone.post(path, params={"with_response": "true"}, json=callback).status_code == 200
        assert anyone.post(path, json=callback).status_code == 400   # already acknowledged
    interaction = start(emu, "go")
    path = f"/interactions/{interaction['id']}/{interaction['token']}/callback"
    assert anyone.post(path, json={"type": 8, "data": {"choices": []}}).status_code == 400   # not autocomplete
    assert anyone.post(path, json={"type": 9, "data": {"custom_id": "m", "title": "T", "components": [
        {"type": 21, "custom_id": "r", "options": []}]}}).status_code == 400
    assert anyone.post(path, json={"type": 4, "data": {"content": "ok"}}).status_code == 204
    auto = httpx.post(f"{emu.base_url}/_emulator/interactions", timeout=10, json={
        "action": "autocomplete", "application_id": str(APP_ID), "user_id": str(ALICE), "channel_id": str(GENERAL),
        "command_name": "go", "options": [{"name": "q", "value": "a", "focused": True}], "wait_s": 0}).json()
    path = f"/interactions/{auto['interaction']['id']}/{auto['interaction']['token']}/callback"
    assert anyone.post(path, json={"type": 8, "data": {"choices": [{"name": "A", "value": "a"}]}}).status_code == 204
    assert anyone.post(f"/interactions/{auto['interaction']['id']}/wrong/callback", json={"type": 1}).status_code == 404


@pytest.mark.covers("POST /webhooks/{webhook_id}/{webhook_token}",
                    "GET /webhooks/{webhook_id}/{webhook_token}/messages/@original",
                    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
                    "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/@original",
                    "GET /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                    "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
def test_messages_through_the_interaction_token(emu: Emulator, client: ClientFactory) -> None:
    assert client(BOT).post(GLOBAL, json={"name": "go", "description": "d"}).status_code == 201
    interaction = start(emu, "go")
    app = client()
    hook = f"/webhooks/{APP_ID}/{interaction['token']}"
    assert app.post(hook, json={"content": "too soon"}).status_code == 400   # no initial response yet
    assert app.post(f"/interactions/{interaction['id']}/{interaction['token']}/callback",
                    json={"type": 4, "data": {"content": "first", "components": [
                        {"type": 1, "components": [{"type": 2, "style": 1, "label": "B", "custom_id": "b"}]}]}}
                    ).status_code == 204
    assert app.get(f"{hook}/messages/@original").status_code == 200
    assert app.get(f"/webhooks/{APP_ID}/not-a-token/messages/@original").status_code == 404
    assert app.patch(f"{hook}/messages/@original", json={"content": "edited"}).status_code == 200
    assert app.patch(f"{hook}/messages/@original", json={"content": "x" * 2001}).status_code == 400
    followup = app.post(hook, json={"content": "second", "flags": 64})
    assert followup.status_code == 200
    message = followup.json()["id"]
    assert app.get(f"{hook}/messages/{message}").status_code == 200
    assert app.get(f"{hook}/messages/1").status_code == 404
    assert app.patch(f"{hook}/messages/{message}", json={"content": "third"}).status_code == 200
    assert app.patch(f"{hook}/messages/1", json={"content": "third"}).status_code == 404
    assert app.delete(f"{hook}/messages/{message}").status_code == 204
    assert app.delete(f"{hook}/messages/{message}").status_code == 404
    assert app.delete(f"{hook}/messages/@original").status_code == 204
    assert app.delete(f"{hook}/messages/@original").status_code == 404
