"""The ``platformpp`` command follows the usual conventions: ``--help``/``-h`` print help and exit 0
without running anything, unknown flags exit 2 with a usage line, ``--version`` names the version."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "platformpp", *args], capture_output=True, text=True, timeout=60,
                          check=False)


@pytest.mark.parametrize("command", ["demo", "smoke", "emulator"])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_prints_usage_and_runs_nothing(command: str, flag: str) -> None:
    result = _run(command, flag)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"usage: platformpp {command}")
    # Nothing ran: the demo prints its title and the emulator its address before doing anything.
    assert "two players on the embedded emulator\n" not in result.stdout and "listening" not in result.stdout
    assert result.stderr == ""


@pytest.mark.parametrize("command", ["demo", "smoke", "emulator"])
def test_an_unknown_flag_exits_2_naming_it(command: str) -> None:
    result = _run(command, "--bogus")
    assert result.returncode == 2
    assert "unrecognized arguments: --bogus" in result.stderr and result.stdout == ""


def test_version_and_an_unknown_command() -> None:
    version = _run("--version")
    # The version is written once, in CMakeLists.txt.
    cmake = (Path(__file__).resolve().parents[2] / "CMakeLists.txt").read_text()
    written = re.search(r"project\(platformpp VERSION ([0-9.]+)", cmake)
    assert written is not None
    assert version.returncode == 0 and version.stdout.strip() == f"platformpp {written.group(1)}"
    unknown = _run("bogus")
    assert unknown.returncode == 2 and "invalid choice: 'bogus'" in unknown.stderr
    assert _run().returncode == 2
