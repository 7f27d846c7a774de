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


def world(state: EmulatorState) -> dict[str, Any]:
    now = state.clock.now()
    with state.db.transaction() as conn:
        applications = [{
            "id": _id(a["id"]), "name": a["name"], "bot_user_id": _id(a["bot_user_id"]), "owner_id": _id(a["owner_id"]),
            "flags": a["flags"], "public_client": bool(a["public_client"]),
            "channel_obfuscation": bool(a["channel_obfuscation"]), "event_webhooks_url": a["event_webhooks_url"],
            "interactions_endpoint_url": a["interactions_endpoint_url"]}
            for a in _rows(conn, "SELECT * FROM applications ORDER BY id")]
        users = [{"id": _id(u["id"]), "username": u["username"], "global_name": u["global_name"], "bot": bool(u["bot"]),
                  "premium_type": u["premium_type"], "provisional": bool(u["provisional"]),
                  "merged_into": _id(u["merged_into"])}
                 for u in _rows(conn, "SELECT * FROM users ORDER BY id")]
        guilds = [_guild(conn, g, now) for g in _rows(conn, "SELECT * FROM guilds ORDER BY id")]
        lobbies = [{"id": _id(lobby["id"]), "application_id": _id(lobby["application_id"]),
                    "metadata": _json(lobby["metadata"]), "linked_channel_id": _id(lobby["linked_channel_id"]),
                    "created_at": lobby["created_at"],
                    "members": [{"user_id": _id(m["user_id"]), "flags": m["flags"], "joined_at": m["joined_at"]}
                                for m in _rows(conn, "SELECT * FROM lobby_members WHERE lobby_id = ? ORDER BY joined_at",
                                               (lobby["id"],))],
                    "message_count": conn.execute("SELECT COUNT(*) FROM lobby_messages WHERE lobby_id = ?",
                                                  (lobby["id"],)).fetchone()[0]}
                   for lobby in _rows(conn, "SELECT * FROM lobbies ORDER BY id")]
        dms = [{"application_id": _id(d["application_id"]), "user_ids": [_id(d["user_low"]), _id(d["user_high"])],
                "message_count": d["n"], "last_at": d["last_at"]}
               for d in _rows(conn, "SELECT application_id, user_low, user_high, COUNT(*) AS n, MAX(created_at) AS last_at"
                                    " FROM dm_messages GROUP BY application_id, user_low, user_high ORDER BY last_at")]
        # Invite codes are credentials (the request log hides them too): shown shortened only.
        invites = [{"code": i["code"][:3] + "…", "guild_id": _id(i["guild_id"]), "channel_id": _id(i["channel_id"]),
                    "inviter_id": _id(i["inviter_id"]), "uses": i["uses"], "max_uses": i["max_uses"],
                    "expires_at": i["expires_at"]}
                   for i in _rows(conn, "SELECT * FROM guild_invites ORDER BY created_at")]
        commands = [{"id": _id(c["id"]), "application_id": _id(c["application_id"]), "guild_id": _id(c["guild_id"]),
                     "type": c["type"], "name": c["name"]}
                    for c in _rows(conn, "SELECT * FROM application_commands ORDER BY application_id, name")]
        entitlements = [{"id": _id(e["id"]), "application_id": _id(e["application_id"]), "sku_id": _id(e["sku_id"]),
                         "user_id": _id(e["user_id"]), "guild_id": _id(e["guild_id"]), "type": e["type"],
                         "starts_at": e["starts_at"], "ends_at": e["ends_at"], "deleted": bool(e["deleted"])}
                        for e in _rows(conn, "SELECT * FROM entitlements ORDER BY id")]
    return {"clock": state.clock.iso(), "applications": applications, "users": users, "guilds": guilds,
            "lobbies": lobbies, "dms": dms, "invites": invites, "commands": commands, "entitlements": entitlements}


def _guild(conn: sqlite3.Connection, guild: sqlite3.Row, now: Any) -> dict[str, Any]:
    guild_id = guild["id"]
    bots = guild_bots(conn, guild_id, now)
    counts = dict(_rows(conn, "SELECT channel_id, COUNT(*) FROM channel_messages WHERE guild_id = ? GROUP BY channel_id",
                        (guild_id,)))
    # Bots of applications with the obfuscation toggle see the channels they cannot view obfuscated.
    obfuscating = {row[0] for row in _rows(conn, "SELECT bot_user_id FROM applications WHERE channel_obfuscation")}
    channels = []
    for c in _rows(conn, "SELECT * FROM channels WHERE guild_id = ? ORDER BY position, id", (guild_id,)):
        hidden = [bot for bot, visible in bots.visible.items() if c["id"] not in visible]
        channels.append({"id": _id(c["id"]), "type": c["type"], "name": c["name"], "parent_id": _id(c["parent_id"]),
                         "position": c["position"], "topic": c["topic"], "thread": c["type"] in THREAD_TYPES,
                         "permission_overwrites": _json(c["permission_overwrites"]) or [],
                         "hidden_from_bots": [_id(bot) for bot in hidden],
                         "obfuscated_for_bots": [_id(bot) for bot in hidden if bot in obfuscating],
                         "message_count": counts.get(c["id"], 0)})
    roles = [{"id": _id(r["id"]), "name": r["name"], "color": r["color"], "position": r["position"],
              "permissions": str(r["permissions"]), "managed": bool(r["managed"])}
             for r in _rows(conn, "SELECT * FROM roles WHERE guild_id = ? ORDER BY position DESC", (guild_id,))]
    members = [{"user_id": _id(m["user_id"]), "nick": m["nick"], "roles": _json(m["roles"]) or [],
                "joined_at": m["joined_at"]}
               for m in _rows(conn, "SELECT * FROM members WHERE guild_id = ? ORDER BY joined_at", (guild_id,))]
    return {"id": _id(guild_id), "name": guild["name"], "owner_id": _id(guild["owner_id"]), "channels": channels,
            "roles": roles, "members": members}


def channel_messages(state: EmulatorState, channel_id: int) -> list[dict[str, Any]] | None:
    """The channel's latest messages, oldest first, with attachments, components and reactions; None
    when there is no such channel."""
    with state.db.transaction() as conn:
        if conn.execute("SELECT 1 FROM channels WHERE id = ?", (channel_id,)).fetchone() is None:
            return None
        rows = _rows(conn, "SELECT * FROM (SELECT * FROM channel_messages WHERE channel_id = ? ORDER BY id DESC"
                           " LIMIT ?) ORDER BY id", (channel_id, MESSAGES_SHOWN))
        return [{"id": _id(m["id"]), "author_id": _id(m["author_id"]), "type": m["type"], "content": m["content"],
                 "created_at": m["created_at"], "edited_at": m["edited_at"], "pinned": m["pinned_at"] is not None,
                 "components": _json(m["components"]) or [], "embeds": _json(m["embeds"]) or [],
                 "attachments": [{"id": _id(a["id"]), "filename": a["filename"], "content_type": a["content_type"],
                                  "size": a["size"]}
                                 for a in _rows(conn, "SELECT * FROM message_attachments WHERE message_id = ?"
                                                      " ORDER BY position", (m["id"],))],
                 "reactions": [{"emoji": r["emoji_name"], "count": r["n"]}
                               for r in _rows(conn, "SELECT emoji_name, COUNT(*) AS n FROM message_reactions"
                                                    " WHERE message_id = ? GROUP BY emoji_key", (m["id"],))]}
                for m in rows]


def lobby_messages(state: EmulatorState, lobby_id: int) -> list[dict[str, Any]] | None:
    with state.db.transaction() as conn:
        if conn.execute("SELECT 1 FROM lobbies WHERE id = ?", (lobby_id,)).fetchone() is None:
            return None
        rows = _rows(conn, "SELECT * FROM (SELECT * FROM lobby_messages WHERE lobby_id = ? ORDER BY id DESC LIMIT ?)"
                           " ORDER BY id", (lobby_id, MESSAGES_SHOWN))
        return [{"id": _id(m["id"]), "author_id": _id(m["author_id"]), "content": m["content"],
                 "created_at": m["created_at"]} for m in rows]


def dm_messages(state: EmulatorState, user_id: int) -> list[dict[str, Any]]:
    """The latest direct messages a user sent or received (any application), oldest first."""
    with state.db.transaction() as conn:
        rows = _rows(conn, "SELECT * FROM (SELECT * FROM dm_messages WHERE author_id = ? OR recipient_id = ?"
                           " ORDER BY id DESC LIMIT ?) ORDER BY id", (user_id, user_id, MESSAGES_SHOWN))
        return [{"id": _id(m["id"]), "application_id": _id(m["application_id"]), "author_id": _id(m["author_id"]),
                 "recipient_id": _id(m["recipient_id"]), "content": m["content"], "created_at": m["created_at"]}
                for m in rows]
