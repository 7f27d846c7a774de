"""What triggered rules do, once screening.py found them (the domain event ``auto_moderation.triggered``),
in a transaction of its own. For each action of each rule:

- BLOCK_MESSAGE: audit entry 143 (the message itself was refused by screening.py);
- SEND_ALERT_MESSAGE: a system message of type 24 (AUTO_MODERATION_ACTION) in the alert channel, its
  embed describing the rule and the content, and audit entry 144;
- TIMEOUT: the member's ``communication_disabled_until`` moves ``duration_seconds`` on
  (GUILD_MEMBER_UPDATE), and audit entry 145;
- BLOCK_MEMBER_INTERACTION (member profile rules): the member's flag AUTOMOD_QUARANTINED_USERNAME
  (1 << 7) is set (GUILD_MEMBER_UPDATE), and audit entry 146;

and AUTO_MODERATION_ACTION_EXECUTION to the guild's bots with MANAGE_GUILD on sessions with the
AUTO_MODERATION_EXECUTION intent (``content`` and ``matched_content`` empty without MESSAGE_CONTENT).
Audit entries name the member as actor and target, with ``options`` auto_moderation_rule_name,
auto_moderation_rule_trigger_type and the channel written in."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from ...core.clock import format_instant
from ...events.audience import Payload
from ...events.outbox import Outbox
from ..audit_log import actions as audit_actions
from ..audit_log import store as audit_log
from ..channel_messages import store as channel_messages
from ..guilds.mutations import modify_member
from . import rules
from .listing import AUTO_MODERATION_EXECUTION, to_managers
from .screening import QUARANTINED_USERNAME

if TYPE_CHECKING:
    from ...events.bus import Event
    from ...state import EmulatorState

AUTO_MODERATION_ACTION = 24   # the alert's message type
_AUDIT_ACTION = {rules.BLOCK_MESSAGE: audit_actions.AUTO_MODERATION_BLOCK_MESSAGE,
                 rules.SEND_ALERT_MESSAGE: audit_actions.AUTO_MODERATION_FLAG_TO_CHANNEL,
                 rules.TIMEOUT: audit_actions.AUTO_MODERATION_USER_COMMUNICATION_DISABLED,
                 rules.BLOCK_MEMBER_INTERACTION: audit_actions.AUTO_MODERATION_QUARANTINE_USER}


def _alert_embed(trigger: Payload, execution: Payload, timeout: int | None) -> Payload:
    fields = [("rule_name", execution["rule_name"])]
    if trigger["channel_id"] is not None:
        fields.append(("channel_id", trigger["channel_id"]))
    fields.append(("decision_outcome", "blocked" if trigger["blocked"] else "flagged"))
    if execution["matched_keyword"] is not None:
        fields += [("keyword", execution["matched_keyword"]),
                   ("keyword_matched_content", execution["matched_content"])]
    if trigger["message_id"] is not None:
        fields.append(("flagged_message_id", trigger["message_id"]))
    if timeout is not None:
        fields.append(("timeout_duration", str(timeout)))
    return {"type": "auto_moderation_message", "description": trigger["content"],
            "fields": [{"name": name, "value": str(value), "inline": False} for name, value in fields]}


def _post_alert(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, trigger: Payload,
                execution: Payload, timeout: int | None) -> int | None:
    channel_id = int(execution["action"]["metadata"]["channel_id"])
    channel = conn.execute("SELECT * FROM channels WHERE id = ? AND guild_id = ?",
                           (channel_id, int(trigger["guild_id"]))).fetchone()
    if channel is None:   # deleted since the rule was written
        return None
    now = state.clock.now()
    message_id = state.ids.next()
    conn.execute("INSERT INTO channel_messages (id, channel_id, guild_id, author_id, type, content, embeds, created_at)"
                 " VALUES (?, ?, ?, ?, ?, '', ?, ?)",
                 (message_id, channel_id, channel["guild_id"], int(trigger["user_id"]), AUTO_MODERATION_ACTION,
                  json.dumps([_alert_embed(trigger, execution, timeout)]), format_instant(now)))
    conn.execute("UPDATE channels SET last_message_id = ? WHERE id = ?", (message_id, channel_id))
    message = channel_messages.render(conn, channel_messages.get_row(conn, channel_id, message_id))
    channel_messages.announce_message(conn, outbox, "MESSAGE_CREATE", channel, message, now)
    return message_id


def _time_out(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, trigger: Payload, seconds: int) -> None:
    guild_id, user_id = int(trigger["guild_id"]), int(trigger["user_id"])
    if conn.execute("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)).fetchone():
        now = state.clock.now()
        modify_member(conn, outbox, now, guild_id, user_id,
                      {"communication_disabled_until": format_instant(now + timedelta(seconds=seconds))})


def _quarantine(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, trigger: Payload) -> None:
    guild_id, user_id = int(trigger["guild_id"]), int(trigger["user_id"])
    row = conn.execute("SELECT flags FROM members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)).fetchone()
    if row is not None and not row["flags"] & QUARANTINED_USERNAME:
        modify_member(conn, outbox, state.clock.now(), guild_id, user_id, {"flags": row["flags"] | QUARANTINED_USERNAME})


def _execution_event(trigger: Payload, execution: Payload, alert_id: int | None) -> tuple[Payload, Payload]:
    """The dispatch, and the same without the content (a session without MESSAGE_CONTENT)."""
    body: dict[str, Any] = {"guild_id": trigger["guild_id"], "action": execution["action"],
                            "rule_id": execution["rule_id"], "rule_trigger_type": execution["rule_trigger_type"],
                            "user_id": trigger["user_id"], "content": trigger["content"], "matched_keyword": execution["matched_keyword"],
                            "matched_content": execution["matched_content"]}
    if trigger["channel_id"] is not None:
        body["channel_id"] = trigger["channel_id"]
    if trigger["message_id"] is not None:
        body["message_id"] = trigger["message_id"]
    if alert_id is not None:
        body["alert_system_message_id"] = str(alert_id)
    return body, {**body, "content": "", "matched_content": ""}


def carry_out(state: EmulatorState, trigger: Payload) -> None:
    outbox = Outbox(state)
    with state.db.transaction() as conn:
        now = state.clock.now()
        timeouts = [int(e["action"]["metadata"].get("duration_seconds") or 0) for e in trigger["executions"]
                    if e["action"]["type"] == rules.TIMEOUT]
        timeout = max(timeouts) if timeouts else None
        for execution in trigger["executions"]:
            kind = execution["action"]["type"]
            alert_id = None
            if kind == rules.SEND_ALERT_MESSAGE:
                alert_id = _post_alert(state, conn, outbox, trigger, execution, timeout)
            elif kind == rules.TIMEOUT:
                _time_out(state, conn, outbox, trigger, int(execution["action"]["metadata"].get("duration_seconds") or 0))
            elif kind == rules.BLOCK_MEMBER_INTERACTION:
                _quarantine(state, conn, outbox, trigger)
            full, content_free = _execution_event(trigger, execution, alert_id)
            to_managers(conn, outbox, now, int(trigger["guild_id"]), "AUTO_MODERATION_ACTION_EXECUTION",
                        AUTO_MODERATION_EXECUTION, full, content_free=content_free)
            if kind in _AUDIT_ACTION:
                user_id = int(trigger["user_id"])
                audit_log.record(conn, guild_id=int(trigger["guild_id"]), user_id=user_id,
                                 action_type=_AUDIT_ACTION[kind], target_id=user_id,
                                 options={"auto_moderation_rule_name": execution["rule_name"],
                                          "auto_moderation_rule_trigger_type": execution["rule_trigger_type"],
                                          "channel_id": trigger["channel_id"]})


def on_event(state: EmulatorState, event: Event) -> None:
    if event.name == "auto_moderation.triggered":
        carry_out(state, event.payload)
