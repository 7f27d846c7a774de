"""Guild invites: rows, the invite object, INVITE_CREATE / INVITE_DELETE, accepting, and target users.

An invite with target users (``restricted``) may be accepted only by them. Its list is replaced by a
job (``jobs.py``) reading an upload staged line by line in ``invite_target_uploads``; single and bulk
changes edit it directly. Expiry (``expires_at``) and ``max_uses`` follow the emulator clock; an
invite used up, or expired (``expiry.py``, at that instant), is deleted (INVITE_DELETE). One that is
``temporary`` makes temporary members (members/temporary.py). Lobby invites (``lobby_invites``, single use, one target)
are answered and accepted through the same routes."""

from __future__ import annotations

import json
import secrets
import sqlite3
import string
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from ...core import errors
from ...core.clock import format_instant, parse_instant
from ...core.errors import ApiError
from ...core.permissions import Permission
from ...events.audience import Payload, Viewer
from ...events.outbox import Outbox
from ...wire.guild import vanity_url_code
from ...wire.user import public_user_json
from ..audit_log import actions
from ..audit_log import store as audit_log
from ..guild_settings import incidents
from ..guilds import mutations
from ..guilds.access import permissions_in, standing
from ..guilds.dispatch import guild_bots
from ..members import bans

UNKNOWN_INVITE = 10006
USER_BANNED = 40007
GUILD_INVITES_INTENT = 1 << 6
_ALPHABET = string.ascii_letters + string.digits


def new_code() -> str:
    """Invite codes of every kind (guild and lobby invites): 10 random letters and digits."""
    return "".join(secrets.choice(_ALPHABET) for _ in range(10))


def _user(conn: sqlite3.Connection, user_id: int | None) -> Payload | None:
    row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone() if user_id else None
    return public_user_json(row) if row else None


def partial_role(row: sqlite3.Row) -> Payload:
    """The invite's role: exactly these seven fields (seed, Fields: "Invite role")."""
    return {"id": str(row["id"]), "name": row["name"], "position": row["position"], "color": row["color"],
            "colors": {"primary_color": row["color"], "secondary_color": row["secondary_color"],
                       "tertiary_color": row["tertiary_color"]},
            "icon": row["icon"], "unicode_emoji": row["unicode_emoji"]}


def invite_guild(conn: sqlite3.Connection, guild_id: int) -> Payload:
    """The invite's partial guild (the emulator's guilds have no splash, banner or boosts)."""
    guild = conn.execute("SELECT * FROM guilds WHERE id = ?", (guild_id,)).fetchone()
    return {"id": str(guild["id"]), "name": guild["name"], "icon": guild["icon"], "splash": None,
            "banner": None, "description": guild["description"], "features": json.loads(guild["features"]),
            "verification_level": guild["verification_level"], "vanity_url_code": vanity_url_code(guild),
            "nsfw_level": 0, "nsfw": False, "premium_subscription_count": 0}


def counts(conn: sqlite3.Connection, guild_id: int) -> Payload:
    members = conn.execute("SELECT COUNT(*) FROM members WHERE guild_id = ?", (guild_id,)).fetchone()[0]
    present = conn.execute("SELECT COUNT(*) FROM members m JOIN presences p ON p.user_id = m.user_id"
                           " WHERE m.guild_id = ? AND p.status != 'offline'", (guild_id,)).fetchone()[0]
    return {"approximate_member_count": members, "approximate_presence_count": present}


def _channel(conn: sqlite3.Connection, channel_id: int) -> sqlite3.Row:
    return conn.execute("SELECT id, name, type FROM channels WHERE id = ?", (channel_id,)).fetchone()


def _is_member(conn: sqlite3.Connection, guild_id: int, user_id: int) -> bool:
    return conn.execute("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?",
                        (guild_id, user_id)).fetchone() is not None


def invite_json(conn: sqlite3.Connection, row: sqlite3.Row, *, with_counts: bool = False) -> Payload:
    channel = _channel(conn, row["channel_id"])
    role_ids = [int(r) for r in json.loads(row["role_ids"])]
    marks = ", ".join("?" * len(role_ids))
    roles = [partial_role(r) for r in conn.execute(
        f"SELECT * FROM roles WHERE id IN ({marks}) ORDER BY position, id", role_ids)]
    body: Payload = {
        "type": 0, "code": row["code"], "guild_id": str(row["guild_id"]),
        "guild": invite_guild(conn, row["guild_id"]),
        "channel": {"id": str(channel["id"]), "name": channel["name"], "type": channel["type"]},
        "max_age": row["max_age"], "max_uses": row["max_uses"], "uses": row["uses"],
        "temporary": bool(row["temporary"]), "created_at": row["created_at"], "expires_at": row["expires_at"],
        "flags": 0, "roles": roles,
    }
    inviter = _user(conn, row["inviter_id"])
    if inviter is not None:
        body["inviter"] = inviter
    if row["target_type"] is not None:
        body["target_type"] = row["target_type"]
    target_user = _user(conn, row["target_user_id"])
    if target_user is not None:
        body["target_user"] = target_user
    if with_counts:
        body.update(counts(conn, row["guild_id"]))
    return body


def lobby_invite_json(conn: sqlite3.Connection, row: sqlite3.Row, *, with_counts: bool = False) -> Payload:
    """A lobby's single-use invite, in the same shape, with its lobby and its one user."""
    guild_id = conn.execute("SELECT guild_id FROM channels WHERE id = ?", (row["channel_id"],)).fetchone()[0]
    channel = _channel(conn, row["channel_id"])
    body: Payload = {
        "type": 0, "code": row["code"], "guild_id": str(guild_id), "guild": invite_guild(conn, guild_id),
        "channel": {"id": str(channel["id"]), "name": channel["name"], "type": channel["type"]},
        "max_age": 3600, "max_uses": 1, "uses": 1 if row["used_at"] else 0, "temporary": False,
        "created_at": row["created_at"], "expires_at": row["expires_at"], "lobby_id": str(row["lobby_id"]),
        "target_user_id": str(row["target_user_id"]),
    }
    if with_counts:
        body.update(counts(conn, guild_id))
    return body


# --- reading ------------------------------------------------------------------------------------------

def _expired(row: sqlite3.Row, now: datetime) -> bool:
    return row["expires_at"] is not None and parse_instant(row["expires_at"]) <= now


def live_invite(conn: sqlite3.Connection, code: str, now: datetime) -> sqlite3.Row:
    """A guild invite that is still usable; 404 10006 otherwise."""
    row = conn.execute("SELECT * FROM guild_invites WHERE code = ?", (code,)).fetchone()
    if row is None or _expired(row, now):
        raise errors.not_found(UNKNOWN_INVITE, "Invite")
    return row


def live_lobby_invite(conn: sqlite3.Connection, code: str, now: datetime) -> sqlite3.Row | None:
    row = conn.execute("SELECT * FROM lobby_invites WHERE code = ?", (code,)).fetchone()
    if row is None or row["used_at"] is not None or parse_instant(row["expires_at"]) <= now:
        return None
    return row


def invites_of(conn: sqlite3.Connection, column: str, value: int, now: datetime) -> list[Payload]:
    assert column in ("guild_id", "channel_id")
    rows = conn.execute(f"SELECT * FROM guild_invites WHERE {column} = ? ORDER BY created_at, code", (value,))
    return [invite_json(conn, row) for row in rows if not _expired(row, now)]


# --- events -------------------------------------------------------------------------------------------

def _announce(conn: sqlite3.Connection, outbox: Outbox, now: datetime, event: str, channel_id: int,
              guild_id: int, payload: Payload) -> None:
    """To bots of the guild with the GUILD_INVITES intent that hold MANAGE_CHANNELS in the channel."""
    channel = conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()
    bots = guild_bots(conn, guild_id, now)
    readers = set()
    for user_id in bots.visible:
        who = standing(conn, guild_id, user_id, now)
        if who is not None and channel is not None \
                and permissions_in(who, channel) & Permission.MANAGE_CHANNELS:
            readers.add(user_id)

    def render(viewer: Viewer) -> Payload | None:
        return payload if viewer.user_id in readers and bots.admits(viewer, GUILD_INVITES_INTENT) else None
    outbox.add(event, render)


def _create_payload(conn: sqlite3.Connection, row: sqlite3.Row) -> Payload:
    body = invite_json(conn, row)
    payload: Payload = {"channel_id": str(row["channel_id"]), "guild_id": str(row["guild_id"]),
                        **{k: body[k] for k in ("code", "created_at", "max_age", "max_uses", "temporary",
                                                "uses", "expires_at")}}
    for key in ("inviter", "target_type", "target_user"):
        if key in body:
            payload[key] = body[key]
    return payload


# --- writing ------------------------------------------------------------------------------------------

def create(conn: sqlite3.Connection, outbox: Outbox, now: datetime, *, channel: sqlite3.Row,
           inviter_id: int | None, settings: dict[str, Any], restricted: bool) -> sqlite3.Row:
    """``settings``: max_age, max_uses, temporary, target_type, target_user_id, target_application_id,
    role_ids (validated by the route). No ``inviter_id``: the platform's own invite (the guild
    widget's), which no one made and the audit log does not show."""
    incidents.require_invites_open(conn, channel["guild_id"], now)
    code = new_code()
    max_age = settings["max_age"]
    expires_at = format_instant(now + timedelta(seconds=max_age)) if max_age else None
    conn.execute("INSERT INTO guild_invites (code, guild_id, channel_id, inviter_id, max_age, max_uses,"
                 " temporary, target_type, target_user_id, target_application_id, role_ids, restricted,"
                 " created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (code, channel["guild_id"], channel["id"], inviter_id, max_age, settings["max_uses"],
                  int(settings["temporary"]), settings["target_type"], settings["target_user_id"],
                  settings["target_application_id"], json.dumps([str(r) for r in settings["role_ids"]]),
                  int(restricted), format_instant(now), expires_at))
    row = conn.execute("SELECT * FROM guild_invites WHERE code = ?", (code,)).fetchone()
    _announce(conn, outbox, now, "INVITE_CREATE", channel["id"], channel["guild_id"],
              _create_payload(conn, row))
    if inviter_id is None:
        return row
    audit_log.record(conn, guild_id=channel["guild_id"], user_id=inviter_id,
                     action_type=actions.INVITE_CREATE, changes=audit_log.diff(None, {
                         "code": code, "channel_id": str(channel["id"]), "inviter_id": str(inviter_id),
                         "max_age": max_age, "max_uses": settings["max_uses"], "uses": 0,
                         "temporary": bool(settings["temporary"])}))
    return row


def delete(conn: sqlite3.Connection, outbox: Outbox, now: datetime, row: sqlite3.Row,
           user_id: int | None) -> None:
    """INVITE_DELETE; an audit entry when someone (not the clock or its last use) deleted it."""
    conn.execute("DELETE FROM guild_invites WHERE code = ?", (row["code"],))
    _announce(conn, outbox, now, "INVITE_DELETE", row["channel_id"], row["guild_id"],
              {"channel_id": str(row["channel_id"]), "guild_id": str(row["guild_id"]), "code": row["code"]})
    if user_id is not None:
        shown = {"code": row["code"], "channel_id": str(row["channel_id"]), "max_age": row["max_age"],
                 "max_uses": row["max_uses"], "uses": row["uses"], "temporary": bool(row["temporary"])}
        audit_log.record(conn, guild_id=row["guild_id"], user_id=user_id, action_type=actions.INVITE_DELETE,
                         changes=audit_log.diff(shown, None))


def accept(conn: sqlite3.Connection, outbox: Outbox, now: datetime, code: str, user_id: int) -> Payload:
    """``user_id`` accepts: target users only (when it has any), not banned, not used up; joins with the
    invite's roles (GUILD_MEMBER_ADD). Accepting when already a member changes nothing."""
    lobby = live_lobby_invite(conn, code, now)
    if lobby is not None:
        return _accept_lobby_invite(conn, outbox, now, lobby, user_id)
    row = live_invite(conn, code, now)
    guild_id = row["guild_id"]
    incidents.require_invites_open(conn, guild_id, now, joining=True)
    if row["restricted"] and conn.execute("SELECT 1 FROM invite_target_users WHERE code = ? AND user_id = ?",
                                          (code, user_id)).fetchone() is None:
        raise ApiError(403, errors.MISSING_ACCESS,
                       "Missing Access: this invite is for its target users only.")
    if bans.is_banned(conn, guild_id, user_id):
        raise ApiError(403, USER_BANNED, "The user is banned from this guild.")
    if _is_member(conn, guild_id, user_id):
        return invite_json(conn, row)
    roles = [r for r in json.loads(row["role_ids"])
             if conn.execute("SELECT 1 FROM roles WHERE id = ? AND guild_id = ?",
                             (int(r), guild_id)).fetchone()]
    conn.execute("INSERT INTO members (guild_id, user_id, roles, joined_at, temporary)"
                 " VALUES (?, ?, ?, ?, ?)",
                 (guild_id, user_id, json.dumps(roles), format_instant(now), row["temporary"]))
    mutations.member_added(conn, outbox, now, guild_id, user_id)
    uses = row["uses"] + 1
    conn.execute("UPDATE guild_invites SET uses = ? WHERE code = ?", (uses, code))
    shown = invite_json(conn, conn.execute("SELECT * FROM guild_invites WHERE code = ?", (code,)).fetchone())
    if row["max_uses"] and uses >= row["max_uses"]:
        delete(conn, outbox, now, row, None)
    return shown


def _accept_lobby_invite(conn: sqlite3.Connection, outbox: Outbox, now: datetime, row: sqlite3.Row,
                         user_id: int) -> Payload:
    if row["target_user_id"] != user_id:
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access: this invite is for another user.")
    guild_id = conn.execute("SELECT guild_id FROM channels WHERE id = ?", (row["channel_id"],)).fetchone()[0]
    if bans.is_banned(conn, guild_id, user_id):
        raise ApiError(403, USER_BANNED, "The user is banned from this guild.")
    if not _is_member(conn, guild_id, user_id):
        conn.execute("INSERT INTO members (guild_id, user_id, joined_at) VALUES (?, ?, ?)",
                     (guild_id, user_id, format_instant(now)))
        mutations.member_added(conn, outbox, now, guild_id, user_id)
    conn.execute("UPDATE lobby_invites SET used_at = ? WHERE code = ?", (format_instant(now), row["code"]))
    return lobby_invite_json(conn, conn.execute("SELECT * FROM lobby_invites WHERE code = ?",
                                                (row["code"],)).fetchone())


def similar_invite(conn: sqlite3.Connection, channel_id: int, inviter_id: int, settings: dict[str, Any],
                   now: datetime) -> sqlite3.Row | None:
    """A live invite the same inviter made to the same channel with the same settings, and no target
    users list: what Create Channel Invite answers again unless ``unique`` asks for a new one."""
    rows = conn.execute(
        "SELECT * FROM guild_invites WHERE channel_id = ? AND inviter_id = ? AND max_age = ? AND max_uses = ?"
        " AND temporary = ? AND target_type IS ? AND target_user_id IS ? AND target_application_id IS ?"
        " AND restricted = 0 ORDER BY created_at, code",
        (channel_id, inviter_id, settings["max_age"], settings["max_uses"], int(settings["temporary"]),
         settings["target_type"], settings["target_user_id"], settings["target_application_id"])).fetchall()
    wanted = sorted(int(r) for r in settings["role_ids"])
    for row in rows:
        if not _expired(row, now) and sorted(int(r) for r in json.loads(row["role_ids"])) == wanted:
            return row
    return None


# --- target users -------------------------------------------------------------------------------------

def stage(conn: sqlite3.Connection, upload_id: int, batch: Iterable[tuple[int, int]]) -> None:
    conn.executemany("INSERT INTO invite_target_uploads (upload_id, line, user_id) VALUES (?, ?, ?)",
                     ((upload_id, line, user_id) for line, user_id in batch))


def discard_upload(conn: sqlite3.Connection, upload_id: int) -> None:
    conn.execute("DELETE FROM invite_target_uploads WHERE upload_id = ?", (upload_id,))


def first_unknown_user(conn: sqlite3.Connection, upload_id: int) -> tuple[int, int] | None:
    """(line, user id) of the first uploaded id that is no user."""
    row = conn.execute("SELECT t.line, t.user_id FROM invite_target_uploads t"
                       " LEFT JOIN users u ON u.id = t.user_id"
                       " WHERE t.upload_id = ? AND u.id IS NULL ORDER BY t.line LIMIT 1",
                       (upload_id,)).fetchone()
    return (row["line"], row["user_id"]) if row else None


def queue_job(conn: sqlite3.Connection, code: str, upload_id: int, now: datetime) -> None:
    """A new job replaces the invite's previous one (and drops that one's upload)."""
    old = conn.execute("SELECT upload_id FROM invite_target_jobs WHERE code = ?", (code,)).fetchone()
    if old is not None and old["upload_id"] != upload_id:
        discard_upload(conn, old["upload_id"])
    total = conn.execute("SELECT COUNT(DISTINCT user_id) FROM invite_target_uploads WHERE upload_id = ?",
                         (upload_id,)).fetchone()[0]
    conn.execute("INSERT OR REPLACE INTO invite_target_jobs (code, upload_id, status, total_users,"
                 " processed_users, created_at, completed_at, error_message)"
                 " VALUES (?, ?, 0, ?, 0, ?, NULL, NULL)",
                 (code, upload_id, total, format_instant(now)))


def job_json(row: sqlite3.Row) -> Payload:
    return {"status": row["status"], "total_users": row["total_users"],
            "processed_users": row["processed_users"], "created_at": row["created_at"],
            "completed_at": row["completed_at"], "error_message": row["error_message"]}


def set_targets(conn: sqlite3.Connection, code: str, user_ids: Iterable[int], add: bool) -> None:
    if add:
        conn.executemany("INSERT OR IGNORE INTO invite_target_users (code, user_id) VALUES (?, ?)",
                         ((code, user_id) for user_id in user_ids))
        conn.execute("UPDATE guild_invites SET restricted = 1 WHERE code = ?", (code,))
    else:
        conn.executemany("DELETE FROM invite_target_users WHERE code = ? AND user_id = ?",
                         ((code, user_id) for user_id in user_ids))


def target_page(conn: sqlite3.Connection, code: str, after: int, limit: int) -> list[int]:
    return [row[0] for row in conn.execute("SELECT user_id FROM invite_target_users"
                                           " WHERE code = ? AND user_id > ? ORDER BY user_id LIMIT ?",
                                           (code, after, limit))]
