"""HTTP routes of channel webhooks and announcement channels. ``/webhooks/{id}/{token}`` and its
``/messages/...`` are shared with interaction followups (an application id and an interaction token
in the same places): ``_by_token`` routes them, in this one place, to the channel webhook the id and
token name, else to the interaction routes."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth, errors
from ...core.errors import json_response
from ...core.http import base_url_of, emulator_state, query_bool, query_snowflake, snowflake_param
from ...core.routing import Route
from ...core.uploads import read_payload_and_files
from ...core.validation import Form, read_json
from ...events.outbox import Outbox
from ...paths import API
from ..cdn import store as cdn
from ..channel_messages import store as messages
from ..channel_messages.attachments import Writer, remove_files
from ..channel_messages.body import read_message_input
from ..interactions import routes as interaction_routes
from ..interactions.store import TOKEN_PREFIX as INTERACTION_TOKEN_PREFIX
from ..interactions.work import run_work
from . import store

Endpoint = Callable[[Request], Awaitable[Response]]


def _bot(request: Request) -> messages.Author:
    principal = auth.require(request, kinds=("bot",))
    return messages.Author(principal.user_id, True, principal.application_id)


def _token(request: Request) -> tuple[int, str]:
    return snowflake_param(request, "webhook_id"), str(request.path_params["webhook_token"])


async def _with_writer(request: Request, work: Callable[[sqlite3.Connection, Outbox, Writer], Any]) -> Any:
    writer = Writer(emulator_state(request))
    try:
        return await run_work(request, lambda conn, outbox: work(conn, outbox, writer))
    except BaseException:
        writer.discard()
        raise


# --- managing webhooks (bot) ---------------------------------------------------------------------------

async def create_webhook(request: Request) -> Response:
    """POST /channels/{channel_id}/webhooks ``{name, avatar?}`` (MANAGE_WEBHOOKS)."""
    caller = _bot(request)
    channel_id = snowflake_param(request, "channel_id")
    form = Form(await read_json(request))
    name = store.read_name(form, required=True)
    avatar = cdn.read_image(form, "avatar")
    form.done()
    state, base_url = emulator_state(request), base_url_of(request)
    return json_response(await run_work(request, lambda conn, outbox: store.create(
        state, conn, outbox, user_id=caller.user_id, application_id=caller.application_id, channel_id=channel_id,
        name=name or "", avatar=avatar, base_url=base_url)))


async def channel_webhooks(request: Request) -> Response:
    caller = _bot(request)
    channel_id = snowflake_param(request, "channel_id")
    state, base_url = emulator_state(request), base_url_of(request)
    return json_response(await run_work(request, lambda conn, outbox: store.list_channel(
        conn, state.clock.now(), caller.user_id, caller.application_id or 0, channel_id, base_url)))


async def guild_webhooks(request: Request) -> Response:
    caller = _bot(request)
    guild_id = snowflake_param(request, "guild_id")
    state, base_url = emulator_state(request), base_url_of(request)
    return json_response(await run_work(request, lambda conn, outbox: store.list_guild(
        conn, state.clock.now(), caller.user_id, caller.application_id or 0, guild_id, base_url)))


async def get_webhook(request: Request) -> Response:
    caller = _bot(request)
    webhook_id = snowflake_param(request, "webhook_id")
    state, base_url = emulator_state(request), base_url_of(request)
    return json_response(await run_work(request, lambda conn, outbox: store.get_for_bot(
        conn, state.clock.now(), caller.user_id, caller.application_id or 0, webhook_id, base_url)))


def _changes(form: Form, *, with_channel: bool) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    if "name" in form.data:
        changes["name"] = store.read_name(form, required=True)
    if "avatar" in form.data:
        changes["avatar"] = cdn.read_image(form, "avatar")
    if with_channel and form.data.get("channel_id") is not None:
        changes["channel_id"] = form.snowflake("channel_id")
    form.done()
    return changes


async def modify_webhook(request: Request) -> Response:
    """PATCH /webhooks/{webhook_id} ``{name?, avatar?, channel_id?}`` (MANAGE_WEBHOOKS where it is and
    where it goes)."""
    caller = _bot(request)
    webhook_id = snowflake_param(request, "webhook_id")
    changes = _changes(Form(await read_json(request)), with_channel=True)
    state, base_url = emulator_state(request), base_url_of(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict:
        now = state.clock.now()
        row = store.get(conn, webhook_id)
        store.get_for_bot(conn, now, caller.user_id, caller.application_id or 0, webhook_id, base_url)
        return store.modify(state, conn, outbox, row, user_id=caller.user_id, changes=changes,
                            avatar=changes.get("avatar"), base_url=base_url,
                            show_token=row["application_id"] == caller.application_id)

    return json_response(await run_work(request, work))


async def delete_webhook(request: Request) -> Response:
    caller = _bot(request)
    webhook_id = snowflake_param(request, "webhook_id")
    state, base_url = emulator_state(request), base_url_of(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        store.get_for_bot(conn, state.clock.now(), caller.user_id, caller.application_id or 0, webhook_id, base_url)
        store.delete(state, conn, outbox, store.get(conn, webhook_id), user_id=caller.user_id)

    await run_work(request, work)
    return Response(status_code=204)


# --- by token (no authorization: the token is the credential) ------------------------------------------

async def get_by_token(request: Request) -> Response:
    webhook_id, token = _token(request)
    base_url = base_url_of(request)
    return json_response(await run_work(request, lambda conn, outbox: store.render(
        conn, store.by_token(conn, webhook_id, token), show_token=True, base_url=base_url)))


async def modify_by_token(request: Request) -> Response:
    """PATCH /webhooks/{id}/{token} ``{name?, avatar?}`` (a ``channel_id`` is ignored: moving needs a bot)."""
    webhook_id, token = _token(request)
    changes = _changes(Form(await read_json(request)), with_channel=False)
    state, base_url = emulator_state(request), base_url_of(request)
    return json_response(await run_work(request, lambda conn, outbox: store.modify(
        state, conn, outbox, store.by_token(conn, webhook_id, token), user_id=None, changes=changes,
        avatar=changes.get("avatar"), base_url=base_url, show_token=True)))


async def delete_by_token(request: Request) -> Response:
    webhook_id, token = _token(request)
    state = emulator_state(request)
    await run_work(request, lambda conn, outbox: store.delete(
        state, conn, outbox, store.by_token(conn, webhook_id, token), user_id=None))
    return Response(status_code=204)


async def execute(request: Request) -> Response:
    """POST /webhooks/{id}/{token}[?wait=&thread_id=]: JSON, or multipart with payload_json and files[n]
    (together at most the upload limit: 413 / 40005). 204 unless ``wait``."""
    webhook_id, token = _token(request)
    wait = query_bool(request, "wait")
    thread_id = query_snowflake(request, "thread_id")
    data, files = await read_payload_and_files(request)
    body = read_message_input(data, editing=False)
    extras = store.read_extras(data)
    state, base_url = emulator_state(request), base_url_of(request)
    message = await _with_writer(request, lambda conn, outbox, writer: store.execute(
        state, conn, outbox, writer, store.by_token(conn, webhook_id, token), body=body, extras=extras,
        files=files, thread_id=thread_id, base_url=base_url))
    return json_response(message) if wait else Response(status_code=204)


async def execute_slack(request: Request) -> Response:
    """POST /webhooks/{id}/{token}/slack ``{text, username, icon_url, attachments}``: Slack's form, as a
    message (attachments become embeds). Answers ``"ok"``."""
    webhook_id, token = _token(request)
    thread_id = query_snowflake(request, "thread_id")
    form = Form(await read_json(request))
    text = form.string("text", required=False, nullable=True, max_len=2000)
    username = form.string("username", required=False, nullable=True, min_len=1, max_len=80)
    icon_url = form.string("icon_url", required=False, nullable=True, max_len=2048)
    embeds = []
    for index, raw in enumerate(form.array("attachments", required=False, max_items=10) or []):
        item = form.item("attachments", index, raw)
        embed = {"type": "rich", "title": item.string("title", required=False, nullable=True, max_len=256),
                 "description": item.string("text", required=False, nullable=True, max_len=4096)}
        embeds.append({key: value for key, value in embed.items() if value is not None})
    form.done()
    body = read_message_input({"content": text, "embeds": embeds}, editing=False)
    extras = store.Extras(username, icon_url, None, [])
    state, base_url = emulator_state(request), base_url_of(request)
    await _with_writer(request, lambda conn, outbox, writer: store.execute(
        state, conn, outbox, writer, store.by_token(conn, webhook_id, token), body=body, extras=extras,
        files=[], thread_id=thread_id, base_url=base_url))
    return json_response("ok")


async def execute_github(request: Request) -> Response:
    """POST /webhooks/{id}/{token}/github: GitHub's event body, by its ``X-GitHub-Event`` header. A
    ``push`` becomes a message with one embed (the branch, its commits and their authors, as the
    platform writes it); the emulator turns no other event into a message (``ping`` and the rest: 204
    and nothing written). Always 204, ``wait`` or not (the published answer)."""
    webhook_id, token = _token(request)
    thread_id = query_snowflake(request, "thread_id")
    query_bool(request, "wait")   # read so that a bad value is refused; the answer is 204 either way
    form = Form(await read_json(request))
    event = request.headers.get("x-github-event", "push" if "commits" in form.data else "")
    body = store.github_push(form) if event == "push" else None
    form.done()
    state, base_url = emulator_state(request), base_url_of(request)

    def work(conn: sqlite3.Connection, outbox: Outbox, writer: Writer) -> Any:
        webhook = store.by_token(conn, webhook_id, token)
        if body is None:
            return None
        return store.execute(state, conn, outbox, writer, webhook, body=body,
                             extras=store.Extras("GitHub", None, None, []), files=[], thread_id=thread_id,
                             base_url=base_url)

    await _with_writer(request, work)
    return Response(status_code=204)


def _message_endpoint(method: str, *, original: bool) -> Endpoint:
    """GET / PATCH / DELETE of a message the webhook wrote (``@original``: there is none for a channel
    webhook, 404 / 10008)."""
    async def endpoint(request: Request) -> Response:
        webhook_id, token = _token(request)
        message_id = 0 if original else snowflake_param(request, "message_id")
        thread_id = query_snowflake(request, "thread_id")
        data, files = (await read_payload_and_files(request)) if method == "PATCH" else (None, [])
        body = read_message_input(data, editing=True) if method == "PATCH" else None
        state, base_url = emulator_state(request), base_url_of(request)

        def work(conn: sqlite3.Connection, outbox: Outbox, writer: Writer) -> Any:
            webhook = store.by_token(conn, webhook_id, token)
            if original:
                raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
            channel, row = store.own_message(state, conn, outbox, webhook, message_id, thread_id)
            creator = messages.Author(webhook["user_id"], True, webhook["application_id"])
            if method == "GET":
                return messages.render(conn, row), []
            if method == "PATCH":
                assert body is not None
                store.check_components(webhook, body)
                return messages.edit(state, conn, outbox, writer, channel_id=channel["id"], editor=creator,
                                     message_id=message_id, body=body, files=files, base_url=base_url,
                                     webhook_id=webhook["id"])
            return None, messages.delete(state, conn, outbox, channel_id=channel["id"], caller=creator,
                                         message_id=message_id, webhook_id=webhook["id"])

        result, removed = await _with_writer(request, work)
        remove_files(state, removed)
        return Response(status_code=204) if result is None else json_response(result)
    return endpoint


def _by_token(own: Endpoint, interaction: Endpoint) -> Endpoint:
    """``own`` for a channel webhook's id and token, the interaction route (whose path parameters are
    the application id and the interaction token) for an interaction's token. The token's form tells
    them apart, so the choice costs no database lookup (this is every webhook execute's path)."""
    async def endpoint(request: Request) -> Response:
        if not str(request.path_params["webhook_token"]).startswith(INTERACTION_TOKEN_PREFIX):
            return await own(request)
        params = dict(request.path_params)
        params["application_id"] = params.pop("webhook_id")
        params["interaction_token"] = params.pop("webhook_token")
        request.scope["path_params"] = params
        return await interaction(request)
    return endpoint


# --- announcement channels -----------------------------------------------------------------------------

async def follow(request: Request) -> Response:
    """POST /channels/{channel_id}/followers ``{webhook_channel_id}``."""
    caller = _bot(request)
    source_id = snowflake_param(request, "channel_id")
    form = Form(await read_json(request))
    target_id = form.snowflake("webhook_channel_id")
    form.done()
    state = emulator_state(request)
    return json_response(await run_work(request, lambda conn, outbox: store.follow(
        state, conn, outbox, user_id=caller.user_id, source_id=source_id, target_id=target_id or 0)))


async def crosspost(request: Request) -> Response:
    caller = _bot(request)
    channel_id, message_id = snowflake_param(request, "channel_id"), snowflake_param(request, "message_id")
    state, base_url = emulator_state(request), base_url_of(request)
    return json_response(await _with_writer(request, lambda conn, outbox, writer: store.crosspost(
        state, conn, outbox, writer, caller=caller, channel_id=channel_id, message_id=message_id,
        base_url=base_url)))


def routes() -> list[BaseRoute]:
    channel = API + "/channels/{channel_id:snowflake}"
    webhook = API + "/webhooks/{webhook_id:snowflake}"
    by_token = webhook + "/{webhook_token}"
    interaction = interaction_routes.webhook_endpoints()
    result: list[BaseRoute] = [
        Route(channel + "/webhooks", create_webhook, methods=["POST"]),
        Route(channel + "/webhooks", channel_webhooks, methods=["GET"]),
        Route(API + "/guilds/{guild_id:snowflake}/webhooks", guild_webhooks, methods=["GET"]),
        Route(channel + "/followers", follow, methods=["POST"]),
        Route(channel + "/messages/{message_id:snowflake}/crosspost", crosspost, methods=["POST"]),
        Route(webhook, get_webhook, methods=["GET"]),
        Route(webhook, modify_webhook, methods=["PATCH"]),
        Route(webhook, delete_webhook, methods=["DELETE"]),
        Route(by_token + "/slack", execute_slack, methods=["POST"]),
        Route(by_token + "/github", execute_github, methods=["POST"]),
        Route(by_token, get_by_token, methods=["GET"]),
        Route(by_token, modify_by_token, methods=["PATCH"]),
        Route(by_token, delete_by_token, methods=["DELETE"]),
        Route(by_token, _by_token(execute, interaction[("POST", None)]), methods=["POST"]),
    ]
    for method in ("GET", "PATCH", "DELETE"):
        for target, original in (("@original", True), ("{message_id:snowflake}", False)):
            result.append(Route(f"{by_token}/messages/{target}", _by_token(
                _message_endpoint(method, original=original), interaction[(method, target)]), methods=[method]))
    return result
