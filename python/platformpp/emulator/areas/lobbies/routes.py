"""HTTP routes of lobbies (docs/wire.md "Social SDK server API"): create-or-join for SDK users, bot
administration, members (one, bulk, leaving) and the linked channel. The rules live in lobbies.py;
each route validates its whole body first, then runs one transaction through a ``LobbyWriter``
whose dispatches are published after the commit."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth, errors
from ...core.auth import Principal
from ...core.errors import ApiError, json_response
from ...core.http import emulator_state, off_loop, snowflake_param
from ...core.routing import Route
from ...core.secrets import digest
from ...core.validation import Form, read_json
from ...events.audience import Payload
from ...paths import API
from ..guilds.access import standing
from ..messages.store import LobbyThread, post_disclosure
from .linking import LINKABLE_TYPES, link_refusal
from .store import (
    CAN_LINK_LOBBY,
    SOCIAL_SCOPE,
    LobbyWriter,
    expire_idle_lobbies,
    get_lobby,
    get_member,
    idle_timeout_field,
    lobby_object,
    member_fields,
    member_ids,
    member_now,
    members_list,
    metadata_field,
    require_member,
)

T = TypeVar("T")
MESSAGE_DATA_VISIBLE_ON_PLATFORM = 3  # the SDK's DisclosureTypes


async def _in_transaction(request: Request, application_id: int, work: Callable[[LobbyWriter], T]) -> T:
    """Expire idle lobbies, run ``work`` in one transaction off the event loop, recompute idleness,
    and publish the dispatches once committed."""
    state = emulator_state(request)

    def call() -> T:
        expire_idle_lobbies(state)
        with state.db.transaction() as conn:
            writer = LobbyWriter(state, conn, application_id)
            result = work(writer)
            writer.refresh_idle(state.connected_users(application_id))
            return result

    return await off_loop(call)


def member_target(request: Request) -> tuple[Principal, int]:
    """``{user_id}`` of a member path: ``@me`` for an SDK user (Bearer), an id for the bot."""
    if request.path_params["user_id"] == "@me":
        principal = auth.require(request, kinds=("bearer",), scopes=(SOCIAL_SCOPE,))
        return principal, principal.user_id
    return auth.require(request, kinds=("bot",)), snowflake_param(request, "user_id")


async def put_lobby(request: Request) -> Response:
    """PUT /lobbies (Bearer, sdk.social_layer): create the application's lobby for ``secret`` or join it."""
    principal = auth.require(request, kinds=("bearer",), scopes=(SOCIAL_SCOPE,))
    form = Form(await read_json(request))
    secret = form.string("secret", min_len=1, max_len=250)
    lobby_metadata = metadata_field(form, "lobby_metadata")
    member_metadata = metadata_field(form, "member_metadata")
    idle_timeout = idle_timeout_field(form)
    form.done()

    def work(writer: LobbyWriter) -> Payload:
        # Only a digest of the join secret is stored, so snapshots and the database do not reveal it.
        secret_digest = digest(secret or "")
        row = writer.conn.execute("SELECT id FROM lobbies WHERE application_id = ? AND secret = ?",
                                  (principal.application_id, secret_digest)).fetchone()
        # An existing lobby keeps its metadata and idle timeout; the joiner's member metadata applies.
        lobby_id = row["id"] if row else writer.create(lobby_metadata, idle_timeout, secret_digest)
        fields = {"metadata": member_metadata} if "member_metadata" in form.data else {}
        writer.upsert_member(lobby_id, principal.user_id, fields)
        return lobby_object(writer.conn, get_lobby(writer.conn, lobby_id, principal.application_id))

    return json_response(await _in_transaction(request, principal.application_id, work))


async def post_lobby(request: Request) -> Response:
    """POST /lobbies (Bot): create a lobby with optional metadata and up to 25 members."""
    principal = auth.require(request, kinds=("bot",))
    form = Form(await read_json(request))
    metadata = metadata_field(form, "metadata")
    members = members_list(form, "members", required=False)
    idle_timeout = idle_timeout_field(form)
    form.done()

    def work(writer: LobbyWriter) -> Payload:
        writer.require_users([m["id"] for m in members], form.errors, ("members",))
        form.done()
        lobby_id = writer.create(metadata, idle_timeout, None)
        for member in members:
            writer.upsert_member(lobby_id, member["id"], member)
        return lobby_object(writer.conn, get_lobby(writer.conn, lobby_id, principal.application_id))

    return json_response(await _in_transaction(request, principal.application_id, work), 201)


async def get_lobby_route(request: Request) -> Response:
    """GET /lobbies/{lobby_id} (Bot of the lobby's application, or a member with a Bearer token)."""
    principal = auth.require(request, scopes=(SOCIAL_SCOPE,))
    lobby_id = snowflake_param(request, "lobby_id")

    def work(writer: LobbyWriter) -> Payload:
        lobby = get_lobby(writer.conn, lobby_id, principal.application_id)
        require_member(writer.conn, lobby, principal)
        return lobby_object(writer.conn, lobby)

    return json_response(await _in_transaction(request, principal.application_id, work))


async def patch_lobby(request: Request) -> Response:
    """PATCH /lobbies/{lobby_id} (Bot): metadata, idle timeout, and ``members`` replacing the member list."""
    principal = auth.require(request, kinds=("bot",))
    lobby_id = snowflake_param(request, "lobby_id")
    form = Form(await read_json(request))
    metadata = metadata_field(form, "metadata")
    members = members_list(form, "members", required=False) if "members" in form.data else None
    idle_timeout = idle_timeout_field(form)
    form.done()

    def work(writer: LobbyWriter) -> Payload:
        conn = writer.conn
        get_lobby(conn, lobby_id, principal.application_id)
        if members is not None:
            writer.require_users([m["id"] for m in members], form.errors, ("members",))
            form.done()
        if "metadata" in form.data:
            writer.set_metadata(lobby_id, metadata)
        if idle_timeout is not None:
            conn.execute("UPDATE lobbies SET idle_timeout_seconds = ? WHERE id = ?", (idle_timeout, lobby_id))
        if members is not None:
            wanted = {m["id"] for m in members}
            for user_id in member_ids(conn, lobby_id):
                if user_id not in wanted:
                    writer.remove_member(lobby_id, user_id)
            for member in members:
                writer.upsert_member(lobby_id, member["id"], member)
        writer.announce_update(lobby_id)
        return lobby_object(conn, get_lobby(conn, lobby_id, principal.application_id))

    return json_response(await _in_transaction(request, principal.application_id, work))


async def delete_lobby(request: Request) -> Response:
    """DELETE /lobbies/{lobby_id} (Bot): members hear LOBBY_DELETE."""
    principal = auth.require(request, kinds=("bot",))
    lobby_id = snowflake_param(request, "lobby_id")

    def work(writer: LobbyWriter) -> None:
        get_lobby(writer.conn, lobby_id, principal.application_id)
        writer.delete(lobby_id, "deleted")

    await _in_transaction(request, principal.application_id, work)
    return Response(status_code=204)


async def put_member(request: Request) -> Response:
    """PUT /lobbies/{lobby_id}/members/{user_id} (Bot): add or update one member."""
    principal = auth.require(request, kinds=("bot",))
    lobby_id = snowflake_param(request, "lobby_id")
    user_id = snowflake_param(request, "user_id")
    form = Form(await read_json(request, allow_empty=True))
    fields = member_fields(form, with_id=False)
    form.done()

    def work(writer: LobbyWriter) -> Payload:
        get_lobby(writer.conn, lobby_id, principal.application_id)
        if writer.conn.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is None:
            raise errors.not_found(errors.UNKNOWN_USER, "User")
        writer.upsert_member(lobby_id, user_id, fields)
        return member_now(writer.conn, lobby_id, user_id)

    return json_response(await _in_transaction(request, principal.application_id, work))


async def delete_member(request: Request) -> Response:
    """DELETE /lobbies/{lobby_id}/members/{user_id} (Bot) or /members/@me (Bearer member): leave."""
    principal, user_id = member_target(request)
    return await remove_member(request, principal, user_id)


async def remove_member(request: Request, principal: Principal, user_id: int, *, missing_ok: bool = False) -> Response:
    """Removes ``user_id`` from the lobby of the path, for ``principal``'s application → 204; a user who
    is not a member is 404 unless ``missing_ok`` (leaving is safe to repeat)."""
    lobby_id = snowflake_param(request, "lobby_id")

    def work(writer: LobbyWriter) -> None:
        get_lobby(writer.conn, lobby_id, principal.application_id)
        if not writer.remove_member(lobby_id, user_id) and not missing_ok:
            raise errors.not_found(errors.UNKNOWN_MEMBER, "Member")

    await _in_transaction(request, principal.application_id, work)
    return Response(status_code=204)


async def bulk_members(request: Request) -> Response:
    """POST /lobbies/{lobby_id}/members/bulk (Bot): 1–25 adds, updates or removals, all or nothing.

    The body is the platform's top-level array; ``{"members": [...]}`` is accepted too. Errors are
    reported under ``members`` in both forms."""
    principal = auth.require(request, kinds=("bot",))
    lobby_id = snowflake_param(request, "lobby_id")
    data = await read_json(request)
    form = Form(data if isinstance(data, dict) else {"members": data})
    members = members_list(form, "members", required=True)
    form.done()

    def work(writer: LobbyWriter) -> list[Payload]:
        get_lobby(writer.conn, lobby_id, principal.application_id)
        writer.require_users([m["id"] for m in members], form.errors, ("members",))
        form.done()
        result = []
        for member in members:
            if member["remove_member"]:
                writer.remove_member(lobby_id, member["id"])
            else:
                writer.upsert_member(lobby_id, member["id"], member)
                result.append(member_now(writer.conn, lobby_id, member["id"]))
        return result

    return json_response(await _in_transaction(request, principal.application_id, work))


async def link_channel(request: Request) -> Response:
    """PATCH /lobbies/{lobby_id}/channel-linking: link (``channel_id``) or unlink (null) a guild text
    channel. Bot of the application (any text or announcement channel), or a member whose flags
    include CanLinkLobby and who may link the channel (linking.py). Members hear LOBBY_UPDATE."""
    principal = auth.require(request, scopes=(SOCIAL_SCOPE,))
    lobby_id = snowflake_param(request, "lobby_id")
    form = Form(await read_json(request))
    channel_id = form.snowflake("channel_id", nullable=True)
    form.done()
    now = emulator_state(request).clock.now()

    def work(writer: LobbyWriter) -> Payload:
        conn = writer.conn
        lobby = get_lobby(conn, lobby_id, principal.application_id)
        require_member(conn, lobby, principal)
        if principal.kind == "bearer":
            member = get_member(conn, lobby_id, principal.user_id)
            if member is None or not member["flags"] & CAN_LINK_LOBBY:
                raise ApiError(403, errors.MISSING_PERMISSIONS, "Missing Permissions: CanLinkLobby is not set.")
        if channel_id is not None:
            channel = conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()
            if channel is None or channel["guild_id"] is None:
                raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
            if principal.kind == "bearer":
                who = standing(conn, channel["guild_id"], principal.user_id, now)
                if who is None:
                    raise ApiError(403, errors.MISSING_ACCESS, "Missing Access: you cannot view this channel.")
                refusal = link_refusal(conn, who, channel, lobby_id)
                if refusal is not None:
                    raise refusal
            elif channel["type"] not in LINKABLE_TYPES:
                raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
        conn.execute("UPDATE lobbies SET linked_channel_id = ? WHERE id = ?", (channel_id, lobby_id))
        writer.announce_update(lobby_id)
        if channel_id is not None and channel_id != lobby["linked_channel_id"]:
            # The platform tells the members that their messages are now visible on it.
            name = conn.execute("SELECT name FROM channels WHERE id = ?", (channel_id,)).fetchone()["name"]
            post_disclosure(conn, LobbyThread(principal.application_id, lobby_id), writer.outbox,
                            message_id=writer.state.ids.next(), author_id=principal.user_id,
                            disclosure_type=MESSAGE_DATA_VISIBLE_ON_PLATFORM,
                            content=f"This lobby is linked to #{name}: its messages are visible on the platform.",
                            now=writer.now)
        return lobby_object(conn, get_lobby(conn, lobby_id, principal.application_id))

    return json_response(await _in_transaction(request, principal.application_id, work))


def routes() -> list[BaseRoute]:
    return [
        Route(API + "/lobbies", put_lobby, methods=["PUT"]),
        Route(API + "/lobbies", post_lobby, methods=["POST"]),
        Route(API + "/lobbies/{lobby_id}", get_lobby_route, methods=["GET"]),
        Route(API + "/lobbies/{lobby_id}", patch_lobby, methods=["PATCH"]),
        Route(API + "/lobbies/{lobby_id}", delete_lobby, methods=["DELETE"]),
        Route(API + "/lobbies/{lobby_id}/channel-linking", link_channel, methods=["PATCH"]),
        Route(API + "/lobbies/{lobby_id}/members/bulk", bulk_members, methods=["POST"]),
        Route(API + "/lobbies/{lobby_id}/members/{user_id}", put_member, methods=["PUT"]),
        Route(API + "/lobbies/{lobby_id}/members/{user_id}", delete_member, methods=["DELETE"]),
    ]

