"""Temporary membership (an invite's ``temporary``, the platform's docs: members who joined through it
are removed when they disconnect unless they have been given a role). A member who accepted such an
invite is stored with ``temporary = 1``; any role granted afterwards clears it (guilds/mutations.py);
when the user's last live Gateway connection ends (domain event ``user.disconnected``, published by
the Gateway), every guild where they are still temporary removes them (GUILD_MEMBER_REMOVE, and no
audit entry: nobody kicked them). Roles granted by the invite itself do not count: they came with
the temporary membership."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...events.bus import Event
from ...events.outbox import Outbox
from ..guilds import mutations

if TYPE_CHECKING:
    from ...state import EmulatorState


def remove_temporary(state: EmulatorState, user_id: int) -> list[int]:
    """Remove ``user_id`` from every guild where their membership is still temporary; the guild ids."""
    outbox = Outbox(state)
    with state.db.transaction() as conn:
        now = state.clock.now()
        guild_ids = [row[0] for row in conn.execute(
            "SELECT guild_id FROM members WHERE user_id = ? AND temporary = 1 ORDER BY guild_id", (user_id,))]
        for guild_id in guild_ids:
            mutations.remove_member(conn, outbox, now, guild_id, user_id)
    return guild_ids


def start(state: EmulatorState) -> None:
    def on_event(event: Event) -> None:
        if event.name == "user.disconnected":
            remove_temporary(state, int(event.payload["user_id"]))

    state.bus.subscribe(on_event, dispatches=False)
