"""``platformpp emulator``: serve the emulator in the foreground until interrupted."""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
from pathlib import Path

from .core.migrations import MigrationError
from .core.storage import MEMORY
from .paths import API

# Where ``Client()`` points when nothing else is configured (the SDK's PLATFORMPP_DEFAULT_API_BASE):
# the emulator started with no flags is the one a copy-pasted client reaches.
DEFAULT_PORT = 8787


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="platformpp emulator",
                                     description="Run the local platform emulator (HTTP API, Gateway, OAuth2).")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default: loopback only); beyond loopback the admin API needs"
                             " a bearer secret (PLATFORMPP_EMULATOR_ADMIN_TOKEN, or generated and printed)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"port to bind (default: {DEFAULT_PORT}, where Client() points by default); 0 picks a"
                             " free one")
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
    parser.add_argument("--tls", action="store_true",
                        help="serve HTTPS and WSS (the Gateway and the voice gateway too), with a certificate of"
                             " the emulator's own authority, made once in the user data directory; clients"
                             " trust its ca.pem (printed at start)")
    parser.add_argument("--tls-cert", type=Path, default=None, metavar="FILE",
                        help="serve HTTPS and WSS with this certificate (PEM, chain included) instead;"
                             " needs --tls-key")
    parser.add_argument("--tls-key", type=Path, default=None, metavar="FILE", help="the --tls-cert's private key (PEM)")
    parser.add_argument("--import", dest="import_file", type=Path, default=None, metavar="FILE",
                        help="start from this snapshot (as GET /_emulator/snapshot or --export-on-exit wrote it),"
                             " replacing the stored world")
    parser.add_argument("--export-on-exit", type=Path, default=None, metavar="FILE",
                        help="write the whole state as a snapshot to FILE when the emulator stops")
    parser.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"],
                        help="info: a line per request (method, path, status, time; credentials redacted),"
                             " Gateway connections, identifies and closes, voice joins")
    return parser


def _configure_logging(level: str) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger("platformpp.emulator")
    logger.addHandler(handler)
    logger.setLevel(level.upper())


def _write_snapshot(path: Path, snapshot: dict[str, object]) -> None:
    # A new file put in place at once: an interrupted write never leaves half a snapshot behind.
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(snapshot), encoding="utf-8")
    os.replace(partial, path)


def main(argv: list[str] | None = None) -> int:
    """The emulator's command line (sys.argv[1:] when argv is None: the platformpp-emulator script)."""
    args = _parser().parse_args(argv)
    _configure_logging(args.log_level)
    try:
        from .areas.admin.snapshot import export_snapshot, import_snapshot
        from .core.admin_secret import AdminSecret
        from .core.errors import ApiError
        from .core.fixtures import FixtureError
        from .core.tls import ServerCertificate, TlsSetupError
        from .ipc.endpoint import DesktopUserError
        from .server import (
            base_url,
            bind_socket,
            configure_desktop,
            make_server,
            prepare_state,
            resolve_tls,
            user_data_folder,
        )
        db = args.db if args.db is not None else str(user_data_folder() / "emulator.sqlite3")
    except ModuleNotFoundError as exc:
        print(f"platformpp emulator: {exc.name} is missing; install the emulator extra:"
              " pip install 'platformpp[emulator]'", file=sys.stderr)
        return 2
    if (args.tls_cert is None) != (args.tls_key is None):
        print("platformpp emulator: --tls-cert and --tls-key go together", file=sys.stderr)
        return 2
    try:
        tls = resolve_tls(ServerCertificate(args.tls_cert, args.tls_key) if args.tls_cert else args.tls, args.host)
    except TlsSetupError as exc:
        print(f"platformpp emulator: {exc}", file=sys.stderr)
        return 2
    try:
        secret = AdminSecret.for_host(args.host)
        state = prepare_state(db if db == MEMORY else Path(db), args.seed, args.clock)
        if args.import_file is not None:
            import_snapshot(state, json.loads(args.import_file.read_text(encoding="utf-8")))
        state.admin_secret = secret
        state.voice_host = args.host
        state.tls = tls
    except ApiError as exc:   # a snapshot that does not fit: the 50035 names what is wrong
        print(f"platformpp emulator: --import {args.import_file}: {exc.message}: {json.dumps(exc.errors)}",
              file=sys.stderr)
        return 2
    except (FixtureError, MigrationError, ValueError, OSError) as exc:
        print(f"platformpp emulator: {exc}", file=sys.stderr)
        return 2
    try:
        sock = bind_socket(args.host, args.port)
    except OSError as exc:
        hint = " (another emulator?); choose another with --port N, or --port 0 for a free one" \
            if args.port else ""
        print(f"platformpp emulator: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}{hint}",
              file=sys.stderr)
        state.db.close()
        return 2
    url = base_url(args.host, sock.getsockname()[1], tls)
    try:
        configure_desktop(state, args.desktop_user, args.ipc_path, f"{url}{API}")
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
    print(f"platformpp emulator listening on {url}", flush=True)
    if tls is not None and tls.ca_file is not None:
        print(f"platformpp emulator TLS: clients trust {tls.ca_file} (e.g. SSL_CERT_FILE={tls.ca_file})", flush=True)
    if secret is not None and secret.generated:
        # Printed once, here only: the admin API needs it because the emulator is reachable from elsewhere.
        print(f"platformpp emulator admin API secret (Authorization: Bearer ...): {secret.reveal()}", flush=True)
    print(f"platformpp emulator store: {'in memory' if db == MEMORY else db}", flush=True)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        try:
            if args.export_on_exit is not None:
                _write_snapshot(args.export_on_exit, export_snapshot(state))
                print(f"platformpp emulator: snapshot written to {args.export_on_exit}", flush=True)
        finally:
            state.db.close()
    return 0
