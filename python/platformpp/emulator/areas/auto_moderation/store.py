"""A guild's auto moderation rules: list, get, create, modify, delete. MANAGE_GUILD is needed for each
(ADMINISTRATOR and ownership grant it); a TIMEOUT action also needs MODERATE_MEMBERS. Per guild, at most
6 KEYWORD rules and one of each other trigger type. Each change is heard as AUTO_MODERATION_RULE_CREATE
/ UPDATE / DELETE by the guild's bots with MANAGE_GUILD on sessions with AUTO_MODERATION_CONFIGURATION,
and writes audit entry 140 / 141 / 142."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from ...core import errors
from ...core.permissions import Permission
from ...core.validation import FieldErrors
from ...events.audience import Payload
from ...events.outbox import Outbox
from ..audit_log import actions as audit_actions
from ..audit_log import trail as audit_trail
from ..guilds.access import Standing, require_guild_permission, require_member
from . import rules
from .listing import AUTO_MODERATION_CONFIGURATION, rule_json, to_managers

if TYPE_CHECKING:
    from ...state import EmulatorState

UNKNOWN_RULE = 10066
RULES_PER_GUILD = {rules.KEYWORD: 6, rules.SPAM: 1, rules.KEYWORD_PRESET: 1, rules.MENTION_SPAM: 1,
                   rules.MEMBER_PROFILE: 1}
# Which actions each trigger type takes (the platform's rule): a timeout only for keyword, mention
# spam and member profile rules; blocking a member's interactions only for member profile rules.
TIMEOUT_TRIGGERS = (rules.KEYWORD, rules.MENTION_SPAM, rules.MEMBER_PROFILE)
AUDIT_KEYS = ("name", "event_type", "trigger_type", "trigger_metadata", "actions", "enabled", "exempt_roles",
              "exempt_channels")
_JSON_COLUMNS = ("trigger_metadata", "actions", "exempt_roles", "exempt_channels")
_ALERT_CHANNEL_TYPES = (0, 5, 10, 11, 12, 2, 13)   # channels that hold messages


def require_manager(state: EmulatorState, conn: sqlite3.Connection, guild_id: int, user_id: int) -> Standing:
    who = require_member(conn, guild_id, user_id, state.clock.now())
    require_guild_permission(who, int(Permission.MANAGE_GUILD))
    return who


def get_row(conn: sqlite3.Connection, guild_id: int, rule_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM auto_moderation_rules WHERE id = ? AND guild_id = ?",
                       (rule_id, guild_id)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_RULE, "Auto Moderation Rule")
    return row


def reference_problems(conn: sqlite3.Connection, guild_id: int, merged: dict[str, Any], who: Standing | None,
                       rule_id: int | None) -> FieldErrors:
    """The checks that need the guild, by field path (``who``: the caller, whose permissions a timeout
    action needs; ``rule_id``: the rule modified, None for a new one, which counts against the limits)."""
    found = FieldErrors()
    trigger_type = merged["trigger_type"]
    expected_event = rules.MEMBER_UPDATE if trigger_type == rules.MEMBER_PROFILE else rules.MESSAGE_SEND
    if merged["event_type"] != expected_event:
        found.add(("event_type",), "AUTO_MODERATION_INVALID_EVENT_TYPE",
                  f"This trigger type takes event type {expected_event}.")
    for index, action in enumerate(merged["actions"]):
        kind = action["type"]
        if kind == rules.TIMEOUT and trigger_type not in TIMEOUT_TRIGGERS:
            found.add(("actions", index, "type"), "AUTO_MODERATION_INVALID_ACTION_FOR_TRIGGER",
                      "A timeout is only for keyword, mention spam and member profile rules.")
        if kind == rules.TIMEOUT and who is not None and not who.base & Permission.MODERATE_MEMBERS:
            found.add(("actions", index, "type"), "AUTO_MODERATION_MISSING_PERMISSION",
                      "A timeout action needs the MODERATE_MEMBERS permission.")
        if kind == rules.BLOCK_MEMBER_INTERACTION and trigger_type != rules.MEMBER_PROFILE:
            found.add(("actions", index, "type"), "AUTO_MODERATION_INVALID_ACTION_FOR_TRIGGER",
                      "Blocking a member's interactions is only for member profile rules.")
        if kind == rules.SEND_ALERT_MESSAGE:
            channel = conn.execute("SELECT type FROM channels WHERE id = ? AND guild_id = ?",
                                   (int(action["metadata"]["channel_id"]), guild_id)).fetchone()
            if channel is None or channel["type"] not in _ALERT_CHANNEL_TYPES:
                found.add(("actions", index, "metadata", "channel_id"), "CHANNEL_TYPE_INVALID",
                          "Must be a text channel of this guild.")
    for index, role_id in enumerate(merged["exempt_roles"]):
        if conn.execute("SELECT 1 FROM roles WHERE id = ? AND guild_id = ?", (role_id, guild_id)).fetchone() is None:
            found.add(("exempt_roles", index), "ROLE_UNKNOWN", "No role with this id in the guild.")
    for index, channel_id in enumerate(merged["exempt_channels"]):
        if conn.execute("SELECT 1 FROM channels WHERE id = ? AND guild_id = ?",
                        (channel_id, guild_id)).fetchone() is None:
            found.add(("exempt_channels", index), "CHANNEL_UNKNOWN", "No channel with this id in the guild.")
    if rule_id is None:
        count = conn.execute("SELECT COUNT(*) FROM auto_moderation_rules WHERE guild_id = ? AND trigger_type = ?",
                             (guild_id, trigger_type)).fetchone()[0]
        if count >= RULES_PER_GUILD[trigger_type]:
            found.add(("trigger_type",), "AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED",
                      f"Maximum number of rules of this type reached ({RULES_PER_GUILD[trigger_type]}).")
    return found


def _columns(fields: dict[str, Any]) -> dict[str, Any]:
    return {key: json.dumps(value) if key in _JSON_COLUMNS else int(value) if key == "enabled" else value
            for key, value in fields.items()}


def _announce(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, event: str, body: Payload) -> None:
    to_managers(conn, outbox, state.clock.now(), int(body["guild_id"]), event, AUTO_MODERATION_CONFIGURATION, body)


def _audit(conn: sqlite3.Connection, guild_id: int, user_id: int, action: int, rule_id: int, before: Any,
           after: Any) -> None:
    audit_trail.simple(conn, guild_id, user_id, action, rule_id, before, after, AUDIT_KEYS)


def insert(state: EmulatorState, conn: sqlite3.Connection, *, guild_id: int, creator_id: int, fields: dict[str, Any],
           rule_id: int | None = None) -> sqlite3.Row:
    """Store a rule whose fields were read (rules.read_rule) and checked."""
    rule_id = rule_id if rule_id is not None else state.ids.next()
    columns = {"id": rule_id, "guild_id": guild_id, "creator_id": creator_id, **_columns(fields)}
    conn.execute(f"INSERT INTO auto_moderation_rules ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                 tuple(columns.values()))
    return get_row(conn, guild_id, rule_id)


def create(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, user_id: int,
           fields: dict[str, Any]) -> Payload:
    who = require_manager(state, conn, guild_id, user_id)
    reference_problems(conn, guild_id, fields, who, None).raise_if_any()
    body = rule_json(insert(state, conn, guild_id=guild_id, creator_id=user_id, fields=fields))
    _announce(state, conn, outbox, "AUTO_MODERATION_RULE_CREATE", body)
    _audit(conn, guild_id, user_id, audit_actions.AUTO_MODERATION_RULE_CREATE, int(body["id"]), None, body)
    return body


def list_rules(state: EmulatorState, conn: sqlite3.Connection, *, guild_id: int, user_id: int) -> list[Payload]:
    require_manager(state, conn, guild_id, user_id)
    rows = conn.execute("SELECT * FROM auto_moderation_rules WHERE guild_id = ? ORDER BY id", (guild_id,)).fetchall()
    return [rule_json(row) for row in rows]


def get(state: EmulatorState, conn: sqlite3.Connection, *, guild_id: int, user_id: int, rule_id: int) -> Payload:
    require_manager(state, conn, guild_id, user_id)
    return rule_json(get_row(conn, guild_id, rule_id))


def trigger_type_of(conn: sqlite3.Connection, guild_id: int, rule_id: int) -> int | None:
    """What a PATCH body is read against (None when there is no such rule: the 404 comes later)."""
    row = conn.execute("SELECT trigger_type FROM auto_moderation_rules WHERE id = ? AND guild_id = ?",
                       (rule_id, guild_id)).fetchone()
    return None if row is None else int(row["trigger_type"])


def modify(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, user_id: int,
           rule_id: int, fields: dict[str, Any]) -> Payload:
    who = require_manager(state, conn, guild_id, user_id)
    before = rule_json(get_row(conn, guild_id, rule_id))
    merged = {**before, "exempt_roles": [int(i) for i in before["exempt_roles"]],
              "exempt_channels": [int(i) for i in before["exempt_channels"]], **fields}
    # A timeout already on the rule does not need the caller's MODERATE_MEMBERS again.
    adds_timeout = any(a["type"] == rules.TIMEOUT for a in fields.get("actions", []))
    reference_problems(conn, guild_id, merged, who if adds_timeout else None, rule_id).raise_if_any()
    changes = _columns(fields)
    if changes:
        assignments = ", ".join(f"{column} = ?" for column in changes)   # column names: rules.read_rule's
        conn.execute(f"UPDATE auto_moderation_rules SET {assignments} WHERE id = ?", (*changes.values(), rule_id))
    body = rule_json(get_row(conn, guild_id, rule_id))
    _announce(state, conn, outbox, "AUTO_MODERATION_RULE_UPDATE", body)
    _audit(conn, guild_id, user_id, audit_actions.AUTO_MODERATION_RULE_UPDATE, rule_id, before, body)
    return body


def delete(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, user_id: int,
           rule_id: int) -> None:
    require_manager(state, conn, guild_id, user_id)
    body = rule_json(get_row(conn, guild_id, rule_id))
    conn.execute("DELETE FROM auto_moderation_rules WHERE id = ?", (rule_id,))
    _announce(state, conn, outbox, "AUTO_MODERATION_RULE_DELETE", body)
    _audit(conn, guild_id, user_id, audit_actions.AUTO_MODERATION_RULE_DELETE, rule_id, body, None)
