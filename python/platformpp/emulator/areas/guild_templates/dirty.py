"""``is_dirty``: a template turns dirty when its guild changes after the snapshot. The guild, channel and
role areas announce their changes as Gateway dispatches on the bus; this subscriber hears them (after
their commit) and compares each clean template with its guild as it now is, so that a change that
leaves the snapshot as it was (a member's roles, a bot's sight of a channel) does not count."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ...events.bus import Event
from . import store

if TYPE_CHECKING:
    from ...state import EmulatorState

TRIGGERS = frozenset({"GUILD_UPDATE", "GUILD_ROLE_CREATE", "GUILD_ROLE_UPDATE", "GUILD_ROLE_DELETE",
                      "CHANNEL_CREATE", "CHANNEL_UPDATE", "CHANNEL_DELETE"})


def start(state: EmulatorState) -> Callable[[], None]:
    """Subscribe to the bus; returns the unsubscribe function."""
    def on_event(event: Event) -> None:
        # Most worlds have no clean template: a read answers that without opening a write transaction.
        if event.audience is not None and event.name in TRIGGERS \
                and state.db.query_one("SELECT 1 FROM guild_templates WHERE is_dirty = 0 LIMIT 1") is not None:
            with state.db.transaction() as conn:
                store.mark_dirty(conn)
    return state.bus.subscribe(on_event)
