"""``platformpp emulator``: serve the emulator in the foreground until interrupted."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from .core.migrations import MigrationError
from .core.storage import MEMORY
from .paths import API


def default_db_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("platformpp", appauthor=False)) / "emulator.sqlite3"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="platformpp emulator",
                                     description="Run the local platform emulator (HTTP API, Gateway, OAuth2).")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default: loopback only); beyond loopback the admin API needs"
                             " a bearer secret (PLATFORMPP_EMULATOR_ADMIN_TOKEN, or generated and printed)")
    parser.add_argument("--port", type=int, default=0, help="port to bind; 0 picks a free one (default)")
    parser.add_argument("--db", default=None, metavar="PATH|:memory:",
                        help="SQLite file to keep the world in (default: emulator.sqlite3 in the user data"
                             " directory)")
    parser.add_argument("--seed", type=Path, default=None, metavar="FILE",
                        help="JSON or YAML fixture that replaces the stored world (default: keep the stored"
                             " world, or load the default world into a new store)")
    parser.add_argument("--clock", default=None, metavar="ISO",
                        help="start the emulator clock at this ISO-8601 instant (default: real time)")
    parser.add_argument("--desktop-user", default=None, metavar="NAME",
                        help="run the desktop client signed in as this user (username or id): games find its"
                             " IPC socket (default: no desktop client)")
    parser.add_argument("--ipc-path", default=None, metavar="PREFIX",
                        help="name prefix of the IPC socket, optionally with a folder (default:"
                             " platformpp-ipc in $XDG_RUNTIME_DIR, $TMPDIR, $TMP, $TEMP or /tmp)")
    parser.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"])
    return parser


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    try:
        from .core.admin_secret import AdminSecret
        from .core.fixtures import FixtureError
        from .ipc import DesktopUserError
        from .server import bind_socket, configure_desktop, make_server, prepare_state, url_host
        db = args.db if args.db is not None else str(default_db_path())
    except ModuleNotFoundError as exc:
        print(f"platformpp emulator: {exc.name} is missing; install the emulator extra:"
              " pip install 'platformpp[emulator]'", file=sys.stderr)
        return 2
    try:
        secret = AdminSecret.for_host(args.host)
        state = prepare_state(db if db == MEMORY else Path(db), args.seed, args.clock)
        state.admin_secret = secret
        state.voice_host = args.host
    except (FixtureError, MigrationError, ValueError, OSError) as exc:
        print(f"platformpp emulator: {exc}", file=sys.stderr)
        return 2
    try:
        sock = bind_socket(args.host, args.port)
    except OSError as exc:
        print(f"platformpp emulator: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        state.db.close()
        return 2
    port = sock.getsockname()[1]
    try:
        configure_desktop(state, args.desktop_user, args.ipc_path, f"http://{url_host(args.host)}:{port}{API}")
    except DesktopUserError as exc:
        print(f"platformpp emulator: {exc}", file=sys.stderr)
        sock.close()
        state.db.close()
        return 2
    server = make_server(state, args.log_level)
    # A SIGTERM may come as soon as the line below is read, before uvicorn installs its own handlers:
    # it must still stop the server. uvicorn also re-raises the signal that stopped it once it has
    # shut down, which this handler then makes harmless. Ctrl-C's KeyboardInterrupt is absorbed below.
    signal.signal(signal.SIGTERM, lambda signum, frame: setattr(server, "should_exit", True))
    print(f"platformpp emulator listening on http://{url_host(args.host)}:{port}", flush=True)
    if secret is not None and secret.generated:
        # Printed once, here only: the admin API needs it because the emulator is reachable from elsewhere.
        print(f"platformpp emulator admin API secret (Authorization: Bearer ...): {secret.reveal()}", flush=True)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        state.db.close()
    return 0
