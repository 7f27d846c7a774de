"""A provisional account's display name, set by the game (the SDK's UpdateProvisionalAccountDisplayName).

``PATCH {api}/partner-sdk/provisional-accounts/@me`` ``{"display_name": "..."}`` with the provisional
account's own bearer token. The published schema has no operation for it (the platform's SDK call is
not in the HTTP API's published surface), so the emulator gives it this path next to the other
partner-sdk operations. A full account's name belongs to its owner: the call is refused for it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import Response

from ...core import auth
from ...core.errors import json_response
from ...core.validation import read_form
from ...wire.user import public_user_json

if TYPE_CHECKING:
    from ...state import EmulatorState

DISPLAY_NAME_MAX = 32


async def update_display_name(request: Request) -> Response:
    principal = auth.require(request, kinds=("bearer",))
    state: EmulatorState = request.app.state.emu
    form = await read_form(request)
    name = form.string("display_name", min_len=1, max_len=DISPLAY_NAME_MAX)
    form.done()
    assert name is not None
    if not name.strip():
        form.fail("display_name", "BASE_TYPE_BAD_LENGTH", "Must hold a visible character.")
        form.done()
    user = state.db.query_one("SELECT * FROM users WHERE id = ?", (principal.user_id,))
    if user is None or not user["provisional"]:
        form.fail("display_name", "NOT_PROVISIONAL",
                  "Only a provisional account's display name can be set by the game.")
        form.done()
    state.db.execute("UPDATE users SET global_name = ? WHERE id = ?", (name.strip(), principal.user_id))
    updated = state.db.query_one("SELECT * FROM users WHERE id = ?", (principal.user_id,))
    return json_response(public_user_json(updated))
