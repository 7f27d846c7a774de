"""`platformpp demo`, the README's main command: the whole transcript, and a failure exits non-zero."""

from __future__ import annotations

import subprocess
import sys

import platformpp.demo


def test_the_demo_runs_every_step() -> None:
    result = subprocess.run([sys.executable, "-m", "platformpp", "demo"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    for expected in ("alice signs in", "bob signs in", "bob joins it by the same secret",
                     "bob got: 'gg, one more round?'", "bob got: 'psst: bring snacks'",
                     "alice sets her rich presence", "#general (type 0, position 0)", "demo finished in"):
        assert expected in out, expected
    assert " ms  " in out  # every step is timed


def test_a_failing_step_exits_non_zero(monkeypatch, capsys) -> None:
    async def broken(emulator):
        raise RuntimeError("the lobby vanished")

    monkeypatch.setattr(platformpp.demo, "run", broken)
    assert platformpp.demo.main([]) == 1
    assert "demo failed: RuntimeError: the lobby vanished" in capsys.readouterr().err
