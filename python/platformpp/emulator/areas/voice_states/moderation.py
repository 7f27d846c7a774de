"""Server mute and deafen (PATCH /guilds/{guild_id}/members/{user_id} ``mute`` / ``deaf``): the
members route checks MUTE_MEMBERS / DEAFEN_MEMBERS, stores the member's flags and writes the
MEMBER_UPDATE audit entry; this module refuses the change when the member is not connected to voice
(as the platform does, 400 / 40032), puts the flags on the member's voice state (VOICE_STATE_UPDATE)
and has the voice service follow after the commit: a server-muted user's audio is no longer
forwarded (the others get five silence frames), a server-deafened user receives nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...core.errors import ApiError
from ...events.outbox import Outbox
from . import calls, store

if TYPE_CHECKING:
    from ...state import EmulatorState

TARGET_NOT_CONNECTED_TO_VOICE = 40032


def apply_member_voice_flags(conn: sqlite3.Connection, outbox: Outbox, state: EmulatorState, guild_id: int,
                             user_id: int, changes: Mapping[str, Any]) -> None:
    """Call in the member update's transaction, after the member row changed. ``changes``: the member
    columns being written; only ``mute`` and ``deaf`` concern voice. Raises (rolling the update back)
    when either is present and the member has no voice state in the guild."""
    flags = {name: int(bool(changes[name])) for name in ("mute", "deaf") if name in changes}
    if not flags:
        return
    row = store.get_voice_state(conn, guild_id, user_id)
    if row is None:
        raise ApiError(400, TARGET_NOT_CONNECTED_TO_VOICE, "Target user is not connected to voice")
    if all(row[name] == value for name, value in flags.items()):
        return
    row = store.set_stage_fields(conn, outbox, state, row, flags)
    place = store.Place(row["server_id"], row["channel_id"])
    relay = store.relay_flags(conn, state, row)
    state.db.on_commit(lambda: calls.refresh(state, place, user_id, relay))
