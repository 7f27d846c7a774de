"""Channel webhooks: create, list, modify and delete them (MANAGE_WEBHOOKS, WEBHOOKS_UPDATE, audit
entries), execute them (a message of the channel whose author is the webhook), and announcement
channels (follow: a channel follower webhook; crosspost: the message to every follower). Every function
runs in the caller's transaction and adds its dispatches to the caller's outbox."""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core import errors
from ...core.clock import format_instant
from ...core.errors import ApiError
from ...core.permissions import Permission
from ...core.storage import MEMORY
from ...core.uploads import UploadedFile
from ...core.validation import Form, field_error
from ...events.audience import Payload
from ...wire.channel import ANNOUNCEMENT, ANNOUNCEMENT_THREAD, POST_CHANNELS, PUBLIC_THREAD, TEXT
from ...wire.user import public_user_json
from ...wire.webhook import CHANNEL_FOLLOWER, INCOMING, webhook_author_json, webhook_json
from ..audit_log import actions
from ..audit_log import store as audit_log
from ..cdn import store as cdn
from ..cdn.images import Upload
from ..channel_messages import search
from ..channel_messages import store as messages
from ..channel_messages.access import (
    ChannelAccess,
    bot_members_viewing,
    guild_permissions,
    permissions_in,
    require_guild_permission,
)
from ..channel_messages.attachments import Writer
from ..channel_messages.audience import GuildBots
from ..channel_messages.body import MessageInput
from ..lobbies.bridge import channel_message_to_lobby
from ..polls import results as poll_results
from ..threads import store as threads

if TYPE_CHECKING:
    from ...events.outbox import Outbox
    from ...state import EmulatorState

UNKNOWN_WEBHOOK = 10015
MAX_WEBHOOKS_REACHED = 30007
INVALID_WEBHOOK_TOKEN = 50027
WRONG_CHANNEL_TYPE = 50024
ALREADY_CROSSPOSTED = 40033
FORUM_NEEDS_THREAD = 220001
THREAD_NAME_NOT_FORUM = 220003
MAX_WEBHOOKS_PER_CHANNEL = 15
GUILD_WEBHOOKS = 1 << 5                   # the Gateway intent of WEBHOOKS_UPDATE
CROSSPOSTED, IS_CROSSPOST = 1 << 0, 1 << 1   # message flags
# Where a webhook may live: text, voice, announcement, stage, forum and media channels.
WEBHOOK_CHANNEL_TYPES = frozenset({0, 2, 5, 13, 15, 16})
_MANAGE_WEBHOOKS = int(Permission.MANAGE_WEBHOOKS)
_ALL = (1 << 64) - 1


class Extras(NamedTuple):
    """What an execute adds to a message body: the author override and where it goes."""

    username: str | None
    avatar_url: str | None
    thread_name: str | None
    applied_tags: list[str]


def read_extras(data: Any) -> Extras:
    form = Form(data)
    username = form.string("username", required=False, nullable=True, min_len=1, max_len=80)
    avatar_url = form.string("avatar_url", required=False, nullable=True, max_len=2048)
    thread_name = form.string("thread_name", required=False, nullable=True, min_len=1, max_len=100)
    tags = [str(t) for t in (form.coerce_snowflake("applied_tags", v) for v in
                             form.array("applied_tags", required=False, max_items=5) or []) if t is not None]
    if username is not None and "clyde" in username.lower():
        form.fail("username", "USERNAME_INVALID_CONTAINS", "Username cannot contain \"clyde\".")
    form.done()
    return Extras(username, avatar_url, thread_name, tags)


def read_name(form: Form, *, required: bool) -> str | None:
    name = form.string("name", required=required, min_len=1, max_len=80)
    if name is not None and "clyde" in name.lower():
        form.fail("name", "WEBHOOK_NAME_INVALID", "Webhook name cannot contain \"clyde\".")
    return name


def github_push(form: Form) -> MessageInput:
    """A GitHub ``push`` event as the message the platform writes for it: one embed naming the
    repository, the branch and its new commits (at most 5 listed), linked to the comparison."""
    repository = form.obj("repository")
    repo = repository.string("name", min_len=1) if repository else None
    ref = form.string("ref", min_len=1) or ""
    commits = []
    for index, raw in enumerate(form.array("commits", required=False, max_items=2048) or []):
        item = form.item("commits", index, raw)
        author = item.obj("author")
        commits.append((item.string("id", min_len=1) or "", item.string("url") or "",
                        (item.string("message") or "").split("\n", 1)[0],
                        (author.string("name", required=False) if author else None) or ""))
    compare = form.string("compare", required=False, nullable=True, max_len=2048)
    sender = form.obj("sender", required=False, nullable=True)
    login = sender.string("login", required=False) if sender else None
    branch = ref.rsplit("/", 1)[-1]
    count = len(commits)
    embed: dict[str, Any] = {
        "type": "rich", "color": 0x7289DA,
        "title": f"[{repo}:{branch}] {count} new commit{'' if count == 1 else 's'}"[:256],
        "description": "\n".join(f"[`{cid[:7]}`]({url}) {text[:50]} - {name}"
                                  for cid, url, text, name in commits[:5])[:4096]}
    if compare:
        embed["url"] = compare
    if login:
        embed["author"] = {"name": login}
    return MessageInput(given={"embeds"}, embeds=[embed])


# --- reading -------------------------------------------------------------------------------------------

def get(conn: sqlite3.Connection, webhook_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM channel_webhooks WHERE id = ?", (webhook_id,)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_WEBHOOK, "Webhook")
    return row


def find_by_token(conn: sqlite3.Connection, webhook_id: int, token: str) -> sqlite3.Row | None:
    """The incoming webhook this id and token name, or None (a token of something else)."""
    row = conn.execute("SELECT * FROM channel_webhooks WHERE id = ? AND type = ?", (webhook_id, INCOMING)).fetchone()
    if row is None or not row["token"] or not secrets.compare_digest(row["token"], token):
        return None
    return row


def by_token(conn: sqlite3.Connection, webhook_id: int, token: str) -> sqlite3.Row:
    """401 / 50027 for a known webhook with the wrong token, 404 / 10015 for no webhook."""
    row = find_by_token(conn, webhook_id, token)
    if row is not None:
        return row
    get(conn, webhook_id)
    raise ApiError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")


def render(conn: sqlite3.Connection, row: sqlite3.Row, *, show_token: bool, base_url: str) -> Payload:
    user = conn.execute("SELECT * FROM users WHERE id = ?", (row["user_id"],)).fetchone() \
        if row["user_id"] is not None else None
    source = None
    if row["source_channel_id"] is not None:
        channel = conn.execute("SELECT * FROM channels WHERE id = ?", (row["source_channel_id"],)).fetchone()
        guild = conn.execute("SELECT * FROM guilds WHERE id = ?", (channel["guild_id"],)).fetchone()
        source = (guild, channel)
    return webhook_json(row, user=public_user_json(user) if user is not None else None,
                        base_url=base_url if show_token else None, source=source)


def _webhook_channel(conn: sqlite3.Connection, channel_id: int, user_id: int, now: datetime) -> ChannelAccess:
    """A channel that can hold webhooks and the caller's MANAGE_WEBHOOKS there (50001 if they cannot
    view it, 50013 without the permission)."""
    channel = conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()
    if channel is None or channel["guild_id"] is None or channel["type"] not in WEBHOOK_CHANNEL_TYPES:
        raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
    permissions = permissions_in(conn, channel, user_id, now)
    if not permissions & Permission.VIEW_CHANNEL:
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access")
    access = ChannelAccess(channel, int(channel["guild_id"]), user_id, permissions)
    access.require(_MANAGE_WEBHOOKS)
    return access


def list_channel(conn: sqlite3.Connection, now: datetime, user_id: int, application_id: int, channel_id: int,
                 base_url: str) -> list[Payload]:
    _webhook_channel(conn, channel_id, user_id, now)
    rows = conn.execute("SELECT * FROM channel_webhooks WHERE channel_id = ? ORDER BY id", (channel_id,)).fetchall()
    return [render(conn, row, show_token=row["application_id"] == application_id, base_url=base_url)
            for row in rows]


def list_guild(conn: sqlite3.Connection, now: datetime, user_id: int, application_id: int, guild_id: int,
               base_url: str) -> list[Payload]:
    require_guild_permission(guild_permissions(conn, guild_id, user_id, now), _MANAGE_WEBHOOKS)
    rows = conn.execute("SELECT * FROM channel_webhooks WHERE guild_id = ? ORDER BY id", (guild_id,)).fetchall()
    return [render(conn, row, show_token=row["application_id"] == application_id, base_url=base_url)
            for row in rows]


def get_for_bot(conn: sqlite3.Connection, now: datetime, user_id: int, application_id: int, webhook_id: int,
                base_url: str) -> Payload:
    row = get(conn, webhook_id)
    _webhook_channel(conn, row["channel_id"], user_id, now)
    return render(conn, row, show_token=row["application_id"] == application_id, base_url=base_url)


# --- writing -------------------------------------------------------------------------------------------

def _webhooks_update(conn: sqlite3.Connection, outbox: Outbox, now: datetime, channel_id: int) -> None:
    channel = conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()
    payload = {"guild_id": str(channel["guild_id"]), "channel_id": str(channel_id)}
    outbox.add("WEBHOOKS_UPDATE", GuildBots(channel["guild_id"], GUILD_WEBHOOKS, payload,
                                            bot_members_viewing(conn, channel, now)))


def _audited(row: sqlite3.Row) -> dict[str, Any]:
    return {"name": row["name"], "type": row["type"], "channel_id": str(row["channel_id"]),
            "avatar_hash": row["avatar"]}


def _save_avatar(conn: sqlite3.Connection, webhook_id: int, upload: Upload | None, now: datetime) -> str | None:
    if upload is None:
        return None
    cdn.save(conn, cdn.user_avatar_path(webhook_id, upload.hash), upload, now)
    return upload.hash


def _insert(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, kind: int, channel: sqlite3.Row,
            user_id: int, application_id: int | None, name: str, avatar: Upload | None,
            source_channel_id: int | None = None) -> sqlite3.Row:
    now = state.clock.now()
    count = conn.execute("SELECT COUNT(*) FROM channel_webhooks WHERE channel_id = ?", (channel["id"],)).fetchone()[0]
    if count >= MAX_WEBHOOKS_PER_CHANNEL:
        raise ApiError(400, MAX_WEBHOOKS_REACHED, f"Maximum number of webhooks reached ({MAX_WEBHOOKS_PER_CHANNEL})")
    webhook_id = state.ids.next()
    token = secrets.token_urlsafe(51) if kind == INCOMING else None   # 68 characters
    conn.execute("INSERT INTO channel_webhooks (id, type, guild_id, channel_id, user_id, application_id, name, avatar,"
                 " token, source_channel_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (webhook_id, kind, channel["guild_id"], channel["id"], user_id, application_id, name,
                  _save_avatar(conn, webhook_id, avatar, now), token, source_channel_id, format_instant(now)))
    row = get(conn, webhook_id)
    audit_log.record(conn, guild_id=channel["guild_id"], user_id=user_id, target_id=webhook_id,
                     action_type=actions.WEBHOOK_CREATE, changes=audit_log.diff(None, _audited(row)))
    _webhooks_update(conn, outbox, now, channel["id"])
    return row


def create(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, user_id: int, application_id: int,
           channel_id: int, name: str, avatar: Upload | None, base_url: str) -> Payload:
    access = _webhook_channel(conn, channel_id, user_id, state.clock.now())
    row = _insert(state, conn, outbox, kind=INCOMING, channel=access.channel, user_id=user_id,
                  application_id=application_id, name=name, avatar=avatar)
    return render(conn, row, show_token=True, base_url=base_url)


def modify(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, row: sqlite3.Row, *,
           user_id: int | None, changes: dict[str, Any], avatar: Upload | None, base_url: str,
           show_token: bool) -> Payload:
    """``changes``: name, avatar (present: set or cleared) and, for a bot, channel_id (a channel of the
    same guild where it also has MANAGE_WEBHOOKS). ``user_id`` None: the token's holder (no audit entry)."""
    now = state.clock.now()
    updates: dict[str, Any] = {}
    if "name" in changes:
        updates["name"] = changes["name"]
    if "avatar" in changes:
        updates["avatar"] = _save_avatar(conn, row["id"], avatar, now)
    new_channel = changes.get("channel_id")
    if new_channel is not None and new_channel != row["channel_id"] and user_id is not None:
        target = _webhook_channel(conn, new_channel, user_id, now)
        if target.guild_id != row["guild_id"]:
            raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
        updates["channel_id"] = new_channel
    if updates:
        assignments = ", ".join(f"{column} = ?" for column in updates)
        conn.execute(f"UPDATE channel_webhooks SET {assignments} WHERE id = ?", (*updates.values(), row["id"]))
    after = get(conn, row["id"])
    if user_id is not None and updates:
        audit_log.record(conn, guild_id=row["guild_id"], user_id=user_id, target_id=row["id"],
                         action_type=actions.WEBHOOK_UPDATE, changes=audit_log.diff(_audited(row), _audited(after)))
    if updates:
        _webhooks_update(conn, outbox, now, row["channel_id"])
        if "channel_id" in updates:
            _webhooks_update(conn, outbox, now, after["channel_id"])
    return render(conn, after, show_token=show_token, base_url=base_url)


def delete(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, row: sqlite3.Row, *,
           user_id: int | None) -> None:
    now = state.clock.now()
    conn.execute("DELETE FROM channel_webhooks WHERE id = ?", (row["id"],))
    if user_id is not None:
        audit_log.record(conn, guild_id=row["guild_id"], user_id=user_id, target_id=row["id"],
                         action_type=actions.WEBHOOK_DELETE, changes=audit_log.diff(_audited(row), None))
    _webhooks_update(conn, outbox, now, row["channel_id"])


# --- executing -----------------------------------------------------------------------------------------

def _avatar_of(extras: Extras, webhook: sqlite3.Row) -> str | None:
    """An ``avatar_url`` shows as the hash of the image the platform would fetch (the emulator fetches nothing)."""
    if extras.avatar_url:
        return hashlib.md5(extras.avatar_url.encode()).hexdigest()   # noqa: S324 - a name, not a secret
    return webhook["avatar"]


def target_channel(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, webhook: sqlite3.Row, *,
                   thread_id: int | None, extras: Extras | None) -> sqlite3.Row:
    """Where an execute or a message route acts: the webhook's channel, a thread of it (``thread_id``:
    404 / 10003 for anything else), or a new post of its forum (``thread_name``)."""
    channel = conn.execute("SELECT * FROM channels WHERE id = ?", (webhook["channel_id"],)).fetchone()
    if thread_id is not None:
        thread = conn.execute("SELECT * FROM channels WHERE id = ?", (thread_id,)).fetchone()
        if thread is None or not threads.is_thread(thread) or thread["parent_id"] != channel["id"]:
            raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
        return thread
    thread_name = extras.thread_name if extras is not None else None
    if channel["type"] in POST_CHANNELS:
        if extras is None:
            return channel
        if thread_name is None:
            raise ApiError(400, FORUM_NEEDS_THREAD,
                           "Webhooks posted to forum channels must have a thread_name or thread_id")
        return threads.create(conn, outbox, state.clock.now(), thread_id=state.ids.next(), parent=channel,
                              owner_id=webhook["user_id"], kind=PUBLIC_THREAD, name=thread_name,
                              auto_archive_duration=None, rate_limit_per_user=None, invitable=True,
                              applied_tags=extras.applied_tags)
    if thread_name is not None:
        raise ApiError(400, THREAD_NAME_NOT_FORUM, "Webhooks can only create threads in forum channels")
    return channel


def post(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, writer: Writer, *,
         channel: sqlite3.Row, webhook_id: int, author_user_id: int, author: Payload, body: MessageInput,
         files: list[UploadedFile], base_url: str, flags: int = 0,
         reference: dict[str, Any] | None = None) -> Payload:
    """A message of ``channel`` written by a webhook (execute, crosspost). A webhook is no member: it
    needs no channel permission and may mention everyone; ``author_user_id`` (its creator) is what
    the message row points at."""
    now = state.clock.now()
    content = body.content or ""
    if not (content or body.embeds or files or body.poll or body.components):
        raise ApiError(400, messages.CANNOT_SEND_EMPTY, "Cannot send an empty message")
    access = ChannelAccess(channel, int(channel["guild_id"]), author_user_id, _ALL)
    users, roles, everyone = messages._mentions(conn, access, content, body)   # noqa: SLF001 - the one parser
    poll = poll_results.new_poll(body.poll, now) if body.poll is not None else None
    message_id = state.ids.next()
    conn.execute(
        "INSERT INTO channel_messages (id, channel_id, guild_id, author_id, type, content, tts, flags,"
        " mention_everyone, mentions, mention_roles, embeds, components, poll, message_reference, created_at,"
        " webhook_id, webhook_author) VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (message_id, channel["id"], channel["guild_id"], author_user_id, content, int(body.tts),
         body.flags | flags, int(everyone), json.dumps(users), json.dumps(roles), json.dumps(body.embeds),
         json.dumps(body.components), json.dumps(poll) if poll else None,
         json.dumps(reference) if reference else None, format_instant(now), webhook_id, json.dumps(author)))
    for position, (upload, spec) in enumerate(messages._upload_specs(body, files, set())):   # noqa: SLF001
        writer.store(conn, message_id=message_id, channel_id=channel["id"], position=position, upload=upload,
                     spec=spec, base_url=base_url)
    conn.execute("UPDATE channels SET last_message_id = ? WHERE id = ?", (message_id, channel["id"]))
    if threads.is_thread(channel):
        threads.message_posted(conn, outbox, now, channel)
    search.index_message(conn, message_id, channel["guild_id"], content, new=True, in_memory=state.db.path == MEMORY)
    message = messages.render(conn, messages.get_row(conn, channel["id"], message_id))
    messages.announce_message(conn, outbox, "MESSAGE_CREATE", channel, message, now)
    channel_message_to_lobby(conn, outbox, channel["id"], message, format_instant(now))
    return message


def check_components(webhook: sqlite3.Row, body: MessageInput) -> None:
    """Only a webhook an application owns (made by its bot) sends components."""
    if body.components and webhook["application_id"] is None:
        raise field_error("components", "COMPONENTS_NOT_ALLOWED",
                          "Only webhooks owned by an application can send components.")


def execute(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, writer: Writer, webhook: sqlite3.Row, *,
            body: MessageInput, extras: Extras, files: list[UploadedFile], thread_id: int | None,
            base_url: str) -> Payload:
    check_components(webhook, body)
    channel = target_channel(state, conn, outbox, webhook, thread_id=thread_id, extras=extras)
    author = webhook_author_json(webhook["id"], extras.username or webhook["name"], _avatar_of(extras, webhook))
    return post(state, conn, outbox, writer, channel=channel, webhook_id=webhook["id"],
                author_user_id=webhook["user_id"], author=author, body=body, files=files, base_url=base_url)


def own_message(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, webhook: sqlite3.Row,
                message_id: int, thread_id: int | None) -> tuple[sqlite3.Row, sqlite3.Row]:
    """(channel, message) of a message this webhook wrote; 404 / 10008 for any other."""
    channel = target_channel(state, conn, outbox, webhook, thread_id=thread_id, extras=None)
    row = messages.get_row(conn, channel["id"], message_id)
    if row["webhook_id"] != webhook["id"]:
        raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
    return channel, row


# --- announcement channels -----------------------------------------------------------------------------

def follow(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, user_id: int, source_id: int,
           target_id: int) -> Payload:
    """A channel follower webhook in ``target_id`` (MANAGE_WEBHOOKS there) fed by the announcement
    channel ``source_id`` (which the caller must see)."""
    now = state.clock.now()
    source = conn.execute("SELECT * FROM channels WHERE id = ?", (source_id,)).fetchone()
    if source is None or source["guild_id"] is None:
        raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
    if not permissions_in(conn, source, user_id, now) & Permission.VIEW_CHANNEL:
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access")
    if source["type"] != ANNOUNCEMENT:
        raise ApiError(400, WRONG_CHANNEL_TYPE, "Cannot execute action on this channel type")
    target = _webhook_channel(conn, target_id, user_id, now)
    if target.channel["type"] not in (TEXT, ANNOUNCEMENT):
        raise ApiError(400, WRONG_CHANNEL_TYPE, "Cannot execute action on this channel type")
    guild = conn.execute("SELECT name FROM guilds WHERE id = ?", (source["guild_id"],)).fetchone()
    row = _insert(state, conn, outbox, kind=CHANNEL_FOLLOWER, channel=target.channel, user_id=user_id,
                  application_id=None, name=f"{guild['name']} #{source['name']}"[:80], avatar=None,
                  source_channel_id=source_id)
    return {"channel_id": str(source_id), "webhook_id": str(row["id"])}


def crosspost(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, writer: Writer, *,
              caller: messages.Author, channel_id: int, message_id: int, base_url: str) -> Payload:
    """The message gains CROSSPOSTED (MESSAGE_UPDATE) and a copy goes to every follower channel, each
    written by its follower webhook with IS_CROSSPOST and a reference to the original. One's own message
    needs SEND_MESSAGES, another's MANAGE_MESSAGES."""
    now, user_id = state.clock.now(), caller.user_id
    channel = conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()
    if channel is None or channel["guild_id"] is None:
        raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
    permissions = permissions_in(conn, channel, user_id, now)
    access = ChannelAccess(channel, int(channel["guild_id"]), user_id, permissions)
    if not access.has(int(Permission.VIEW_CHANNEL)):
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access")
    if channel["type"] not in (ANNOUNCEMENT, ANNOUNCEMENT_THREAD):
        raise ApiError(400, WRONG_CHANNEL_TYPE, "Cannot execute action on this channel type")
    row = messages.get_row(conn, channel_id, message_id)
    own = row["author_id"] == user_id and row["webhook_id"] is None
    access.require(int(Permission.SEND_MESSAGES if own else Permission.MANAGE_MESSAGES))
    if row["flags"] & (CROSSPOSTED | IS_CROSSPOST):
        raise ApiError(400, ALREADY_CROSSPOSTED, "This message has already been crossposted.")
    conn.execute("UPDATE channel_messages SET flags = flags | ? WHERE id = ?", (CROSSPOSTED, message_id))
    message = messages.render(conn, messages.get_row(conn, channel_id, message_id))
    messages.announce_message(conn, outbox, "MESSAGE_UPDATE", channel, message, now)
    guild = conn.execute("SELECT * FROM guilds WHERE id = ?", (channel["guild_id"],)).fetchone()
    body = MessageInput(content=row["content"], embeds=json.loads(row["embeds"]),
                        components=json.loads(row["components"]))
    reference = {"type": 0, "channel_id": str(channel_id), "message_id": str(message_id),
                 "guild_id": str(channel["guild_id"])}
    for follower in conn.execute("SELECT * FROM channel_webhooks WHERE source_channel_id = ? ORDER BY id",
                                 (channel_id,)).fetchall():
        target = conn.execute("SELECT * FROM channels WHERE id = ?", (follower["channel_id"],)).fetchone()
        author = webhook_author_json(follower["id"], f"{guild['name']} #{channel['name']}", guild["icon"])
        post(state, conn, outbox, writer, channel=target, webhook_id=follower["id"],
             author_user_id=follower["user_id"], author=author, body=body, files=[], base_url=base_url,
             flags=IS_CROSSPOST, reference=reference)
    return messages.for_reader(conn, message, caller)
