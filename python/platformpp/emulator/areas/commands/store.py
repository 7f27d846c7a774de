"""Application commands and their per-guild permissions: SQL and rules. Scopes are global
(``guild_id`` 0 in storage) or one guild. Per scope at most 100 chat-input commands, 15 user and 15
message context-menu commands, and one entry point command (global). Every function runs in the
caller's transaction."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from ...core import errors
from ...core.errors import ApiError
from ...events.audience import Payload, Viewer
from .validation import CHAT_INPUT, MESSAGE, PRIMARY_ENTRY_POINT, USER

if TYPE_CHECKING:
    from ...events.outbox import Outbox
    from ...state import EmulatorState

LIMITS = {CHAT_INPUT: 100, USER: 15, MESSAGE: 15, PRIMARY_ENTRY_POINT: 1}
MAX_APPLICATION_COMMANDS = 30032
UNKNOWN_APPLICATION_COMMAND = 10063
UNKNOWN_COMMAND_PERMISSIONS = 10066
GLOBAL = 0
PERMISSION_ROLE, PERMISSION_USER, PERMISSION_CHANNEL = 1, 2, 3
MAX_PERMISSIONS = 100


def _type_name(kind: int) -> str:
    return {CHAT_INPUT: "chat input", USER: "user", MESSAGE: "message", PRIMARY_ENTRY_POINT: "entry point"}[kind]


def command_json(row: sqlite3.Row, *, with_localizations: bool = True) -> Payload:
    """The published ApplicationCommandResponse."""
    body = json.loads(row["body"])
    result: Payload = {
        "id": str(row["id"]), "application_id": str(row["application_id"]), "version": str(row["version"]),
        "default_member_permissions": body.get("default_member_permissions"), "type": row["type"],
        "name": body["name"], "description": body.get("description", ""),
        "dm_permission": body.get("dm_permission", True), "contexts": body.get("contexts"),
        "integration_types": body.get("integration_types") or [0], "nsfw": body.get("nsfw", False),
    }
    if row["guild_id"] != GLOBAL:
        result["guild_id"] = str(row["guild_id"])
    if body.get("options"):
        result["options"] = [_option_json(o, with_localizations) for o in body["options"]]
    if body.get("handler") is not None:
        result["handler"] = body["handler"]
    if with_localizations:
        result["name_localizations"] = body.get("name_localizations")
        result["description_localizations"] = body.get("description_localizations")
    return result


def _option_json(option: dict[str, Any], with_localizations: bool) -> Payload:
    result = {k: v for k, v in option.items() if v is not None and k not in ("name_localizations",
                                                                            "description_localizations")}
    if "options" in option:
        result["options"] = [_option_json(o, with_localizations) for o in option["options"]]
    if "choices" in option:
        result["choices"] = [{k: v for k, v in c.items() if v is not None or k == "value"}
                             for c in option["choices"]]
    if with_localizations:
        result["name_localizations"] = option.get("name_localizations")
        result["description_localizations"] = option.get("description_localizations")
    return result


def require_scope(conn: sqlite3.Connection, application_id: int, guild_id: int) -> None:
    """A guild scope exists and the app is installed there (its bot is a member)."""
    if guild_id == GLOBAL:
        return
    if conn.execute("SELECT 1 FROM guilds WHERE id = ?", (guild_id,)).fetchone() is None:
        raise errors.not_found(errors.UNKNOWN_GUILD, "Guild")
    installed = conn.execute("SELECT 1 FROM members m JOIN applications a ON a.bot_user_id = m.user_id"
                             " WHERE a.id = ? AND m.guild_id = ?", (application_id, guild_id)).fetchone()
    if installed is None:
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access")


def list_commands(conn: sqlite3.Connection, application_id: int, guild_id: int, *,
                  with_localizations: bool) -> list[Payload]:
    rows = conn.execute("SELECT * FROM application_commands WHERE application_id = ? AND guild_id = ?"
                        " ORDER BY id", (application_id, guild_id)).fetchall()
    return [command_json(row, with_localizations=with_localizations) for row in rows]


def get_row(conn: sqlite3.Connection, application_id: int, guild_id: int, command_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM application_commands WHERE id = ? AND application_id = ? AND guild_id = ?",
                       (command_id, application_id, guild_id)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_APPLICATION_COMMAND, "application command")
    return row


def find_command(conn: sqlite3.Connection, application_id: int, command_id: int, guild_id: int | None
                 ) -> sqlite3.Row | None:
    """A command the app has where a user in ``guild_id`` (None: outside guilds) can see it."""
    return conn.execute("SELECT * FROM application_commands WHERE id = ? AND application_id = ?"
                        " AND guild_id IN (0, ?)", (command_id, application_id, guild_id or 0)).fetchone()


def _check_limit(conn: sqlite3.Connection, application_id: int, guild_id: int, kind: int) -> None:
    count = conn.execute("SELECT COUNT(*) FROM application_commands WHERE application_id = ? AND guild_id = ?"
                         " AND type = ?", (application_id, guild_id, kind)).fetchone()[0]
    if count >= LIMITS[kind]:
        raise ApiError(400, MAX_APPLICATION_COMMANDS,
                       f"Maximum number of application commands reached ({LIMITS[kind]} {_type_name(kind)} commands)")


def _duplicate_name(name: str) -> ApiError:
    return ApiError(400, errors.INVALID_FORM_BODY, "Invalid Form Body", {"name": {"_errors": [
        {"code": "APPLICATION_COMMAND_ALREADY_EXISTS", "message": f"A command named {name!r} of this type exists."}]}})


def upsert(state: EmulatorState, conn: sqlite3.Connection, application_id: int, guild_id: int,
           command: dict[str, Any]) -> tuple[Payload, bool]:
    """Create a command; one of the same type and name is replaced instead (as the platform does).
    Returns the command and whether it is new."""
    kind, name = command["type"], command["name"]
    existing = conn.execute("SELECT id FROM application_commands WHERE application_id = ? AND guild_id = ?"
                            " AND type = ? AND name = ?", (application_id, guild_id, kind, name)).fetchone()
    if existing is not None:
        conn.execute("UPDATE application_commands SET body = ?, version = ? WHERE id = ?",
                     (json.dumps(command), state.ids.next(), existing["id"]))
        return command_json(get_row(conn, application_id, guild_id, existing["id"])), False
    _check_limit(conn, application_id, guild_id, kind)
    command_id = state.ids.next()
    conn.execute("INSERT INTO application_commands (id, application_id, guild_id, type, name, body, version)"
                 " VALUES (?, ?, ?, ?, ?, ?, ?)",
                 (command_id, application_id, guild_id, kind, name, json.dumps(command), command_id))
    return command_json(get_row(conn, application_id, guild_id, command_id)), True


def current_body(row: sqlite3.Row) -> dict[str, Any]:
    return dict(json.loads(row["body"]))


def edit(state: EmulatorState, conn: sqlite3.Connection, row: sqlite3.Row, command: dict[str, Any]) -> Payload:
    clash = conn.execute("SELECT 1 FROM application_commands WHERE application_id = ? AND guild_id = ? AND type = ?"
                         " AND name = ? AND id != ?", (row["application_id"], row["guild_id"], row["type"],
                                                       command["name"], row["id"])).fetchone()
    if clash is not None:
        raise _duplicate_name(command["name"])
    conn.execute("UPDATE application_commands SET name = ?, body = ?, version = ? WHERE id = ?",
                 (command["name"], json.dumps(command), state.ids.next(), row["id"]))
    return command_json(get_row(conn, row["application_id"], row["guild_id"], row["id"]))


def delete(conn: sqlite3.Connection, row: sqlite3.Row) -> None:
    conn.execute("DELETE FROM application_commands WHERE id = ?", (row["id"],))
    conn.execute("DELETE FROM application_command_permissions WHERE command_id = ?", (row["id"],))


def bulk_overwrite(state: EmulatorState, conn: sqlite3.Connection, application_id: int, guild_id: int,
                   commands: list[dict[str, Any]]) -> list[Payload]:
    """Replace every command of the scope: same (type, name) keeps its id, the rest are new or removed."""
    seen: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        key = (command["type"], command["name"])
        if key in seen:
            raise ApiError(400, errors.INVALID_FORM_BODY, "Invalid Form Body", {str(index): {"name": {"_errors": [
                {"code": "APPLICATION_COMMAND_ALREADY_EXISTS", "message": "Command names must be unique per type."}]}}})
        seen.add(key)
    for kind, limit in LIMITS.items():
        if sum(1 for c in commands if c["type"] == kind) > limit:
            raise ApiError(400, MAX_APPLICATION_COMMANDS,
                           f"Maximum number of application commands reached ({limit} {_type_name(kind)} commands)")
    kept = []
    for command in commands:
        row = conn.execute("SELECT id FROM application_commands WHERE application_id = ? AND guild_id = ?"
                           " AND type = ? AND name = ?", (application_id, guild_id, command["type"],
                                                          command["name"])).fetchone()
        if row is not None:
            conn.execute("UPDATE application_commands SET body = ?, version = ? WHERE id = ?",
                         (json.dumps(command), state.ids.next(), row["id"]))
            kept.append(row["id"])
        else:
            command_id = state.ids.next()
            conn.execute("INSERT INTO application_commands (id, application_id, guild_id, type, name, body, version)"
                         " VALUES (?, ?, ?, ?, ?, ?, ?)", (command_id, application_id, guild_id, command["type"],
                                                          command["name"], json.dumps(command), command_id))
            kept.append(command_id)
    for row in conn.execute("SELECT * FROM application_commands WHERE application_id = ? AND guild_id = ?",
                            (application_id, guild_id)).fetchall():
        if row["id"] not in kept:
            delete(conn, row)
    return [command_json(get_row(conn, application_id, guild_id, command_id)) for command_id in kept]


# --- permissions -----------------------------------------------------------------------------------------

def permissions_json(application_id: int, guild_id: int, command_id: int, permissions: list[Payload]) -> Payload:
    return {"id": str(command_id), "application_id": str(application_id), "guild_id": str(guild_id),
            "permissions": permissions}


def list_permissions(conn: sqlite3.Connection, application_id: int, guild_id: int) -> list[Payload]:
    rows = conn.execute("SELECT * FROM application_command_permissions WHERE application_id = ? AND guild_id = ?"
                        " ORDER BY command_id", (application_id, guild_id)).fetchall()
    return [permissions_json(application_id, guild_id, r["command_id"], json.loads(r["permissions"])) for r in rows]


def get_permissions(conn: sqlite3.Connection, application_id: int, guild_id: int, command_id: int) -> Payload:
    row = conn.execute("SELECT permissions FROM application_command_permissions WHERE application_id = ?"
                       " AND guild_id = ? AND command_id = ?", (application_id, guild_id, command_id)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_COMMAND_PERMISSIONS, "application command permissions")
    return permissions_json(application_id, guild_id, command_id, json.loads(row["permissions"]))


def check_permission_targets(conn: sqlite3.Connection, guild_id: int, permissions: list[Payload]) -> None:
    """Each overwrite names a role, member or channel of the guild (``guild_id`` stands for @everyone
    as a role and ``guild_id - 1`` for every channel)."""
    tree: dict[str, Any] = {}
    for index, item in enumerate(permissions):
        target, kind = int(item["id"]), item["type"]
        if kind == PERMISSION_ROLE:
            ok = conn.execute("SELECT 1 FROM roles WHERE id = ? AND guild_id = ?", (target, guild_id)).fetchone()
        elif kind == PERMISSION_USER:
            ok = conn.execute("SELECT 1 FROM users WHERE id = ?", (target,)).fetchone()
        else:
            ok = target == guild_id - 1 or conn.execute("SELECT 1 FROM channels WHERE id = ? AND guild_id = ?",
                                                        (target, guild_id)).fetchone()
        if not ok:
            tree.setdefault("permissions", {})[str(index)] = {"id": {"_errors": [
                {"code": "APPLICATION_COMMAND_PERMISSIONS_INVALID_ID",
                 "message": "The id names no role, user or channel of the guild."}]}}
    if tree:
        raise ApiError(400, errors.INVALID_FORM_BODY, "Invalid Form Body", tree)


def set_permissions(conn: sqlite3.Connection, outbox: Outbox, application_id: int, guild_id: int,
                    command_id: int, permissions: list[Payload]) -> Payload:
    if command_id != application_id:
        get_row_any_scope(conn, application_id, guild_id, command_id)
    check_permission_targets(conn, guild_id, permissions)
    if permissions:
        conn.execute("INSERT INTO application_command_permissions (application_id, guild_id, command_id, permissions)"
                     " VALUES (?, ?, ?, ?) ON CONFLICT (application_id, guild_id, command_id)"
                     " DO UPDATE SET permissions = excluded.permissions",
                     (application_id, guild_id, command_id, json.dumps(permissions)))
    else:
        conn.execute("DELETE FROM application_command_permissions WHERE application_id = ? AND guild_id = ?"
                     " AND command_id = ?", (application_id, guild_id, command_id))
    body = permissions_json(application_id, guild_id, command_id, permissions)
    outbox.add("APPLICATION_COMMAND_PERMISSIONS_UPDATE", AppBotInGuild(application_id, guild_id, body))
    return body


def get_row_any_scope(conn: sqlite3.Connection, application_id: int, guild_id: int, command_id: int) -> sqlite3.Row:
    """A global command, or one of this guild (permissions apply to both)."""
    row = find_command(conn, application_id, command_id, guild_id)
    if row is None:
        raise errors.not_found(UNKNOWN_APPLICATION_COMMAND, "application command")
    return row


def command_allowed(conn: sqlite3.Connection, application_id: int, guild_id: int, command_id: int, *,
                    user_id: int, role_ids: list[int], channel_id: int) -> bool | None:
    """What the guild's overwrites say about a user running the command (None: they say nothing).
    Command overwrites win over the app-wide ones; a user overwrite over role overwrites; channel
    overwrites deny independently."""
    # Both scopes' overwrites in one read (command_id is the application's id for app-wide ones).
    stored = {row["command_id"]: row for row in conn.execute(
        "SELECT command_id, permissions FROM application_command_permissions WHERE application_id = ?"
        " AND guild_id = ? AND command_id IN (?, ?)", (application_id, guild_id, command_id, application_id))}
    for scope in (command_id, application_id):
        row = stored.get(scope)
        if row is None:
            continue
        overwrites = json.loads(row["permissions"])
        channels = {int(o["id"]): o["permission"] for o in overwrites if o["type"] == PERMISSION_CHANNEL}
        channel_rule = channels.get(channel_id, channels.get(guild_id - 1))
        if channel_rule is False:
            return False
        users = {int(o["id"]): o["permission"] for o in overwrites if o["type"] == PERMISSION_USER}
        if user_id in users:
            return bool(users[user_id])
        roles = {int(o["id"]): o["permission"] for o in overwrites if o["type"] == PERMISSION_ROLE}
        held = [roles[r] for r in role_ids if r in roles]
        if held:
            return any(held)
        if guild_id in roles:
            return bool(roles[guild_id])
        if channel_rule is True:
            return True
    return None


class AppBotInGuild:
    """The bot sessions of one application whose shard holds ``guild_id``."""

    def __init__(self, application_id: int, guild_id: int, payload: Payload) -> None:
        self.application_id, self.guild_id, self.payload = application_id, guild_id, payload

    def __call__(self, viewer: Viewer) -> Payload | None:
        if viewer.kind == "bot" and viewer.application_id == self.application_id and self.guild_id in viewer.guild_ids:
            return self.payload
        return None
