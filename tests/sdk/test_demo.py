"""`platformpp demo`, the README's main command: the whole transcript, and a failure exits non-zero."""

from __future__ import annotations

import re
import subprocess
import sys

import platformpp.demo


def test_the_demo_runs_every_step() -> None:
    result = subprocess.run([sys.executable, "-m", "platformpp", "demo"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    for expected in ("alice signs in", "bob signs in", "bob joins it by the same secret",
                     "bob got: 'gg, one more round?'", "bob got: 'psst: bring snacks'",
                     "alice sets her rich presence", "#general (type GuildText, position 0)", "demo finished in"):
        assert expected in out, expected
    assert " ms  " in out  # every step is timed


def test_the_demo_voice_step_hears_the_tone_end_to_end_encrypted() -> None:
    result = subprocess.run([sys.executable, "-m", "platformpp", "demo"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    for expected in ("alice and bob start their lobby's voice call", "end-to-end encrypted: DAVE protocol 1, one group",
                     "(the same on both sides: True)", "sends a 440 Hz tone; bob's received callback measures it",
                     "both leave the call"):
        assert expected in out, expected
    heard = re.search(r"bob heard ([0-9.]+) Hz; mouth-to-ear latency (\d+) ms \(median of 3 onsets, max (\d+) ms\)", out)
    assert heard, out
    assert abs(float(heard.group(1)) - 440.0) <= 5.0
    assert 0 < int(heard.group(2)) <= int(heard.group(3)) < 1000


def test_a_failing_step_exits_non_zero(monkeypatch, capsys) -> None:
    async def broken(emulator):
        raise RuntimeError("the lobby vanished")

    monkeypatch.setattr(platformpp.demo, "run", broken)
    assert platformpp.demo.main([]) == 1
    assert "demo failed: RuntimeError: the lobby vanished" in capsys.readouterr().err
