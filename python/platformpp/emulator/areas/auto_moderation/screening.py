"""The one check a guild message (created or edited) and a thread's title pass before they are stored:
the guild's enabled MESSAGE_SEND rules, as the platform applies them.

Bots are not screened, nor members who may manage the guild (the owner, ADMINISTRATOR, MANAGE_GUILD),
nor members holding one of a rule's ``exempt_roles``, in one of its ``exempt_channels`` (a thread counts
as its parent channel, a channel as its category). A rule with a BLOCK_MESSAGE action refuses the
message with 400 / 200000 (a title: 200001) and nothing of it is stored; its other actions and the
other rules' still run. What the triggered rules do (alert message, timeout, Gateway events, audit
entries) is published as the domain event ``auto_moderation.triggered``, carried out by
consequences.py: when the message is stored, after it commits; when it is blocked, after the
request's transaction rolled back (the error's ``after_rollback``, core/storage.py). ``screen_profile``
does the same for a member's names (MEMBER_PROFILE rules)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ...core.errors import ApiError
from ...core.permissions import Permission
from ...events.audience import Payload
from ...events.outbox import Outbox
from ..guilds.access import standing
from . import rules
from .matching import Match, match_text

if TYPE_CHECKING:
    from ...state import EmulatorState

TRIGGERED = "auto_moderation.triggered"
MESSAGE_BLOCKED, TITLE_BLOCKED = 200000, 200001
_EXEMPT_BY_PERMISSION = int(Permission.MANAGE_GUILD)   # owner and ADMINISTRATOR hold it too
_SCREENED_TRIGGERS = (rules.KEYWORD, rules.KEYWORD_PRESET, rules.MENTION_SPAM)


class BlockedByAutoModeration(ApiError):
    """400 / 200000 or 200001; ``after_rollback`` publishes what the rules did."""

    def __init__(self, code: int, message: str, after_rollback: Callable[[], None]) -> None:
        super().__init__(400, code, message)
        self.after_rollback: Callable[[], None] | None = after_rollback


def _channel_chain(conn: sqlite3.Connection, channel: sqlite3.Row) -> set[int]:
    """The channel, its parent and the parent's parent (a thread's channel's category)."""
    chain = {int(channel["id"])}
    parent = channel["parent_id"]
    for _ in range(2):
        if parent is None:
            break
        chain.add(int(parent))
        row = conn.execute("SELECT parent_id FROM channels WHERE id = ?", (parent,)).fetchone()
        parent = row["parent_id"] if row is not None else None
    return chain


def _match(rule: sqlite3.Row, text: str, mention_count: int, title: bool) -> Match | None:
    metadata: dict[str, Any] = json.loads(rule["trigger_metadata"])
    if rule["trigger_type"] == rules.MENTION_SPAM:
        limit = int(metadata.get("mention_total_limit") or 0)
        return Match(None, "") if not title and limit and mention_count > limit else None
    return match_text(rule["trigger_type"], metadata, text)


def screen(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, channel: sqlite3.Row,
           author_id: int, author_is_bot: bool, text: str, mention_count: int = 0,
           message_id: int | None = None, title: bool = False) -> None:
    """Screen ``text`` (a message's content, or with ``title`` a thread's name) written by
    ``author_id`` in ``channel`` (a guild channel or thread row). Raises BlockedByAutoModeration."""
    if author_is_bot or channel["guild_id"] is None:
        return
    guild_id = int(channel["guild_id"])
    found = conn.execute("SELECT * FROM auto_moderation_rules WHERE guild_id = ? AND enabled = 1 AND event_type = ?"
                         f" AND trigger_type IN ({', '.join('?' * len(_SCREENED_TRIGGERS))}) ORDER BY id",
                         (guild_id, rules.MESSAGE_SEND, *_SCREENED_TRIGGERS)).fetchall()
    if not found or not text and not mention_count:
        return
    who = standing(conn, guild_id, author_id, state.clock.now())
    if who is None or who.base & _EXEMPT_BY_PERMISSION:
        return
    role_ids = set(who.context.role_permissions)
    channels = _channel_chain(conn, channel)
    executions: list[Payload] = []
    for rule in found:
        if (role_ids & {int(i) for i in json.loads(rule["exempt_roles"])}
                or channels & {int(i) for i in json.loads(rule["exempt_channels"])}):
            continue
        match = _match(rule, text, mention_count, title)
        if match is None:
            continue
        for action in json.loads(rule["actions"]):
            executions.append({"rule_id": str(rule["id"]), "rule_name": rule["name"],
                               "rule_trigger_type": rule["trigger_type"], "action": action,
                               "matched_keyword": match.keyword, "matched_content": match.content})
    if not executions:
        return
    blocked = any(e["action"]["type"] == rules.BLOCK_MESSAGE for e in executions)
    payload: Payload = {"guild_id": str(guild_id), "channel_id": str(channel["id"]), "user_id": str(author_id),
                        "content": text, "message_id": None if blocked or message_id is None else str(message_id),
                        "blocked": blocked, "executions": executions}
    if not blocked:
        outbox.publish(TRIGGERED, payload)
        return
    bus = state.bus
    if title:
        raise BlockedByAutoModeration(TITLE_BLOCKED, "Title was blocked by automatic moderation",
                                      lambda: bus.publish(TRIGGERED, payload))
    raise BlockedByAutoModeration(MESSAGE_BLOCKED, "Message was blocked by automatic moderation",
                                  lambda: bus.publish(TRIGGERED, payload))


QUARANTINED_USERNAME = 1 << 7   # the member flag a member profile rule's BLOCK_MEMBER_INTERACTION sets


def screen_profile(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int, user_id: int) -> None:
    """A member's names (nickname, display name, username) after they joined or their nickname changed,
    against the guild's enabled MEMBER_PROFILE rules (same exemptions as messages, but no channel).
    A match publishes ``auto_moderation.triggered`` (``profile``: true); a member whose names pass
    again is let out of quarantine at once."""
    found = conn.execute("SELECT * FROM auto_moderation_rules WHERE guild_id = ? AND enabled = 1 AND event_type = ?"
                         " AND trigger_type = ? ORDER BY id",
                         (guild_id, rules.MEMBER_UPDATE, rules.MEMBER_PROFILE)).fetchall()
    member = conn.execute("SELECT m.nick, m.flags, u.username, u.global_name, u.bot FROM members m"
                          " JOIN users u ON u.id = m.user_id WHERE m.guild_id = ? AND m.user_id = ?",
                          (guild_id, user_id)).fetchone()
    if member is None or member["bot"]:
        return
    who = standing(conn, guild_id, user_id, now)
    exempt = who is None or bool(who.base & _EXEMPT_BY_PERMISSION)
    role_ids = set(who.context.role_permissions) if who is not None else set()
    names = [name for name in (member["nick"], member["global_name"], member["username"]) if name]
    executions: list[Payload] = []
    content = ""
    for rule in found if not exempt else ():
        if role_ids & {int(i) for i in json.loads(rule["exempt_roles"])}:
            continue
        metadata = json.loads(rule["trigger_metadata"])
        match = next((m for m in (match_text(rules.MEMBER_PROFILE, metadata, name) for name in names) if m), None)
        if match is None:
            continue
        content = content or next(name for name in names if match_text(rules.MEMBER_PROFILE, metadata, name))
        for action in json.loads(rule["actions"]):
            executions.append({"rule_id": str(rule["id"]), "rule_name": rule["name"],
                               "rule_trigger_type": rule["trigger_type"], "action": action,
                               "matched_keyword": match.keyword, "matched_content": match.content})
    if not executions:
        if member["flags"] & QUARANTINED_USERNAME:
            conn.execute("UPDATE members SET flags = flags & ? WHERE guild_id = ? AND user_id = ?",
                         (~QUARANTINED_USERNAME, guild_id, user_id))
        return
    outbox.publish(TRIGGERED, {"guild_id": str(guild_id), "channel_id": None, "user_id": str(user_id),
                               "content": content, "message_id": None, "blocked": False, "profile": True,
                               "executions": executions})
