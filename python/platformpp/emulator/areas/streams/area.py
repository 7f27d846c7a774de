"""What the streams area adds to the emulator (its schema, the admin routes, the end of a stream when
its streamer's voice state ends); the Gateway opcodes live in gateway/streams.py."""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING

from starlette.routing import BaseRoute

from ...core.area import Area

if TYPE_CHECKING:
    from ...events.bus import Event
    from ...state import EmulatorState


def _routes() -> list[BaseRoute]:
    from . import admin_routes
    return admin_routes.routes()


def _startup(state: EmulatorState) -> None:
    """Streams do not outlive a start; a stream ends when its streamer leaves or moves out of the
    channel, or the Gateway session ends (the voice states area publishes each end of a voice state)."""
    from . import calls, store
    store.clear_all(state)

    def on_event(event: Event) -> None:
        if event.name != "voice_state.ended":
            return
        effects = store.end_where(state, "user_id = ? AND channel_id = ?",
                                  (int(event.payload["user_id"]), int(event.payload["channel_id"])),
                                  store.STREAM_ENDED)
        if effects.disconnect:
            calls.follow(state, effects)
    state.bus.subscribe(on_event, dispatches=False)


# No fixture section: a stream lives only as long as the Gateway session and voice state behind it.
AREA = Area("streams", routes=_routes, schema=resources.files(__package__) / "schema", startup=_startup)
