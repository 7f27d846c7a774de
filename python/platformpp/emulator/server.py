"""``Emulator``: the whole emulator served by uvicorn on a loopback socket in a background thread."""

from __future__ import annotations

import logging
import socket
import ssl
import threading
import time
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

import uvicorn

from .app import create_app
from .areas.webhooks.store import DEFAULT_RETRY_DELAYS_S
from .core.admin_secret import AdminSecret
from .core.clock import parse_instant
from .core.coalesced_writes import CoalescingHttpToolsProtocol
from .core.fixtures import default_world, load_fixture_or_raise, read_fixture_file
from .core.middleware import DroppedConnection
from .core.storage import MEMORY
from .core.tls import ServerCertificate, local_certificate
from .ipc.endpoint import DesktopUserError, IpcSettings, configure, endpoint_of
from .paths import API
from .state import EmulatorState

if TYPE_CHECKING:
    from typing_extensions import Self

    from .admin_client import AdminClient

Seed = dict[str, Any] | str | Path | None


class _QuietDrops(logging.Filter):
    """A dropped connection is an injected fault, not a server error worth a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], DroppedConnection))


def resolve_seed(seed: Seed) -> dict[str, Any]:
    """None: the default world; a dict: that fixture (``{}`` is an empty world); a path: a JSON/YAML file."""
    if seed is None:
        return default_world()
    if isinstance(seed, dict):
        return seed
    return read_fixture_file(seed)


def prepare_state(db: str | Path, seed: Seed, clock: str | datetime | None,
                  retry_delays_s: tuple[float, ...] = DEFAULT_RETRY_DELAYS_S) -> EmulatorState:
    """Open (or create) the store and load the world: an explicit ``seed`` replaces whatever is stored;
    with no seed, a new store gets the default world and an existing one is kept as it is."""
    state = EmulatorState.create(db, retry_delays_s=retry_delays_s)
    if clock is not None:
        state.initial_clock = parse_instant(clock) if isinstance(clock, str) else clock
        state.clock.set(state.initial_clock)
    state.initial_seed = resolve_seed(seed)
    fresh = state.db.query_one("SELECT value FROM settings WHERE key = 'world_loaded'") is None
    if seed is not None or fresh:
        state.db.clear()
        load_fixture_or_raise(state, state.initial_seed)
    else:
        state.observe_stored_ids()
    return state


def bind_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP spelled out: asyncio's loop sets TCP_NODELAY on accepted connections only when their
    # socket says so, and without it a reply written in several pieces (a Gateway dispatch burst) waits
    # for the client's delayed ACK, 40 ms on Linux. uvloop sets it either way.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def configure_desktop(state: EmulatorState, desktop_user: str | None, ipc_path: str | None,
                      api_endpoint: str) -> None:
    """What the desktop client will be once the server starts; an unknown desktop user fails here."""
    endpoint = configure(state, IpcSettings(desktop_user, ipc_path, api_endpoint))
    if desktop_user:
        endpoint.resolve_user(desktop_user)


# Idle HTTP keep-alive connections stay open this long: clients' pools keep theirs about 15 s and
# reuse them, and uvicorn's default (5 s) closed them under such clients between two requests.
KEEP_ALIVE_S = 75


def make_server(state: EmulatorState, log_level: str = "warning") -> uvicorn.Server:
    tls = state.tls
    config = uvicorn.Config(create_app(state), log_config=None, log_level=log_level, access_log=False,
                            ssl_certfile=tls.cert_file if tls else None, ssl_keyfile=tls.key_file if tls else None,
                            # Over TLS on uvloop, a bot library's (an asyncio client's) Gateway reads sometimes
                            # fell one write behind: dispatches sent at once were seen with the next heartbeat
                            # ACK, 41 s later (benchmarks/results/voice_sdk_bot_library.md). Never on asyncio's
                            # loop, which TCP_NODELAY (bind_socket) makes as quick for these round trips.
                            loop="asyncio" if tls else "auto",
                            lifespan="on", timeout_graceful_shutdown=2, ws_max_size=1 << 20,
                            timeout_keep_alive=KEEP_ALIVE_S,
                            # The platform's Gateway compresses with zlib-stream only, never per-message.
                            ws_per_message_deflate=False,
                            # One socket write per response (headers and body together): core/coalesced_writes.py.
                            http=CoalescingHttpToolsProtocol)
    logging.getLogger("uvicorn.error").addFilter(_QuietDrops())
    return _Server(config, state)


class _Server(uvicorn.Server):
    """uvicorn's server, which tells the emulator when it starts shutting down (``emulator.stopping``):
    long-lived HTTP streams (the inspector's live feed) then end at once instead of holding the
    shutdown for its whole grace period."""

    def __init__(self, config: uvicorn.Config, state: EmulatorState) -> None:
        super().__init__(config)
        self._emulator_state = state

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self._emulator_state.bus.publish("emulator.stopping", {})
        await super().shutdown(sockets)


def _close(sock: socket.socket | None, state: EmulatorState | None) -> None:
    if sock is not None:
        sock.close()
    if state is not None:
        state.webhooks.stop()
        state.db.close()


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def base_url(host: str, port: int, tls: ServerCertificate | None) -> str:
    return f"{'https' if tls else 'http'}://{url_host(host)}:{port}"


def resolve_tls(tls: bool | ServerCertificate, host: str) -> ServerCertificate | None:
    """False: plain HTTP; True: the local authority's certificate (kept in the user data folder, made
    on first use); a ServerCertificate: that one. Its files are loaded here, so a bad one fails now."""
    if tls is False:
        return None
    certificate = local_certificate(user_data_folder() / "tls", [host]) if tls is True else tls
    certificate.server_context()
    return certificate


def user_data_folder() -> Path:
    """Where the emulator keeps what outlives a run by default: its store and its TLS authority."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("platformpp", appauthor=False))


class Emulator:
    """``with Emulator(db=":memory:") as emu:`` serves the default world on a free loopback port."""

    def __init__(self, *, db: str | Path = MEMORY, seed: Seed = None, clock: str | datetime | None = None,
                 host: str = "127.0.0.1", port: int = 0,
                 webhook_retry_delays_s: tuple[float, ...] = DEFAULT_RETRY_DELAYS_S,
                 desktop_user: str | None = None, ipc_path: str | None = None,
                 tls: bool | ServerCertificate = False) -> None:
        """``desktop_user`` (a username or id) runs the desktop client for that user: its IPC socket is
        ``<ipc_path or platformpp-ipc>-<n>`` (docs/emulator-ipc.md). ``tls`` serves HTTPS and WSS (the
        Gateway's and the voice gateway's): True with the emulator's local authority (trust ``ca_file``),
        or a ServerCertificate of one's own (docs/emulator.md, "TLS")."""
        self._db, self._seed, self._clock = db, seed, clock
        self._desktop_user, self._ipc_path = desktop_user, ipc_path
        self._host, self._port = host, port
        self._retry_delays = webhook_retry_delays_s
        self._tls_setting = tls
        self._tls: ServerCertificate | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._state: EmulatorState | None = None
        self._sock: socket.socket | None = None
        self._admin: AdminClient | None = None

    # -- lifecycle ----------------------------------------------------------------------------------
    def start(self) -> Self:
        if self._server is not None:
            raise RuntimeError("the emulator is already running")
        self._tls = resolve_tls(self._tls_setting, self._host)
        self._state = prepare_state(self._db, self._seed, self._clock, self._retry_delays)
        self._state.voice_host = self._host
        self._state.tls = self._tls
        try:
            self._state.admin_secret = AdminSecret.for_host(self._host)
        except ValueError:
            self._close_resources()
            raise
        self._sock = bind_socket(self._host, self._port)
        try:
            configure_desktop(self._state, self._desktop_user, self._ipc_path, f"{self.api_base}")
        except DesktopUserError:
            self._close_resources()
            raise
        self._server = make_server(self._state)
        server = self._server
        failure: list[BaseException] = []

        def run() -> None:
            try:
                server.run(sockets=[self._sock] if self._sock else None)
            except BaseException as exc:  # noqa: BLE001 - uvicorn sys.exit()s on startup errors; start() reports it
                failure.append(exc)

        self._thread = threading.Thread(target=run, name="platformpp-emulator", daemon=True)
        self._thread.start()
        while not server.started:
            if failure or not self._thread.is_alive():
                self._close_resources()
                raise RuntimeError(f"the emulator failed to start: {failure[0] if failure else 'exited'}")
            time.sleep(0.002)
        return self

    def stop(self, *, wait: bool = True) -> None:
        """Shut down. ``wait=False`` returns at once and finishes in the background (uvicorn's shutdown
        takes ~0.2 s of fixed sleeps; a test fixture need not wait for them)."""
        if self._server is None:
            return
        self._server.should_exit = True
        thread, sock, state = self._thread, self._sock, self._state
        self._server = self._thread = self._sock = None
        self._state = None
        self._close_admin()

        def finish() -> None:
            if thread is not None:
                thread.join(timeout=10)
            _close(sock, state)

        if wait:
            finish()
        else:
            threading.Thread(target=finish, name="platformpp-emulator-stop", daemon=True).start()

    def _close_admin(self) -> None:
        if self._admin is not None:
            self._admin.close()
            self._admin = None

    def _close_resources(self) -> None:
        self._close_admin()
        _close(self._sock, self._state)
        self._server = self._thread = self._sock = None
        self._state = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    # -- where it is and what it holds ----------------------------------------------------------------
    @property
    def port(self) -> int:
        if self._sock is None:
            raise RuntimeError("the emulator is not running")
        return int(self._sock.getsockname()[1])

    @property
    def base_url(self) -> str:
        return base_url(self._host, self.port, self._tls)

    @property
    def api_base(self) -> str:
        return self.base_url + API

    @property
    def web_base(self) -> str:
        return self.base_url

    @property
    def ca_file(self) -> Path | None:
        """The authority HTTPS and WSS clients must trust; None without TLS or with one's own certificate
        chaining to a public authority."""
        return self._tls.ca_file if self._tls else None

    def client_tls_context(self) -> ssl.SSLContext | None:
        """An ``ssl.SSLContext`` trusting this emulator (for httpx, websockets, aiohttp); None without TLS."""
        return self._tls.client_context() if self._tls else None

    @property
    def admin_secret(self) -> str | None:
        """The bearer secret ``/_emulator`` requires when listening beyond loopback; None on loopback."""
        secret = self.state.admin_secret
        return None if secret is None else secret.reveal()

    @property
    def ipc_path(self) -> Path | None:
        """The desktop client's socket while a desktop user is signed in, else None."""
        return endpoint_of(self.state).path

    @property
    def admin(self) -> AdminClient:
        """The admin API of this emulator as typed calls (admin_client.py): reset, seed, snapshots, the
        clock, faults, the request log, acting as users. Made on first use, closed when it stops."""
        if self._sock is None:
            raise RuntimeError("the emulator is not running")
        if self._admin is None:
            from .admin_client import AdminClient  # httpx: only for tests that use it, not at start-up

            self._admin = AdminClient(self.base_url, admin_secret=self.admin_secret,
                                      verify=self.client_tls_context() or True)
        return self._admin

    @property
    def state(self) -> EmulatorState:
        if self._state is None:
            raise RuntimeError("the emulator is not running")
        return self._state

    def __repr__(self) -> str:
        where = self.base_url if self._sock is not None else "stopped"
        return f"Emulator({where}, db={str(self._db)!r})"
