"""The desktop client's life within the emulator's: signed in when the emulator starts (when a desktop
user is configured), closed when it stops."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..areas.presence.store import stored_desktop_user
from .endpoint import endpoint_of

if TYPE_CHECKING:
    from ..state import EmulatorState


async def start_desktop_client(state: EmulatorState) -> None:
    """Sign the configured desktop user in (``--desktop-user``, else the fixture's ``desktop_user``; none:
    no desktop client): the socket exists from the first request on."""
    endpoint = endpoint_of(state)
    who = endpoint.settings.desktop_user or stored_desktop_user(state.db)
    if who:
        await endpoint.sign_in(who)


async def stop_desktop_client(state: EmulatorState) -> None:
    await endpoint_of(state).close()
