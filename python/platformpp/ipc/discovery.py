"""Finding the desktop client's socket as the SDK does (cpp/src/ipc/desktop_client.cpp):
``<folder>/platformpp-ipc-<0..9>``, folder the first of ``$XDG_RUNTIME_DIR``, ``$TMPDIR``, ``$TMP``,
``$TEMP`` that is set, else ``/tmp``; ``$PLATFORMPP_IPC_PATH`` replaces ``<folder>/platformpp-ipc``
(the emulator's ``--ipc-path``). The first index a desktop client answers on wins."""

from __future__ import annotations

import os
from collections.abc import Mapping

DEFAULT_PREFIX = "platformpp-ipc"
SLOTS = 10
_FOLDER_VARIABLES = ("XDG_RUNTIME_DIR", "TMPDIR", "TMP", "TEMP")


def socket_candidates(environ: Mapping[str, str] | None = None) -> list[str]:
    env = os.environ if environ is None else environ
    prefix = env.get("PLATFORMPP_IPC_PATH") or ""
    if not prefix:
        folder = next((env[name] for name in _FOLDER_VARIABLES if env.get(name)), "/tmp")
        folder = folder.rstrip("/") or "/"
        prefix = f"{folder.rstrip('/')}/{DEFAULT_PREFIX}"
    return [f"{prefix}-{index}" for index in range(SLOTS)]
