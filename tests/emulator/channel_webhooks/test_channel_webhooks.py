"""Channel webhooks as a bot and a webhook's holder meet them: MANAGE_WEBHOOKS, tokens shown only to
their holders, executes (wait, username and avatar overrides, threads, forum posts, files up to the
upload limit, components only for application-owned webhooks), the webhook's own messages, the
Slack-compatible execute, the audit log, bad input with nothing written, tokens kept out of the request
log; WEBHOOKS_UPDATE and the webhook's
MESSAGE_CREATE over a real WebSocket."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import httpx
import pytest
from channel_helpers import GENERAL, Permission, grant_bot, set_message_content
from platformpp.emulator import Emulator
from platformpp.emulator.core.fixtures import FixtureError, load_fixture_or_raise
from social_helpers import APP_ID, BOT_ID, BOT_TOKEN, GUILD_ID, GatewayClient, api, bot

GUILDS, GUILD_WEBHOOKS, GUILD_MESSAGES, MESSAGE_CONTENT = 1 << 0, 1 << 5, 1 << 9, 1 << 15
MANAGER = Permission.MANAGE_WEBHOOKS | Permission.VIEW_AUDIT_LOG | Permission.MANAGE_CHANNELS \
    | Permission.CREATE_PUBLIC_THREADS
PNG = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
       "YPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")


def _create(http: httpx.Client, channel_id: int = GENERAL, **body: Any) -> dict[str, Any]:
    response = http.post(f"/channels/{channel_id}/webhooks", json={"name": "hook", **body})
    assert response.status_code == 200, response.text
    return dict(response.json())


def _execute(emu: Emulator, hook: dict[str, Any], query: str = "?wait=true", **kwargs: Any) -> httpx.Response:
    with api(emu, None) as anonymous:
        return anonymous.post(f"/webhooks/{hook['id']}/{hook['token']}{query}", **kwargs)


def _count(emu: Emulator, sql: str) -> int:
    return int(emu.state.db.query_one(sql)[0])


def test_creating_and_listing_webhooks_needs_manage_webhooks(emu: Emulator) -> None:
    grant_bot(emu, 0)
    with bot(emu) as http:
        refused = http.post(f"/channels/{GENERAL}/webhooks", json={"name": "hook"})
        assert refused.status_code == 403 and refused.json()["code"] == 50013
        assert "MANAGE_WEBHOOKS" in refused.json()["message"]
        assert http.get(f"/guilds/{GUILD_ID}/webhooks").json()["code"] == 50013
        grant_bot(emu, MANAGER)
        hook = _create(http, avatar=PNG)
        assert hook["type"] == 1 and hook["channel_id"] == str(GENERAL) and len(hook["token"]) == 68
        assert hook["url"].endswith(f"/api/webhooks/{hook['id']}/{hook['token']}") and hook["avatar"]
        assert [h["id"] for h in http.get(f"/channels/{GENERAL}/webhooks").json()] == [hook["id"]]
        assert [h["id"] for h in http.get(f"/guilds/{GUILD_ID}/webhooks").json()] == [hook["id"]]
        assert http.get(f"/webhooks/{hook['id']}").json()["token"] == hook["token"]
        missing = http.get("/webhooks/1200000000000009999")
        assert missing.status_code == 404 and missing.json()["code"] == 10015
        log = http.get(f"/guilds/{GUILD_ID}/audit-logs", params={"action_type": 50}).json()
        assert [e["target_id"] for e in log["audit_log_entries"]] == [hook["id"]]


def test_bad_input_is_refused_naming_the_field_and_nothing_is_written(emu: Emulator) -> None:
    grant_bot(emu, MANAGER)
    with bot(emu) as http:
        for body, field in (({}, "name"), ({"name": ""}, "name"), ({"name": "x" * 81}, "name"),
                            ({"name": "my clyde"}, "name"), ({"name": "ok", "avatar": "not an image"}, "avatar")):
            refused = http.post(f"/channels/{GENERAL}/webhooks", json=body)
            assert refused.status_code == 400 and field in refused.json()["errors"], body
        assert _count(emu, "SELECT COUNT(*) FROM channel_webhooks") == 0
        hook = _create(http)
        refused = http.patch(f"/webhooks/{hook['id']}", json={"name": "", "channel_id": "x"})
        assert refused.status_code == 400 and set(refused.json()["errors"]) == {"name", "channel_id"}
        assert http.get(f"/webhooks/{hook['id']}").json()["name"] == "hook"
    refused = _execute(emu, hook, json={"content": "x", "username": "y" * 81})
    assert refused.status_code == 400 and "username" in refused.json()["errors"]
    empty = _execute(emu, hook, json={})
    assert empty.status_code == 400 and empty.json()["code"] == 50006
    assert _count(emu, "SELECT COUNT(*) FROM channel_messages WHERE webhook_id IS NOT NULL") == 0


def test_a_token_is_the_credential_and_a_wrong_one_is_refused(emu: Emulator) -> None:
    grant_bot(emu, MANAGER)
    with bot(emu) as http:
        hook = _create(http)
    with api(emu, None) as anonymous:
        shown = anonymous.get(f"/webhooks/{hook['id']}/{hook['token']}").json()
        assert shown["token"] == hook["token"] and "user" not in shown or shown["user"]
        wrong = anonymous.post(f"/webhooks/{hook['id']}/{'x' * 68}", json={"content": "hi"})
        assert wrong.status_code == 401 and wrong.json()["code"] == 50027
        renamed = anonymous.patch(f"/webhooks/{hook['id']}/{hook['token']}",
                                  json={"name": "renamed", "channel_id": "1"})
        assert renamed.status_code == 200 and renamed.json()["name"] == "renamed"
        assert renamed.json()["channel_id"] == str(GENERAL)
        assert anonymous.delete(f"/webhooks/{hook['id']}/{hook['token']}").status_code == 204
        gone = anonymous.get(f"/webhooks/{hook['id']}/{hook['token']}")
        assert gone.status_code == 404 and gone.json()["code"] == 10015


def test_an_execute_writes_a_message_whose_author_is_the_webhook(emu: Emulator) -> None:
    grant_bot(emu, MANAGER)
    set_message_content(emu, APP_ID, True)
    with bot(emu) as http:
        hook = _create(http)
    assert _execute(emu, hook, query="", json={"content": "quiet"}).status_code == 204
    sent = _execute(emu, hook, json={"content": "hi @everyone", "username": "Alerts",
                                     "avatar_url": "https://example.com/a.png",
                                     "embeds": [{"title": "t"}], "unknown_field": 1})
    assert sent.status_code == 200, sent.text
    message = sent.json()
    assert message["webhook_id"] == hook["id"] and message["author"]["id"] == hook["id"]
    assert message["author"]["username"] == "Alerts" and message["author"]["bot"] is True
    assert message["author"]["avatar"] and message["mention_everyone"] is True
    with bot(emu) as http:
        listed = http.get(f"/channels/{GENERAL}/messages", params={"limit": 2}).json()
        assert [m["content"] for m in listed] == ["hi @everyone", "quiet"]
        assert listed[1]["author"]["username"] == "hook"
        # The creator cannot edit the webhook's message through the channel route: it is not its own.
        refused = http.patch(f"/channels/{GENERAL}/messages/{message['id']}", json={"content": "x"})
        assert refused.status_code == 403 and refused.json()["code"] == 50005
    with api(emu, None) as anonymous:
        path = f"/webhooks/{hook['id']}/{hook['token']}/messages/{message['id']}"
        assert anonymous.get(path).json()["content"] == "hi @everyone"
        edited = anonymous.patch(path, json={"content": "edited"})
        assert edited.status_code == 200 and edited.json()["edited_timestamp"]
        assert edited.json()["author"]["username"] == "Alerts"
        original = anonymous.get(f"/webhooks/{hook['id']}/{hook['token']}/messages/@original")
        assert original.status_code == 404 and original.json()["code"] == 10008
        assert anonymous.delete(path).status_code == 204
        assert anonymous.get(path).json()["code"] == 10008


def test_components_need_an_application_owned_webhook(emu: Emulator) -> None:
    grant_bot(emu, MANAGER)
    with bot(emu) as http:
        hook = _create(http)
    row = {"type": 1, "components": [{"type": 2, "style": 5, "label": "go", "url": "https://example.com"}]}
    assert _execute(emu, hook, json={"content": "x", "components": [row]}).status_code == 200
    emu.state.db.execute("UPDATE channel_webhooks SET application_id = NULL")
    refused = _execute(emu, hook, json={"content": "x", "components": [row]})
    assert refused.status_code == 400 and "components" in refused.json()["errors"]


def test_threads_by_id_and_forum_posts_by_name(emu: Emulator) -> None:
    grant_bot(emu, MANAGER)
    with bot(emu) as http:
        hook = _create(http)
        thread = http.post(f"/channels/{GENERAL}/threads", json={"name": "t", "type": 11}).json()
        forum = http.post(f"/guilds/{GUILD_ID}/channels", json={"name": "forum", "type": 15}).json()
        forum_hook = _create(http, channel_id=int(forum["id"]))
    in_thread = _execute(emu, hook, query=f"?wait=1&thread_id={thread['id']}", json={"content": "in"})
    assert in_thread.status_code == 200 and in_thread.json()["channel_id"] == thread["id"]
    unknown = _execute(emu, hook, query="?wait=true&thread_id=1200000000000009999", json={"content": "x"})
    assert unknown.status_code == 404 and unknown.json()["code"] == 10003
    not_forum = _execute(emu, hook, json={"content": "x", "thread_name": "n"})
    assert not_forum.status_code == 400 and not_forum.json()["code"] == 220003
    bare = _execute(emu, forum_hook, json={"content": "x"})
    assert bare.status_code == 400 and bare.json()["code"] == 220001
    post = _execute(emu, forum_hook, json={"content": "first", "thread_name": "a post"})
    assert post.status_code == 200, post.text
    with bot(emu) as http:
        thread_of_post = http.get(f"/channels/{post.json()['channel_id']}").json()
    assert thread_of_post["name"] == "a post" and thread_of_post["parent_id"] == forum["id"]


def test_files_up_to_the_upload_limit_and_413_beyond(emu: Emulator) -> None:
    grant_bot(emu, MANAGER)
    with bot(emu) as http:
        hook = _create(http)
    limit = 20 * 1024 * 1024
    sent = _execute(emu, hook, data={"payload_json": '{"content": "file"}'},
                    files={"files[0]": ("big.bin", b"\0" * limit, "application/octet-stream")})
    assert sent.status_code == 200, sent.text[:300]
    assert sent.json()["attachments"][0]["size"] == limit
    too_big = _execute(emu, hook, data={"payload_json": '{"content": "file"}'},
                       files={"files[0]": ("big.bin", b"\0" * (limit + 1), "application/octet-stream")})
    assert too_big.status_code == 413 and too_big.json()["code"] == 40005


def test_the_slack_compatible_execute(emu: Emulator) -> None:
    grant_bot(emu, MANAGER)
    set_message_content(emu, APP_ID, True)
    with bot(emu) as http:
        hook = _create(http)
    with api(emu, None) as anonymous:
        answered = anonymous.post(f"/webhooks/{hook['id']}/{hook['token']}/slack",
                                  json={"text": "from slack", "username": "S",
                                        "attachments": [{"title": "T", "text": "body"}]})
        assert answered.status_code == 200 and answered.json() == "ok"
    with bot(emu) as http:
        latest = http.get(f"/channels/{GENERAL}/messages", params={"limit": 1}).json()[0]
    assert latest["content"] == "from slack" and latest["author"]["username"] == "S"
    assert latest["embeds"][0]["description"] == "body"


def test_modify_moves_the_webhook_and_delete_is_audited(emu: Emulator) -> None:
    grant_bot(emu, MANAGER)
    with bot(emu) as http:
        hook = _create(http)
        other = http.post(f"/guilds/{GUILD_ID}/channels", json={"name": "other", "type": 0}).json()
        moved = http.patch(f"/webhooks/{hook['id']}", json={"name": "moved", "channel_id": other["id"],
                                                             "avatar": None})
        assert moved.status_code == 200 and moved.json()["channel_id"] == other["id"]
        assert http.delete(f"/webhooks/{hook['id']}").status_code == 204
        assert http.get(f"/webhooks/{hook['id']}").json()["code"] == 10015
        log = http.get(f"/guilds/{GUILD_ID}/audit-logs").json()["audit_log_entries"]
        kinds = [e["action_type"] for e in log if e["target_id"] == hook["id"]]
        assert sorted(kinds) == [50, 51, 52]


def test_tokens_never_reach_the_request_log(emu: Emulator, caplog: pytest.LogCaptureFixture) -> None:
    grant_bot(emu, MANAGER)
    with bot(emu) as http:
        hook = _create(http)
    with caplog.at_level(logging.DEBUG, logger="platformpp.emulator"):
        assert _execute(emu, hook, json={"content": "x"}).status_code == 200
        with api(emu, None) as anonymous:
            anonymous.get(f"/webhooks/{hook['id']}/{hook['token']}/messages/1")
    emulator_records = [r for r in caplog.records if r.name.startswith("platformpp.emulator")]
    assert any("[REDACTED]" in r.getMessage() for r in emulator_records)
    assert all(hook["token"] not in r.getMessage() for r in emulator_records)


def test_webhooks_update_and_the_webhooks_message_over_the_gateway(emu: Emulator) -> None:
    grant_bot(emu, MANAGER)
    set_message_content(emu, APP_ID, True)

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILDS | GUILD_WEBHOOKS | GUILD_MESSAGES | MESSAGE_CONTENT)
        await client.dispatch("GUILD_CREATE")
        with bot(emu) as http:
            hook = await asyncio.to_thread(_create, http)
        update = (await client.dispatch("WEBHOOKS_UPDATE"))["d"]
        assert update == {"guild_id": str(GUILD_ID), "channel_id": str(GENERAL)}
        await asyncio.to_thread(_execute, emu, hook, "", json={"content": "over the wire"})
        created = (await client.dispatch("MESSAGE_CREATE"))["d"]
        assert created["webhook_id"] == hook["id"] and created["content"] == "over the wire"
        assert created["author"]["id"] == hook["id"] and "member" not in created
        await client.close()

    asyncio.run(scenario())


TOKEN = "t" * 68


def test_webhooks_load_from_a_fixture(emu: Emulator) -> None:
    load_fixture_or_raise(emu.state, {"channel_webhooks": [
        {"id": "1200000000000000901", "channel_id": str(GENERAL), "name": "ci", "user_id": str(BOT_ID),
         "token": TOKEN}]})
    sent = _execute(emu, {"id": "1200000000000000901", "token": TOKEN}, json={"content": "from a fixture"})
    assert sent.status_code == 200 and sent.json()["author"]["username"] == "ci"


def test_a_bad_webhook_fixture_names_the_field_and_loads_nothing(emu: Emulator) -> None:
    with pytest.raises(FixtureError) as failed:
        load_fixture_or_raise(emu.state, {"channel_webhooks": [
            {"channel_id": str(GENERAL), "name": "ok", "user_id": str(BOT_ID)},
            {"channel_id": str(GENERAL), "name": "", "user_id": str(BOT_ID), "token": "a/b", "type": 2}]})
    errors = failed.value.errors["channel_webhooks"]["1"]
    assert {"name", "token", "source_channel_id"} <= set(errors)
    assert _count(emu, "SELECT COUNT(*) FROM channel_webhooks") == 0


def test_a_github_push_becomes_one_embed_and_a_ping_writes_nothing(emu: Emulator) -> None:
    grant_bot(emu, MANAGER)
    set_message_content(emu, APP_ID, True)
    with bot(emu) as http:
        hook = _create(http)
    push = {"ref": "refs/heads/main", "compare": "https://example.com/compare/a...b",
            "repository": {"id": 1, "name": "game", "full_name": "studio/game", "html_url": "https://example.com"},
            "sender": {"login": "dev"},
            "commits": [{"id": f"{n:040x}", "url": f"https://example.com/c/{n}", "message": f"change {n}\nbody",
                         "author": {"name": "dev"}} for n in range(2)]}
    with api(emu, None) as anonymous:
        path = f"/webhooks/{hook['id']}/{hook['token']}/github"
        sent = anonymous.post(path + "?wait=true", json=push, headers={"X-GitHub-Event": "push"})
        assert sent.status_code == 204, sent.text
    with bot(emu) as http:
        latest = http.get(f"/channels/{GENERAL}/messages", params={"limit": 1}).json()[0]
    embed = latest["embeds"][0]
    assert embed["title"] == "[game:main] 2 new commits" and embed["url"] == push["compare"]
    assert "change 1 - dev" in embed["description"] and "body" not in embed["description"]
    assert latest["author"]["username"] == "GitHub" and latest["webhook_id"] == hook["id"]
    with api(emu, None) as anonymous:
        before = _count(emu, "SELECT COUNT(*) FROM channel_messages")
        assert anonymous.post(path, json={"zen": "hi"}, headers={"X-GitHub-Event": "ping"}).status_code == 204
        refused = anonymous.post(path, json={"ref": "x"}, headers={"X-GitHub-Event": "push"})
        assert refused.status_code == 400 and "repository" in refused.json()["errors"]
    assert _count(emu, "SELECT COUNT(*) FROM channel_messages") == before


def test_a_webhook_posts_a_poll(emu: Emulator) -> None:
    grant_bot(emu, MANAGER)
    with bot(emu) as http:
        hook = _create(http)
    poll = {"question": {"text": "Which map?"}, "answers": [{"poll_media": {"text": "Dust"}},
                                                            {"poll_media": {"text": "Nuke"}}], "duration": 2}
    sent = _execute(emu, hook, json={"poll": poll})
    assert sent.status_code == 200, sent.text
    assert sent.json()["poll"]["question"]["text"] == "Which map?"
    assert [a["poll_media"]["text"] for a in sent.json()["poll"]["answers"]] == ["Dust", "Nuke"]
    assert sent.json()["webhook_id"] == hook["id"]
