"""Threads: channel rows with a parent (types 10, 11, 12), their members, archiving on the emulator
clock, what a member may do in them, and their Gateway events. Every function runs in the caller's
transaction and adds its dispatches to the caller's outbox.

A thread has its parent's permissions (it has no overwrites of its own); a private thread is seen only
by its members and those with MANAGE_THREADS; messages in a thread are sent with
SEND_MESSAGES_IN_THREADS, which stands for SEND_MESSAGES there. A thread whose last activity is older
than its ``auto_archive_duration`` is archived the next time the emulator looks at the guild's threads
(every thread route does, so the archive follows the emulator clock, with THREAD_UPDATE)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from ...core import errors
from ...core.clock import format_instant, parse_instant
from ...core.errors import ApiError
from ...core.permissions import MemberContext, Permission, channel_permissions
from ...core.validation import Form
from ...events.audience import Payload, Viewer
from ...events.outbox import Outbox
from ...wire.channel import (
    ANNOUNCEMENT,
    ANNOUNCEMENT_THREAD,
    POST_CHANNELS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    TEXT,
    THREAD_TYPES,
    obfuscated_channel_json,
    thread_json,
)
from ...wire.member import MEMBER_SELECT, member_json
from ..audit_log import actions
from ..audit_log import store as audit_log
from ..guilds.access import (
    guild_roles_of,
    missing_access,
    missing_permissions,
    overwrites_of,
    standing,
    standing_in,
)
from ..guilds.dispatch import GUILD_MEMBERS_INTENT, GUILDS_INTENT, GuildBots, guild_bots

AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)   # minutes
DEFAULT_AUTO_ARCHIVE = 4320
THREAD_PARENT_TYPES = frozenset({TEXT, ANNOUNCEMENT}) | POST_CHANNELS
MAX_APPLIED_TAGS = 5
# Error codes
THREAD_ARCHIVED = 50083            # "Thread is archived": locked, or an operation an archived thread refuses
THREAD_ALREADY_CREATED = 160004    # "A thread has already been created for this message"
HAS_THREAD = 1 << 5                # message flag: a thread was started from it

_VIEW = int(Permission.VIEW_CHANNEL)
_SEND = int(Permission.SEND_MESSAGES)
_SEND_IN_THREADS = int(Permission.SEND_MESSAGES_IN_THREADS)
_MANAGE_THREADS = int(Permission.MANAGE_THREADS)


def is_thread(channel: sqlite3.Row) -> bool:
    return channel["type"] in THREAD_TYPES


def get_thread(conn: sqlite3.Connection, thread_id: int) -> sqlite3.Row:
    """A thread; 404 / 10003 for anything else."""
    row = conn.execute("SELECT * FROM channels WHERE id = ?", (thread_id,)).fetchone()
    if row is None or row["type"] not in THREAD_TYPES:
        raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
    return row


def parent_of(conn: sqlite3.Connection, thread: sqlite3.Row) -> sqlite3.Row:
    return conn.execute("SELECT * FROM channels WHERE id = ?", (thread["parent_id"],)).fetchone()


def is_member(conn: sqlite3.Connection, thread_id: int, user_id: int) -> bool:
    return conn.execute("SELECT 1 FROM thread_members WHERE thread_id = ? AND user_id = ?",
                        (thread_id, user_id)).fetchone() is not None


# --- permissions ---------------------------------------------------------------------------------------

def thread_bits(parent_bits: int, thread: sqlite3.Row, member: bool) -> int:
    """What a member holds in ``thread`` from what they hold in its parent: nothing in a private thread
    they are not in without MANAGE_THREADS; SEND_MESSAGES is SEND_MESSAGES_IN_THREADS there."""
    if not parent_bits & _VIEW:
        return 0
    if thread["type"] == PRIVATE_THREAD and not member and not parent_bits & _MANAGE_THREADS:
        return 0
    return parent_bits | _SEND if parent_bits & _SEND_IN_THREADS else parent_bits & ~_SEND


def permissions_in_thread(conn: sqlite3.Connection, thread: sqlite3.Row, context: MemberContext) -> int:
    parent = parent_of(conn, thread)
    if parent is None:
        return 0
    return thread_bits(channel_permissions(context, overwrites_of(parent)), thread,
                       is_member(conn, thread["id"], context.user_id))


def permissions_of(conn: sqlite3.Connection, channel: sqlite3.Row, user_id: int, now: datetime) -> int:
    """A user's permissions in a thread or in a thread's parent (0 for a non-member of the guild)."""
    who = standing(conn, channel["guild_id"], user_id, now)
    if who is None:
        return 0
    if is_thread(channel):
        return permissions_in_thread(conn, channel, who.context)
    return channel_permissions(who.context, overwrites_of(channel))


def viewing_bots(conn: sqlite3.Connection, thread: sqlite3.Row, bots: list[sqlite3.Row], now: datetime
                 ) -> frozenset[int]:
    """Which of these bot members (rows with the user's ``id``, ``member_roles`` and
    ``communication_disabled_until``) can view the thread."""
    parent = parent_of(conn, thread)
    guild = guild_roles_of(conn, thread["guild_id"]) if bots and parent is not None else None
    if guild is None or parent is None:
        return frozenset()
    members = _member_ids(conn, thread["id"])
    overwrites = overwrites_of(parent)
    return frozenset(row["id"] for row in bots if thread_bits(channel_permissions(standing_in(
        guild, row["id"], row["member_roles"], row["communication_disabled_until"], now).context, overwrites),
        thread, row["id"] in members) & _VIEW)


def require(bits_held: int, bits: int) -> None:
    """50001 when the thread is not viewable, 50013 naming what else is missing."""
    if not bits_held & _VIEW:
        raise missing_access()
    if bits_held & bits != bits:
        raise missing_permissions(bits & ~bits_held)


def archived_error() -> ApiError:
    return ApiError(400, THREAD_ARCHIVED, "Thread is archived")


# --- members -------------------------------------------------------------------------------------------

def _member_ids(conn: sqlite3.Connection, thread_id: int) -> set[int]:
    return {r[0] for r in conn.execute("SELECT user_id FROM thread_members WHERE thread_id = ?",
                                       (thread_id,))}


def thread_member_json(row: sqlite3.Row, member: Payload | None = None) -> Payload:
    body: Payload = {"id": str(row["thread_id"]), "user_id": str(row["user_id"]),
                     "join_timestamp": row["join_timestamp"], "flags": row["flags"]}
    if member is not None:
        body["member"] = member
    return body


def members_json(conn: sqlite3.Connection, thread: sqlite3.Row, *, with_member: bool, after: int,
                 limit: int) -> list[Payload]:
    rows = conn.execute("SELECT * FROM thread_members WHERE thread_id = ? AND user_id > ? ORDER BY user_id"
                        " LIMIT ?", (thread["id"], after, limit)).fetchall()
    guild_id = thread["guild_id"]
    return [thread_member_json(row, _guild_member(conn, guild_id, row["user_id"]) if with_member else None)
            for row in rows]


def member_of(conn: sqlite3.Connection, thread: sqlite3.Row, user_id: int, *, with_member: bool) -> Payload:
    row = conn.execute("SELECT * FROM thread_members WHERE thread_id = ? AND user_id = ?",
                       (thread["id"], user_id)).fetchone()
    if row is None:
        raise errors.not_found(errors.UNKNOWN_MEMBER, "Member")
    return thread_member_json(row, _guild_member(conn, thread["guild_id"], user_id) if with_member else None)


def _guild_member(conn: sqlite3.Connection, guild_id: int, user_id: int) -> Payload | None:
    row = conn.execute(MEMBER_SELECT + " WHERE m.guild_id = ? AND m.user_id = ?",
                       (guild_id, user_id)).fetchone()
    return member_json(row) if row is not None else None


def add_member(conn: sqlite3.Connection, outbox: Outbox, now: datetime, thread: sqlite3.Row,
               user_id: int) -> None:
    """Nothing happens (and nothing is sent) when the user is already in the thread."""
    if is_member(conn, thread["id"], user_id):
        return
    conn.execute("INSERT INTO thread_members (thread_id, user_id, join_timestamp) VALUES (?, ?, ?)",
                 (thread["id"], user_id, format_instant(now)))
    conn.execute("UPDATE channels SET member_count = member_count + 1 WHERE id = ?", (thread["id"],))
    joined = conn.execute("SELECT * FROM thread_members WHERE thread_id = ? AND user_id = ?",
                          (thread["id"], user_id)).fetchone()
    member = thread_member_json(joined, _guild_member(conn, thread["guild_id"], user_id))
    _members_update(conn, outbox, now, thread, user_id, {"added_members": [member]})
    own = {**thread_member_json(joined), "guild_id": str(thread["guild_id"])}
    if thread["type"] == PRIVATE_THREAD:   # the thread comes into the added bot's sight
        shown = get_thread(conn, thread["id"])
        outbox.add("THREAD_CREATE", _only(thread["guild_id"], user_id,
                                          {**thread_json(shown), "member": thread_member_json(joined)}))
    outbox.add("THREAD_MEMBER_UPDATE", _only(thread["guild_id"], user_id, own))


def remove_member(conn: sqlite3.Connection, outbox: Outbox, now: datetime, thread: sqlite3.Row,
                  user_id: int) -> None:
    if not is_member(conn, thread["id"], user_id):
        return
    conn.execute("DELETE FROM thread_members WHERE thread_id = ? AND user_id = ?", (thread["id"], user_id))
    conn.execute("UPDATE channels SET member_count = MAX(member_count - 1, 0) WHERE id = ?", (thread["id"],))
    _members_update(conn, outbox, now, thread, user_id, {"removed_member_ids": [str(user_id)]})


def _members_update(conn: sqlite3.Connection, outbox: Outbox, now: datetime, thread: sqlite3.Row,
                    user_id: int,
                    change: Payload) -> None:
    """THREAD_MEMBERS_UPDATE: to the bots that can view the thread and hold GUILD_MEMBERS, and to the
    bot added or removed itself (with or without the intent)."""
    row = conn.execute("SELECT * FROM channels WHERE id = ?", (thread["id"],)).fetchone()
    payload = {"id": str(row["id"]), "guild_id": str(row["guild_id"]), "member_count": row["member_count"],
               **change}
    viewers = _bot_viewers(conn, row, now)
    guild_id = row["guild_id"]

    def render(viewer: Viewer) -> Payload | None:
        if viewer.kind != "bot" or guild_id not in viewer.guild_ids:
            return None
        if viewer.user_id == user_id or (viewer.user_id in viewers and viewer.intents & GUILD_MEMBERS_INTENT):
            return payload
        return None
    outbox.add("THREAD_MEMBERS_UPDATE", render)


def _only(guild_id: int, user_id: int, payload: Payload) -> Any:
    def render(viewer: Viewer) -> Payload | None:
        mine = viewer.kind == "bot" and viewer.user_id == user_id and guild_id in viewer.guild_ids
        return payload if mine else None
    return render


def _bot_viewers(conn: sqlite3.Connection, thread: sqlite3.Row, now: datetime) -> frozenset[int]:
    rows = conn.execute("SELECT m.user_id AS id, m.roles AS member_roles, m.communication_disabled_until"
                        " FROM members m JOIN users u ON u.id = m.user_id WHERE m.guild_id = ? AND u.bot = 1",
                        (thread["guild_id"],)).fetchall()
    return viewing_bots(conn, thread, rows, now)


# --- events --------------------------------------------------------------------------------------------

def thread_event(conn: sqlite3.Connection, outbox: Outbox, now: datetime, event: str, thread: sqlite3.Row,
                 payload: Payload | None = None) -> None:
    """THREAD_CREATE / UPDATE / DELETE (GUILDS intent) to the bots that can view the thread. A bot that
    opted in to channel obfuscation gets a thread of a channel it cannot view obfuscated; the others
    hear nothing of it (a private thread is never shown to a bot outside it without MANAGE_THREADS)."""
    full = payload if payload is not None else thread_json(thread)
    hidden = obfuscated_channel_json(thread)
    viewers = _bot_viewers(conn, thread, now)
    bots = guild_bots(conn, thread["guild_id"], now)
    parent_id = thread["parent_id"]
    private = thread["type"] == PRIVATE_THREAD

    def render(viewer: Viewer) -> Payload | None:
        if not bots.admits(viewer, GUILDS_INTENT):
            return None
        if viewer.user_id in viewers:
            return full
        if not private and parent_id not in bots.visible[viewer.user_id] and bots.obfuscates(viewer):
            return hidden
        return None
    outbox.add(event, render)


# --- creating, changing, deleting ----------------------------------------------------------------------

def create(conn: sqlite3.Connection, outbox: Outbox, now: datetime, *, thread_id: int, parent: sqlite3.Row,
           owner_id: int, kind: int, name: str, auto_archive_duration: int | None,
           rate_limit_per_user: int | None,
           invitable: bool, applied_tags: list[str]) -> sqlite3.Row:
    """The thread, its owner as its first member; THREAD_CREATE (``newly_created``) and the audit entry."""
    stamp = format_instant(now)
    duration = auto_archive_duration or parent["default_auto_archive_duration"] or DEFAULT_AUTO_ARCHIVE
    slowmode = rate_limit_per_user if rate_limit_per_user is not None else \
        (parent["default_thread_rate_limit_per_user"] if parent["type"] in POST_CHANNELS else 0)
    conn.execute(
        "INSERT INTO channels (id, guild_id, type, name, parent_id, owner_id, rate_limit_per_user, flags,"
        " thread_auto_archive_duration, thread_archive_timestamp, thread_create_timestamp,"
        " thread_last_activity,"
        " thread_invitable, applied_tags) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)",
        (thread_id, parent["guild_id"], kind, name, parent["id"], owner_id, slowmode, duration,
         stamp, stamp, stamp, int(invitable), json.dumps(applied_tags)))
    conn.execute("INSERT INTO thread_members (thread_id, user_id, join_timestamp) VALUES (?, ?, ?)",
                 (thread_id, owner_id, stamp))
    conn.execute("UPDATE channels SET member_count = 1 WHERE id = ?", (thread_id,))
    row = get_thread(conn, thread_id)
    thread_event(conn, outbox, now, "THREAD_CREATE", row, {**thread_json(row), "newly_created": True})
    audit(conn, row["guild_id"], owner_id, None, thread_json(row))
    return row


def modify(conn: sqlite3.Connection, outbox: Outbox, now: datetime, thread: sqlite3.Row,
           changes: dict[str, Any],
           user_id: int | None) -> sqlite3.Row:
    """Thread columns (already validated); archiving or unarchiving stamps ``archive_timestamp``."""
    changes = dict(changes)
    if "thread_archived" in changes and changes["thread_archived"] != thread["thread_archived"]:
        changes["thread_archive_timestamp"] = format_instant(now)
        if not changes["thread_archived"]:
            changes["thread_last_activity"] = format_instant(now)
    if changes:
        assignments = ", ".join(f"{column} = ?" for column in changes)
        conn.execute(f"UPDATE channels SET {assignments} WHERE id = ?", (*changes.values(), thread["id"]))
    row = get_thread(conn, thread["id"])
    if changes:
        thread_event(conn, outbox, now, "THREAD_UPDATE", row)
        if user_id is not None:
            audit(conn, row["guild_id"], user_id, thread_json(thread), thread_json(row))
    return row


def delete(conn: sqlite3.Connection, outbox: Outbox, now: datetime, thread: sqlite3.Row,
           user_id: int) -> None:
    payload = {"id": str(thread["id"]), "guild_id": str(thread["guild_id"]),
               "parent_id": str(thread["parent_id"]), "type": thread["type"]}
    thread_event(conn, outbox, now, "THREAD_DELETE", thread, payload)   # its audience, read before it goes
    conn.execute("DELETE FROM channels WHERE id = ?", (thread["id"],))
    audit(conn, thread["guild_id"], user_id, thread_json(thread), None)


AUDIT_KEYS = ("name", "type", "archived", "locked", "auto_archive_duration", "rate_limit_per_user",
              "invitable", "applied_tags", "flags")


def audit(conn: sqlite3.Connection, guild_id: int, user_id: int, before: Payload | None,
          after: Payload | None) -> None:
    """THREAD_CREATE / UPDATE / DELETE, with the changed fields (metadata flattened, as the platform
    logs it)."""
    def pick(obj: Payload | None) -> dict[str, Any] | None:
        if obj is None:
            return None
        flat = {**obj, **obj["thread_metadata"]}
        return {key: flat.get(key) for key in AUDIT_KEYS if key in flat}
    changes = audit_log.diff(pick(before), pick(after))
    kind = (actions.THREAD_CREATE if before is None else actions.THREAD_DELETE if after is None
            else actions.THREAD_UPDATE)
    if changes or kind != actions.THREAD_UPDATE:
        audit_log.record(conn, guild_id=guild_id, user_id=user_id, action_type=kind,
                         target_id=int((after or before or {})["id"]), changes=changes)


# --- messages in threads -------------------------------------------------------------------------------

def before_post(thread: sqlite3.Row, permissions: int) -> None:
    """Posting in a locked archived thread needs MANAGE_THREADS (400 / 50083 otherwise)."""
    if thread["thread_archived"] and thread["thread_locked"] and not permissions & _MANAGE_THREADS:
        raise archived_error()


def message_posted(conn: sqlite3.Connection, outbox: Outbox, now: datetime, thread: sqlite3.Row) -> None:
    """A message in the thread: its counts and activity; an archived thread is unarchived (THREAD_UPDATE)."""
    conn.execute("UPDATE channels SET message_count = message_count + 1,"
                 " total_message_sent = total_message_sent + 1, thread_last_activity = ? WHERE id = ?",
                 (format_instant(now), thread["id"]))
    if thread["thread_archived"]:
        modify(conn, outbox, now, get_thread(conn, thread["id"]), {"thread_archived": 0}, None)


def messages_removed(conn: sqlite3.Connection, thread: sqlite3.Row, count: int) -> None:
    conn.execute("UPDATE channels SET message_count = MAX(message_count - ?, 0) WHERE id = ?",
                 (count, thread["id"]))


# --- archiving on the clock ----------------------------------------------------------------------------

def archive_due(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int) -> None:
    """Archive the guild's threads idle for their ``auto_archive_duration`` (THREAD_UPDATE each), stamped
    with the instant their time ran out."""
    for row in conn.execute("SELECT * FROM channels WHERE guild_id = ? AND type IN (10, 11, 12)"
                            " AND thread_archived = 0", (guild_id,)).fetchall():
        idle = timedelta(minutes=row["thread_auto_archive_duration"])
        due = parse_instant(row["thread_last_activity"]) + idle
        if due <= now:
            conn.execute("UPDATE channels SET thread_archived = 1, thread_archive_timestamp = ? WHERE id = ?",
                         (format_instant(due), row["id"]))
            thread_event(conn, outbox, now, "THREAD_UPDATE", get_thread(conn, row["id"]))


# --- listing -------------------------------------------------------------------------------------------

def thread_list(conn: sqlite3.Connection, rows: list[sqlite3.Row], user_id: int, has_more: bool) -> Payload:
    """``{threads, members, has_more}``: ``members`` are the caller's own thread members among them."""
    ids = [row["id"] for row in rows]
    members: list[Payload] = []
    if ids:
        marks = ",".join("?" * len(ids))
        members = [thread_member_json(m) for m in conn.execute(
            f"SELECT * FROM thread_members WHERE user_id = ? AND thread_id IN ({marks}) ORDER BY thread_id",
            (user_id, *ids))]
    return {"threads": [thread_json(row) for row in rows], "members": members, "has_more": has_more}


def visible_threads(conn: sqlite3.Connection, rows: list[sqlite3.Row], user_id: int, now: datetime
                    ) -> list[sqlite3.Row]:
    return [row for row in rows if permissions_of(conn, row, user_id, now) & _VIEW]


def thread_kinds_for(parent: sqlite3.Row) -> tuple[int, ...]:
    """The thread types a channel holds: announcement threads in announcement channels, public and
    private threads in text channels, public posts in forum and media channels."""
    if parent["type"] == ANNOUNCEMENT:
        return (ANNOUNCEMENT_THREAD,)
    if parent["type"] == TEXT:
        return (PUBLIC_THREAD, PRIVATE_THREAD)
    return (PUBLIC_THREAD,)


def guild_create_threads(conn: sqlite3.Connection, guild_id: int, user_id: int, now: datetime,
                         obfuscate: bool) -> list[Payload]:
    """GUILD_CREATE's ``threads``: the active threads the bot can view (with its thread ``member`` where it
    is one); opted in to obfuscation, also the public threads of channels it cannot view, obfuscated."""
    rows = conn.execute("SELECT * FROM channels WHERE guild_id = ? AND type IN (10, 11, 12)"
                        " AND thread_archived = 0"
                        " ORDER BY id", (guild_id,)).fetchall()
    shown: list[Payload] = []
    for row in rows:
        if permissions_of(conn, row, user_id, now) & _VIEW:
            thread = thread_json(row)
            own = conn.execute("SELECT * FROM thread_members WHERE thread_id = ? AND user_id = ?",
                               (row["id"], user_id)).fetchone()
            if own is not None:
                thread["member"] = thread_member_json(own)
            shown.append(thread)
        elif obfuscate and row["type"] != PRIVATE_THREAD:
            shown.append(obfuscated_channel_json(row, with_guild_id=False))
    return shown


# --- forum and media channel settings ------------------------------------------------------------------

FORUM_FIELDS = ("available_tags", "default_reaction_emoji", "default_sort_order", "default_forum_layout",
                "default_auto_archive_duration", "default_thread_rate_limit_per_user")
MAX_AVAILABLE_TAGS = 20


def _emoji(form: Form) -> dict[str, Any]:
    emoji_id = form.snowflake("emoji_id", required=False, nullable=True)
    name = form.string("emoji_name", required=False, nullable=True, max_len=100)
    return {"emoji_id": str(emoji_id) if emoji_id is not None else None, "emoji_name": name}


def forum_settings(form: Form, kind: int | None, current_tags: str,
                   next_id: Callable[[], int]) -> dict[str, Any]:
    """The channel columns of the forum fields the form sets. On a channel that is not a forum or media
    channel they are accepted and ignored (only ``default_auto_archive_duration`` applies to text and
    announcement channels too). A tag keeps its ``id`` when it names an existing one; new tags get ids."""
    changes: dict[str, Any] = {}
    if form.data.get("default_auto_archive_duration") is not None:
        changes["default_auto_archive_duration"] = form.choice("default_auto_archive_duration",
                                                               AUTO_ARCHIVE_DURATIONS)
    if kind not in POST_CHANNELS:
        return changes
    if "available_tags" in form.data:
        existing = {tag["id"] for tag in json.loads(current_tags)}
        tags: list[dict[str, Any]] = []
        for index, raw in enumerate(form.array("available_tags", required=False, max_items=MAX_AVAILABLE_TAGS)
                                    or []):
            item = form.item("available_tags", index, raw)
            given = item.snowflake("id", required=False, nullable=True)
            tag = {"id": str(given) if given is not None and str(given) in existing else str(next_id()),
                   "name": item.string("name", min_len=1, max_len=20),
                   "moderated": item.boolean("moderated"),
                   **_emoji(item)}
            tags.append(tag)
        changes["available_tags"] = json.dumps(tags)
    if "default_reaction_emoji" in form.data:
        emoji = form.obj("default_reaction_emoji", required=False, nullable=True)
        changes["default_reaction_emoji"] = json.dumps(_emoji(emoji)) if emoji is not None else None
    if "default_sort_order" in form.data:
        changes["default_sort_order"] = form.choice("default_sort_order", (0, 1), required=False) \
            if form.data["default_sort_order"] is not None else None
    if form.data.get("default_forum_layout") is not None:
        changes["default_forum_layout"] = form.choice("default_forum_layout", (0, 1, 2))
    if form.data.get("default_thread_rate_limit_per_user") is not None:
        changes["default_thread_rate_limit_per_user"] = form.integer("default_thread_rate_limit_per_user",
                                                                     minimum=0, maximum=21600)
    return changes


# --- gaining sight of channels -------------------------------------------------------------------------

def list_sync(conn: sqlite3.Connection, outbox: Outbox, now: datetime, before: GuildBots,
              after: GuildBots) -> None:
    """THREAD_LIST_SYNC to each bot that gained VIEW_CHANNEL of channels holding threads: ``channel_ids``
    those channels, ``threads`` their active threads the bot can view, ``members`` its own thread members."""
    for user_id, visible in after.visible.items():
        was = before.visible.get(user_id)
        gained = sorted(visible - was) if was is not None else []
        if not gained:
            continue
        marks = ",".join("?" * len(gained))
        parents = [row["id"] for row in conn.execute(
            f"SELECT id FROM channels WHERE id IN ({marks}) AND type IN (0, 5, 15, 16)", gained)]
        if not parents:
            continue
        marks = ",".join("?" * len(parents))
        rows = conn.execute(f"SELECT * FROM channels WHERE parent_id IN ({marks}) AND type IN (10, 11, 12)"
                            " AND thread_archived = 0 ORDER BY id", parents).fetchall()
        listed = thread_list(conn, visible_threads(conn, rows, user_id, now), user_id, False)
        payload = {"guild_id": str(after.guild_id), "channel_ids": [str(c) for c in parents],
                   "threads": listed["threads"], "members": listed["members"]}
        outbox.add("THREAD_LIST_SYNC", _to_bot(after, user_id, payload))


def _to_bot(bots: GuildBots, user_id: int, payload: Payload) -> Any:
    def render(viewer: Viewer) -> Payload | None:
        return payload if viewer.user_id == user_id and bots.admits(viewer, GUILDS_INTENT) else None
    return render


def member_left_guild(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int,
                      user_id: int) -> None:
    """A member who leaves the guild (left, kicked, banned, pruned) leaves its threads too."""
    for thread in conn.execute("SELECT c.* FROM channels c JOIN thread_members t ON t.thread_id = c.id"
                               " WHERE c.guild_id = ? AND t.user_id = ?", (guild_id, user_id)).fetchall():
        remove_member(conn, outbox, now, thread, user_id)
