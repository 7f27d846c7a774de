"""Threads as a bot meets them: permissions taken from the parent (private threads, MANAGE_THREADS,
SEND_MESSAGES_IN_THREADS), archiving on the emulator clock, locked threads, message counts, slowmode in
a thread, forum posts with tags, bad input refused with nothing written, the audit log, and threads kept out
of channel lists and deleted with their channel."""

from __future__ import annotations

from typing import Any

import httpx
from channel_helpers import BOT_ROLE, GENERAL, Permission, grant_bot, set_clock, user_posts
from emulator_world import bot_headers
from platformpp.emulator import Emulator
from social_helpers import BOB, GUILD_ID, bot

CREATE = Permission.CREATE_PUBLIC_THREADS | Permission.CREATE_PRIVATE_THREADS
MANAGER = CREATE | Permission.MANAGE_THREADS | Permission.MANAGE_CHANNELS | Permission.VIEW_AUDIT_LOG


def _thread(http: httpx.Client, **body: Any) -> dict[str, Any]:
    response = http.post(f"/channels/{GENERAL}/threads", json={"type": 11, **body})
    assert response.status_code == 201, response.text
    return dict(response.json())


def _active_ids(http: httpx.Client) -> list[str]:
    return [t["id"] for t in http.get(f"/guilds/{GUILD_ID}/threads/active").json()["threads"]]


def test_a_private_thread_is_seen_by_its_members_and_thread_managers_only(emu: Emulator) -> None:
    grant_bot(emu, CREATE)
    with bot(emu) as http:
        private = _thread(http, name="secret", type=12)
        assert private["thread_metadata"]["invitable"] is True and private["member"]["user_id"]
        assert http.get(f"/channels/{private['id']}").status_code == 200
        assert http.delete(f"/channels/{private['id']}/thread-members/@me").status_code == 204
        hidden = http.get(f"/channels/{private['id']}")
        assert hidden.status_code == 403 and hidden.json()["code"] == 50001
        assert private["id"] not in _active_ids(http)
        posted = http.post(f"/channels/{private['id']}/messages", json={"content": "hi"})
        assert posted.status_code == 403 and posted.json()["code"] == 50001
        grant_bot(emu, CREATE | Permission.MANAGE_THREADS)
        assert http.get(f"/channels/{private['id']}").status_code == 200
        assert private["id"] in _active_ids(http)


def test_creating_threads_needs_the_thread_permissions_of_the_parent(emu: Emulator) -> None:
    grant_bot(emu, Permission.CREATE_PUBLIC_THREADS)
    with bot(emu) as http:
        refused = http.post(f"/channels/{GENERAL}/threads", json={"name": "p", "type": 12})
        assert refused.status_code == 403 and "CREATE_PRIVATE_THREADS" in refused.json()["message"]
        wrong = http.post(f"/channels/{GENERAL}/threads", json={"name": "p", "type": 10})
        assert wrong.status_code == 400 and "type" in wrong.json()["errors"]
        thread = _thread(http, name="public")
        # SEND_MESSAGES_IN_THREADS, not SEND_MESSAGES, governs messages in a thread.
        http_deny = {"type": 0, "deny": str(int(Permission.SEND_MESSAGES_IN_THREADS))}
        grant_bot(emu, Permission.CREATE_PUBLIC_THREADS | Permission.MANAGE_ROLES)
        assert http.put(f"/channels/{GENERAL}/permissions/{BOT_ROLE}", json=http_deny).status_code == 204
        refused = http.post(f"/channels/{thread['id']}/messages", json={"content": "x"})
        assert refused.status_code == 403 and "SEND_MESSAGES_IN_THREADS" in refused.json()["message"]
        assert http.post(f"/channels/{GENERAL}/messages", json={"content": "still here"}).status_code == 200


def test_threads_archive_on_the_emulator_clock_and_a_message_reopens_them(emu: Emulator) -> None:
    grant_bot(emu, CREATE)
    set_clock(emu, "2026-12-01T10:00:00Z")
    with bot(emu) as http:
        thread = _thread(http, name="short", auto_archive_duration=60)
        set_clock(emu, "2026-12-01T10:59:00Z")
        assert thread["id"] in _active_ids(http)
        set_clock(emu, "2026-12-01T11:30:00Z")
        assert thread["id"] not in _active_ids(http)
        archived = http.get(f"/channels/{GENERAL}/threads/archived/public").json()
        shown = next(t for t in archived["threads"] if t["id"] == thread["id"])
        assert shown["thread_metadata"]["archived"] is True
        assert shown["thread_metadata"]["archive_timestamp"].startswith("2026-12-01T11:00:00")
        assert http.post(f"/channels/{thread['id']}/messages", json={"content": "back"}).status_code == 200
        again = http.get(f"/channels/{thread['id']}").json()
        assert again["thread_metadata"]["archived"] is False and again["message_count"] == 1


def test_a_locked_thread_needs_manage_threads(emu: Emulator) -> None:
    grant_bot(emu, CREATE | Permission.MANAGE_THREADS)
    with bot(emu) as http:
        thread = _thread(http, name="closing")
        locked = http.patch(f"/channels/{thread['id']}", json={"archived": True, "locked": True})
        assert locked.status_code == 200 and locked.json()["thread_metadata"]["locked"] is True
        grant_bot(emu, CREATE)
        refused = http.post(f"/channels/{thread['id']}/messages", json={"content": "x"})
        assert refused.status_code == 400 and refused.json()["code"] == 50083
        reopen = http.patch(f"/channels/{thread['id']}", json={"archived": False})
        assert reopen.status_code == 400 and reopen.json()["code"] == 50083
        assert http.patch(f"/channels/{thread['id']}", json={"locked": False}).status_code == 403


def test_message_counts_and_slowmode_in_a_thread(emu: Emulator) -> None:
    grant_bot(emu, CREATE)
    set_clock(emu, "2026-12-01T10:00:00Z")
    with bot(emu) as http:
        thread = _thread(http, name="chat", rate_limit_per_user=30)
        assert thread["rate_limit_per_user"] == 30
        assert user_posts(emu, int(thread["id"]), BOB, content="one").status_code == 200
        slow = user_posts(emu, int(thread["id"]), BOB, content="two")
        assert slow.status_code == 429 and slow.json()["code"] == 20016
        mine = http.post(f"/channels/{thread['id']}/messages", json={"content": "bot"}).json()
        assert http.delete(f"/channels/{thread['id']}/messages/{mine['id']}").status_code == 204
        shown = http.get(f"/channels/{thread['id']}").json()
        assert (shown["message_count"], shown["total_message_sent"]) == (1, 2)
        listed = http.get(f"/channels/{thread['id']}/messages").json()
        assert [m["author"]["id"] for m in listed] == [str(BOB)]


def test_bad_input_is_refused_with_nothing_written(emu: Emulator) -> None:
    grant_bot(emu, MANAGER)
    with bot(emu) as http:
        bad = http.post(f"/channels/{GENERAL}/threads",
                        json={"name": "x", "type": 11, "auto_archive_duration": 61})
        assert bad.status_code == 400 and "auto_archive_duration" in bad.json()["errors"]
        assert _active_ids(http) == []
        forum = http.post(f"/guilds/{GUILD_ID}/channels", json={
            "name": "ideas", "type": 15,
            "available_tags": [{"name": "ok"}, {"name": "staff", "moderated": True}]})
        assert forum.status_code == 201, forum.text
        forum_id = forum.json()["id"]
        missing = http.post(f"/channels/{forum_id}/threads", json={"name": "post"})
        assert missing.status_code == 400 and "message" in missing.json()["errors"]
        unknown = http.post(f"/channels/{forum_id}/threads",
                            json={"name": "post", "message": {"content": "x"}, "applied_tags": ["1"]})
        assert unknown.status_code == 400 and "applied_tags" in unknown.json()["errors"]
        bad_tag = http.post(f"/guilds/{GUILD_ID}/channels", json={"name": "f", "type": 15,
                                                                   "available_tags": [{"name": "x" * 21}]})
        assert bad_tag.status_code == 400 and "available_tags" in bad_tag.json()["errors"]
        assert _active_ids(http) == []
        assert http.post(f"/channels/{BOB}/threads", json={"name": "x"}).status_code == 404


def test_forum_posts_carry_tags_and_their_first_message(emu: Emulator) -> None:
    grant_bot(emu, MANAGER)
    with bot(emu) as http:
        forum = http.post(f"/guilds/{GUILD_ID}/channels", json={
            "name": "help", "type": 15,
            "available_tags": [{"name": "bug"}, {"name": "staff", "moderated": True}],
            "default_reaction_emoji": {"emoji_name": "👍"}, "default_sort_order": 1,
            "default_forum_layout": 2,
            "default_thread_rate_limit_per_user": 5}).json()
        assert forum["default_reaction_emoji"] == {"emoji_id": None, "emoji_name": "👍"}
        assert (forum["default_sort_order"], forum["default_forum_layout"]) == (1, 2)
        bug, staff = (t["id"] for t in forum["available_tags"])
        post = http.post(f"/channels/{forum['id']}/threads", json={
            "name": "crash", "message": {"content": "it crashes"}, "applied_tags": [bug, staff]}).json()
        assert post["applied_tags"] == [bug, staff] and post["rate_limit_per_user"] == 5
        assert post["message"]["channel_id"] == post["id"] and post["message_count"] == 1
        assert post["message"]["id"] == post["id"]   # the first message takes the post's id
        kept = http.patch(f"/channels/{forum['id']}", json={"available_tags": [
            {"id": bug, "name": "bugs"}, {"id": staff, "name": "staff", "moderated": True}]}).json()
        assert kept["available_tags"][0]["id"] == bug and kept["available_tags"][0]["name"] == "bugs"
        found = http.get(f"/channels/{forum['id']}/threads/search", params={"tag": bug}).json()
        assert [t["id"] for t in found["threads"]] == [post["id"]]
        assert [m["id"] for m in found["first_messages"]] == [post["id"]]
        retagged = http.patch(f"/channels/{post['id']}", json={"applied_tags": [bug]})
        assert retagged.status_code == 200 and retagged.json()["applied_tags"] == [bug]
        grant_bot(emu, CREATE)
        moderated = http.post(f"/channels/{forum['id']}/threads", json={
            "name": "x", "message": {"content": "x"}, "applied_tags": [staff]})
        assert moderated.status_code == 403


def test_thread_changes_are_in_the_audit_log(emu: Emulator) -> None:
    grant_bot(emu, MANAGER)
    with bot(emu) as http:
        thread = _thread(http, name="logged")
        assert http.patch(f"/channels/{thread['id']}",
                          json={"name": "renamed", "locked": True}).status_code == 200
        assert http.delete(f"/channels/{thread['id']}").status_code == 200
        entries = http.get(f"/guilds/{GUILD_ID}/audit-logs").json()["audit_log_entries"]
        by_type = {e["action_type"]: e for e in entries if e["target_id"] == thread["id"]}
        assert set(by_type) == {110, 111, 112}
        changed = {c["key"]: c for c in by_type[111]["changes"]}
        assert changed["name"]["new_value"] == "renamed" and changed["locked"]["new_value"] is True
        assert http.get(f"/channels/{thread['id']}").status_code == 404


def test_threads_stay_out_of_channel_lists_and_go_with_their_channel(emu: Emulator) -> None:
    grant_bot(emu, MANAGER | Permission.PIN_MESSAGES)
    with bot(emu) as http:
        news = http.post(f"/guilds/{GUILD_ID}/channels", json={"name": "news", "type": 5}).json()
        posted = http.post(f"/channels/{news['id']}/messages", json={"content": "release"}).json()
        announced = http.post(f"/channels/{news['id']}/messages/{posted['id']}/threads",
                              json={"name": "talk"})
        assert announced.status_code == 201 and announced.json()["type"] == 10
        thread = announced.json()["id"]
        listed = {c["id"] for c in http.get(f"/guilds/{GUILD_ID}/channels").json()}
        assert news["id"] in listed and thread not in listed
        inside = http.post(f"/channels/{thread}/messages", json={"content": "pin me"}).json()
        assert http.put(f"/channels/{thread}/messages/pins/{inside['id']}").status_code == 204
        pins = http.get(f"/channels/{thread}/messages/pins").json()
        assert [p["message"]["id"] for p in pins["items"]] == [inside["id"]]
        # A media channel (type 16) is outside the published schema's enum (docs/emulator.md): made unhooked.
        media = httpx.post(f"{emu.base_url}/api/v10/guilds/{GUILD_ID}/channels", headers=bot_headers(),
                           json={"name": "clips", "type": 16, "available_tags": [{"name": "funny"}]}).json()
        clip = http.post(f"/channels/{media['id']}/threads", json={
            "name": "clip", "message": {"content": "watch"},
            "applied_tags": [media["available_tags"][0]["id"]]})
        assert clip.status_code == 201 and clip.json()["parent_id"] == media["id"]
        refused = http.put(f"/channels/{thread}/permissions/{BOT_ROLE}", json={"type": 0, "allow": "1024"})
        assert refused.status_code == 400 and refused.json()["code"] == 50024   # a thread has its parent's
        assert http.delete(f"/channels/{news['id']}").status_code == 200
        assert http.get(f"/channels/{thread}").status_code == 404
        assert _active_ids(http) == [clip.json()["id"]]
