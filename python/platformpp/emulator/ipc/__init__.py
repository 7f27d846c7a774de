"""The platform's desktop client, as far as games see it: RPC over IPC on a local Unix socket for one
signed-in desktop user (docs/emulator-ipc.md).

``codec`` frames, ``protocol`` the numbers and names, ``connection`` one game's session, ``commands``
what each command does, ``endpoint`` the desktop client (socket, connections, voice settings),
``admin_routes`` its control panel. The app starts it from its lifespan (``start``/``stop``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..areas.presence.store import stored_desktop_user
from .admin_routes import routes
from .endpoint import DesktopEndpoint, DesktopUserError, IpcSettings, configure, endpoint_of

if TYPE_CHECKING:
    from ..state import EmulatorState

__all__ = ["DesktopEndpoint", "DesktopUserError", "IpcSettings", "configure", "endpoint_of", "routes", "start",
           "stop"]


async def start(state: EmulatorState) -> None:
    """Sign the configured desktop user in (``--desktop-user``, else the fixture's ``desktop_user``; none:
    no desktop client): the socket exists from the first request on."""
    endpoint = endpoint_of(state)
    who = endpoint.settings.desktop_user or stored_desktop_user(state.db)
    if who:
        await endpoint.sign_in(who)


async def stop(state: EmulatorState) -> None:
    await endpoint_of(state).close()
