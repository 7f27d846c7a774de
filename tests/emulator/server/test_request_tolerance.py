"""Request fields a route does not know are ignored, as on the platform: what real clients send on
message edits (``tts``, ``enforce_nonce``, ``flags: 0``, kept attachments as whole attachment objects),
on interaction responses, ``@original`` edits and followups, and ``id`` inside permission overwrite
bodies. Known fields keep their checks: a wrong type still answers 50035 naming the field."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
from channel_helpers import GENERAL, grant_bot, set_clock
from emulator_world import ALICE, APP_ID, BOB, GUILD_ID
from interaction_bots import GatewayBot, Replies
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission
from platformpp.emulator.simulated_user import SimulatedUser
from social_helpers import bot

IS_SPOILER = 1 << 3
# What message-sending clients add to every send and edit.
CLIENT_EXTRAS = {"tts": False, "enforce_nonce": False, "flags": 0, "nonce": None, "sticker_ids": [],
                 "embeds": [], "components": []}


def whole(attachment: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A kept attachment as client libraries send it back: the whole object, plus ``spoiler``."""
    sent = {key: attachment.get(key) for key in ("id", "filename", "url", "proxy_url", "size", "content_type",
                                                 "width", "height", "description", "title")}
    return {**sent, "spoiler": bool(attachment.get("flags", 0) & IS_SPOILER), "ephemeral": False, **changes}


def refused_naming(response: httpx.Response, *path: str) -> bool:
    if response.status_code != 400 or response.json()["code"] != 50035:
        return False
    node = response.json()["errors"]
    for part in path:
        node = node[part]
    return "_errors" in node


def test_a_message_edit_with_what_clients_send_is_applied(emu: Emulator) -> None:
    with bot(emu) as http:
        sent = http.post(f"/channels/{GENERAL}/messages", json={"content": "v1", **CLIENT_EXTRAS, "nonce": "n1"})
        assert sent.status_code == 200, sent.text
        edited = http.patch(f"/channels/{GENERAL}/messages/{sent.json()['id']}",
                            json={"content": "v2", **CLIENT_EXTRAS, "tts": True, "allowed_mentions": None})
        assert edited.status_code == 200, edited.text
        assert edited.json()["content"] == "v2" and edited.json()["tts"] is False and edited.json()["flags"] == 0
        wrong = http.patch(f"/channels/{GENERAL}/messages/{sent.json()['id']}", json={"content": "v3", "flags": "0"})
        assert refused_naming(wrong, "flags")
        assert http.get(f"/channels/{GENERAL}/messages/{sent.json()['id']}").json()["content"] == "v2"


def test_kept_attachments_sent_as_whole_objects_are_kept_by_id_with_their_changes(emu: Emulator) -> None:
    with bot(emu) as http:
        made = http.post(f"/channels/{GENERAL}/messages",
                         data={"payload_json": json.dumps({"content": "pics", "attachments": [{"id": 0}, {"id": 1}]})},
                         files={"files[0]": ("cat.png", b"png", "image/png"), "files[1]": ("dog.png", b"png2", "image/png")})
        assert made.status_code == 200, made.text
        cat, dog = made.json()["attachments"]
        # The client renames nothing and changes no url: those fields are ignored, the id is what is kept.
        edited = http.patch(f"/channels/{GENERAL}/messages/{made.json()['id']}", json={
            "content": "pics", **CLIENT_EXTRAS,
            "attachments": [whole(cat, description="a cat", spoiler=True, url="https://elsewhere.invalid/x",
                                  filename="renamed.png", size=1)]})
        assert edited.status_code == 200, edited.text
        (kept,) = edited.json()["attachments"]
        assert kept["id"] == cat["id"] and kept["filename"] == "cat.png" and kept["url"] == cat["url"]
        assert kept["size"] == cat["size"] and kept["description"] == "a cat" and kept["flags"] & IS_SPOILER
        assert httpx.get(dog["url"]).status_code == 404   # left out: removed
        # ``is_spoiler`` is read before the ``spoiler`` some clients send.
        unspoiled = http.patch(f"/channels/{GENERAL}/messages/{made.json()['id']}", json={
            "attachments": [whole(kept, is_spoiler=False, spoiler=True)]})
        assert not unspoiled.json()["attachments"][0]["flags"] & IS_SPOILER
        wrong = http.patch(f"/channels/{GENERAL}/messages/{made.json()['id']}", json={
            "attachments": [whole(kept, description=5)]})
        assert refused_naming(wrong, "attachments", "0", "description")


def test_id_inside_overwrite_bodies_is_accepted(emu: Emulator) -> None:
    grant_bot(emu, Permission.MANAGE_CHANNELS | Permission.MANAGE_ROLES | Permission.VIEW_CHANNEL
              | Permission.SEND_MESSAGES)
    with bot(emu) as http:
        channel = http.post(f"/guilds/{GUILD_ID}/channels", json={
            "name": "den", "type": 0, "permission_overwrites": [
                {"id": BOB, "type": 1, "allow": "0", "deny": "1024", "allow_new": "0", "deny_new": "1024"}]})
        assert channel.status_code == 201, channel.text
        channel_id = channel.json()["id"]
        put = http.put(f"/channels/{channel_id}/permissions/{ALICE}",
                       json={"id": str(ALICE), "type": 1, "allow": "1024", "deny": "0"})
        assert put.status_code == 204, put.text
        modified = http.patch(f"/channels/{channel_id}", json={"permission_overwrites": [
            {"id": str(ALICE), "type": 1, "allow": "2048", "deny": "0", "allow_new": "2048", "deny_new": "0"}]})
        assert modified.status_code == 200, modified.text
        (overwrite,) = modified.json()["permission_overwrites"]
        assert overwrite["id"] == str(ALICE) and overwrite["allow"] == "2048"
        wrong = http.put(f"/channels/{channel_id}/permissions/{BOB}", json={"id": str(BOB), "type": "member"})
        assert refused_naming(wrong, "type")


def test_interaction_responses_edits_and_followups_with_what_clients_send(
        emu: Emulator, gateway_bot: GatewayBot, replies: Replies,
        platformpp_user: Callable[..., SimulatedUser]) -> None:
    with bot(emu) as http:
        assert http.post(f"/applications/{APP_ID}/commands", json={"name": "ping", "description": "d"}).status_code == 201
    replies.next = lambda p: None   # the test answers
    set_clock(emu, "2026-11-01T00:00:00Z")   # frozen: the 3-second window does not run out
    started = platformpp_user(ALICE, channel_id=GENERAL, wait_s=0).command("ping")
    token = started.interaction["token"]
    callback = f"{emu.api_base}/interactions/{started.id}/{token}/callback"
    wrong = httpx.post(callback, json={"type": 4, "data": {"content": 5, **CLIENT_EXTRAS}})
    assert refused_naming(wrong, "data", "content")
    answered = httpx.post(callback, params={"with_response": "true"}, data={"payload_json": json.dumps({
        "type": 4, "data": {"content": "pong", **CLIENT_EXTRAS, "attachments": [{"id": 0}]}})},
        files={"files[0]": ("a.txt", b"hello", "text/plain")})
    assert answered.status_code == 200, answered.text
    (attachment,) = answered.json()["resource"]["message"]["attachments"]
    hook = f"{emu.api_base}/webhooks/{APP_ID}/{token}"
    edited = httpx.patch(f"{hook}/messages/@original", json={
        "content": "pong!", **CLIENT_EXTRAS, "attachments": [whole(attachment, description="greeting")]})
    assert edited.status_code == 200, edited.text
    assert edited.json()["content"] == "pong!"
    (kept,) = edited.json()["attachments"]
    assert kept["id"] == attachment["id"] and kept["url"] == attachment["url"] and kept["description"] == "greeting"
    followup = httpx.post(hook, json={"content": "more", **CLIENT_EXTRAS, "username": "x", "avatar_url": None})
    assert followup.status_code == 200, followup.text
    again = httpx.patch(f"{hook}/messages/{followup.json()['id']}", json={"content": "more!", **CLIENT_EXTRAS})
    assert again.status_code == 200 and again.json()["content"] == "more!"


def test_a_bulk_overwrite_with_empty_lists_and_nulls_on_options_is_accepted(emu: Emulator) -> None:
    """What command libraries send for every option: empty ``choices`` / ``channel_types``,
    ``autocomplete: false`` and nulls, on options that can have none of them."""
    extras = {"choices": [], "autocomplete": False, "channel_types": [], "options": [], "min_value": None,
              "max_value": None, "min_length": None, "max_length": None, "name_localizations": None,
              "description_localizations": None}
    command = {"name": "who", "description": "d", "type": 1, "dm_permission": True, "nsfw": False,
               "default_member_permissions": None, "name_localizations": None, "description_localizations": None,
               "contexts": None, "integration_types": None, "options": [
                   {"type": 6, "name": "user", "description": "u", "required": True, **extras},
                   {"type": 3, "name": "note", "description": "n", "required": False, **extras}]}
    path = f"/applications/{APP_ID}/commands"
    with bot(emu) as http:
        put = http.put(path, json=[command])
        assert put.status_code == 200, put.text
        user, note = put.json()[0]["options"]
        assert user["type"] == 6 and "choices" not in user and "autocomplete" not in user
        assert note["type"] == 3 and "choices" not in note
        wrong = http.put(path, json=[{**command, "options": [{**command["options"][0], "choices": "none"}]}])
        assert refused_naming(wrong, "0", "options", "0", "choices")
        given = http.put(path, json=[{**command, "options": [{**command["options"][0], "choices": [
            {"name": "me", "value": "1"}]}]}])
        assert refused_naming(given, "0", "options", "0", "choices")   # a USER option has no choices
        assert [c["name"] for c in http.get(path).json()] == ["who"]
