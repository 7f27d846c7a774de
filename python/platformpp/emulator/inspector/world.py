"""What the inspector's World view shows, read straight from the tables in one transaction: a
summary of everything (``world``), and the messages of one channel, lobby or DM pair. Secrets never
leave: no token, hashed client secret, signing key or lobby secret is selected."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from ..areas.guilds.dispatch import guild_bots

if TYPE_CHECKING:
    from ..state import EmulatorState

MESSAGES_SHOWN = 100
THREAD_TYPES = (10, 11, 12)


def _id(value: Any) -> str | None:
    return None if value is None else str(value)


def _json(text: Any) -> Any:
    """A JSON column as its value (None stays None)."""
    return None if text is None else json.loads(text)


def _rows(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
    return conn.execute(sql, params).fetchall()


def _pick(row: sqlite3.Row, ids: str = "", plain: str = "", flags: str = "") -> dict[str, Any]:
    """Columns of a row as JSON: ``ids`` as strings (snowflakes), ``plain`` as stored, ``flags`` as
    booleans (space-separated column names)."""
    out: dict[str, Any] = {name: _id(row[name]) for name in ids.split()}
    out.update({name: row[name] for name in plain.split()})
    out.update({name: bool(row[name]) for name in flags.split()})
    return out


def world(state: EmulatorState) -> dict[str, Any]:
    now = state.clock.now()
    with state.db.transaction() as conn:
        applications = [_pick(a, "id bot_user_id owner_id", "name flags event_webhooks_url interactions_endpoint_url",
                              "public_client channel_obfuscation")
                        for a in _rows(conn, "SELECT * FROM applications ORDER BY id")]
        users = [_pick(u, "id merged_into", "username global_name premium_type", "bot provisional")
                 for u in _rows(conn, "SELECT * FROM users ORDER BY id")]
        guilds = [_guild(conn, g, now) for g in _rows(conn, "SELECT * FROM guilds ORDER BY id")]
        lobbies = [_lobby(conn, lobby) for lobby in _rows(conn, "SELECT * FROM lobbies ORDER BY id")]
        dms = [{**_pick(d, "application_id", "last_at"), "user_ids": [_id(d["user_low"]), _id(d["user_high"])],
                "message_count": d["n"]}
               for d in _rows(conn, "SELECT application_id, user_low, user_high, COUNT(*) AS n,"
                                    " MAX(created_at) AS last_at FROM dm_messages"
                                    " GROUP BY application_id, user_low, user_high ORDER BY last_at")]
        # Invite codes are credentials (the request log hides them too): shown shortened only.
        invites = [{**_pick(i, "guild_id channel_id inviter_id", "uses max_uses expires_at"),
                    "code": i["code"][:3] + "…"}
                   for i in _rows(conn, "SELECT * FROM guild_invites ORDER BY created_at")]
        commands = [_pick(c, "id application_id guild_id", "type name")
                    for c in _rows(conn, "SELECT * FROM application_commands ORDER BY application_id, name")]
        entitlements = [_pick(e, "id application_id sku_id user_id guild_id", "type starts_at ends_at", "deleted")
                        for e in _rows(conn, "SELECT * FROM entitlements ORDER BY id")]
    return {"clock": state.clock.iso(), "applications": applications, "users": users, "guilds": guilds,
            "lobbies": lobbies, "dms": dms, "invites": invites, "commands": commands, "entitlements": entitlements}


def _lobby(conn: sqlite3.Connection, lobby: sqlite3.Row) -> dict[str, Any]:
    members = _rows(conn, "SELECT * FROM lobby_members WHERE lobby_id = ? ORDER BY joined_at", (lobby["id"],))
    count = conn.execute("SELECT COUNT(*) FROM lobby_messages WHERE lobby_id = ?", (lobby["id"],)).fetchone()[0]
    return {**_pick(lobby, "id application_id linked_channel_id", "created_at"), "metadata": _json(lobby["metadata"]),
            "members": [_pick(m, "user_id", "flags joined_at") for m in members], "message_count": count}


def _guild(conn: sqlite3.Connection, guild: sqlite3.Row, now: Any) -> dict[str, Any]:
    guild_id = guild["id"]
    bots = guild_bots(conn, guild_id, now)
    counts: dict[int, int] = {row[0]: row[1] for row in _rows(
        conn, "SELECT channel_id, COUNT(*) FROM channel_messages WHERE guild_id = ? GROUP BY channel_id", (guild_id,))}
    # Bots of applications with the obfuscation toggle see the channels they cannot view obfuscated.
    obfuscating = {row[0] for row in _rows(conn, "SELECT bot_user_id FROM applications WHERE channel_obfuscation")}
    channels = []
    for c in _rows(conn, "SELECT * FROM channels WHERE guild_id = ? ORDER BY position, id", (guild_id,)):
        hidden = [bot for bot, visible in bots.visible.items() if c["id"] not in visible]
        channels.append({**_pick(c, "id parent_id", "type name position topic"), "thread": c["type"] in THREAD_TYPES,
                         "permission_overwrites": _json(c["permission_overwrites"]) or [],
                         "hidden_from_bots": [_id(bot) for bot in hidden],
                         "obfuscated_for_bots": [_id(bot) for bot in hidden if bot in obfuscating],
                         "message_count": counts.get(c["id"], 0)})
    roles = [{**_pick(r, "id", "name color position", "managed"), "permissions": str(r["permissions"])}
             for r in _rows(conn, "SELECT * FROM roles WHERE guild_id = ? ORDER BY position DESC", (guild_id,))]
    members = [{**_pick(m, "user_id", "nick joined_at"), "roles": _json(m["roles"]) or []}
               for m in _rows(conn, "SELECT * FROM members WHERE guild_id = ? ORDER BY joined_at", (guild_id,))]
    return {**_pick(guild, "id owner_id", "name"), "channels": channels, "roles": roles, "members": members}


def channel_messages(state: EmulatorState, channel_id: int) -> list[dict[str, Any]] | None:
    """The channel's latest messages, oldest first, with attachments, components and reactions; None
    when there is no such channel."""
    with state.db.transaction() as conn:
        if conn.execute("SELECT 1 FROM channels WHERE id = ?", (channel_id,)).fetchone() is None:
            return None
        rows = _rows(conn, "SELECT * FROM (SELECT * FROM channel_messages WHERE channel_id = ? ORDER BY id DESC"
                           " LIMIT ?) ORDER BY id", (channel_id, MESSAGES_SHOWN))
        return [_channel_message(conn, m) for m in rows]


def _channel_message(conn: sqlite3.Connection, m: sqlite3.Row) -> dict[str, Any]:
    attachments = _rows(conn, "SELECT * FROM message_attachments WHERE message_id = ? ORDER BY position", (m["id"],))
    reactions = _rows(conn, "SELECT emoji_name, COUNT(*) AS n FROM message_reactions WHERE message_id = ?"
                            " GROUP BY emoji_key", (m["id"],))
    return {**_pick(m, "id author_id", "type content created_at edited_at"), "pinned": m["pinned_at"] is not None,
            "components": _json(m["components"]) or [], "embeds": _json(m["embeds"]) or [],
            "attachments": [_pick(a, "id", "filename content_type size") for a in attachments],
            "reactions": [{"emoji": r["emoji_name"], "count": r["n"]} for r in reactions]}


def lobby_messages(state: EmulatorState, lobby_id: int) -> list[dict[str, Any]] | None:
    with state.db.transaction() as conn:
        if conn.execute("SELECT 1 FROM lobbies WHERE id = ?", (lobby_id,)).fetchone() is None:
            return None
        rows = _rows(conn, "SELECT * FROM (SELECT * FROM lobby_messages WHERE lobby_id = ? ORDER BY id DESC"
                           " LIMIT ?) ORDER BY id", (lobby_id, MESSAGES_SHOWN))
        return [_pick(m, "id author_id", "content created_at") for m in rows]


def dm_messages(state: EmulatorState, user_id: int) -> list[dict[str, Any]]:
    """The latest direct messages a user sent or received (any application), oldest first."""
    with state.db.transaction() as conn:
        rows = _rows(conn, "SELECT * FROM (SELECT * FROM dm_messages WHERE author_id = ? OR recipient_id = ?"
                           " ORDER BY id DESC LIMIT ?) ORDER BY id", (user_id, user_id, MESSAGES_SHOWN))
        return [_pick(m, "id application_id author_id recipient_id", "content created_at") for m in rows]
