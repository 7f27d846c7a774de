"""Where the desktop client's socket lives: ``<prefix>-<n>`` (n = 0..9, the first free one) in the
first of ``$XDG_RUNTIME_DIR``, ``$TMPDIR``, ``$TMP``, ``$TEMP`` that is set, else ``/tmp`` — the
folders and order in which the platform's SDK looks for it."""

from __future__ import annotations

import os
import socket
from pathlib import Path

DEFAULT_PREFIX = "platformpp-ipc"
SLOTS = 10
_FOLDER_VARIABLES = ("XDG_RUNTIME_DIR", "TMPDIR", "TMP", "TEMP")


def socket_folder(environ: dict[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    for name in _FOLDER_VARIABLES:
        if env.get(name):
            return Path(env[name])
    return Path("/tmp")


def _in_use(path: Path) -> bool:
    """A socket file someone answers on (a stale file left by a crashed process is free)."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
    except OSError:
        return False
    finally:
        probe.close()
    return True


def free_socket_path(prefix: str | None = None) -> Path:
    """The first free ``<prefix>-<n>``. ``prefix`` may carry a folder (``/run/x/name``); without one the
    folder is ``socket_folder()``. ``OSError`` when all ten are taken."""
    given = Path(prefix) if prefix else Path(DEFAULT_PREFIX)
    folder = given.parent if given.parent != Path(".") else socket_folder()
    for index in range(SLOTS):
        path = folder / f"{given.name}-{index}"
        if not path.exists():
            return path
        if not _in_use(path):
            path.unlink()
            return path
    raise OSError(f"all {SLOTS} IPC sockets {folder / given.name}-0..{SLOTS - 1} are in use")
