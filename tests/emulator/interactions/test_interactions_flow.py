"""A simulated user uses a bot's commands over the Gateway: the interaction payload (context,
permissions, resolved objects, uploaded attachments, no channel obfuscation), context menus,
buttons and selects, autocomplete, and the response flow (every callback type, ``with_response``,
the 3-second window, followups and the original response for 15 minutes, ephemeral messages,
files under the upload limit)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from channel_helpers import GENERAL, MODERATOR_ROLE, MODERATORS, set_clock
from emulator_world import ALICE, APP_ID, BOB, GUILD_ID
from interaction_bots import GatewayBot, Replies
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission
from platformpp.emulator.simulated_user import SimulatedUser, SimulatedUserError
from social_helpers import bot


@pytest.fixture
def alice(platformpp_user: Callable[..., SimulatedUser]) -> SimulatedUser:
    return platformpp_user(ALICE, channel_id=GENERAL)


def create(emu: Emulator, body: dict[str, Any], guild: bool = False) -> dict[str, Any]:
    path = f"/applications/{APP_ID}" + (f"/guilds/{GUILD_ID}" if guild else "") + "/commands"
    with bot(emu) as http:
        response = http.post(path, json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def test_a_command_with_options_reaches_the_bot_with_context_and_resolved_objects(
        emu: Emulator, gateway_bot: GatewayBot, alice: SimulatedUser) -> None:
    create(emu, {"name": "inspect", "description": "d", "options": [
        {"type": 6, "name": "who", "description": "w", "required": True},
        {"type": 8, "name": "role", "description": "r", "required": True},
        {"type": 7, "name": "where", "description": "c", "required": True},
        {"type": 11, "name": "file", "description": "f", "required": True},
        {"type": 3, "name": "colour", "description": "c", "choices": [{"name": "Red", "value": "red"}]}]})
    answer = alice.command("inspect", [{"name": "who", "value": str(BOB)}, {"name": "role", "value": str(MODERATOR_ROLE)},
                                       {"name": "where", "value": str(MODERATORS)}, {"name": "file", "value": 0},
                                       {"name": "colour", "value": "red"}],
                           files={0: ("notes.txt", b"hello", "text/plain")})
    assert answer.error is None and answer.message["content"] == "ok"
    payload = gateway_bot.received[0]
    assert payload["type"] == 2 and payload["token"] and payload["version"] == 1
    assert payload["context"] == 0 and payload["locale"] and payload["guild_locale"] == "en-US"
    assert payload["authorizing_integration_owners"] == {"0": str(GUILD_ID)} and payload["entitlements"] == []
    assert payload["member"]["user"]["id"] == str(ALICE) and int(payload["member"]["permissions"]) & Permission.ADMINISTRATOR
    bot_permissions = int(payload["app_permissions"])
    assert bot_permissions & Permission.VIEW_CHANNEL and not bot_permissions & Permission.ADMINISTRATOR
    resolved = payload["data"]["resolved"]
    assert resolved["users"][str(BOB)]["username"] == "bob" and str(BOB) in resolved["members"]
    assert resolved["roles"][str(MODERATOR_ROLE)]["name"] == "Moderator"
    channel = resolved["channels"][str(MODERATORS)]
    # the bot cannot view #moderators: its permissions there, as the engine computes them
    assert channel["name"] == "moderators" and not int(channel["app_permissions"]) & Permission.VIEW_CHANNEL
    attachment = next(iter(resolved["attachments"].values()))
    assert attachment["filename"] == "notes.txt" and attachment["size"] == 5
    assert httpx.get(attachment["url"]).content == b"hello"
    options = {o["name"]: o["value"] for o in payload["data"]["options"]}
    assert options == {"who": str(BOB), "role": str(MODERATOR_ROLE), "where": str(MODERATORS),
                       "file": attachment["id"], "colour": "red"}
    snapshot = httpx.get(f"{emu.base_url}/_emulator/snapshot")   # interactions and their files export as JSON
    assert snapshot.status_code == 200 and snapshot.json()["tables"]["interaction_files"][0]["size"] == 5


def test_bad_inputs_are_refused_before_anything_is_delivered(emu: Emulator, gateway_bot: GatewayBot,
                                                             alice: SimulatedUser) -> None:
    create(emu, {"name": "roll", "description": "d", "options": [
        {"type": 4, "name": "sides", "description": "n", "required": True, "min_value": 2, "max_value": 20}]})
    for options, field in (([], "options"), ([{"name": "sides", "value": 99}], "value"),
                           ([{"name": "sides", "value": "6"}], "value"), ([{"name": "nope", "value": 1}], "name")):
        with pytest.raises(SimulatedUserError) as refused:
            alice.command("roll", options)
        assert refused.value.status == 400 and field in json.dumps(refused.value.body["errors"])
    with pytest.raises(SimulatedUserError) as unknown:
        alice.command("missing")
    assert unknown.value.body["code"] == 10063
    assert gateway_bot.received == []


def test_default_member_permissions_and_command_permissions_decide_who_may_run(
        emu: Emulator, gateway_bot: GatewayBot, platformpp_user: Callable[..., SimulatedUser]) -> None:
    create(emu, {"name": "kick", "description": "d", "default_member_permissions": str(int(Permission.KICK_MEMBERS))})
    bob = platformpp_user(BOB, channel_id=GENERAL)
    with pytest.raises(SimulatedUserError) as refused:
        bob.command("kick")
    assert refused.value.status == 403
    assert platformpp_user(ALICE, channel_id=GENERAL).command("kick").error is None   # the owner may


def test_an_app_without_its_bot_in_the_guild_gets_no_channel_app_permissions(
        emu: Emulator, platformpp_user: Callable[..., SimulatedUser]) -> None:
    token = "NjAwMQ.AAAA.user-installed-app-bot-token"
    seeded = httpx.post(f"{emu.base_url}/_emulator/seed", json={"applications": [{
        "id": "6000", "name": "Pocket Tool", "client_secret": "pocket-tool-secret-value",
        "bot": {"id": "6001", "username": "pocket-bot", "token": token}}]})
    assert seeded.status_code == 204, seeded.text
    with httpx.Client(base_url=emu.api_base, headers={"Authorization": f"Bot {token}"}) as http:
        made = http.post("/applications/6000/commands", json={"name": "peek", "description": "d",
                                                               "integration_types": [1], "options": [
            {"type": 7, "name": "where", "description": "c", "required": True}]})
        assert made.status_code == 201, made.text
    with GatewayBot(emu.base_url, lambda p: {"type": 4, "data": {"content": "seen", "flags": 64}},
                    token=token) as pocket:
        user = platformpp_user(ALICE, channel_id=GENERAL, application_id=6000)
        answer = user.command("peek", [{"name": "where", "value": str(GENERAL)}])
        assert answer.message["flags"] & 64
        payload = pocket.received[0]
    assert payload["authorizing_integration_owners"] == {"1": str(ALICE)}
    channel = payload["data"]["resolved"]["channels"][str(GENERAL)]
    assert "app_permissions" not in channel and channel["permissions"]


def test_interaction_payloads_never_obfuscate_channels(emu: Emulator, gateway_bot: GatewayBot,
                                                       platformpp_user: Callable[..., SimulatedUser]) -> None:
    assert httpx.put(f"{emu.base_url}/_emulator/applications/{APP_ID}/channel-obfuscation",
                     json={"enabled": True}).status_code < 300
    create(emu, {"name": "here", "description": "d"})
    answer = platformpp_user(ALICE, channel_id=MODERATORS).command("here")   # the bot cannot view #moderators
    assert answer.error is None
    channel = gateway_bot.received[0]["channel"]
    assert channel["name"] == "moderators" and not channel["flags"] & (1 << 17)


def test_context_menus_buttons_selects_and_autocomplete(emu: Emulator, gateway_bot: GatewayBot,
                                                        replies: Replies, alice: SimulatedUser) -> None:
    create(emu, {"name": "Profile", "type": 2}, guild=True)
    create(emu, {"name": "Quote", "type": 3}, guild=True)
    create(emu, {"name": "pick", "description": "d", "options": [
        {"type": 3, "name": "fruit", "description": "f", "autocomplete": True, "required": True}]})
    replies.next = lambda p: {"type": 4, "data": {"content": f"target {p['data']['target_id']}", "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "More", "custom_id": "more"},
                                   {"type": 2, "style": 5, "label": "Site", "url": "https://example.test"}]},
        {"type": 1, "components": [{"type": 3, "custom_id": "size", "max_values": 2, "options": [
            {"label": "S", "value": "s"}, {"label": "M", "value": "m"}, {"label": "L", "value": "l"}]}]},
        {"type": 1, "components": [{"type": 5, "custom_id": "who"}]}]}}
    profile = alice.user_command("Profile", BOB)
    assert profile.message["content"] == f"target {BOB}" and profile.message["type"] == 23
    assert gateway_bot.received[-1]["data"]["resolved"]["users"][str(BOB)]["id"] == str(BOB)
    quote = alice.message_command("Quote", profile.message["id"])
    assert gateway_bot.received[-1]["data"]["resolved"]["messages"][profile.message["id"]]["content"] == f"target {BOB}"
    replies.next = lambda p: {"type": 7, "data": {"content": f"clicked {p['data']['custom_id']}"}}
    clicked = alice.click(quote.message["id"], "more")
    assert clicked.answer["response_type"] == 7 and gateway_bot.received[-1]["message"]["id"] == quote.message["id"]
    assert alice.conversation(quote.id)["message"]["content"] == "clicked more"   # the message was updated
    replies.next = lambda p: {"type": 6}
    chosen = alice.choose(profile.message["id"], "size", ["s", "l"])
    assert chosen.answer["response_type"] == 6 and gateway_bot.received[-1]["data"]["values"] == ["s", "l"]
    with pytest.raises(SimulatedUserError):
        alice.choose(profile.message["id"], "size", ["xl"])
    alice.choose(profile.message["id"], "who", [str(BOB)])
    assert gateway_bot.received[-1]["data"]["resolved"]["users"][str(BOB)]
    replies.next = lambda p: {"type": 8, "data": {"choices": [{"name": "Apple", "value": "apple"}]}}
    completed = alice.autocomplete("pick", [{"name": "fruit", "value": "ap", "focused": True}])
    assert completed.choices == [{"name": "Apple", "value": "apple"}]
    assert gateway_bot.received[-1]["type"] == 4 and gateway_bot.received[-1]["data"]["options"][0]["focused"]


def test_a_button_on_a_bot_message_in_the_channel_updates_that_message(emu: Emulator, gateway_bot: GatewayBot,
                                                                      replies: Replies, alice: SimulatedUser) -> None:
    with bot(emu) as http:
        bad = http.post(f"/channels/{GENERAL}/messages", json={"components": [{"type": 2, "style": 1, "label": "x",
                                                                                "custom_id": "loose"}]})
        assert bad.status_code == 400 and "components" in bad.json()["errors"]
        sent = http.post(f"/channels/{GENERAL}/messages", json={"content": "vote", "components": [
            {"type": 1, "components": [{"type": 2, "style": 3, "label": "Yes", "custom_id": "yes"}]}]})
        assert sent.status_code == 200, sent.text
        replies.next = lambda p: {"type": 7, "data": {"content": "voted", "components": []}}
        alice.click(sent.json()["id"], "yes")
        updated = http.get(f"/channels/{GENERAL}/messages/{sent.json()['id']}").json()
    assert updated["content"] == "voted" and updated["components"] == []


def test_responses_followups_and_the_original_through_the_token(emu: Emulator, gateway_bot: GatewayBot,
                                                               replies: Replies, alice: SimulatedUser) -> None:
    create(emu, {"name": "slow", "description": "d"})
    replies.next = lambda p: {"type": 5, "data": {"flags": 64}}
    deferred = alice.command("slow")
    assert deferred.message["flags"] & 64 and deferred.message["flags"] & 128   # ephemeral, loading
    token = gateway_bot.received[-1]["token"]
    hook = f"{emu.api_base}/webhooks/{APP_ID}/{token}"
    edited = httpx.patch(f"{hook}/messages/@original", json={"content": "done"})
    assert edited.status_code == 200 and edited.json()["content"] == "done" and not edited.json()["flags"] & 128
    followup = httpx.post(hook, data={"payload_json": json.dumps({"content": "file", "attachments": [{"id": 0}]})},
                          files={"files[0]": ("a.bin", b"x" * 1024, "application/octet-stream")})
    assert followup.status_code == 200, followup.text
    assert followup.json()["attachments"][0]["size"] == 1024
    message_id = followup.json()["id"]
    assert httpx.get(f"{hook}/messages/{message_id}").json()["content"] == "file"
    assert httpx.patch(f"{hook}/messages/{message_id}", json={"content": "file!"}).json()["content"] == "file!"
    assert len(alice.conversation(deferred.id)["followups"]) == 1
    assert httpx.delete(f"{hook}/messages/{message_id}").status_code == 204
    assert httpx.get(f"{hook}/messages/{message_id}").status_code == 404
    too_big = httpx.post(hook, files={"files[0]": ("big.bin", b"x" * (20 * 1024 * 1024 + 1), "x/y")},
                         data={"payload_json": "{}"})
    assert too_big.status_code == 413 and too_big.json()["code"] == 40005
    again = httpx.post(f"{emu.api_base}/interactions/{deferred.id}/{token}/callback", json={"type": 4, "data": {
        "content": "twice"}})
    assert again.status_code == 400 and again.json()["code"] == 40060
    set_clock(emu, "2030-01-01T00:00:00Z")   # far past the token's 15 minutes
    assert httpx.get(f"{hook}/messages/@original").json()["code"] == 50027


def test_the_initial_response_must_come_within_three_seconds_of_the_emulator_clock(
        emu: Emulator, gateway_bot: GatewayBot, replies: Replies, platformpp_user: Callable[..., SimulatedUser]) -> None:
    create(emu, {"name": "late", "description": "d"})
    replies.next = lambda p: None   # the bot does not answer at once
    set_clock(emu, "2026-11-01T00:00:00Z")
    unanswered = platformpp_user(ALICE, channel_id=GENERAL, wait_s=0.2).command("late")
    assert unanswered.error == "The application did not respond" and unanswered.message is None
    token = gateway_bot.received[-1]["token"]
    callback = f"{emu.api_base}/interactions/{unanswered.id}/{token}/callback"
    set_clock(emu, "2026-11-01T00:00:03.5Z")
    late = httpx.post(callback, json={"type": 4, "data": {"content": "late"}})
    assert late.status_code == 404 and late.json()["code"] == 10062
    set_clock(emu, "2026-11-01T00:00:02.9Z")
    assert httpx.post(callback.replace(token, token + "x"), json={"type": 4}).json()["code"] == 10062
    answered = httpx.post(callback, params={"with_response": "true"}, json={"type": 4, "data": {"content": "in time"}})
    assert answered.status_code == 200, answered.text
    body = answered.json()
    assert body["interaction"]["response_message_loading"] is False and body["resource"]["message"]["content"] == "in time"


def test_callback_types_that_do_not_fit_the_interaction_are_refused(
        emu: Emulator, gateway_bot: GatewayBot, replies: Replies, platformpp_user: Callable[..., SimulatedUser]) -> None:
    alice = platformpp_user(ALICE, channel_id=GENERAL, wait_s=0.5)   # refused answers leave it unanswered
    create(emu, {"name": "act", "description": "d"})
    for kind in (1, 6, 7, 8):
        replies.next = lambda p, kind=kind: {"type": kind}
        alice.command("act")
    assert gateway_bot.callback_statuses == [400, 400, 400, 400]
    replies.next = lambda p: {"type": 12}
    launched = alice.command("act")
    assert launched.answer["response_type"] == 12 and launched.answer["activity_instance_id"]
    replies.next = lambda p: {"type": 4, "data": {"content": "", "flags": 1 << 1}}
    refused = alice.command("act")
    assert refused.error == "The application did not respond" and gateway_bot.callback_statuses[-1] == 400


def test_repeat_starts_many_interactions_at_once_without_waiting(emu: Emulator, gateway_bot: GatewayBot) -> None:
    create(emu, {"name": "burst", "description": "d"})
    body = {"action": "command", "application_id": str(APP_ID), "user_id": str(ALICE), "channel_id": str(GENERAL),
            "command_name": "burst", "repeat": 3}
    assert httpx.post(f"{emu.base_url}/_emulator/interactions", json=body).json()["errors"]["repeat"]
    started = httpx.post(f"{emu.base_url}/_emulator/interactions", json={**body, "wait_s": 0}).json()["interactions"]
    assert len({one["id"] for one in started}) == 3 and len({one["token"] for one in started}) == 3
    deadline = time.monotonic() + 5
    while len(gateway_bot.received) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert sorted(p["id"] for p in gateway_bot.received) == sorted(one["id"] for one in started)


def test_a_response_carries_files_up_to_the_upload_limit(emu: Emulator, gateway_bot: GatewayBot, replies: Replies,
                                                         platformpp_user: Callable[..., SimulatedUser]) -> None:
    create(emu, {"name": "report", "description": "d"})
    replies.next = lambda p: None   # the test answers, with files
    set_clock(emu, "2026-11-01T00:00:00Z")   # frozen: 20 MiB uploads may take longer than the 3 s window
    started = platformpp_user(ALICE, channel_id=GENERAL, wait_s=0).command("report")
    callback = f"{emu.api_base}/interactions/{started.id}/{started.interaction['token']}/callback"
    payload = json.dumps({"type": 4, "data": {"content": "see file", "attachments": [{"id": 0, "description": "d"}]}})
    too_big = httpx.post(callback, data={"payload_json": payload}, timeout=30,
                         files={"files[0]": ("big.bin", b"x" * (20 * 1024 * 1024 + 1), "application/octet-stream")})
    assert too_big.status_code == 413 and too_big.json()["code"] == 40005
    fits = httpx.post(callback, data={"payload_json": payload}, params={"with_response": "true"}, timeout=30,
                      files={"files[0]": ("report.bin", b"y" * (20 * 1024 * 1024), "application/octet-stream")})
    assert fits.status_code == 200, fits.text
    (attachment,) = fits.json()["resource"]["message"]["attachments"]
    assert attachment["size"] == 20 * 1024 * 1024 and attachment["description"] == "d"
    assert len(httpx.get(attachment["url"], timeout=30).content) == 20 * 1024 * 1024
