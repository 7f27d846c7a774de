"""pypresence, unchanged, against the emulator's desktop client, configured as its users configure it:
they configure nothing, the library finds the desktop client's socket by its name in
``$XDG_RUNTIME_DIR``. The emulator runs its desktop client for alice with the socket named as the
platform's client names it, in a private folder that the test makes the runtime folder.

Every call of the library runs with a timeout, so that a hang fails the test instead of stalling it."""

from __future__ import annotations

import inspect
import re
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pypresence.utils
import pytest
from emulator_world import ALICE, APP_ID, BOB
from platformpp.emulator import Emulator
from social_helpers import api, user_token

T = TypeVar("T")
CALL_TIMEOUT_S = 10.0
# The library's own timeouts: a missing answer raises ResponseTimeout well before CALL_TIMEOUT_S.
LIBRARY_TIMEOUTS = {"connection_timeout": 3, "response_timeout": 3}


def socket_prefix() -> str:
    """The name the library looks for (``<name>-ipc-<n>``, the platform's client's), read from the library
    itself: this project does not write the platform's name."""
    match = re.search(r'ipc = "([a-z]+-ipc)-"', inspect.getsource(pypresence.utils.get_ipc_path))
    assert match, "pypresence no longer names the socket it looks for in get_ipc_path"
    return match.group(1)


@contextmanager
def desktop_client(monkeypatch: pytest.MonkeyPatch) -> Iterator[Emulator]:
    """An emulator whose desktop client runs for alice, found by the library where it looks."""
    # A short folder: Unix socket paths are limited to ~107 bytes.
    with tempfile.TemporaryDirectory(prefix="pprich", dir="/tmp") as folder:
        monkeypatch.setenv("XDG_RUNTIME_DIR", folder)
        with Emulator(desktop_user="alice", ipc_path=str(Path(folder) / socket_prefix())) as emu:
            yield emu


def within(call: Callable[[], T], timeout: float = CALL_TIMEOUT_S) -> T:
    """``call()`` on a thread of its own; fails the test if it has not returned after ``timeout``."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as exc:  # noqa: BLE001 - re-raised on the test's thread
            outcome["error"] = exc

    worker = threading.Thread(target=run, name="pypresence-call", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        pytest.fail(f"the library's call did not return within {timeout:g} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def friends_with_alice(emu: Emulator) -> httpx.Client:
    """Bob becomes alice's friend; his HTTP client (a Bearer token of the default world's game)."""
    api(emu, user_token(emu, ALICE)).put(f"/users/@me/relationships/{BOB}")
    bob = api(emu, user_token(emu, BOB))
    assert bob.put(f"/users/@me/relationships/{ALICE}").json()["type"] == 1
    return bob


def alices_game_activity(bob: httpx.Client) -> dict[str, Any] | None:
    """Alice's rich presence in the default world's game, as her friend Bob reads it."""
    seen = bob.get(f"/users/{ALICE}/presence").json()
    return next((a for a in seen["activities"] if a.get("application_id") == str(APP_ID)), None)
