"""Bot integrations. An application's bot in a guild comes with an integration (type ``platform``):
made when the bot is added (INTEGRATION_CREATE and GUILD_INTEGRATIONS_UPDATE to the guild's bots with
the GUILD_INTEGRATIONS intent), and for a bot a world file put in a guild the first time the guild's
integrations are read. Deleting it removes the bot: INTEGRATION_DELETE and GUILD_INTEGRATIONS_UPDATE
(while the bot is still a member, so it hears them too), its managed role (GUILD_ROLE_DELETE), the
member (GUILD_MEMBER_REMOVE to the others, GUILD_DELETE to the bot), audit entry 82."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import datetime
from typing import Any

from ...core import errors
from ...core.clock import format_instant
from ...events.outbox import Outbox
from ...wire.user import public_user_json
from ..audit_log import actions
from ..audit_log import store as audit_log
from ..guilds import mutations
from ..guilds.dispatch import guild_bots, to_guild

GUILD_INTEGRATIONS_INTENT = 1 << 4
UNKNOWN_INTEGRATION = 10005
PLATFORM = "platform"   # the published IntegrationTypes value of an application's bot integration


def _user(conn: sqlite3.Connection, user_id: int | None) -> dict[str, Any] | None:
    row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone() if user_id else None
    return public_user_json(row) if row is not None else None


def integration_json(conn: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
    app = conn.execute("SELECT * FROM applications WHERE id = ?", (row["application_id"],)).fetchone()
    application: dict[str, Any] = {"id": str(app["id"]), "name": app["name"], "icon": app["icon"],
                                   "description": app["description"], "type": None}
    bot = _user(conn, app["bot_user_id"])
    if bot is not None:
        application["bot"] = bot
    body: dict[str, Any] = {
        "id": str(row["id"]), "type": PLATFORM, "name": app["name"], "enabled": True,
        "account": {"id": str(app["id"]), "name": app["name"]}, "application": application,
        "scopes": json.loads(row["scopes"]),
    }
    added_by = _user(conn, row["user_id"])
    if added_by is not None:
        body["user"] = added_by
    return body


def _insert(conn: sqlite3.Connection, integration_id: int, guild_id: int, application_id: int,
            user_id: int | None, created_at: str) -> sqlite3.Row:
    conn.execute("INSERT INTO guild_integrations (id, guild_id, application_id, user_id, created_at)"
                 " VALUES (?, ?, ?, ?, ?)", (integration_id, guild_id, application_id, user_id, created_at))
    return conn.execute("SELECT * FROM guild_integrations WHERE id = ?", (integration_id,)).fetchone()


def ensure_bot_integrations(conn: sqlite3.Connection, next_id: Callable[[], int], guild_id: int) -> None:
    """An integration for each application bot member that has none (one a world file placed)."""
    rows = conn.execute("SELECT a.id AS application_id, m.joined_at FROM members m"
                        " JOIN applications a ON a.bot_user_id = m.user_id WHERE m.guild_id = ?"
                        " AND NOT EXISTS (SELECT 1 FROM guild_integrations i WHERE i.guild_id = m.guild_id"
                        " AND i.application_id = a.id) ORDER BY a.id", (guild_id,)).fetchall()
    for row in rows:
        _insert(conn, next_id(), guild_id, row["application_id"], None, row["joined_at"])


def _announce(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int, event: str,
              payload: dict[str, Any]) -> None:
    bots = guild_bots(conn, guild_id, now)
    to_guild(outbox, bots, event, payload, intent=GUILD_INTEGRATIONS_INTENT)
    to_guild(outbox, bots, "GUILD_INTEGRATIONS_UPDATE", {"guild_id": str(guild_id)}, intent=GUILD_INTEGRATIONS_INTENT)


def bot_added(conn: sqlite3.Connection, outbox: Outbox, now: datetime, next_id: Callable[[], int], guild_id: int,
              bot_user_id: int, added_by: int | None) -> None:
    """Called where a bot is added to a guild (BOT_ADD): its application's integration, announced."""
    app = conn.execute("SELECT id FROM applications WHERE bot_user_id = ?", (bot_user_id,)).fetchone()
    if app is None or conn.execute("SELECT 1 FROM guild_integrations WHERE guild_id = ? AND application_id = ?",
                                   (guild_id, app["id"])).fetchone() is not None:
        return
    row = _insert(conn, next_id(), guild_id, app["id"], added_by, format_instant(now))
    _announce(conn, outbox, now, guild_id, "INTEGRATION_CREATE",
              {**integration_json(conn, row), "guild_id": str(guild_id)})


def get(conn: sqlite3.Connection, guild_id: int, integration_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM guild_integrations WHERE id = ? AND guild_id = ?",
                       (integration_id, guild_id)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_INTEGRATION, "Integration")
    return row


def delete(conn: sqlite3.Connection, outbox: Outbox, now: datetime, row: sqlite3.Row, actor_id: int) -> None:
    guild_id = row["guild_id"]
    shown = integration_json(conn, row)
    _announce(conn, outbox, now, guild_id, "INTEGRATION_DELETE",
              {"id": str(row["id"]), "guild_id": str(guild_id), "application_id": str(row["application_id"])})
    audit_log.record(conn, guild_id=guild_id, user_id=actor_id, action_type=actions.INTEGRATION_DELETE,
                     target_id=row["id"], changes=audit_log.diff({"type": shown["type"], "name": shown["name"]}, None))
    conn.execute("DELETE FROM guild_integrations WHERE id = ?", (row["id"],))
    bot_id = conn.execute("SELECT bot_user_id FROM applications WHERE id = ?", (row["application_id"],)).fetchone()[0]
    for role in conn.execute("SELECT id FROM roles WHERE guild_id = ? AND bot_id = ?", (guild_id, bot_id)).fetchall():
        mutations.delete_role(conn, outbox, now, guild_id, role["id"])
    if bot_id is not None and conn.execute("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?",
                                           (guild_id, bot_id)).fetchone() is not None:
        mutations.remove_member(conn, outbox, now, guild_id, bot_id)
