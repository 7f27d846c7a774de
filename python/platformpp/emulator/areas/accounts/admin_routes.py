"""Account administration (admin API): bans of full accounts (tokens end at once, linked external
identities move to new restricted provisional accounts, merges answer 530017 while the ban is
active), a user removing an application, and an account's full view."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import errors
from ...core.clock import format_instant, parse_instant
from ...core.errors import ApiError, json_response, not_found
from ...core.routing import Route
from ...core.validation import read_form
from ...events.outbox import Outbox
from ...paths import ADMIN
from ...wire.user import public_user_json
from ..oauth.store import revoke_all_of_user, revoke_user_grants
from .provisional import create_provisional
from .store import active_ban

if TYPE_CHECKING:
    from ...state import EmulatorState


def _state(request: Request) -> EmulatorState:
    state: EmulatorState = request.app.state.emu
    return state


def _full_user(state: EmulatorState, request: Request) -> sqlite3.Row:
    row = state.db.query_one("SELECT * FROM users WHERE id = ?", (int(request.path_params["user_id"]),))
    if row is None:
        raise not_found(errors.UNKNOWN_USER, "User")
    return row


async def ban_user(request: Request) -> Response:
    """``{"reason"?, "until"?: ISO-8601, "permanent"?: bool}`` (one of until/permanent). Tokens go at
    once; each linked external identity moves to a new restricted provisional account."""
    state = _state(request)
    user = _full_user(state, request)
    form = await read_form(request)
    reason = form.string("reason", required=False, default="", max_len=512)
    permanent = form.boolean("permanent")
    until_text = form.string("until", required=False)
    until = None
    if until_text is not None:
        try:
            until = format_instant(parse_instant(until_text))
        except ValueError as exc:
            form.fail("until", "DATE_TYPE_CONVERT", str(exc))
    if permanent == (until_text is not None):
        form.fail("until", "BAN_DURATION", "Give exactly one of until (a temporary ban) or permanent: true.")
    if user["bot"] or user["provisional"]:
        form.fail("user_id", "BAN_TARGET", "Only full (non-bot, non-provisional) accounts can be banned.")
    form.done()
    with state.db.transaction() as conn:
        conn.execute("INSERT OR REPLACE INTO bans (user_id, reason, created_at, until, permanent) VALUES (?, ?, ?, ?, ?)",
                     (user["id"], reason, state.clock.iso(), until, int(permanent)))
        revoke_all_of_user(state, conn, user["id"])
        conn.execute("DELETE FROM oauth_codes WHERE user_id = ?", (user["id"],))   # no tokens from old consents
        created: list[str] = []
        for identity in conn.execute("SELECT * FROM external_identities WHERE user_id = ?", (user["id"],)).fetchall():
            provisional_id = create_provisional(state, conn, identity["application_id"], user["global_name"],
                                                 restricted_by=user["id"])
            conn.execute("UPDATE external_identities SET user_id = ? WHERE application_id = ? AND auth_type = ?"
                         " AND external_user_id = ?", (provisional_id, identity["application_id"],
                                                       identity["auth_type"], identity["external_user_id"]))
            created.append(str(provisional_id))
        Outbox(state).publish("user.banned", {"user_id": str(user["id"])}, user_ids=(user["id"],))
    return json_response({"user_id": str(user["id"]), "until": until, "permanent": permanent,
                          "provisional_accounts": created})


async def lift_ban(request: Request) -> Response:
    state = _state(request)
    user = _full_user(state, request)
    ban = state.db.query_one("SELECT * FROM bans WHERE user_id = ?", (user["id"],))
    if ban is None:
        raise ApiError(404, errors.GENERAL, "The user is not banned.")
    if ban["permanent"]:
        raise ApiError(400, errors.GENERAL, "A permanent ban cannot be lifted.")
    with state.db.transaction() as conn:
        conn.execute("DELETE FROM bans WHERE user_id = ?", (user["id"],))
        Outbox(state).publish("user.unbanned", {"user_id": str(user["id"])}, user_ids=(user["id"],))
    return Response(status_code=204)


async def remove_application(request: Request) -> Response:
    """The user removes the app from their authorized apps: its grants end, APPLICATION_DEAUTHORIZED."""
    state = _state(request)
    user = _full_user(state, request)
    with state.db.transaction() as conn:
        count = revoke_user_grants(state, conn, int(request.path_params["application_id"]), user["id"])
    if not count:
        raise ApiError(404, errors.GENERAL, "The user has not authorized this application.")
    return Response(status_code=204)


async def get_account(request: Request) -> Response:
    """Admin view of an account: provisional state, linked identities, ban, merge target."""
    state = _state(request)
    user = _full_user(state, request)
    ban = active_ban(state, user["id"])
    identities = state.db.query("SELECT application_id, auth_type, external_user_id FROM external_identities"
                                " WHERE user_id = ? ORDER BY application_id, auth_type", (user["id"],))
    grants = state.db.query("SELECT application_id, scopes, grant_kind FROM authorizations WHERE user_id = ?"
                            " ORDER BY id", (user["id"],))
    return json_response({
        **public_user_json(user),
        "provisional": bool(user["provisional"]),
        "restricted": user["restricted_by_ban_of"] is not None,
        "merged_into": None if user["merged_into"] is None else str(user["merged_into"]),
        "ban": None if ban is None else {"until": ban["until"], "permanent": bool(ban["permanent"]),
                                         "reason": ban["reason"]},
        "external_identities": [{"application_id": str(r["application_id"]), "type": r["auth_type"],
                                 "id": r["external_user_id"]} for r in identities],
        "authorizations": [{"application_id": str(r["application_id"]), "scopes": json.loads(r["scopes"]),
                            "grant": r["grant_kind"]} for r in grants],
    })


def routes() -> list[BaseRoute]:
    return [
        Route(f"{ADMIN}/users/{{user_id:snowflake}}/ban", ban_user, methods=["POST"]),
        Route(f"{ADMIN}/users/{{user_id:snowflake}}/ban", lift_ban, methods=["DELETE"]),
        Route(f"{ADMIN}/users/{{user_id:snowflake}}", get_account, methods=["GET"]),
        Route(f"{ADMIN}/users/{{user_id:snowflake}}/applications/{{application_id:snowflake}}", remove_application,
              methods=["DELETE"]),
    ]
