"""What GET, PATCH and DELETE /channels/{id} do on a thread (the channel routes hand threads here), and
the checks the thread routes share: a viewable thread, a post's applied tags."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from ...core import errors
from ...core.errors import ApiError
from ...core.permissions import Permission
from ...core.validation import Form
from ...events.outbox import Outbox
from ...wire.channel import POST_CHANNELS, PRIVATE_THREAD, thread_json
from ..guilds.access import missing_access, require_member
from . import store
from .store import AUTO_ARCHIVE_DURATIONS

_MANAGE_THREADS = int(Permission.MANAGE_THREADS)


def viewable_thread(conn: sqlite3.Connection, thread_id: int, user_id: int, now: Any) -> tuple[sqlite3.Row, int]:
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




def get(conn: sqlite3.Connection, outbox: Outbox, now: Any, thread: sqlite3.Row, user_id: int) -> dict[str, Any]:
    """GET /channels/{id} of a thread: viewable (50001 otherwise)."""
    store.archive_due(conn, outbox, now, thread["guild_id"])
    thread, _ = viewable_thread(conn, thread["id"], user_id, now)
    return thread_json(thread)


def modify(conn: sqlite3.Connection, outbox: Outbox, now: Any, thread: sqlite3.Row, user_id: int,
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
            form.fail("applied_tags", "BASE_TYPE_UNKNOWN_FIELD", "Only posts of forum and media channels have tags.")
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


def remove(conn: sqlite3.Connection, outbox: Outbox, now: Any, thread: sqlite3.Row, user_id: int) -> dict[str, Any]:
    """DELETE /channels/{id} of a thread: MANAGE_THREADS; THREAD_DELETE; audit THREAD_DELETE."""
    thread, bits = viewable_thread(conn, thread["id"], user_id, now)
    store.require(bits, _MANAGE_THREADS)
    store.delete(conn, outbox, now, thread, user_id)
    return thread_json(thread)


