"""The desktop client of one signed-in "desktop user": its IPC socket, the games connected to it, the
user's voice settings, and what the admin API makes the user do (consent or refuse, start an
authorization from the client, ask to join a game's activity).

It lives on the emulator's event loop (started from the app's lifespan). With no desktop user there is
no socket, as when the desktop client is not running."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..areas.presence import store as presence
from ..events.bus import Event
from .commands import guild_status
from .connection import Connection
from .paths import free_socket_path
from .protocol import CloseCode
from .voice_settings import VoiceSettings

if TYPE_CHECKING:
    from ..state import EmulatorState

log = logging.getLogger("platformpp.emulator.ipc")
EXTRAS_KEY = "ipc"


def private_unix_socket(path: Path) -> socket.socket:
    """A stream socket bound at ``path`` that only this user may connect to: bound under a umask that
    creates the file as 0600, so there is no moment when it is open to others (a chmod after the
    bind leaves one)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    previous = os.umask(0o177)
    try:
        sock.bind(str(path))
    except BaseException:
        sock.close()
        raise
    finally:
        os.umask(previous)
    return sock


class DesktopUserError(ValueError):
    """The desktop user named does not exist or cannot sign in (bot, provisional, merged)."""


@dataclass
class IpcSettings:
    """How the emulator was asked to run the desktop client (CLI, ``Emulator(...)``, fixture)."""
    desktop_user: str | None = None
    ipc_path: str | None = None       # a socket name prefix, optionally with a folder
    api_endpoint: str = ""            # the HTTP API the READY config points the game to


class DesktopEndpoint:
    def __init__(self, state: EmulatorState, settings: IpcSettings) -> None:
        self.state = state
        self.settings = settings
        self.user_id = 0
        self.username: str | None = None
        self.voice_settings = VoiceSettings()
        self.deny_consent = False
        self.join_requests: set[tuple[int, int]] = set()      # (application id, requesting user id)
        self.path: Path | None = None
        self._server: asyncio.AbstractServer | None = None
        self._connections: set[Connection] = set()
        self._guild_status: dict[int, Any] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unsubscribe = state.bus.subscribe(self._on_bus_event)

    # -- lifecycle ------------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._server is not None

    def resolve_user(self, who: str) -> tuple[int, str]:
        row = self.state.db.query_one(
            "SELECT id, username FROM users WHERE (username = ? OR CAST(id AS TEXT) = ?) AND bot = 0"
            " AND provisional = 0 AND merged_into IS NULL", (who, who))
        if row is None:
            raise DesktopUserError(f"desktop user {who!r}: no such signed-up, non-bot user")
        return int(row["id"]), str(row["username"])

    async def sign_in(self, who: str) -> None:
        """Run the desktop client for ``who`` (a username or user id); replaces a running one."""
        user_id, username = self.resolve_user(who)
        await self.sign_out()
        self._loop = asyncio.get_running_loop()
        path = free_socket_path(self.settings.ipc_path)
        self._server = await asyncio.start_unix_server(self._accept, sock=private_unix_socket(path))
        self.path, self.user_id, self.username = path, user_id, username
        self.voice_settings = VoiceSettings()
        self.deny_consent = False
        self.join_requests.clear()
        self.settings.desktop_user = username
        await asyncio.to_thread(presence.desktop_client_started, self.state, user_id)

    async def sign_out(self) -> None:
        """Quit the desktop client: every game's connection closes, the socket file goes away."""
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
        for connection in list(self._connections):
            connection.close_now(CloseCode.NORMAL, "the desktop client quit")
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.wait_closed(), 2)
        if self.path is not None:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
        user_id = self.user_id
        self.path, self.user_id, self.username = None, 0, None
        await asyncio.to_thread(presence.desktop_client_stopped, self.state, user_id)
        self.settings.desktop_user = None

    async def close(self) -> None:
        await self.sign_out()
        self._unsubscribe()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await Connection(self, reader, writer).serve()

    # -- connections ----------------------------------------------------------------------------------
    def register(self, connection: Connection) -> None:
        self._connections.add(connection)

    def unregister(self, connection: Connection) -> None:
        self._connections.discard(connection)

    def connections(self, application_id: int | None = None) -> list[Connection]:
        return [c for c in self._connections if application_id is None or c.client_id == application_id]

    def ready_config(self) -> dict[str, Any]:
        return {"api_endpoint": self.settings.api_endpoint, "cdn_host": "", "environment": "emulator"}

    # -- what the desktop user does ---------------------------------------------------------------------
    def change_voice_settings(self, settings: VoiceSettings) -> None:
        if settings == self.voice_settings:
            return
        self.voice_settings = settings
        for connection in self.connections():
            if connection.subscribed("VOICE_SETTINGS_UPDATE"):
                connection.send_event("VOICE_SETTINGS_UPDATE", settings.rpc())

    def request_authorization(self, application_id: int) -> int:
        """The user started an authorization of the game from the client: AUTHORIZE_REQUEST to the game's
        connections that subscribed. Returns how many were told."""
        told = [c for c in self.connections(application_id) if c.subscribed("AUTHORIZE_REQUEST")]
        for connection in told:
            connection.send_event("AUTHORIZE_REQUEST", {"application_id": str(application_id)})
        return len(told)

    def request_to_join(self, application_id: int, user: dict[str, Any]) -> int:
        """A friend (``user``) asks to join the desktop user's activity in the game."""
        self.join_requests.add((application_id, int(user["id"])))
        told = [c for c in self.connections(application_id) if c.subscribed("ACTIVITY_JOIN_REQUEST")]
        for connection in told:
            connection.send_event("ACTIVITY_JOIN_REQUEST", {"user": user})
        return len(told)

    def join(self, application_id: int, secret: str, spectate: bool = False) -> int:
        """The user accepted an invite (or clicked Join) in the client: the game gets the secret."""
        evt = "ACTIVITY_SPECTATE" if spectate else "ACTIVITY_JOIN"
        told = [c for c in self.connections(application_id) if c.subscribed(evt)]
        for connection in told:
            connection.send_event(evt, {"secret": secret})
        return len(told)

    # -- guild status -----------------------------------------------------------------------------------
    def remember_guild_status(self, guild_id: int, status: Any) -> None:
        self._guild_status[guild_id] = status

    def _on_bus_event(self, event: Event) -> None:
        """A presence changed somewhere: subscribers of GUILD_STATUS hear of new online counts."""
        if event.name != "PRESENCE_UPDATE" or self._loop is None or not self.running:
            return
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(self._refresh_guild_status)

    def _refresh_guild_status(self) -> None:
        watched = {g for c in self._connections for (evt, g) in c.subscriptions if evt == "GUILD_STATUS" and g is not None}
        for guild_id in watched:
            listener = next(c for c in self._connections if ("GUILD_STATUS", guild_id) in c.subscriptions)
            status = guild_status(listener, guild_id)
            if status == self._guild_status.get(guild_id):
                continue
            self._guild_status[guild_id] = status
            for connection in self._connections:
                if connection.subscribed("GUILD_STATUS", guild_id):
                    connection.send_event("GUILD_STATUS", status)


def endpoint_of(state: EmulatorState) -> DesktopEndpoint:
    endpoint = state.extras.get(EXTRAS_KEY)
    if not isinstance(endpoint, DesktopEndpoint):
        endpoint = DesktopEndpoint(state, IpcSettings())
        state.extras[EXTRAS_KEY] = endpoint
    return endpoint


def configure(state: EmulatorState, settings: IpcSettings) -> DesktopEndpoint:
    """Before the server starts: what the desktop client should be (the lifespan signs the user in)."""
    endpoint = endpoint_of(state)
    endpoint.settings = settings
    return endpoint
