"""The shipped stub matches the built module (pygame-ce's habit: generate, then check with stubtest)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_regenerating_the_stub_gives_no_diff():
    result = subprocess.run([sys.executable, str(ROOT / "stubs" / "regenerate.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_stubtest_passes():
    env = {**os.environ, "MYPYPATH": str(ROOT / "stubs")}
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "platformpp._platformpp",
         "--allowlist", str(ROOT / "stubs" / "stubtest-allowlist.txt")],
        capture_output=True, text=True, env=env, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
