"""The audit log: entries written in the change's transaction for every kind of change,
with the platform's action types, changes (old/new), options and the URL-decoded X-Audit-Log-Reason;
filters and paging; referenced users and scheduled events; VIEW_AUDIT_LOG; record() as other areas
call it (the voice channel status entries carry options.status)."""

from __future__ import annotations

from typing import Any

import httpx
from platformpp.emulator import Emulator
from platformpp.emulator.areas.audit_log import store as audit_log
from social_helpers import ALICE, BOB, BOT_ID, GUILD_ID, bot

GENERAL = 1200000000000000101
# MANAGE_GUILD, MANAGE_CHANNELS, MANAGE_ROLES, MANAGE_NICKNAMES, KICK, VIEW_AUDIT_LOG, VIEW_CHANNEL, SEND,
# MANAGE_MESSAGES, MANAGE_GUILD_EXPRESSIONS, MANAGE_EVENTS, PIN_MESSAGES
ALL_NEEDED = (32 | 16 | (1 << 28) | (1 << 27) | 2 | 128 | 1024 | 2048 | 8192 | (1 << 30) | (1 << 33)
              | (1 << 43) | (1 << 51) | (1 << 44))
PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def admin(emu: Emulator, method: str, path: str, body: Any = None) -> httpx.Response:
    response = httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=10)
    assert response.status_code < 300, response.text
    return response


def make_manager(emu: Emulator) -> None:
    role = admin(emu, "POST", f"/guilds/{GUILD_ID}/roles",
                 {"name": "Manager", "position": 5, "permissions": str(ALL_NEEDED)}).json()
    admin(emu, "PUT", f"/guilds/{GUILD_ID}/members/{BOT_ID}/roles/{role['id']}")


def entries(http: httpx.Client, **params: Any) -> list[dict[str, Any]]:
    answer = http.get(f"/guilds/{GUILD_ID}/audit-logs", params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()["audit_log_entries"]


def test_changes_through_the_api_are_logged_with_reason_changes_and_options(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as http:
        assert http.get(f"/guilds/{GUILD_ID}/audit-logs").status_code == 403
        make_manager(emu)
        reason = {"X-Audit-Log-Reason": "tidy%20up%20%E2%9C%85"}
        assert http.patch(f"/guilds/{GUILD_ID}", json={"name": "Renamed"}, headers=reason).status_code == 200
        channel = http.post(f"/guilds/{GUILD_ID}/channels", json={"name": "news"}).json()
        assert http.patch(f"/channels/{channel['id']}", json={"topic": "t"}).status_code == 200
        assert http.put(f"/channels/{channel['id']}/permissions/{BOB}",
                        json={"type": 1, "allow": "1024"}).status_code == 204
        assert http.delete(f"/channels/{channel['id']}/permissions/{BOB}").status_code == 204
        role = http.post(f"/guilds/{GUILD_ID}/roles", json={"name": "Fans"}).json()
        assert http.patch(f"/guilds/{GUILD_ID}/roles/{role['id']}", json={"name": "Big fans"}).status_code == 200
        assert http.put(f"/guilds/{GUILD_ID}/members/{BOB}/roles/{role['id']}").status_code == 204
        assert http.patch(f"/guilds/{GUILD_ID}/members/{BOB}", json={"nick": "bobby"}).status_code == 200
        assert http.delete(f"/guilds/{GUILD_ID}/roles/{role['id']}").status_code == 204
        emoji = http.post(f"/guilds/{GUILD_ID}/emojis", json={"name": "wave", "image": PNG}).json()
        assert http.delete(f"/guilds/{GUILD_ID}/emojis/{emoji['id']}").status_code == 204
        message = admin(emu, "POST", f"/channels/{GENERAL}/messages", {"author_id": str(BOB), "content": "x"}).json()
        assert http.put(f"/channels/{GENERAL}/messages/pins/{message['id']}").status_code == 204
        assert http.delete(f"/channels/{GENERAL}/messages/{message['id']}").status_code == 204
        assert http.delete(f"/channels/{channel['id']}").status_code == 200
        assert http.delete(f"/guilds/{GUILD_ID}/members/{BOB}").status_code == 204
        # the bot's changes (make_manager's, through the admin API, are the owner's: test_audit_log_admin.py)
        log = http.get(f"/guilds/{GUILD_ID}/audit-logs", params={"user_id": str(BOT_ID)}).json()
    kinds = [e["action_type"] for e in reversed(log["audit_log_entries"])]
    assert kinds == [1, 10, 11, 13, 15, 30, 31, 25, 24, 32, 60, 62, 74, 72, 12, 20]
    by_kind = {e["action_type"]: e for e in log["audit_log_entries"]}
    assert by_kind[1]["reason"] == "tidy up ✅" and by_kind[1]["user_id"] == str(BOT_ID)
    assert {"key": "name", "old_value": "Demo Guild", "new_value": "Renamed"} in by_kind[1]["changes"]
    assert "reason" not in by_kind[10]
    assert {"key": "topic", "new_value": "t"} in by_kind[11]["changes"]
    assert by_kind[13]["options"] == {"id": str(BOB), "type": "1"}
    assert by_kind[25]["changes"] == [{"key": "$add", "new_value": [{"id": role["id"], "name": "Big fans"}]}]
    assert by_kind[24]["changes"] == [{"key": "nick", "new_value": "bobby"}] and by_kind[24]["target_id"] == str(BOB)
    assert by_kind[74]["options"] == {"channel_id": str(GENERAL), "message_id": message["id"]}
    assert by_kind[72]["options"] == {"channel_id": str(GENERAL), "count": "1"} and by_kind[72]["target_id"] == str(BOB)
    assert {u["id"] for u in log["users"]} == {str(BOT_ID), str(BOB)}
    for key in ("webhooks", "integrations", "threads", "application_commands", "auto_moderation_rules",
                "guild_scheduled_events"):
        assert log[key] == []


def test_filters_paging_and_validation(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_manager(emu)
    with bot(emu) as http:
        for name in ("a", "b", "c"):
            http.post(f"/guilds/{GUILD_ID}/roles", json={"name": name})
        assert http.patch(f"/guilds/{GUILD_ID}", json={"name": "Renamed"}).status_code == 200
        all_entries = entries(http, user_id=BOT_ID)   # make_manager's two are the owner's
        ids = [int(e["id"]) for e in all_entries]
        assert ids == sorted(ids, reverse=True) and len(ids) == 4
        assert [e["action_type"] for e in entries(http, action_type=30, user_id=BOT_ID)] == [30, 30, 30]
        assert len(entries(http, limit=2)) == 2
        assert [int(e["id"]) for e in entries(http, before=ids[1], user_id=BOT_ID)] == ids[2:]
        assert [int(e["id"]) for e in entries(http, after=ids[3], limit=2)] == ids[1:3]
        assert [e["action_type"] for e in entries(http, user_id=ALICE)] == [25, 30]   # the admin API, as the owner
        assert len(entries(http, user_id=BOT_ID)) == 4
        assert len(entries(http, target_id=GUILD_ID)) == 1
        for bad in ({"limit": 0}, {"limit": 101}, {"action_type": 9999}, {"action_type": 2}, {"before": "x"}):
            answer = http.get(f"/guilds/{GUILD_ID}/audit-logs", params=bad)
            assert answer.status_code == 400 and set(bad) <= set(answer.json()["errors"]), bad


def test_record_is_what_other_areas_call(platformpp_emulator: Emulator) -> None:
    """The voice channel status entries (192 / 193) carry options.status; the entry exists only if the
    transaction commits."""
    emu = platformpp_emulator
    make_manager(emu)
    with emu.state.db.transaction() as conn:
        entry_id = audit_log.record(conn, guild_id=GUILD_ID, user_id=BOT_ID, action_type=192, target_id=GENERAL,
                                    options={"status": "raiding"}, reason="event night")
    try:
        with emu.state.db.transaction() as conn:
            audit_log.record(conn, guild_id=GUILD_ID, user_id=BOT_ID, action_type=193, target_id=GENERAL)
            raise RuntimeError("rolled back")
    except RuntimeError:
        pass
    with bot(emu) as http:
        (entry,) = entries(http, user_id=BOT_ID)
    assert entry == {"id": str(entry_id), "action_type": 192, "user_id": str(BOT_ID), "target_id": str(GENERAL),
                     "changes": [], "options": {"status": "raiding"}, "reason": "event night"}


def test_role_moves_write_one_update_per_moved_role(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_manager(emu)
    with bot(emu) as http:
        first = http.post(f"/guilds/{GUILD_ID}/roles", json={"name": "first"}).json()
        http.post(f"/guilds/{GUILD_ID}/roles", json={"name": "second"})   # takes position 1, moving "first" up
        was = http.get(f"/guilds/{GUILD_ID}/roles/{first['id']}").json()["position"]
        moved = http.patch(f"/guilds/{GUILD_ID}/roles", json=[{"id": first["id"], "position": 3}])
        assert moved.status_code == 200
        (entry,) = entries(http, action_type=31)
    assert entry["target_id"] == first["id"]
    assert entry["changes"] == [{"key": "position", "old_value": was, "new_value": 3}]
