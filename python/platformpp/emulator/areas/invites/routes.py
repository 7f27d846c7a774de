"""Invite routes: create (JSON, or multipart with a ``target_users_file`` CSV), list by channel and by
guild, get, delete, accept (``POST /invites/{code}`` as the user; ``POST /_emulator/invites/{code}/
accept`` for any user), and the target users: Get (CSV, streamed), Update (CSV, a job), the job's
status, add / remove one, bulk add / bulk delete ``{"user_ids": [...]}``.

The published schema names paths for Update, Get and job-status only (the seed: the other paths are
not shown); the emulator serves add / remove one at ``PUT`` / ``DELETE /invites/{code}/target-users/
{user_id}`` and bulk at ``POST /invites/{code}/target-users/bulk-add`` / ``bulk-delete``."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute

from ...core import auth, errors
from ...core.errors import ApiError, json_response
from ...core.http import emulator_state, off_loop, query_bool, snowflake_param
from ...core.json_text import InvalidJson, decode_untrusted
from ...core.permissions import Permission
from ...core.routing import Route
from ...core.uploads import json_body
from ...core.validation import Form, field_error, read_json
from ...events.outbox import Outbox
from ...paths import ADMIN, API
from ..guild_settings import incidents
from ..guilds.access import (
    Standing,
    require_above,
    require_channel_permission,
    require_guild_permission,
    require_member,
)
from ..guilds.work import in_transaction, writer
from . import expiry, jobs, store
from .csv_upload import FILE_FIELD, Batch, csv_error, read_multipart_csv

MAX_AGE = 5184000          # the published bounds of CreateGuildInviteRequest
MAX_USES = 100
MAX_ROLES = 250
MAX_TARGET_IDS = 1000      # target_user_ids in JSON; larger lists go in target_users_file
DEFAULT_MAX_AGE = 86400


# --- reading the request ------------------------------------------------------------------------------

def _snowflakes(form: Form, name: str, max_items: int) -> list[int] | None:
    """An array of snowflakes (or, from a multipart field, one comma-separated string)."""
    raw = form.data.get(name)
    if raw is None:
        return None
    if isinstance(raw, str):
        raw = [part.strip() for part in raw.split(",") if part.strip()]
        form.data[name] = raw
    values = form.array(name, required=False, max_items=max_items)
    if values is None:
        return None
    items = Form({}, form.errors, (*form.path, name))
    result: list[int] = []
    for index, value in enumerate(values):
        snowflake = items.coerce_snowflake(index, value)
        if snowflake is not None and snowflake not in result:
            result.append(snowflake)
    return result


def _multipart_fields(fields: dict[str, str]) -> dict[str, Any]:
    """``payload_json``, or each setting as its own part (numbers and booleans as JSON text)."""
    if "payload_json" in fields:
        return json_body(fields["payload_json"])
    data: dict[str, Any] = {}
    for name, text in fields.items():
        try:
            data[name] = decode_untrusted(text)
        except InvalidJson:
            data[name] = text
    return data


def _read_settings(form: Form) -> tuple[dict[str, Any], list[int] | None]:
    max_age = form.integer("max_age", required=False, minimum=0, maximum=MAX_AGE)
    settings: dict[str, Any] = {
        "max_age": DEFAULT_MAX_AGE if form.data.get("max_age") is None else max_age,
        "max_uses": form.integer("max_uses", required=False, minimum=0, maximum=MAX_USES) or 0,
        "temporary": form.boolean("temporary"),
        "target_type": form.choice("target_type", (1, 2, None), required=False),
        "target_user_id": form.snowflake("target_user_id", required=False, nullable=True),
        "target_application_id": form.snowflake("target_application_id", required=False, nullable=True),
        "role_ids": _snowflakes(form, "role_ids", MAX_ROLES) or [],
    }
    settings["unique"] = form.boolean("unique")   # false: an identical live invite is answered again
    if settings["target_type"] == 1 and settings["target_user_id"] is None:
        form.fail("target_user_id", "BASE_TYPE_REQUIRED",
                  "A STREAM invite (target_type 1) needs target_user_id.")
    if settings["target_type"] == 2 and settings["target_application_id"] is None:
        form.fail("target_application_id", "BASE_TYPE_REQUIRED",
                  "An EMBEDDED_APPLICATION invite (target_type 2) needs target_application_id.")
    return settings, _snowflakes(form, "target_user_ids", MAX_TARGET_IDS)


def _check_references(conn: sqlite3.Connection, form: Form, who: Standing, guild_id: int,
                      settings: dict[str, Any], target_ids: list[int] | None) -> None:
    """Unknown users, applications and roles (400 naming the field); roles at or above the caller's
    highest role, or managed (403)."""
    if settings["target_user_id"] is not None and not _user_exists(conn, settings["target_user_id"]):
        form.fail("target_user_id", "UNKNOWN_USER", f"No user {settings['target_user_id']}.")
    application_id = settings["target_application_id"]
    if application_id is not None and conn.execute("SELECT 1 FROM applications WHERE id = ?",
                                                   (application_id,)).fetchone() is None:
        form.fail("target_application_id", "UNKNOWN_APPLICATION", f"No application {application_id}.")
    for index, user_id in enumerate(target_ids or []):
        if not _user_exists(conn, user_id):
            form.errors.add(("target_user_ids", index), "UNKNOWN_USER", f"No user {user_id}.")
    roles = []
    for index, role_id in enumerate(settings["role_ids"]):
        row = conn.execute("SELECT position, managed FROM roles WHERE id = ? AND guild_id = ?",
                           (role_id, guild_id)).fetchone()
        if row is None or role_id == guild_id:
            form.errors.add(("role_ids", index), "UNKNOWN_ROLE", f"No role {role_id} to grant in this guild.")
        else:
            roles.append((role_id, row))
    form.done()
    if roles:
        require_guild_permission(who, Permission.MANAGE_ROLES)
    for role_id, row in roles:
        if row["managed"]:
            raise ApiError(403, errors.MISSING_PERMISSIONS, f"Missing Permissions: role {role_id} is managed")
        require_above(who, row["position"], f"role {role_id}")


def _user_exists(conn: sqlite3.Connection, user_id: int) -> bool:
    return conn.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is not None


async def _staged_upload(request: Request) -> tuple[dict[str, str], int | None]:
    """Reads a multipart body, staging its CSV ids as they arrive: (text fields, upload id or None)."""
    state = emulator_state(request)
    upload_id = state.ids.next()

    def stage(batch: Batch) -> None:
        with state.db.transaction() as conn:
            store.stage(conn, upload_id, batch)

    async def on_batch(batch: Batch) -> None:
        await off_loop(stage, batch)

    try:
        fields, count = await read_multipart_csv(request, on_batch)
    except BaseException:
        await _discard(request, upload_id)
        raise
    return fields, (upload_id if count is not None else None)


async def _discard(request: Request, upload_id: int | None) -> None:
    if upload_id is None:
        return
    state = emulator_state(request)

    def run() -> None:
        with state.db.transaction() as conn:
            store.discard_upload(conn, upload_id)
    await off_loop(run)


# --- invites ------------------------------------------------------------------------------------------

async def create_invite(request: Request) -> Response:
    """POST /channels/{channel_id}/invites: CREATE_INSTANT_INVITE in the channel (and MANAGE_ROLES with
    role_ids); INVITE_CREATE; audit entry 40. Target users from ``target_user_ids`` or the CSV part
    ``target_users_file``: only they may accept. Nothing is created when anything is wrong."""
    principal = writer(request)
    channel_id = snowflake_param(request, "channel_id")
    state = emulator_state(request)
    upload_id = None
    if request.headers.get("content-type", "").lower().startswith("multipart/form-data"):
        fields, upload_id = await _staged_upload(request)
        data: Any = _multipart_fields(fields)
    else:
        data = await read_json(request, allow_empty=True)
    try:
        form = Form(data)
        settings, target_ids = _read_settings(form)
        if target_ids is not None and upload_id is not None:
            form.fail("target_user_ids", "TARGET_USERS_TWICE",
                      f"Give target_user_ids or {FILE_FIELD}, not both.")
        form.done()

        def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
            now = state.clock.now()
            channel = conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()
            if channel is None:
                raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
            if channel["guild_id"] is None:
                raise ApiError(400, errors.GENERAL, "Invites to group DMs are not modelled by the emulator.")
            who = require_member(conn, channel["guild_id"], principal.user_id, now)
            require_channel_permission(who, channel, Permission.CREATE_INSTANT_INVITE)
            incidents.require_invites_open(conn, channel["guild_id"], now)   # even a similar one is not given
            _check_references(conn, form, who, channel["guild_id"], settings, target_ids)
            if upload_id is not None:
                unknown = store.first_unknown_user(conn, upload_id)
                if unknown is not None:
                    raise csv_error(unknown[0], f"{unknown[1]} is not a known user.")
            elif not target_ids and not settings["unique"]:
                similar = store.similar_invite(conn, channel_id, principal.user_id, settings, now)
                if similar is not None:
                    return store.invite_json(conn, similar)
            row = store.create(conn, outbox, now, channel=channel, inviter_id=principal.user_id,
                               settings=settings, restricted=bool(target_ids) or upload_id is not None)
            if upload_id is not None:
                store.queue_job(conn, row["code"], upload_id, now)
            elif target_ids:
                store.set_targets(conn, row["code"], target_ids, add=True)
            return store.invite_json(conn, row)

        invite = await in_transaction(request, work)
    except BaseException:
        await _discard(request, upload_id)
        raise
    if upload_id is not None:
        jobs.start(state, invite["code"], upload_id)
    await off_loop(expiry.arm, state)   # the new invite may expire first
    return json_response(invite)


async def channel_invites(request: Request) -> Response:
    """GET /channels/{channel_id}/invites: MANAGE_CHANNELS in the channel."""
    principal = writer(request)
    channel_id = snowflake_param(request, "channel_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> list[dict[str, Any]]:
        now = state.clock.now()
        channel = conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()
        if channel is None or channel["guild_id"] is None:
            raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
        who = require_member(conn, channel["guild_id"], principal.user_id, now)
        require_channel_permission(who, channel, Permission.MANAGE_CHANNELS)
        return store.invites_of(conn, "channel_id", channel_id, now)

    return json_response(await in_transaction(request, work))


async def guild_invites(request: Request) -> Response:
    """GET /guilds/{guild_id}/invites: MANAGE_GUILD."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> list[dict[str, Any]]:
        now = state.clock.now()
        who = require_member(conn, guild_id, principal.user_id, now)
        require_guild_permission(who, Permission.MANAGE_GUILD)
        return store.invites_of(conn, "guild_id", guild_id, now)

    return json_response(await in_transaction(request, work))


async def get_invite(request: Request) -> Response:
    """GET /invites/{code}?with_counts=: anyone; 404 10006 once expired or used up."""
    code = str(request.path_params["code"])
    state = emulator_state(request)
    with_counts = query_bool(request, "with_counts")

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        lobby = store.live_lobby_invite(conn, code, now)
        if lobby is not None:
            return store.lobby_invite_json(conn, lobby, with_counts=with_counts)
        return store.invite_json(conn, store.live_invite(conn, code, now), with_counts=with_counts)

    return json_response(await in_transaction(request, work))


def _manages(conn: sqlite3.Connection, row: sqlite3.Row, user_id: int, now: Any) -> None:
    """The invite's inviter, MANAGE_GUILD, or MANAGE_CHANNELS in its channel."""
    who = require_member(conn, row["guild_id"], user_id, now)
    if row["inviter_id"] == user_id or who.base & Permission.MANAGE_GUILD:
        return
    channel = conn.execute("SELECT * FROM channels WHERE id = ?", (row["channel_id"],)).fetchone()
    require_channel_permission(who, channel, Permission.MANAGE_CHANNELS)


async def delete_invite(request: Request) -> Response:
    """DELETE /invites/{code}: MANAGE_CHANNELS in its channel or MANAGE_GUILD; INVITE_DELETE; audit 42."""
    principal = writer(request)
    code = str(request.path_params["code"])
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        row = store.live_invite(conn, code, now)
        who = require_member(conn, row["guild_id"], principal.user_id, now)
        if not who.base & Permission.MANAGE_GUILD:
            channel = conn.execute("SELECT * FROM channels WHERE id = ?", (row["channel_id"],)).fetchone()
            require_channel_permission(who, channel, Permission.MANAGE_CHANNELS)
        shown = store.invite_json(conn, row)
        store.delete(conn, outbox, now, row, principal.user_id)
        return shown

    return json_response(await in_transaction(request, work))


async def accept_invite(request: Request) -> Response:
    """POST /invites/{code} (the user, Bearer): join the guild."""
    principal = auth.require(request, kinds=("bearer",))
    code = str(request.path_params["code"])
    state = emulator_state(request)
    return json_response(await in_transaction(
        request, lambda conn, outbox: store.accept(conn, outbox, state.clock.now(), code, principal.user_id)))


async def admin_accept(request: Request) -> Response:
    """POST /_emulator/invites/{code}/accept ``{"user_id"}``: that user accepts (what their client does)."""
    code = str(request.path_params["code"])
    state = emulator_state(request)
    form = Form(await read_json(request))
    user_id = form.snowflake("user_id")
    form.done()
    assert user_id is not None

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        if not _user_exists(conn, user_id):
            raise errors.not_found(errors.UNKNOWN_USER, "User")
        return store.accept(conn, outbox, state.clock.now(), code, user_id)

    return json_response(await in_transaction(request, work))


# --- target users -------------------------------------------------------------------------------------

async def _managed_invite(request: Request) -> tuple[int, str]:
    principal = writer(request)
    code = str(request.path_params["code"])
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> None:
        now = state.clock.now()
        _manages(conn, store.live_invite(conn, code, now), principal.user_id, now)
    await in_transaction(request, work)
    return principal.user_id, code


async def get_target_users(request: Request) -> Response:
    """GET /invites/{code}/target-users: ``text/csv``, the header ``user_id`` then one id per line,
    streamed page by page (never the whole list in memory)."""
    _, code = await _managed_invite(request)
    state = emulator_state(request)

    def page(after: int) -> list[int]:
        with state.db.transaction() as conn:
            return store.target_page(conn, code, after, jobs.BATCH)

    async def body() -> AsyncIterator[bytes]:
        yield b"user_id\n"
        after = 0
        while True:
            ids = await off_loop(page, after)
            if not ids:
                return
            yield "".join(f"{user_id}\n" for user_id in ids).encode()
            after = ids[-1]

    return StreamingResponse(body(), media_type="text/csv")


async def put_target_users(request: Request) -> Response:
    """PUT /invites/{code}/target-users (multipart ``target_users_file``): 204, then the job replaces
    the list; a malformed line answers 400 naming it and queues nothing."""
    _, code = await _managed_invite(request)
    state = emulator_state(request)
    fields, upload_id = await _staged_upload(request)
    if upload_id is None:
        raise field_error(FILE_FIELD, "BASE_TYPE_REQUIRED", "This field is required")

    def work(conn: sqlite3.Connection, _: Outbox) -> None:
        store.live_invite(conn, code, state.clock.now())
        store.queue_job(conn, code, upload_id, state.clock.now())

    try:
        await in_transaction(request, work)
    except BaseException:
        await _discard(request, upload_id)
        raise
    jobs.start(state, code, upload_id)
    return Response(status_code=204)


async def job_status(request: Request) -> Response:
    """GET /invites/{code}/target-users/job-status: the latest job (404 10006 when there was none)."""
    _, code = await _managed_invite(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        row = conn.execute("SELECT * FROM invite_target_jobs WHERE code = ?", (code,)).fetchone()
        if row is None:
            raise errors.not_found(store.UNKNOWN_INVITE, "Invite target users job")
        return store.job_json(row)

    return json_response(await in_transaction(request, work))


async def _change_targets(request: Request, user_ids: list[int], add: bool) -> Response:
    _, code = await _managed_invite(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> None:
        if add:
            for user_id in user_ids:
                if not _user_exists(conn, user_id):
                    raise errors.not_found(errors.UNKNOWN_USER, "User")
        store.set_targets(conn, code, user_ids, add=add)

    await in_transaction(request, work)
    return Response(status_code=204)


async def put_target_user(request: Request) -> Response:
    return await _change_targets(request, [snowflake_param(request, "user_id")], add=True)


async def delete_target_user(request: Request) -> Response:
    return await _change_targets(request, [snowflake_param(request, "user_id")], add=False)


async def _bulk(request: Request, add: bool) -> Response:
    form = Form(await read_json(request))
    if form.data.get("user_ids") is None:
        form.fail("user_ids", "BASE_TYPE_REQUIRED", "This field is required")
    user_ids = _snowflakes(form, "user_ids", MAX_TARGET_IDS) or []
    form.done()
    return await _change_targets(request, user_ids, add=add)


async def bulk_add(request: Request) -> Response:
    return await _bulk(request, add=True)


async def bulk_delete(request: Request) -> Response:
    return await _bulk(request, add=False)


def routes() -> list[BaseRoute]:
    invite = API + "/invites/{code}"
    return [
        Route(API + "/channels/{channel_id}/invites", create_invite, methods=["POST"]),
        Route(API + "/channels/{channel_id}/invites", channel_invites, methods=["GET"]),
        Route(API + "/guilds/{guild_id}/invites", guild_invites, methods=["GET"]),
        Route(invite, get_invite, methods=["GET"]),
        Route(invite, delete_invite, methods=["DELETE"]),
        Route(invite, accept_invite, methods=["POST"]),
        Route(invite + "/target-users", get_target_users, methods=["GET"]),
        Route(invite + "/target-users", put_target_users, methods=["PUT"]),
        Route(invite + "/target-users/job-status", job_status, methods=["GET"]),
        Route(invite + "/target-users/bulk-add", bulk_add, methods=["POST"]),
        Route(invite + "/target-users/bulk-delete", bulk_delete, methods=["POST"]),
        Route(invite + "/target-users/{user_id}", put_target_user, methods=["PUT"]),
        Route(invite + "/target-users/{user_id}", delete_target_user, methods=["DELETE"]),
        Route(ADMIN + "/invites/{code}/accept", admin_accept, methods=["POST"]),
    ]
