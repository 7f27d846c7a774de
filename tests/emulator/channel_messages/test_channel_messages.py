"""Guild channel messages over real HTTP: create (JSON), get, list with before/after/around, edit,
delete, bulk delete, permissions from the engine, mentions, replies, and the MESSAGE_CONTENT rule in
REST answers. Every answer is validated against the published schema by the conftest hook."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from channel_helpers import (
    APP_FLAG_MESSAGE_CONTENT,
    BOT_ROLE,
    GENERAL,
    MODERATORS,
    Permission,
    grant_bot,
    set_message_content,
    set_role_permissions,
    user_posts,
)
from platformpp.emulator import Emulator
from platformpp.emulator.core.snowflake import make_snowflake
from social_helpers import ALICE, APP_ID, BOB, BOT_ID, GUILD_ID, bot


def test_create_get_and_content_for_a_bot_with_the_intent(emu: Emulator) -> None:
    set_message_content(emu, APP_ID, True)
    with bot(emu) as http:
        created = http.post(f"/channels/{GENERAL}/messages", json={"content": "hello <@1100000000000000002>",
                                                                   "nonce": "n-1", "tts": False})
        assert created.status_code == 200, created.text
        message = created.json()
        assert message["content"] == "hello <@1100000000000000002>"
        assert message["author"]["id"] == str(BOT_ID) and message["channel_id"] == str(GENERAL)
        assert message["guild_id"] == str(GUILD_ID) and message["nonce"] == "n-1"
        assert [m["id"] for m in message["mentions"]] == [str(BOB)] and message["pinned"] is False
        fetched = http.get(f"/channels/{GENERAL}/messages/{message['id']}").json()
        assert fetched == message


def test_bot_without_message_content_sees_empty_content_except_own_and_mentions(emu: Emulator) -> None:
    set_message_content(emu, APP_ID, False)
    plain = user_posts(emu, GENERAL, ALICE, content="secret plans").json()
    mention = user_posts(emu, GENERAL, ALICE, content=f"hey <@{BOT_ID}>").json()
    with bot(emu) as http:
        own = http.post(f"/channels/{GENERAL}/messages", json={"content": "mine"}).json()
        assert own["content"] == "mine"
        assert http.get(f"/channels/{GENERAL}/messages/{plain['id']}").json()["content"] == ""
        assert http.get(f"/channels/{GENERAL}/messages/{mention['id']}").json()["content"] == f"hey <@{BOT_ID}>"
        listed = {m["id"]: m["content"] for m in http.get(f"/channels/{GENERAL}/messages").json()}
        assert listed == {plain["id"]: "", mention["id"]: f"hey <@{BOT_ID}>", own["id"]: "mine"}
    set_message_content(emu, APP_ID, True)
    with bot(emu) as http:
        assert http.get(f"/channels/{GENERAL}/messages/{plain['id']}").json()["content"] == "secret plans"
    assert APP_FLAG_MESSAGE_CONTENT == 1 << 18


def test_list_paging_before_after_around(emu: Emulator) -> None:
    set_message_content(emu, APP_ID, True)
    with bot(emu) as http:
        ids = [int(http.post(f"/channels/{GENERAL}/messages", json={"content": f"m{i}"}).json()["id"])
               for i in range(7)]
        newest_first = [int(m["id"]) for m in http.get(f"/channels/{GENERAL}/messages").json()]
        assert newest_first == ids[::-1]
        assert [int(m["id"]) for m in http.get(f"/channels/{GENERAL}/messages",
                                               params={"before": ids[3], "limit": 2}).json()] == [ids[2], ids[1]]
        assert [int(m["id"]) for m in http.get(f"/channels/{GENERAL}/messages",
                                               params={"after": ids[3], "limit": 2}).json()] == [ids[5], ids[4]]
        around = [int(m["id"]) for m in http.get(f"/channels/{GENERAL}/messages",
                                                 params={"around": ids[3], "limit": 3}).json()]
        assert around == [ids[4], ids[3], ids[2]]
        bad = http.get(f"/channels/{GENERAL}/messages", params={"limit": 101})
        assert bad.status_code == 400 and "limit" in bad.json()["errors"]
        both = http.get(f"/channels/{GENERAL}/messages", params={"before": ids[1], "after": ids[0]})
        assert both.status_code == 400


def test_permissions_view_send_and_history(emu: Emulator) -> None:
    with bot(emu) as http:
        hidden = http.post(f"/channels/{MODERATORS}/messages", json={"content": "x"})
        assert hidden.status_code == 403 and hidden.json()["code"] == 50001
        assert http.get(f"/channels/{MODERATORS}/messages").status_code == 403
        unknown = http.post("/channels/1/messages", json={"content": "x"})
        assert unknown.status_code == 404 and unknown.json()["code"] == 10003
        empty = http.post(f"/channels/{GENERAL}/messages", json={"content": ""})
        assert empty.status_code == 400 and empty.json()["code"] == 50006
        long = http.post(f"/channels/{GENERAL}/messages", json={"content": "x" * 2001})
        assert long.status_code == 400 and "content" in long.json()["errors"]
        unknown_field = http.post(f"/channels/{GENERAL}/messages", json={"content": "x", "colour": 1})
        assert unknown_field.status_code == 200 and "colour" not in unknown_field.json()
    # @everyone loses SEND_MESSAGES: the bot can read but not post.
    everyone = int(emu.state.db.query_one("SELECT permissions FROM roles WHERE id = ?", (GUILD_ID,))[0])
    set_role_permissions(emu, GUILD_ID, everyone & ~Permission.SEND_MESSAGES)
    with bot(emu) as http:
        refused = http.post(f"/channels/{GENERAL}/messages", json={"content": "x"})
        assert refused.status_code == 403 and refused.json()["code"] == 50013
        assert "SEND_MESSAGES" in refused.json()["message"]
    # ... and without READ_MESSAGE_HISTORY the list is empty, a single message is refused.
    posted = user_posts(emu, GENERAL, ALICE, content="hi").json()
    set_role_permissions(emu, GUILD_ID, everyone & ~Permission.READ_MESSAGE_HISTORY)
    with bot(emu) as http:
        assert http.get(f"/channels/{GENERAL}/messages").json() == []
        assert http.get(f"/channels/{GENERAL}/messages/{posted['id']}").status_code == 403


def test_edit_and_delete_rules(emu: Emulator) -> None:
    set_message_content(emu, APP_ID, True)
    theirs = user_posts(emu, GENERAL, ALICE, content="alice's").json()
    with bot(emu) as http:
        own = http.post(f"/channels/{GENERAL}/messages", json={"content": "v1"}).json()
        edited = http.patch(f"/channels/{GENERAL}/messages/{own['id']}", json={"content": "v2 <@&1200000000000000010>"})
        assert edited.status_code == 200 and edited.json()["content"] == "v2 <@&1200000000000000010>"
        assert edited.json()["edited_timestamp"] is not None
        assert edited.json()["mention_roles"] == ["1200000000000000010"]
        other = http.patch(f"/channels/{GENERAL}/messages/{theirs['id']}", json={"content": "hijack"})
        assert other.status_code == 403 and other.json()["code"] == 50005
        refused = http.delete(f"/channels/{GENERAL}/messages/{theirs['id']}")
        assert refused.status_code == 403 and refused.json()["code"] == 50013
        assert http.delete(f"/channels/{GENERAL}/messages/{own['id']}").status_code == 204
        gone = http.get(f"/channels/{GENERAL}/messages/{own['id']}")
        assert gone.status_code == 404 and gone.json()["code"] == 10008
    grant_bot(emu, Permission.MANAGE_MESSAGES)
    with bot(emu) as http:
        suppress = http.patch(f"/channels/{GENERAL}/messages/{theirs['id']}", json={"flags": 4})
        assert suppress.status_code == 200 and suppress.json()["flags"] == 4
        assert suppress.json()["content"] == "alice's" and suppress.json()["edited_timestamp"] is None
        assert http.delete(f"/channels/{GENERAL}/messages/{theirs['id']}").status_code == 204


def test_bulk_delete(emu: Emulator) -> None:
    ids = [user_posts(emu, GENERAL, ALICE, content=f"b{i}").json()["id"] for i in range(3)]
    with bot(emu) as http:
        refused = http.post(f"/channels/{GENERAL}/messages/bulk-delete", json={"messages": ids})
        assert refused.status_code == 403
    grant_bot(emu, Permission.MANAGE_MESSAGES)
    with bot(emu) as http:
        one = http.post(f"/channels/{GENERAL}/messages/bulk-delete", json={"messages": ids[:1]})
        assert one.status_code == 400 and "messages" in one.json()["errors"]
        dup = http.post(f"/channels/{GENERAL}/messages/bulk-delete", json={"messages": [ids[0], ids[0]]})
        assert dup.status_code == 400
        old = make_snowflake(int((datetime.now(timezone.utc) - timedelta(days=15)).timestamp() * 1000))
        too_old = http.post(f"/channels/{GENERAL}/messages/bulk-delete", json={"messages": [ids[0], str(old)]})
        assert too_old.status_code == 400 and too_old.json()["code"] == 50034
        assert len(http.get(f"/channels/{GENERAL}/messages").json()) == 3   # nothing deleted by the refusals
        assert http.post(f"/channels/{GENERAL}/messages/bulk-delete", json={"messages": ids[:2]}).status_code == 204
        assert [m["id"] for m in http.get(f"/channels/{GENERAL}/messages").json()] == [ids[2]]


def test_replies_and_mentions(emu: Emulator) -> None:
    set_message_content(emu, APP_ID, True)
    original = user_posts(emu, GENERAL, ALICE, content="question").json()
    with bot(emu) as http:
        reply = http.post(f"/channels/{GENERAL}/messages", json={
            "content": "answer @everyone <@1100000000000000001>",
            "message_reference": {"message_id": original["id"]},
            "allowed_mentions": {"parse": []}}).json()
        assert reply["type"] == 19 and reply["message_reference"]["message_id"] == original["id"]
        assert reply["mentions"] == [] and reply["mention_everyone"] is False
        missing = http.post(f"/channels/{GENERAL}/messages", json={"content": "x", "message_reference": {
            "message_id": "1234"}})
        assert missing.status_code == 400 and "message_reference" in missing.json()["errors"]
    # The bot lacks MENTION_EVERYONE; Alice (Moderator role) holds it.
    everyone = user_posts(emu, GENERAL, ALICE, content="@everyone look").json()
    assert everyone["mention_everyone"] is True
    assert BOT_ROLE


def test_a_timed_out_member_keeps_only_view_and_history(emu: Emulator) -> None:
    emu.state.db.execute("UPDATE members SET communication_disabled_until = '2999-01-01T00:00:00+00:00'"
                         " WHERE guild_id = ? AND user_id = ?", (GUILD_ID, BOB))
    refused = user_posts(emu, GENERAL, BOB, content="let me talk")
    assert refused.status_code == 403 and "SEND_MESSAGES" in refused.json()["message"]
    emu.state.db.execute("UPDATE members SET communication_disabled_until = '2000-01-01T00:00:00+00:00'"
                         " WHERE guild_id = ? AND user_id = ?", (GUILD_ID, BOB))
    assert user_posts(emu, GENERAL, BOB, content="back").status_code == 200


def test_admin_post_refuses_bad_input_and_writes_nothing(emu: Emulator) -> None:
    unknown = user_posts(emu, GENERAL, 42, content="who am I")
    assert unknown.status_code == 400 and "author_id" in unknown.json()["errors"]
    bad = user_posts(emu, GENERAL, ALICE, content=5, tts="yes")
    assert bad.status_code == 400 and set(bad.json()["errors"]) == {"content", "tts"}
    assert emu.state.db.query_one("SELECT COUNT(*) FROM channel_messages")[0] == 0


def test_polls_need_send_polls_and_carry_an_expiry(emu: Emulator) -> None:
    poll = {"question": {"text": "Pizza?"}, "answers": [{"poll_media": {"text": "yes"}}, {"poll_media": {"text": "no"}}],
            "duration": 2}
    with bot(emu) as http:
        refused = http.post(f"/channels/{GENERAL}/messages", json={"poll": poll})
        assert refused.status_code == 403 and "SEND_POLLS" in refused.json()["message"]
    grant_bot(emu, Permission.SEND_POLLS)
    set_message_content(emu, APP_ID, True)
    with bot(emu) as http:
        message = http.post(f"/channels/{GENERAL}/messages", json={"poll": poll})
        assert message.status_code == 200, message.text
        created = message.json()
        assert [a["poll_media"]["text"] for a in created["poll"]["answers"]] == ["yes", "no"]
        expiry = datetime.fromisoformat(created["poll"]["expiry"]) - datetime.fromisoformat(created["timestamp"])
        assert expiry == timedelta(hours=2) and created["poll"]["results"]["is_finalized"] is False
        bad = http.post(f"/channels/{GENERAL}/messages", json={"poll": {"question": {"text": "?"}, "answers": []}})
        assert bad.status_code == 400 and "answers" in bad.json()["errors"]["poll"]
