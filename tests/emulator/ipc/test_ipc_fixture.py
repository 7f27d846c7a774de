"""The fixture's ``desktop_user`` section: the desktop client runs for that user from the start, as with
``--desktop-user``; the explicit setting wins; a bad name is a field error and loads nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from ipc_client import IpcClient
from platformpp.emulator import Emulator
from platformpp.emulator.core.fixtures import FixtureError, default_world

from emulator_world import APP_ID


def _world(**extra: object) -> dict[str, object]:
    return {**default_world(), **extra}


def test_fixture_signs_the_desktop_user_in(socket_dir: Path) -> None:
    with Emulator(seed=_world(desktop_user="bob"), ipc_path=str(socket_dir / "pp-ipc")) as emu:
        assert emu.ipc_path == socket_dir / "pp-ipc-0"
        with IpcClient(emu.ipc_path) as ipc:
            assert ipc.handshake(APP_ID)["data"]["user"]["username"] == "bob"


def test_the_explicit_desktop_user_wins_over_the_fixture(socket_dir: Path) -> None:
    with Emulator(seed=_world(desktop_user="bob"), desktop_user="alice",
                  ipc_path=str(socket_dir / "pp-ipc")) as emu:
        assert emu.ipc_path is not None
        with IpcClient(emu.ipc_path) as ipc:
            assert ipc.handshake(APP_ID)["data"]["user"]["username"] == "alice"


def test_null_or_absent_means_no_desktop_client(socket_dir: Path) -> None:
    with Emulator(seed=_world(desktop_user=None), ipc_path=str(socket_dir / "pp-ipc")) as emu:
        assert emu.ipc_path is None
        assert not list(socket_dir.iterdir())


@pytest.mark.parametrize(("value", "rule"), [("nobody-at-all", "No signed-up, non-bot user"),
                                             ("demo-game-bot", "No signed-up, non-bot user"),
                                             ("", "between 1 and 64"), (7, "Must be a string")])
def test_a_bad_desktop_user_is_a_field_error(value: object, rule: str, socket_dir: Path) -> None:
    with pytest.raises(FixtureError) as raised:
        Emulator(seed=_world(desktop_user=value), ipc_path=str(socket_dir / "pp-ipc")).start()
    assert "desktop_user" in str(raised.value) and rule in str(raised.value)
