"""What the thread routes and the admin API share: starting a thread or a post (as a bot or as a user),
the checks (a viewable thread, a channel that holds threads, a post's applied tags), and what GET, PATCH
and DELETE /channels/{id} do on a thread (the channel routes hand threads here)."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ...core import errors
from ...core.errors import ApiError
from ...core.permissions import Permission
from ...core.uploads import UploadedFile
from ...core.validation import Form
from ...events.outbox import Outbox
from ...wire.channel import ANNOUNCEMENT_THREAD, POST_CHANNELS, PRIVATE_THREAD, PUBLIC_THREAD, thread_json
from ..auto_moderation.screening import screen as auto_moderation_screen
from ..channel_messages import store as messages
from ..channel_messages.attachments import Writer
from ..channel_messages.body import read_message_input
from ..guilds.access import missing_access, require_member
from . import store
from .store import AUTO_ARCHIVE_DURATIONS, THREAD_PARENT_TYPES

if TYPE_CHECKING:
    from ...state import EmulatorState

_MANAGE_THREADS = int(Permission.MANAGE_THREADS)


def viewable_thread(conn: sqlite3.Connection, thread_id: int, user_id: int,
                    now: datetime) -> tuple[sqlite3.Row, int]:
    thread = store.get_thread(conn, thread_id)
    require_member(conn, thread["guild_id"], user_id, now)
    bits = store.permissions_of(conn, thread, user_id, now)
    if not bits & int(Permission.VIEW_CHANNEL):
        raise missing_access()
    return thread, bits


def applied_tags(form: Form, parent: sqlite3.Row, permissions: int) -> list[str]:
    """Tag ids of the parent's ``available_tags`` (at most 5); a moderated tag needs MANAGE_THREADS."""
    raw = form.array("applied_tags", required=False, max_items=store.MAX_APPLIED_TAGS) or []
    tags = {tag["id"]: tag for tag in json.loads(parent["available_tags"])}
    applied: list[str] = []
    for index, value in enumerate(raw):
        tag_id = Form({}, form.errors, (*form.path, "applied_tags")).coerce_snowflake(index, value)
        if tag_id is None:
            continue
        tag = tags.get(str(tag_id))
        if tag is None:
            form.fail("applied_tags", "TAG_UNKNOWN", f"Tag {tag_id} is not a tag of this channel.")
        elif tag["moderated"] and not permissions & _MANAGE_THREADS:
            raise ApiError(403, errors.MISSING_PERMISSIONS, "Missing Permissions: MANAGE_THREADS")
        elif str(tag_id) not in applied:
            applied.append(str(tag_id))
    return applied


def get(conn: sqlite3.Connection, outbox: Outbox, now: datetime, thread: sqlite3.Row,
        user_id: int) -> dict[str, Any]:
    """GET /channels/{id} of a thread: viewable (50001 otherwise)."""
    store.archive_due(conn, outbox, now, thread["guild_id"])
    thread, _ = viewable_thread(conn, thread["id"], user_id, now)
    return thread_json(thread)


def modify(conn: sqlite3.Connection, outbox: Outbox, now: datetime, thread: sqlite3.Row, user_id: int,
           form: Form) -> dict[str, Any]:
    """PATCH /channels/{id} of a thread: its owner may rename it, archive or unarchive it (not when
    locked), change ``auto_archive_duration`` and ``applied_tags``; anything else, or another's thread,
    needs MANAGE_THREADS. THREAD_UPDATE; audit THREAD_UPDATE."""
    store.archive_due(conn, outbox, now, thread["guild_id"])
    thread, bits = viewable_thread(conn, thread["id"], user_id, now)
    manage = bool(bits & _MANAGE_THREADS)
    changes: dict[str, Any] = {}
    if "name" in form.data:
        changes["name"] = form.string("name", min_len=1, max_len=100)
    for field, column in (("archived", "thread_archived"), ("locked", "thread_locked"),
                          ("invitable", "thread_invitable")):
        if form.data.get(field) is not None:
            changes[column] = int(form.boolean(field))
    if form.data.get("auto_archive_duration") is not None:
        changes["thread_auto_archive_duration"] = form.choice("auto_archive_duration", AUTO_ARCHIVE_DURATIONS)
    if form.data.get("rate_limit_per_user") is not None:
        changes["rate_limit_per_user"] = form.integer("rate_limit_per_user", minimum=0, maximum=21600)
    if form.data.get("flags") is not None:
        changes["flags"] = form.integer("flags", minimum=0, maximum=(1 << 31) - 1)
    if "applied_tags" in form.data:
        parent = store.parent_of(conn, thread)
        if parent is None or parent["type"] not in POST_CHANNELS:
            form.fail("applied_tags", "BASE_TYPE_UNKNOWN_FIELD",
                      "Only posts of forum and media channels have tags.")
        else:
            changes["applied_tags"] = json.dumps(applied_tags(form, parent, bits))
    if "invitable" in form.data and thread["type"] != PRIVATE_THREAD:
        form.fail("invitable", "BASE_TYPE_UNKNOWN_FIELD", "Only private threads are invitable or not.")
    form.done()
    if not manage:
        owner_only = {"name", "thread_archived", "thread_auto_archive_duration", "applied_tags"}
        if thread["owner_id"] != user_id or set(changes) - owner_only:
            store.require(bits, _MANAGE_THREADS)
        if thread["thread_locked"]:
            raise store.archived_error()
    return thread_json(store.modify(conn, outbox, now, thread, changes, user_id))


def remove(conn: sqlite3.Connection, outbox: Outbox, now: datetime, thread: sqlite3.Row,
           user_id: int) -> dict[str, Any]:
    """DELETE /channels/{id} of a thread: MANAGE_THREADS; THREAD_DELETE; audit THREAD_DELETE."""
    thread, bits = viewable_thread(conn, thread["id"], user_id, now)
    store.require(bits, _MANAGE_THREADS)
    store.delete(conn, outbox, now, thread, user_id)
    return thread_json(thread)


def thread_parent(conn: sqlite3.Connection, channel_id: int) -> sqlite3.Row:
    """A channel that holds threads; 404 / 10003 for an unknown one, 400 / 50024 for any other type."""
    row = conn.execute("SELECT * FROM channels WHERE id = ? AND guild_id IS NOT NULL",
                       (channel_id,)).fetchone()
    if row is None:
        raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
    if row["type"] not in THREAD_PARENT_TYPES:
        raise ApiError(400, 50024, "Cannot execute action on this channel type")
    return row


def thread_fields(form: Form, *, with_type: bool) -> dict[str, Any]:
    """The fields of a new thread (a null counts as absent, as the published request bodies allow)."""
    fields: dict[str, Any] = {
        "name": form.string("name", min_len=1, max_len=100),
        "auto_archive_duration": form.choice("auto_archive_duration", AUTO_ARCHIVE_DURATIONS, required=False),
        "rate_limit_per_user": form.integer("rate_limit_per_user", required=False, minimum=0, maximum=21600)}
    if with_type:
        fields["type"] = form.choice("type", (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD),
                                     required=False, default=PRIVATE_THREAD)
        fields["invitable"] = form.boolean("invitable", default=True)
    return fields


def created_json(conn: sqlite3.Connection, row: sqlite3.Row, user_id: int) -> dict[str, Any]:
    """The new thread as its creator gets it: with the creator's thread ``member``."""
    return {**thread_json(row), "member": store.member_of(conn, row, user_id, with_member=False)}


def start_thread(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, writer: Writer, *,
                 channel_id: int, author: messages.Author, form: Form, files: list[UploadedFile],
                 base_url: str) -> dict[str, Any]:
    """A thread in a text or announcement channel (``type`` 11 / 12, private by default as in the
    platform's v10, or 10; CREATE_PUBLIC_THREADS / CREATE_PRIVATE_THREADS), or a post in a forum or media
    channel (type 11) with its first ``message`` and ``applied_tags`` (SEND_MESSAGES); a post's answer
    carries the ``message``. ``author`` is a bot (REST) or a user (the admin API)."""
    now = state.clock.now()
    parent = thread_parent(conn, channel_id)
    require_member(conn, parent["guild_id"], author.user_id, now)
    bits = store.permissions_of(conn, parent, author.user_id, now)
    post = parent["type"] in POST_CHANNELS
    fields = thread_fields(form, with_type=not post)
    body = None
    applied: list[str] = []
    if post:
        store.require(bits, int(Permission.SEND_MESSAGES))
        message = form.obj("message")
        applied = applied_tags(form, parent, bits)
        form.done()
        body = read_message_input(message.data if message is not None else {}, editing=False)
        kind = PUBLIC_THREAD
    else:
        kind = fields["type"]
        allowed = store.thread_kinds_for(parent)
        if kind not in allowed:
            form.fail("type", "THREAD_TYPE_INVALID", "This channel cannot hold threads of that type.")
        form.done()
        needed = (Permission.CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD
                  else Permission.CREATE_PUBLIC_THREADS)
        store.require(bits, int(needed))
    auto_moderation_screen(state, conn, outbox, channel=parent, author_id=author.user_id,
                           author_is_bot=author.is_bot, text=fields["name"], title=True)
    store.archive_due(conn, outbox, now, parent["guild_id"])
    row = store.create(conn, outbox, now, thread_id=state.ids.next(), parent=parent, owner_id=author.user_id,
                       kind=kind, name=fields["name"], auto_archive_duration=fields["auto_archive_duration"],
                       rate_limit_per_user=fields["rate_limit_per_user"],
                       invitable=fields.get("invitable", True), applied_tags=applied)
    answer = created_json(conn, row, author.user_id)
    if body is not None:
        answer["message"] = messages.create(state, conn, outbox, writer, channel_id=row["id"], author=author,
                                            body=body, files=files, base_url=base_url, message_id=row["id"])
        answer.update({k: v for k, v in thread_json(store.get_thread(conn, row["id"])).items()
                       if k in ("message_count", "total_message_sent", "last_message_id")})
    return answer
