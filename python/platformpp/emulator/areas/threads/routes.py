"""The thread routes (Bot): start a thread from a message, in a channel, or as a forum / media post with
its first message; list active, archived and searched threads; thread members. GET, PATCH and DELETE
/channels/{id} of a thread are the channel routes' (handed to edits.py)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import errors
from ...core.clock import format_instant, parse_instant
from ...core.errors import ApiError, json_response
from ...core.http import base_url_of, emulator_state, query_bool, query_int, query_snowflake, snowflake_param
from ...core.permissions import Permission
from ...core.routing import Route
from ...core.snowflake import parse_snowflake
from ...core.uploads import read_payload_and_files
from ...core.validation import Form, field_error, read_form
from ...events.outbox import Outbox
from ...paths import API
from ...wire.channel import ANNOUNCEMENT, ANNOUNCEMENT_THREAD, POST_CHANNELS, PRIVATE_THREAD, PUBLIC_THREAD
from ..channel_messages import store as messages
from ..channel_messages.attachments import Writer
from ..guilds.access import require_member
from ..guilds.work import in_transaction, reader, writer
from . import store
from .edits import created_json, start_thread, thread_fields, thread_parent
from .edits import viewable_thread as _viewable_thread

Handler = Callable[[Request], Awaitable[Response]]

_MANAGE_THREADS = int(Permission.MANAGE_THREADS)
_READ_HISTORY = int(Permission.READ_MESSAGE_HISTORY)
GUILD_MEMBERS_FLAGS = (1 << 14) | (1 << 15)   # the application flags that enable the GUILD_MEMBERS intent


# --- creating ------------------------------------------------------------------------------------------

async def thread_from_message(request: Request) -> Response:
    """POST /channels/{channel_id}/messages/{message_id}/threads: CREATE_PUBLIC_THREADS; the thread takes
    the message's id; an announcement channel's is an announcement thread."""
    principal = writer(request)
    channel_id = snowflake_param(request, "channel_id")
    message_id = snowflake_param(request, "message_id")
    state = emulator_state(request)
    form = await read_form(request)
    fields = thread_fields(form, with_type=False)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        parent = thread_parent(conn, channel_id)
        require_member(conn, parent["guild_id"], principal.user_id, now)
        if parent["type"] in POST_CHANNELS:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        bits = store.permissions_of(conn, parent, principal.user_id, now)
        store.require(bits, int(Permission.CREATE_PUBLIC_THREADS) | _READ_HISTORY)
        messages.get_row(conn, channel_id, message_id)
        form.done()
        if conn.execute("SELECT 1 FROM channels WHERE id = ?", (message_id,)).fetchone() is not None:
            raise ApiError(400, store.THREAD_ALREADY_CREATED,
                           "A thread has already been created for this message")
        store.archive_due(conn, outbox, now, parent["guild_id"])
        kind = ANNOUNCEMENT_THREAD if parent["type"] == ANNOUNCEMENT else PUBLIC_THREAD
        row = store.create(conn, outbox, now, thread_id=message_id, parent=parent, owner_id=principal.user_id,
                           kind=kind, name=fields["name"],
                           auto_archive_duration=fields["auto_archive_duration"],
                           rate_limit_per_user=fields["rate_limit_per_user"], invitable=True, applied_tags=[])
        conn.execute("UPDATE channel_messages SET flags = flags | ? WHERE id = ?",
                     (store.HAS_THREAD, message_id))
        return created_json(conn, row, principal.user_id)

    return json_response(await in_transaction(request, work), 201)


async def create_thread(request: Request) -> Response:
    """POST /channels/{channel_id}/threads. In a text or announcement channel: ``type`` 11 / 12 (private
    by default, as the platform's v10) or 10, with CREATE_PUBLIC_THREADS / CREATE_PRIVATE_THREADS. In a
    forum or media channel: a post (type 11) with its first ``message`` (JSON or multipart) and
    ``applied_tags``, with SEND_MESSAGES; the answer carries the ``message``."""
    principal = writer(request)
    channel_id = snowflake_param(request, "channel_id")
    state = emulator_state(request)
    data, files = await read_payload_and_files(request)
    form = Form(data)
    writer_ = Writer(state)
    base_url = base_url_of(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        return start_thread(state, conn, outbox, writer_, channel_id=channel_id,
                            author=messages.Author(principal.user_id, True, principal.application_id),
                            form=form, files=files, base_url=base_url)

    try:
        return json_response(await in_transaction(request, work), 201)
    except BaseException:
        writer_.discard()
        raise


# --- listing -------------------------------------------------------------------------------------------

async def active_threads(request: Request) -> Response:
    """GET /guilds/{guild_id}/threads/active: the guild's unarchived threads the caller can view."""
    principal = reader(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        require_member(conn, guild_id, principal.user_id, now)
        store.archive_due(conn, outbox, now, guild_id)
        rows = conn.execute("SELECT * FROM channels WHERE guild_id = ? AND type IN (10, 11, 12)"
                            " AND thread_archived = 0 ORDER BY id DESC", (guild_id,)).fetchall()
        return store.thread_list(conn, store.visible_threads(conn, rows, principal.user_id, now),
                                 principal.user_id, False)

    return json_response(await in_transaction(request, work))


def _archived(kinds: tuple[int, ...], *, own: bool, manage: bool) -> Handler:
    async def handler(request: Request) -> Response:
        principal = reader(request)
        channel_id = snowflake_param(request, "channel_id")
        state = emulator_state(request)
        limit = query_int(request, "limit", default=50, minimum=2, maximum=100)
        if own:
            before_id = query_snowflake(request, "before")
            before_stamp = None
        else:
            raw = request.query_params.get("before")
            try:
                before_stamp = format_instant(parse_instant(raw)) if raw is not None else None
            except ValueError:
                raise field_error("before", "DATE_TYPE_CONVERT", "Must be an ISO-8601 timestamp.") from None
            before_id = None

        def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
            now = state.clock.now()
            parent = thread_parent(conn, channel_id)
            require_member(conn, parent["guild_id"], principal.user_id, now)
            bits = store.permissions_of(conn, parent, principal.user_id, now)
            store.require(bits, _READ_HISTORY | (_MANAGE_THREADS if manage else 0))
            store.archive_due(conn, outbox, now, parent["guild_id"])
            marks = ",".join(str(k) for k in kinds)
            sql = (f"SELECT c.* FROM channels c WHERE c.parent_id = ? AND c.type IN ({marks})"
                   " AND c.thread_archived = 1")
            params: list[Any] = [channel_id]
            if own:
                sql += (" AND EXISTS (SELECT 1 FROM thread_members t"
                        " WHERE t.thread_id = c.id AND t.user_id = ?)")
                params.append(principal.user_id)
            if before_id is not None:
                sql += " AND c.id < ?"
                params.append(before_id)
            if before_stamp is not None:
                sql += " AND c.thread_archive_timestamp < ?"
                params.append(before_stamp)
            sql += " ORDER BY c.id DESC" if own else " ORDER BY c.thread_archive_timestamp DESC, c.id DESC"
            sql += " LIMIT ?"
            rows = conn.execute(sql, (*params, limit + 1)).fetchall()
            return store.thread_list(conn, rows[:limit], principal.user_id, len(rows) > limit)

        return json_response(await in_transaction(request, work))
    return handler


SORT_COLUMNS = {"last_message_time": "COALESCE(c.last_message_id, c.id)",
                "archive_time": "c.thread_archive_timestamp",
                "creation_time": "c.id", "relevance": "COALESCE(c.last_message_id, c.id)"}


async def search_threads(request: Request) -> Response:
    """GET /channels/{channel_id}/threads/search: threads of the channel the caller can view, by a part of
    their ``name`` (any case), ``archived``, ``tag`` (repeat for several; ``tag_setting`` match_some /
    match_all), ``min_id`` / ``max_id``, ``sort_by``, ``sort_order``, ``limit`` 1–25, ``offset``."""
    principal = reader(request)
    channel_id = snowflake_param(request, "channel_id")
    state = emulator_state(request)
    name = request.query_params.get("name")
    if name is not None and len(name) > 100:
        raise field_error("name", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
    archived = query_bool(request, "archived") if "archived" in request.query_params else None
    limit = query_int(request, "limit", default=25, minimum=1, maximum=25)
    offset = query_int(request, "offset", default=0, minimum=0, maximum=9975)
    query_int(request, "slop", default=2, minimum=0, maximum=100)   # accepted; names match as a part, whatever the slop
    min_id, max_id = query_snowflake(request, "min_id"), query_snowflake(request, "max_id")
    tags: list[str] = []
    for raw in request.query_params.getlist("tag"):
        tags += [t for t in raw.split(",") if t]
    if not all(parse_snowflake(t) is not None for t in tags) or len(tags) > 20:
        raise field_error("tag", "NUMBER_TYPE_COERCE", "Tags are up to 20 snowflakes.")
    tag_setting = request.query_params.get("tag_setting", "match_some")
    sort_by = request.query_params.get("sort_by", "last_message_time")
    sort_order = request.query_params.get("sort_order", "desc")
    for key, value, choices in (("tag_setting", tag_setting, ("match_some", "match_all")),
                                ("sort_by", sort_by, tuple(SORT_COLUMNS)),
                                ("sort_order", sort_order, ("asc", "desc"))):
        if value not in choices:
            raise field_error(key, "BASE_TYPE_CHOICES", f"Must be one of {', '.join(choices)}.")

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        parent = thread_parent(conn, channel_id)
        require_member(conn, parent["guild_id"], principal.user_id, now)
        store.require(store.permissions_of(conn, parent, principal.user_id, now), _READ_HISTORY)
        store.archive_due(conn, outbox, now, parent["guild_id"])
        sql = "SELECT c.* FROM channels c WHERE c.parent_id = ? AND c.type IN (10, 11, 12)"
        params: list[Any] = [channel_id]
        if name:
            sql += " AND instr(lower(c.name), lower(?)) > 0"
            params.append(name)
        if archived is not None:
            sql += " AND c.thread_archived = ?"
            params.append(int(archived))
        for bound, op in ((min_id, ">"), (max_id, "<")):
            if bound is not None:
                sql += f" AND c.id {op} ?"
                params.append(bound)
        rows = conn.execute(sql + f" ORDER BY {SORT_COLUMNS[sort_by]} {sort_order.upper()}, c.id DESC",
                            params).fetchall()
        if tags:
            wanted = set(tags)
            rows = [r for r in rows if (wanted <= set(json.loads(r["applied_tags"]))
                                        if tag_setting == "match_all"
                                        else wanted & set(json.loads(r["applied_tags"])))]
        rows = store.visible_threads(conn, rows, principal.user_id, now)
        page = rows[offset:offset + limit]
        answer = store.thread_list(conn, page, principal.user_id, offset + limit < len(rows))
        answer["total_results"] = len(rows)
        first = [conn.execute("SELECT * FROM channel_messages WHERE id = ?",
                              (r["id"],)).fetchone() for r in page]
        answer["first_messages"] = messages.render_many(conn, [m for m in first if m is not None],
                                                        principal.user_id)
        return answer

    return json_response(await in_transaction(request, work))


# --- members -------------------------------------------------------------------------------------------

async def list_members(request: Request) -> Response:
    """GET /channels/{channel_id}/thread-members?with_member&after&limit=1..100: by user id. Needs the
    app's GUILD_MEMBERS intent flag (50001 without), as listing guild members does."""
    principal = reader(request)
    thread_id = snowflake_param(request, "channel_id")
    state = emulator_state(request)
    with_member = query_bool(request, "with_member")
    limit = query_int(request, "limit", default=100, minimum=1, maximum=100)
    after = query_snowflake(request, "after") or 0

    def work(conn: sqlite3.Connection, outbox: Outbox) -> list[dict[str, Any]]:
        now = state.clock.now()
        thread, _ = _viewable_thread(conn, thread_id, principal.user_id, now)
        if principal.kind == "bot":
            app = conn.execute("SELECT flags FROM applications WHERE id = ?",
                               (principal.application_id,)).fetchone()
            if not app or not app["flags"] & GUILD_MEMBERS_FLAGS:
                raise ApiError(403, errors.MISSING_ACCESS,
                               "Missing Access: the GUILD_MEMBERS intent is not enabled")
        return store.members_json(conn, thread, with_member=with_member, after=after, limit=limit)

    return json_response(await in_transaction(request, work))


async def get_member(request: Request) -> Response:
    """GET /channels/{channel_id}/thread-members/{user_id}?with_member: 10007 when not in the thread."""
    principal = reader(request)
    thread_id = snowflake_param(request, "channel_id")
    user_id = snowflake_param(request, "user_id")
    state = emulator_state(request)
    with_member = query_bool(request, "with_member")

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        thread, _ = _viewable_thread(conn, thread_id, principal.user_id, state.clock.now())
        return store.member_of(conn, thread, user_id, with_member=with_member)

    return json_response(await in_transaction(request, work))


def _open_thread(conn: sqlite3.Connection, outbox: Outbox, state: Any, thread_id: int, user_id: int
                 ) -> tuple[sqlite3.Row, int]:
    """A viewable thread that is not archived (400 / 50083 otherwise: members change only in open threads)."""
    now = state.clock.now()
    thread = store.get_thread(conn, thread_id)
    store.archive_due(conn, outbox, now, thread["guild_id"])
    thread, bits = _viewable_thread(conn, thread_id, user_id, now)
    if thread["thread_archived"]:
        raise store.archived_error()
    return thread, bits


async def join(request: Request) -> Response:
    """PUT /channels/{channel_id}/thread-members/@me: 204; THREAD_MEMBERS_UPDATE, THREAD_MEMBER_UPDATE."""
    principal = writer(request)
    thread_id = snowflake_param(request, "channel_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        thread, _ = _open_thread(conn, outbox, state, thread_id, principal.user_id)
        store.add_member(conn, outbox, state.clock.now(), thread, principal.user_id)

    await in_transaction(request, work)
    return Response(status_code=204)


async def leave(request: Request) -> Response:
    """DELETE /channels/{channel_id}/thread-members/@me: 204; THREAD_MEMBERS_UPDATE."""
    principal = writer(request)
    thread_id = snowflake_param(request, "channel_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        thread, _ = _open_thread(conn, outbox, state, thread_id, principal.user_id)
        store.remove_member(conn, outbox, state.clock.now(), thread, principal.user_id)

    await in_transaction(request, work)
    return Response(status_code=204)


async def add_member(request: Request) -> Response:
    """PUT /channels/{channel_id}/thread-members/{user_id}: SEND_MESSAGES_IN_THREADS; into a private thread
    that is not invitable only its owner or with MANAGE_THREADS; the user must be a guild member (10007)."""
    principal = writer(request)
    thread_id = snowflake_param(request, "channel_id")
    user_id = snowflake_param(request, "user_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        thread, bits = _open_thread(conn, outbox, state, thread_id, principal.user_id)
        store.require(bits, int(Permission.SEND_MESSAGES_IN_THREADS))
        if thread["type"] == PRIVATE_THREAD and not thread["thread_invitable"] \
                and thread["owner_id"] != principal.user_id:
            store.require(bits, _MANAGE_THREADS)
        if conn.execute("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?",
                        (thread["guild_id"], user_id)).fetchone() is None:
            raise errors.not_found(errors.UNKNOWN_MEMBER, "Member")
        store.add_member(conn, outbox, state.clock.now(), thread, user_id)

    await in_transaction(request, work)
    return Response(status_code=204)


async def remove_member(request: Request) -> Response:
    """DELETE /channels/{channel_id}/thread-members/{user_id}: MANAGE_THREADS, or the owner of a private
    thread; 204; THREAD_MEMBERS_UPDATE."""
    principal = writer(request)
    thread_id = snowflake_param(request, "channel_id")
    user_id = snowflake_param(request, "user_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        thread, bits = _open_thread(conn, outbox, state, thread_id, principal.user_id)
        if not (thread["type"] == PRIVATE_THREAD and thread["owner_id"] == principal.user_id):
            store.require(bits, _MANAGE_THREADS)
        store.remove_member(conn, outbox, state.clock.now(), thread, user_id)

    await in_transaction(request, work)
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    channel = API + "/channels/{channel_id}"
    members = channel + "/thread-members"
    return [
        Route(channel + "/messages/{message_id}/threads", thread_from_message, methods=["POST"]),
        Route(channel + "/threads", create_thread, methods=["POST"]),
        Route(channel + "/threads/archived/public",
              _archived((ANNOUNCEMENT_THREAD, PUBLIC_THREAD), own=False, manage=False), methods=["GET"]),
        Route(channel + "/threads/archived/private", _archived((PRIVATE_THREAD,), own=False, manage=True),
              methods=["GET"]),
        Route(channel + "/users/@me/threads/archived/private",
              _archived((PRIVATE_THREAD,), own=True, manage=False),
              methods=["GET"]),
        Route(channel + "/threads/search", search_threads, methods=["GET"]),
        Route(API + "/guilds/{guild_id}/threads/active", active_threads, methods=["GET"]),
        Route(members, list_members, methods=["GET"]),
        Route(members + "/@me", join, methods=["PUT"]),
        Route(members + "/@me", leave, methods=["DELETE"]),
        Route(members + "/{user_id}", get_member, methods=["GET"]),
        Route(members + "/{user_id}", add_member, methods=["PUT"]),
        Route(members + "/{user_id}", remove_member, methods=["DELETE"]),
    ]
