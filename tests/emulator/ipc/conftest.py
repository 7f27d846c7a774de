"""An emulator whose desktop client runs for alice, its IPC socket in a short private folder."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from platformpp.emulator import Emulator


@pytest.fixture
def socket_dir() -> Iterator[Path]:
    # Unix socket paths are limited to ~107 bytes: pytest's tmp_path can be longer.
    with tempfile.TemporaryDirectory(prefix="ppipc", dir="/tmp") as folder:
        yield Path(folder)


@pytest.fixture
def desktop(socket_dir: Path) -> Iterator[Emulator]:
    with Emulator(desktop_user="alice", ipc_path=str(socket_dir / "pp-ipc")) as emu:
        yield emu
