"""Guild channel messages: create (with mentions, replies, forwards, attachments and slowmode), read,
list, edit, delete and bulk delete, and how each looks to whom (MESSAGE_CONTENT). Every function runs
in the caller's transaction and adds its dispatches to the caller's outbox.

Why not a third ``Thread`` of areas/messages (lobby and direct messages): what a Thread abstracts is
exactly what differs here. Those messages are authored and edited only by their author, deleted by
the author or the game's bot, heard by a fixed set of SDK users of one application (``ToUsers``) and
carry metadata; guild messages are governed per channel by the permission engine (MANAGE_MESSAGES,
READ_MESSAGE_HISTORY, ATTACH_FILES, slowmode), heard by bot sessions by intent and visibility with a
per-session payload (MESSAGE_CONTENT), and carry attachments, reactions, pins, mentions, references
and a search index. The shared parts are shared: the public user object (wire/user.py) and the
message object's builders (wire/message.py)."""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core import errors
from ...core.clock import format_instant
from ...core.errors import ApiError
from ...core.permission_changes import slowmode_bypass_permissions
from ...core.permissions import Permission
from ...core.snowflake import snowflake_time
from ...core.storage import MEMORY
from ...core.uploads import UploadedFile
from ...core.validation import field_error
from ...events.audience import Payload
from ...wire.member import member_json
from ...wire.message import (
    HAS_SNAPSHOT,
    REFERENCE_DEFAULT,
    REFERENCE_FORWARD,
    attachment_json,
    emoji_key_json,
    json_list,
    message_json,
    reaction_json,
    snapshot_json,
    without_content,
)
from ...wire.user import public_user_json
from ..audit_log import actions
from ..audit_log import store as audit_log
from ..auto_moderation.screening import screen as auto_moderation_screen
from ..lobbies.bridge import channel_message_to_lobby
from ..members.activity import touch as touch_activity
from ..polls import results as poll_results
from ..private_channels import messages as private_messages
from ..threads import store as threads
from . import search
from .access import ChannelAccess, bot_members_viewing, channel_access, message_audience
from .attachments import Writer, spoiler_flags
from .audience import GUILD_MESSAGES, DeferredGuildBots, GuildBots
from .body import MessageInput

if TYPE_CHECKING:
    from ...events.outbox import Outbox
    from ...state import EmulatorState

# Application flags that enable the MESSAGE_CONTENT intent (and, for REST, the content itself).
APP_FLAGS_MESSAGE_CONTENT = (1 << 18) | (1 << 19)
REPLY = 19
MAX_LIST, DEFAULT_LIST = 100, 50
BULK_DELETE_MAX_AGE = timedelta(days=14)
# Error codes
CANNOT_SEND_EMPTY = 50006
SLOWMODE_RATE_LIMIT = 20016
BULK_DELETE_TOO_OLD = 50034
CANNOT_EDIT_OTHERS = 50005
CANNOT_FORWARD_UNREADABLE = 160014

_USER_MENTION = re.compile(r"<@!?(\d{1,20})>")
_ROLE_MENTION = re.compile(r"<@&(\d{1,20})>")
_EVERYONE = re.compile(r"@(everyone|here)\b")


class RateLimited(ApiError):
    """429 with the platform's rate-limit body: ``retry_after`` (seconds) and ``global``."""

    def __init__(self, code: int, message: str, retry_after: float) -> None:
        super().__init__(429, code, message, headers={"Retry-After": str(max(1, int(retry_after + 0.999)))})
        self.retry_after = retry_after

    def body(self) -> dict[str, Any]:
        return {**super().body(), "retry_after": self.retry_after, "global": False}


class Author(NamedTuple):
    """Who writes: a user (through the admin API) or a bot (through its token)."""

    user_id: int
    is_bot: bool
    application_id: int | None = None


# --- reading -------------------------------------------------------------------------------------------

def get_row(conn: sqlite3.Connection, channel_id: int, message_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM channel_messages WHERE id = ? AND channel_id = ?",
                       (message_id, channel_id)).fetchone()
    if row is None:
        raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
    return row


def _users(conn: sqlite3.Connection, user_ids: set[int]) -> dict[int, Payload]:
    if not user_ids:
        return {}
    marks = ",".join("?" * len(user_ids))
    return {row["id"]: public_user_json(row)
            for row in conn.execute(f"SELECT * FROM users WHERE id IN ({marks})", tuple(user_ids))}


def render_many(conn: sqlite3.Connection, stored: list[sqlite3.Row], viewer_id: int | None = None) -> list[Payload]:
    """The full messages as their channel's readers see them (``me`` of reactions for ``viewer_id``),
    with one query per kind of part for the whole list rather than per message."""
    if not stored:
        return []
    # Each row is read by name a dozen times: a dict answers in a tenth of sqlite3.Row's time (a
    # linear, case-insensitive search of ~30 column names), which was a fifth of listing 50 messages.
    keys = stored[0].keys()
    rows = [dict(zip(keys, row)) for row in stored]
    ids = [row["id"] for row in rows]
    marks = ",".join("?" * len(ids))
    attachments: dict[int, list[Payload]] = {}
    for a in conn.execute(f"SELECT * FROM message_attachments WHERE message_id IN ({marks})"
                          " ORDER BY message_id, position", ids):
        attachments.setdefault(a["message_id"], []).append(attachment_json(a))
    reactions: dict[int, list[Payload]] = {}
    for r in conn.execute(
            "SELECT message_id, emoji_key, emoji_id, emoji_name, MAX(animated) AS animated, COUNT(*) AS n,"
            f" MAX(user_id = ?) AS me, MIN(created_at) AS first FROM message_reactions WHERE message_id IN ({marks})"
            " GROUP BY message_id, emoji_key ORDER BY message_id, first", (viewer_id or 0, *ids)):
        reactions.setdefault(r["message_id"], []).append(
            reaction_json(emoji_key_json(r["emoji_id"], r["emoji_name"], bool(r["animated"])), r["n"], bool(r["me"])))
    mentioned = {row["id"]: [int(u) for u in json_list(row["mentions"])] for row in rows}
    users = _users(conn, {row["author_id"] for row in rows} | {u for ids_ in mentioned.values() for u in ids_})
    messages = [message_json(row, author=users.get(row["author_id"], {"id": str(row["author_id"])}),
                             mentions=[users[u] for u in mentioned[row["id"]] if u in users],
                             attachments=attachments.get(row["id"], []), reactions=reactions.get(row["id"], []))
                for row in rows]
    poll_results.fill(conn, messages, viewer_id)
    return messages


def render(conn: sqlite3.Connection, row: sqlite3.Row, viewer_id: int | None = None) -> Payload:
    return render_many(conn, [row], viewer_id)[0]


def app_reads_content(conn: sqlite3.Connection, application_id: int | None) -> bool:
    """Whether the application has the MESSAGE_CONTENT intent enabled (its flags)."""
    if application_id is None:
        return True
    row = conn.execute("SELECT flags FROM applications WHERE id = ?", (application_id,)).fetchone()
    return bool(row and row["flags"] & APP_FLAGS_MESSAGE_CONTENT)


def sees_content(message: Payload, user_id: int) -> bool:
    """A bot without MESSAGE_CONTENT still sees its own messages and those that mention it."""
    return message["author"]["id"] == str(user_id) or any(m["id"] == str(user_id) for m in message["mentions"])


def for_reader(conn: sqlite3.Connection, message: Payload, reader: Author) -> Payload:
    """The message as the REST caller sees it: emptied for a bot whose app lacks MESSAGE_CONTENT."""
    return for_readers(conn, [message], reader)[0]


def for_readers(conn: sqlite3.Connection, messages: list[Payload], reader: Author) -> list[Payload]:
    if not reader.is_bot or app_reads_content(conn, reader.application_id):
        return messages
    return [m if sees_content(m, reader.user_id) else without_content(m) for m in messages]


def announce_message(conn: sqlite3.Connection, outbox: Outbox, event: str, channel: sqlite3.Row,
                     message: Payload, now: datetime, *, deferred: bool = False) -> None:
    """MESSAGE_CREATE / MESSAGE_UPDATE to the bots that can view the channel, with GUILD_MESSAGES;
    emptied for those without MESSAGE_CONTENT unless it is theirs or mentions them. ``deferred``:
    who may see it is worked out only if a bot session with GUILD_MESSAGES is there to ask, from the
    committed state (``DeferredGuildBots``; the caller's transaction changes no member, role, channel
    or user after this)."""
    if deferred:
        outbox.add(event, DeferredGuildBots(channel["guild_id"], GUILD_MESSAGES,
                                            lambda: _message_bots(conn, channel, message, now)))
    else:
        outbox.add(event, _message_bots(conn, channel, message, now))


def _message_bots(conn: sqlite3.Connection, channel: sqlite3.Row, message: Payload, now: datetime) -> GuildBots:
    author_id = int(message["author"]["id"])
    viewers, author = message_audience(conn, channel, author_id, now)
    if author is not None:   # what the Gateway adds: the author's guild member (without user)
        message = {**message, "member": member_json(author, with_user=False)}
    readers = {int(m["id"]) for m in message["mentions"]} | {author_id}
    return GuildBots(channel["guild_id"], GUILD_MESSAGES, message, viewers, without_content(message),
                     frozenset(readers))


# --- creating ------------------------------------------------------------------------------------------

def _mentions(conn: sqlite3.Connection, access: ChannelAccess, content: str, body: MessageInput
              ) -> tuple[list[str], list[str], bool]:
    allowed = body.allowed_mentions
    users: list[str] = []
    for raw in dict.fromkeys(_USER_MENTION.findall(content)):
        uid = int(raw)
        if ("users" in allowed.parse or uid in allowed.users) and conn.execute(
                "SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?", (access.guild_id, uid)).fetchone():
            users.append(str(uid))
    roles: list[str] = []
    for raw in dict.fromkeys(_ROLE_MENTION.findall(content)):
        rid = int(raw)
        if ("roles" in allowed.parse or rid in allowed.roles) and rid != access.guild_id and conn.execute(
                "SELECT 1 FROM roles WHERE guild_id = ? AND id = ?", (access.guild_id, rid)).fetchone():
            roles.append(str(rid))
    everyone = bool(_EVERYONE.search(content)) and "everyone" in allowed.parse \
        and access.has(int(Permission.MENTION_EVERYONE))
    return users, roles, everyone


def _check_slowmode(conn: sqlite3.Connection, access: ChannelAccess, author: Author, now: datetime,
                    timestamp: float) -> None:
    """Users (bots are exempt, as on the platform) wait ``rate_limit_per_user`` seconds between posts
    unless they hold the bypass permission of the instant (core/permission_changes.py)."""
    delay = access.rate_limit_per_user
    if author.is_bot or delay <= 0 or access.permissions & slowmode_bypass_permissions(now):
        return
    row = conn.execute("SELECT posted_at FROM slowmode_last_post WHERE channel_id = ? AND user_id = ?",
                       (access.channel_id, author.user_id)).fetchone()
    if row is not None and timestamp - row["posted_at"] < delay:
        retry_after = round(delay - (timestamp - row["posted_at"]), 3)
        raise RateLimited(SLOWMODE_RATE_LIMIT, "This action cannot be performed due to slowmode rate limit.",
                          retry_after)


def _reference(conn: sqlite3.Connection, access: ChannelAccess, author: Author, body: MessageInput,
               now: datetime) -> tuple[dict[str, Any] | None, list[Payload] | None, int]:
    """The stored message_reference, snapshots (forwards) and the message type."""
    ref = body.reference
    if ref is None:
        return None, None, 0
    channel_id = ref["channel_id"] or access.channel_id
    if ref["type"] == REFERENCE_FORWARD:
        source_access = channel_access(conn, channel_id, author.user_id, now)
        source_access.require(int(Permission.READ_MESSAGE_HISTORY))
        source = render(conn, get_row(conn, channel_id, ref["message_id"]))
        if author.is_bot and not app_reads_content(conn, author.application_id) \
                and not sees_content(source, author.user_id):
            raise ApiError(403, CANNOT_FORWARD_UNREADABLE, "Cannot forward a message whose content you cannot read")
        reference = {"type": REFERENCE_FORWARD, "channel_id": str(channel_id), "message_id": str(source["id"]),
                     "guild_id": source["guild_id"]}
        return reference, [{"message": snapshot_json(source)}], 0
    row = conn.execute("SELECT id FROM channel_messages WHERE id = ? AND channel_id = ?",
                       (ref["message_id"], channel_id)).fetchone()
    if row is None and (ref["fail_if_not_exists"] or channel_id != access.channel_id):
        raise field_error("message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message")
    if row is None:
        return None, None, 0
    return ({"type": REFERENCE_DEFAULT, "channel_id": str(channel_id), "message_id": str(ref["message_id"]),
             "guild_id": str(access.guild_id)}, None, REPLY)


def _sticker_items(conn: sqlite3.Connection, guild_id: int, sticker_ids: list[int]) -> list[Payload]:
    items = []
    for index, sticker_id in enumerate(sticker_ids):
        row = conn.execute("SELECT id, name, format_type FROM guild_stickers WHERE id = ? AND guild_id = ?"
                           " UNION ALL SELECT id, name, format_type FROM standard_stickers WHERE id = ?",
                           (sticker_id, guild_id, sticker_id)).fetchone()
        if row is None:
            raise field_error(("sticker_ids", index), "STICKER_UNKNOWN", "Unknown sticker.")
        items.append({"id": str(row["id"]), "name": row["name"], "format_type": row["format_type"]})
    return items


def _upload_specs(body: MessageInput, files: list[UploadedFile], existing: set[int]
                  ) -> list[tuple[UploadedFile, Any]]:
    """Pair each uploaded file with its ``attachments`` entry (by ``id`` = n of ``files[n]``)."""
    specs = {spec.id: spec for spec in body.attachments or [] if spec.id not in existing}
    by_index = {f.index: f for f in files}
    for position, spec in enumerate(body.attachments or []):
        if spec.id not in existing and spec.id not in by_index:
            raise field_error(("attachments", position, "id"), "ATTACHMENT_NOT_FOUND",
                              "No file or attachment has this id.")
    return [(f, specs.get(f.index)) for f in files]


def create(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, writer: Writer, *, channel_id: int,
           author: Author, body: MessageInput, files: list[UploadedFile], base_url: str,
           message_id: int | None = None) -> Payload:
    now, timestamp = state.clock.now(), state.clock.timestamp()
    private = private_messages.private_channel(conn, channel_id)
    if private is not None:   # a DM or group DM
        return private_messages.create(conn, outbox, state.ids.next, now, private, author_id=author.user_id,
                                       application_id=author.application_id if author.is_bot else None,
                                       body=body, has_files=bool(files))
    access = channel_access(conn, channel_id, author.user_id, now)
    in_thread = threads.is_thread(access.channel)
    access.require(int(Permission.SEND_MESSAGES_IN_THREADS if in_thread else Permission.SEND_MESSAGES))
    if in_thread:
        threads.before_post(access.channel, access.permissions)
    if files:
        access.require(int(Permission.ATTACH_FILES))
    _check_slowmode(conn, access, author, now, timestamp)
    if body.enforce_nonce and body.nonce is not None:
        same = conn.execute("SELECT * FROM channel_messages WHERE channel_id = ? AND author_id = ? AND nonce = ?"
                            " ORDER BY id DESC LIMIT 1", (channel_id, author.user_id, body.nonce)).fetchone()
        if same is not None:
            return for_reader(conn, render(conn, same, author.user_id), author)
    reference, snapshots, message_type = _reference(conn, access, author, body, now)
    content = body.content or ""
    if not (content or body.embeds or files or body.sticker_ids or body.poll or body.components or snapshots):
        raise ApiError(400, CANNOT_SEND_EMPTY, "Cannot send an empty message")
    stickers = _sticker_items(conn, access.guild_id, body.sticker_ids)
    poll = poll_results.new_poll(body.poll, now) if body.poll is not None else None
    if poll is not None:
        access.require(int(Permission.SEND_POLLS))
    users, roles, everyone = _mentions(conn, access, content, body)
    flags = body.flags | (HAS_SNAPSHOT if snapshots else 0)
    # A forum post's first message takes the post's id, as on the platform.
    message_id = message_id if message_id is not None else state.ids.next()
    auto_moderation_screen(state, conn, outbox, channel=access.channel, author_id=author.user_id,
                           author_is_bot=author.is_bot, text=content, mention_count=len(users) + len(roles),
                           message_id=message_id)
    conn.execute(
        "INSERT INTO channel_messages (id, channel_id, guild_id, author_id, type, content, tts, flags,"
        " mention_everyone, mentions, mention_roles, embeds, components, sticker_items, poll, message_reference,"
        " message_snapshots, nonce, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (message_id, channel_id, access.guild_id, author.user_id, message_type, content,
         int(body.tts and access.has(int(Permission.SEND_TTS_MESSAGES))), flags, int(everyone), json.dumps(users),
         json.dumps(roles), json.dumps(body.embeds), json.dumps(body.components), json.dumps(stickers),
         json.dumps(poll) if poll else None, json.dumps(reference) if reference else None,
         json.dumps(snapshots) if snapshots else None, body.nonce, format_instant(now)))
    for position, (upload, spec) in enumerate(_upload_specs(body, files, set())):
        writer.store(conn, message_id=message_id, channel_id=channel_id, position=position, upload=upload,
                     spec=spec, base_url=base_url)
    if not author.is_bot:
        conn.execute("INSERT INTO slowmode_last_post (channel_id, user_id, posted_at) VALUES (?, ?, ?)"
                     " ON CONFLICT (channel_id, user_id) DO UPDATE SET posted_at = excluded.posted_at",
                     (channel_id, author.user_id, timestamp))
    conn.execute("UPDATE channels SET last_message_id = ? WHERE id = ?", (message_id, channel_id))
    if in_thread:
        threads.message_posted(conn, outbox, now, access.channel)
    touch_activity(conn, access.guild_id, author.user_id, now)
    search.index_message(conn, message_id, access.guild_id, content, new=True, in_memory=state.db.path == MEMORY)
    message = render(conn, get_row(conn, channel_id, message_id))
    announce_message(conn, outbox, "MESSAGE_CREATE", access.channel, message, now)
    channel_message_to_lobby(conn, outbox, channel_id, message, format_instant(now))  # a linked lobby hears it
    return for_reader(conn, message, author)


# --- listing -------------------------------------------------------------------------------------------

def list_messages(state: EmulatorState, conn: sqlite3.Connection, reader: Author, channel_id: int, *,
                  before: int | None, after: int | None, around: int | None, limit: int) -> list[Payload]:
    """Newest first. Without READ_MESSAGE_HISTORY the list is empty (as on the platform)."""
    private = private_messages.private_channel(conn, channel_id)
    if private is not None:
        return private_messages.list_messages(conn, private, reader.user_id, before=before, after=after,
                                              around=around, limit=limit)
    access = channel_access(conn, channel_id, reader.user_id, state.clock.now())
    if not access.has(int(Permission.READ_MESSAGE_HISTORY)):
        return []
    select = "SELECT * FROM channel_messages WHERE channel_id = ?"
    if around is not None:
        older = conn.execute(select + " AND id <= ? ORDER BY id DESC LIMIT ?",
                             (channel_id, around, (limit + 1) // 2)).fetchall()
        newer = conn.execute(select + " AND id > ? ORDER BY id ASC LIMIT ?",
                             (channel_id, around, limit - len(older))).fetchall()
        rows = [*reversed(newer), *older]
    elif after is not None:
        rows = list(reversed(conn.execute(select + " AND id > ? ORDER BY id ASC LIMIT ?",
                                          (channel_id, after, limit)).fetchall()))
    else:
        rows = conn.execute(select + " AND id < ? ORDER BY id DESC LIMIT ?",
                            (channel_id, before if before is not None else (1 << 63) - 1, limit)).fetchall()
    return for_readers(conn, render_many(conn, rows, reader.user_id), reader)


def get_message(state: EmulatorState, conn: sqlite3.Connection, reader: Author, channel_id: int,
                message_id: int) -> Payload:
    private = private_messages.private_channel(conn, channel_id)
    if private is not None:
        return private_messages.get_message(conn, private, reader.user_id, message_id)
    access = channel_access(conn, channel_id, reader.user_id, state.clock.now())
    access.require(int(Permission.READ_MESSAGE_HISTORY))
    return for_reader(conn, render(conn, get_row(conn, channel_id, message_id), reader.user_id), reader)


# --- editing and deleting ------------------------------------------------------------------------------

def edit(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, writer: Writer, *, channel_id: int,
         editor: Author, message_id: int, body: MessageInput, files: list[UploadedFile], base_url: str,
         webhook_id: int | None = None) -> tuple[Payload, list[int]]:
    """The author edits anything; others with MANAGE_MESSAGES only the flags (suppress embeds).
    ``webhook_id``: the editor is that webhook, acting for its creator ``editor`` (a webhook's message
    is its webhook's alone). Returns the message and the ids of attachments removed (their files go
    after the commit)."""
    now = state.clock.now()
    private = private_messages.private_channel(conn, channel_id)
    if private is not None:
        return private_messages.edit(conn, outbox, now, private, editor_id=editor.user_id, message_id=message_id,
                                     body=body, has_files=bool(files)), []
    access = channel_access(conn, channel_id, editor.user_id, now)
    row = get_row(conn, channel_id, message_id)
    poll_results.refuse_edit(row, body.given)
    own = row["author_id"] == editor.user_id and row["webhook_id"] == webhook_id
    if not own and (body.given - {"flags"} or files or not access.has(int(Permission.MANAGE_MESSAGES))):
        raise ApiError(403, CANNOT_EDIT_OTHERS, "Cannot edit a message authored by another user")
    if files:
        access.require(int(Permission.ATTACH_FILES))
    removed: list[int] = []
    updates: dict[str, Any] = {}
    if "content" in body.given:
        content = body.content or ""
        users, roles, everyone = _mentions(conn, access, content, body)
        if own:
            auto_moderation_screen(state, conn, outbox, channel=access.channel, author_id=editor.user_id,
                                   author_is_bot=editor.is_bot or webhook_id is not None, text=content,
                                   mention_count=len(users) + len(roles), message_id=message_id)
        updates.update(content=content, mentions=json.dumps(users), mention_roles=json.dumps(roles),
                       mention_everyone=int(everyone))
        search.index_message(conn, message_id, access.guild_id, content)
    if "embeds" in body.given:
        updates["embeds"] = json.dumps(body.embeds)
    if "components" in body.given:
        updates["components"] = json.dumps(body.components)
    if "flags" in body.given:
        updates["flags"] = (row["flags"] & ~0x1004) | body.flags
    existing = {a["id"]: a for a in conn.execute("SELECT * FROM message_attachments WHERE message_id = ?",
                                                 (message_id,))}
    if body.attachments is not None:
        kept = {spec.id: spec for spec in body.attachments if spec.id in existing}
        for attachment_id in set(existing) - set(kept):
            conn.execute("DELETE FROM message_attachments WHERE id = ?", (attachment_id,))
            removed.append(attachment_id)
        for spec in kept.values():   # description and is_spoiler are editable on kept attachments
            current = existing[spec.id]
            description = spec.description if spec.description is not None else current["description"]
            flags = current["flags"] if spec.is_spoiler is None else spoiler_flags(current["filename"], spec.is_spoiler)
            conn.execute("UPDATE message_attachments SET description = ?, flags = ? WHERE id = ?",
                         (description, flags, spec.id))
    position = (conn.execute("SELECT MAX(position) FROM message_attachments WHERE message_id = ?",
                             (message_id,)).fetchone()[0] or 0) + 1
    for offset, (upload, spec) in enumerate(_upload_specs(body, files, set(existing))):
        writer.store(conn, message_id=message_id, channel_id=channel_id, position=position + offset, upload=upload,
                     spec=spec, base_url=base_url)
    if own:
        updates["edited_at"] = state.clock.iso()
    if updates:
        assignments = ", ".join(f"{column} = ?" for column in updates)
        conn.execute(f"UPDATE channel_messages SET {assignments} WHERE id = ?", (*updates.values(), message_id))
    message = render(conn, get_row(conn, channel_id, message_id))
    announce_message(conn, outbox, "MESSAGE_UPDATE", access.channel, message, now)
    return for_reader(conn, message, editor), removed


def _attachment_ids(conn: sqlite3.Connection, message_ids: list[int]) -> list[int]:
    marks = ",".join("?" * len(message_ids))
    return [r[0] for r in conn.execute(f"SELECT id FROM message_attachments WHERE message_id IN ({marks})",
                                       message_ids)]


def delete(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, channel_id: int, caller: Author,
           message_id: int, webhook_id: int | None = None) -> list[int]:
    """The author, or anyone with MANAGE_MESSAGES (``webhook_id``: as in ``edit``). Returns the
    attachment ids whose files to remove."""
    private = private_messages.private_channel(conn, channel_id)
    if private is not None:
        private_messages.delete(conn, outbox, private, caller_id=caller.user_id, message_id=message_id)
        return []
    now = state.clock.now()
    access = channel_access(conn, channel_id, caller.user_id, now)
    row = get_row(conn, channel_id, message_id)
    if row["author_id"] != caller.user_id or row["webhook_id"] != webhook_id:
        access.require(int(Permission.MANAGE_MESSAGES))
    attachments = _attachment_ids(conn, [message_id])
    conn.execute("DELETE FROM channel_messages WHERE id = ?", (message_id,))
    search.unindex_message(conn, message_id)
    if threads.is_thread(access.channel):
        threads.messages_removed(conn, access.channel, 1)
    if row["author_id"] != caller.user_id:   # the platform logs deletions of others' messages only
        audit_log.record(conn, guild_id=access.guild_id, user_id=caller.user_id, target_id=row["author_id"],
                         action_type=actions.MESSAGE_DELETE, options={"channel_id": channel_id, "count": 1})
    payload = {"id": str(message_id), "channel_id": str(channel_id), "guild_id": str(access.guild_id)}
    outbox.add("MESSAGE_DELETE", GuildBots(access.guild_id, GUILD_MESSAGES, payload,
                                           bot_members_viewing(conn, access.channel, now)))
    return attachments


def bulk_delete(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, channel_id: int, caller: Author,
                message_ids: list[int]) -> list[int]:
    """MANAGE_MESSAGES; 2–100 distinct ids, none older than two weeks (else 400 / 50034 and nothing
    deleted). Ids of no message in the channel are skipped."""
    now = state.clock.now()
    access = channel_access(conn, channel_id, caller.user_id, now)
    access.require(int(Permission.MANAGE_MESSAGES))
    if any(now - snowflake_time(mid) > BULK_DELETE_MAX_AGE for mid in message_ids):
        raise ApiError(400, BULK_DELETE_TOO_OLD, "You can only bulk delete messages that are under 14 days old.")
    marks = ",".join("?" * len(message_ids))
    found = [r[0] for r in conn.execute(f"SELECT id FROM channel_messages WHERE channel_id = ? AND id IN ({marks})",
                                        (channel_id, *message_ids))]
    if not found:
        return []
    attachments = _attachment_ids(conn, found)
    marks = ",".join("?" * len(found))
    conn.execute(f"DELETE FROM channel_messages WHERE id IN ({marks})", found)
    for message_id in found:
        search.unindex_message(conn, message_id)
    if threads.is_thread(access.channel):
        threads.messages_removed(conn, access.channel, len(found))
    audit_log.record(conn, guild_id=access.guild_id, user_id=caller.user_id, target_id=channel_id,
                     action_type=actions.MESSAGE_BULK_DELETE, options={"count": len(found)})
    payload = {"ids": [str(m) for m in sorted(found)], "channel_id": str(channel_id), "guild_id": str(access.guild_id)}
    outbox.add("MESSAGE_DELETE_BULK", GuildBots(access.guild_id, GUILD_MESSAGES, payload,
                                                bot_members_viewing(conn, access.channel, now)))
    return attachments



def delete_recent_by_author(conn: sqlite3.Connection, outbox: Outbox, now: datetime, *, guild_id: int,
                            author_id: int, seconds: int) -> list[int]:
    """A ban's ``delete_message_seconds``: the author's messages in the guild from the last ``seconds``,
    deleted as the platform does it (no permission of the banning bot in each channel is needed);
    MESSAGE_DELETE_BULK per channel. Returns the attachment ids whose files to remove."""
    since = format_instant(now - timedelta(seconds=seconds))
    rows = conn.execute("SELECT id, channel_id FROM channel_messages WHERE guild_id = ? AND author_id = ?"
                        " AND created_at >= ? ORDER BY id", (guild_id, author_id, since)).fetchall()
    by_channel: dict[int, list[int]] = {}
    for row in rows:
        by_channel.setdefault(row["channel_id"], []).append(row["id"])
    attachments: list[int] = []
    for channel_id, ids in by_channel.items():
        attachments += _attachment_ids(conn, ids)
        conn.execute(f"DELETE FROM channel_messages WHERE id IN ({','.join('?' * len(ids))})", ids)
        for message_id in ids:
            search.unindex_message(conn, message_id)
        channel = conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()
        payload = {"ids": [str(m) for m in ids], "channel_id": str(channel_id), "guild_id": str(guild_id)}
        outbox.add("MESSAGE_DELETE_BULK", GuildBots(guild_id, GUILD_MESSAGES, payload,
                                                    bot_members_viewing(conn, channel, now)))
    return attachments
