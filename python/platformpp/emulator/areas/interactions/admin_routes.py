"""The admin API's simulated user: ``POST /_emulator/interactions`` plays the platform's client (a
user runs a command, uses a context menu, clicks a button, chooses in a select, types into an
autocompleting option, submits a modal), delivers the interaction to the app and answers with what
the app answered, so a test can drive a whole conversation. ``GET /_emulator/interactions/{id}``
shows an interaction's answer later (deferred responses, followups). ``PUT
/_emulator/applications/{id}/interactions-endpoint`` sets the endpoint URL, checked as
``PATCH /applications/@me`` checks it."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import errors
from ...core.errors import ApiError, json_response, json_text_response
from ...core.http import base_url_of, emulator_state, off_loop, snowflake_param
from ...core.permissions import Permission
from ...core.routing import Route
from ...core.uploads import UploadedFile, read_payload_and_files
from ...core.validation import Form, read_json
from ...events.audience import Payload
from ...events.bus import to_json
from ...events.outbox import Outbox
from ...paths import ADMIN
from ..applications.store import update_application
from ..channel_messages import store as channel_messages
from ..commands import store as commands
from ..guilds.access import role_ids_of
from ..webhooks.interactions_endpoint import answer_json, verify_endpoint
from . import endpoint_delivery, messages, store, user_input, waiters
from .context import CONTEXT_BOT_DM, Place, direct_message_channel, locate, require
from .work import run_work

ACTIONS = ("command", "autocomplete", "component", "modal_submit", "sku_purchase_eligibility")
DEFAULT_WAIT_S = 3.0
MAX_REPEAT = 1000
ENTRY_POINT, PLATFORM_LAUNCH_ACTIVITY = 4, 2   # command type; entry point handler
# Plain ints: checked on every interaction (int & IntFlag builds a flag object).
_USE_APPLICATION_COMMANDS, _ADMINISTRATOR = int(Permission.USE_APPLICATION_COMMANDS), int(Permission.ADMINISTRATOR)
NSFW_COMMAND_IN_SAFE_CHANNEL = "An age-restricted command can only be used in an age-restricted channel."


def _refuse(message: str) -> ApiError:
    return ApiError(403, errors.MISSING_PERMISSIONS, message)


def _check_private_use(place: Place, body: dict[str, Any]) -> list[int]:
    """A global command in a DM or group DM: its ``contexts`` must list this one (all when unset); a
    guild install reaches only the DM with the app's bot user, other DMs need a user install."""
    integration_types = body.get("integration_types") or [0]
    contexts = body.get("contexts")
    if contexts is not None and place.context not in contexts:
        raise _refuse("The command cannot be used in this context (its contexts do not include it).")
    if not (1 in integration_types or (0 in integration_types and place.context == CONTEXT_BOT_DM)):
        raise _refuse("The application is not installed for this user, and this is not a DM with its bot.")
    return list(integration_types)


def _check_command_use(conn: sqlite3.Connection, place: Place, command: sqlite3.Row, body: Payload) -> list[int]:
    """What the client checks before showing a command (``body``: its decoded body); the integration
    types it is used through."""
    if place.guild is None:
        return _check_private_use(place, body)
    assert place.guild_id is not None and place.member is not None
    integration_types = body.get("integration_types") or [0]
    installed = (0 in integration_types and place.bot_in_guild) or 1 in integration_types
    if not installed:
        raise _refuse("The application is not installed in this guild nor for this user.")
    if body.get("contexts") is not None and 0 not in body["contexts"]:
        raise _refuse("The command cannot be used in guilds.")
    if body.get("nsfw") and not place.channel["nsfw"]:
        raise _refuse(NSFW_COMMAND_IN_SAFE_CHANNEL)
    if not place.user_permissions & _USE_APPLICATION_COMMANDS:
        raise _refuse("Missing Permissions: USE_APPLICATION_COMMANDS")
    roles = list(role_ids_of(place.member["member_roles"]))
    is_admin = bool(place.user_permissions & _ADMINISTRATOR)
    verdict = commands.command_allowed(conn, place.application_id, place.guild_id, int(command["id"]),
                                       user_id=int(place.user["id"]), role_ids=roles, channel_id=place.channel_id)
    if verdict is False:
        raise _refuse("The guild's command permissions do not let this user run this command here.")
    needed = body.get("default_member_permissions")
    if verdict is None and needed is not None:
        bits = int(needed)
        if bits == 0 and not is_admin or place.user_permissions & bits != bits:
            raise _refuse("The user lacks the command's default_member_permissions.")
    return list(integration_types)


def _find_command(conn: sqlite3.Connection, place: Place, form: Form) -> sqlite3.Row:
    command_id = form.snowflake("command_id", required=False)
    name = form.string("command_name", required=False, min_len=1, max_len=32)
    kind = form.choice("command_type", (1, 2, 3, 4), required=False, default=1)
    form.done()
    if command_id is not None:
        row = commands.find_command(conn, place.application_id, command_id, place.guild_id)
    else:
        require(name is not None, ("command_id",), "BASE_TYPE_REQUIRED", "Give command_id or command_name.")
        row = conn.execute("SELECT * FROM application_commands WHERE application_id = ? AND guild_id IN (0, ?)"
                           " AND name = ? AND type = ? ORDER BY guild_id DESC", (place.application_id, place.guild_id,
                                                                              name, kind)).fetchone()
    if row is None:
        raise errors.not_found(commands.UNKNOWN_APPLICATION_COMMAND, "application command")
    return row


def _channel_message(conn: sqlite3.Connection, place: Place, message_id: int) -> tuple[Payload, sqlite3.Row | None]:
    """A message of the channel the user can see: an interaction's answer (ephemeral ones only to
    their user) or a channel message of a guild. Returns it and, for an answer, its interaction."""
    own = conn.execute("SELECT m.*, i.user_id AS owner FROM interaction_messages m JOIN interactions i"
                       " ON i.id = m.interaction_id WHERE m.id = ? AND i.channel_id = ?",
                       (message_id, place.channel_id)).fetchone()
    if own is not None:
        if own["flags"] & messages.EPHEMERAL and own["owner"] != place.user["id"]:
            raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
        interaction = store.get_interaction(conn, own["interaction_id"])
        return store.render_message(conn, message_id, interaction), interaction
    if place.guild is None:   # the emulator keeps no other messages of DMs and group DMs
        raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
    if not place.user_permissions & Permission.READ_MESSAGE_HISTORY:
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access: the user cannot read the channel's messages.")
    return channel_messages.render(conn, channel_messages.get_row(conn, place.channel_id, message_id)), None


class _Uploads:
    """The files the simulated user sent, stored with the interaction when an input names them."""

    def __init__(self, state: Any, conn: sqlite3.Connection, interaction_id: int, files: list[UploadedFile],
                 base_url: str) -> None:
        self.state, self.conn, self.interaction_id, self.base_url = state, conn, interaction_id, base_url
        self.files = {f.index: f for f in files}
        self.stored: dict[int, Payload] = {}

    def __call__(self, index: int) -> Payload | None:
        if index not in self.stored:
            upload = self.files.get(index)
            if upload is None:
                return None
            attachment = messages.store_file(self.state, self.conn, self.interaction_id, upload, self.base_url)
            self.stored[index] = {**attachment, "ephemeral": True}
        return self.stored[index]


def _start(request: Request, raw: Any, files: list[UploadedFile], interaction_ids: list[int]
           ) -> Callable[[sqlite3.Connection, Outbox], list[store.Started]]:
    """The work of starting the user's action as ``len(interaction_ids)`` interactions (the action is
    checked and its data built once; uploaded files belong to the first)."""
    interaction_id = interaction_ids[0]
    state = emulator_state(request)
    base_url = base_url_of(request)
    form = Form(raw)
    action = form.choice("action", ACTIONS)
    application_id = form.snowflake("application_id")
    user_id = form.snowflake("user_id")
    recipient_id = form.snowflake("recipient_id", required=False)
    channel_id = form.snowflake("channel_id", required=action != "modal_submit" and recipient_id is None)
    if channel_id is not None and recipient_id is not None:
        form.fail("recipient_id", "BASE_TYPE_CHOICES", "Give channel_id or recipient_id, not both.")
    form.number("wait_s", required=False, minimum=0, maximum=60)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> list[store.Started]:
        channel = channel_id
        if recipient_id is not None:   # the user's DM with that user (the app's bot user: context 1)
            form.done()
            channel = direct_message_channel(state, conn, user_id or 0, recipient_id)
        opener = None
        if action == "modal_submit":
            opener_id = form.snowflake("interaction_id")
            form.done()
            opener = store.get_interaction(conn, opener_id or 0)
            if opener["response_type"] != store.MODAL or opener["user_id"] != user_id \
                    or opener["application_id"] != application_id:
                require(False, ("interaction_id",), "INTERACTION_NO_MODAL",
                        "That interaction of this user and app was not answered with a modal.")
            channel = opener["channel_id"]
        form.done()
        place = locate(conn, application_id or 0, user_id or 0, channel or 0, state.clock.now())
        upload = _Uploads(state, conn, interaction_id, files, base_url)
        message: Payload | None = None
        # Components and modals belong to a message or modal of the app, installed where it is.
        integration_types = [0] if place.bot_in_guild or place.context == CONTEXT_BOT_DM else [1]
        platform_launch = False
        if action in ("command", "autocomplete"):
            command = _find_command(conn, place, form)
            command_body = json.loads(command["body"])   # decoded once for the checks and the data
            integration_types = _check_command_use(conn, place, command, command_body)
            target_message = None
            if command["type"] == 3 and form.data.get("target_id") is not None:
                target = form.coerce_snowflake("target_id", form.data["target_id"])
                form.done()
                target_message, _ = _channel_message(conn, place, target or 0)
            data = user_input.command_data(conn, place, command, form.data.get("options"), form.data.get("target_id"),
                                           upload, autocomplete=action == "autocomplete", target_message=target_message,
                                           body=command_body)
            kind = store.AUTOCOMPLETE if action == "autocomplete" else store.APPLICATION_COMMAND
            # An entry point command whose handler is the platform's: it launches the activity itself.
            platform_launch = command["type"] == ENTRY_POINT and command_body.get("handler") == PLATFORM_LAUNCH_ACTIVITY
            require(not (platform_launch and kind == store.AUTOCOMPLETE), ("action",), "BASE_TYPE_CHOICES",
                    "Entry point commands have no options to autocomplete.")
        elif action == "sku_purchase_eligibility":
            sku_id = form.snowflake("sku_id")
            form.done()
            require(sku_id is not None and conn.execute(
                "SELECT 1 FROM skus WHERE id = ? AND application_id = ?", (sku_id, application_id)).fetchone()
                is not None, ("sku_id",), "UNKNOWN_SKU", "The application has no SKU with this id.")
            data = {"sku_id": str(sku_id)}
            kind = store.SKU_PURCHASE_ELIGIBILITY_CHECK
        elif action == "component":
            message_id = form.snowflake("message_id")
            form.done()
            message, _ = _channel_message(conn, place, message_id or 0)
            if message.get("application_id") != str(application_id) and \
                    message["author"]["id"] != str(place.bot_user_id):
                raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
            data = user_input.component_data(conn, place, message, form.data.get("custom_id"), form.data.get("values"))
            kind = store.MESSAGE_COMPONENT
        else:
            assert opener is not None
            modal = json.loads(opener["response"])
            data = user_input.modal_submit_data(conn, place, modal, form.data.get("values"), upload)
            kind = store.MODAL_SUBMIT
            if opener["message_id"] is not None:
                message, _ = _channel_message(conn, place, opener["message_id"])
        if place.resolved:
            data["resolved"] = dict(place.resolved)
        started = [store.start(state, conn, outbox, interaction_id=one, kind=kind, place=place, data=data,
                               integration_types=integration_types, message=message, deliver=not platform_launch,
                               triggering_interaction_id=None if opener is None else int(opener["id"]))
                   for one in interaction_ids]
        if platform_launch:
            for one in started:
                store.respond(state, conn, outbox, store.get_interaction(conn, one.id), {"type": store.LAUNCH_ACTIVITY},
                              [], base_url)
        return started

    return work


async def _deliver_http(request: Request, started: store.Started) -> Payload | None:
    """POST the interaction to the app's endpoint and apply what it answers; the conversation as
    that transaction leaves it (None when the answer was refused)."""
    state = emulator_state(request)
    text = started.payload.json   # ASCII-only (the usual case): the same bytes as with ensure_ascii
    body = text.encode() if text.isascii() else json.dumps(started.payload, separators=(",", ":")).encode()
    timestamp = str(int(state.clock.timestamp()))
    answer = await endpoint_delivery.pool().post_signed(started.endpoint_url or "", started.private_key, body,
                                                         timestamp)
    base_url = base_url_of(request)
    try:
        callback = answer_json(answer)

        def work(conn: sqlite3.Connection, outbox: Outbox) -> Payload:
            return store.respond_and_converse(state, conn, outbox, store.get_interaction(conn, started.id), callback,
                                              [], base_url)[1]

        return await run_work(request, work)
    except (ValueError, ApiError) as exc:
        reason = str(exc) if isinstance(exc, ValueError) else f"the app's answer was refused: {exc.message}" + (
            f" {json.dumps(exc.errors)}" if exc.errors else "")
        await run_work(request, lambda conn, outbox: store.record_failure(conn, started.id, reason))
        return None


def _wait_s(raw: Any) -> float:
    given = raw.get("wait_s") if isinstance(raw, dict) else None   # a bad one is refused by the form in work
    return float(given) if isinstance(given, (int, float)) and not isinstance(given, bool) else DEFAULT_WAIT_S


def _repeat(raw: Any, wait_s: float) -> int:
    """``repeat``: the same action by the same user N times at once (1–1000; load tests), each a new
    interaction; only without waiting (``wait_s`` 0)."""
    form = Form(raw if isinstance(raw, dict) else {})
    repeat = form.integer("repeat", required=False, minimum=1, maximum=MAX_REPEAT, default=1) or 1
    if repeat > 1 and wait_s != 0:
        form.fail("repeat", "BASE_TYPE_CHOICES", "Repeated actions do not wait for answers: set wait_s to 0.")
    form.done()
    return repeat


async def simulate(request: Request) -> Response:
    """POST /_emulator/interactions: JSON, or multipart with payload_json and the user's files[n]."""
    state = emulator_state(request)
    raw, files = await read_payload_and_files(request)
    wait_s = _wait_s(raw)
    repeat = _repeat(raw, wait_s)
    if repeat > 1:
        return await _simulate_many(request, raw, files, repeat)
    interaction_id = state.ids.next()
    work = _start(request, raw, files, [interaction_id])

    def started_and_answer(conn: sqlite3.Connection, outbox: Outbox) -> tuple[store.Started, Payload]:
        (started,) = work(conn, outbox)
        return started, store.conversation(conn, store.get_interaction(conn, interaction_id))

    if wait_s == 0:   # deliver only, in one transaction; the answer is read later (GET .../interactions/{id})
        started, now = await run_work(request, started_and_answer)
        if started.endpoint_url is None or not started.delivered:
            return _started_response(started, now)
    waiting = waiters.of(state)
    answered = waiting.expect(interaction_id)
    answer: Payload | None = None
    try:
        if wait_s != 0:
            (started,) = await run_work(request, work)
        if not started.delivered:   # the platform answered itself (an entry point it launches)
            pass
        elif started.endpoint_url:
            answer = await _deliver_http(request, started)
        else:
            if await answered.arrival(wait_s):
                answer = answered.answer   # read by the callback in its own transaction
            else:
                await run_work(request, lambda conn, outbox: store.record_failure(
                    conn, interaction_id, "The application did not respond"))
    finally:
        waiting.forget(interaction_id)
    if answer is None:
        answer = await run_work(request, lambda conn, outbox: store.conversation(
            conn, store.get_interaction(conn, interaction_id)))
    return _started_response(started, answer)


def _started_response(started: store.Started, answer: Payload | None) -> Response:
    """``{"interaction": <payload>, "answer": <conversation>}``, the payload's JSON text reused."""
    return json_text_response(f'{{"interaction":{to_json(started.payload)},"answer":{to_json(answer)}}}')


async def _simulate_many(request: Request, raw: Any, files: list[UploadedFile], repeat: int) -> Response:
    """``repeat`` interactions started in one transaction; answers ``{"interactions": [{id, token}]}``."""
    state = emulator_state(request)
    work = _start(request, raw, files, [state.ids.next() for _ in range(repeat)])
    started = await run_work(request, work, offload=True)
    await asyncio.gather(*(_deliver_http(request, one) for one in started if one.endpoint_url and one.delivered))
    return json_response({"interactions": [{"id": str(one.id), "token": one.token} for one in started]})


async def get_conversation(request: Request) -> Response:
    interaction_id = snowflake_param(request, "interaction_id")
    return json_response(await run_work(request, lambda conn, outbox: store.conversation(
        conn, store.get_interaction(conn, interaction_id))))


async def set_endpoint(request: Request) -> Response:
    """PUT /_emulator/applications/{id}/interactions-endpoint ``{"url": "http..." | null}``."""
    state = emulator_state(request)
    application_id = snowflake_param(request, "application_id")
    form = Form(await read_json(request))
    url = form.string("url", required=True, nullable=True, max_len=2048)
    if url is not None and not url.startswith(("http://", "https://")):
        form.fail("url", "URL_TYPE_INVALID_URL", "Not a well formed URL.")
    form.done()
    if url is not None:
        await off_loop(verify_endpoint, state, application_id, url)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        if conn.execute("SELECT 1 FROM applications WHERE id = ?", (application_id,)).fetchone() is None:
            raise errors.not_found(errors.UNKNOWN_APPLICATION, "Application")
        update_application(conn, application_id, {"interactions_endpoint_url": url})

    await run_work(request, work)
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    return [
        Route(f"{ADMIN}/interactions", simulate, methods=["POST"]),
        Route(ADMIN + "/interactions/{interaction_id:snowflake}", get_conversation, methods=["GET"]),
        Route(ADMIN + "/applications/{application_id:snowflake}/interactions-endpoint", set_endpoint,
              methods=["PUT"]),
    ]
