"""Every complete program of README.md and docs/*.md runs as written: each starts the emulator it
needs in process (``with Emulator() as emu:``) and must exit 0."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from doc_programs import ROOT, complete_programs

PROGRAMS = complete_programs()


def test_the_docs_hold_complete_programs() -> None:
    pages = {name.partition(":")[0] for name in PROGRAMS}
    assert {"README.md", "docs/client.md", "docs/python.md"} <= pages


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_the_program_runs(name: str, tmp_path: Path) -> None:
    path = tmp_path / "program.py"
    path.write_text(PROGRAMS[name], encoding="utf-8")
    result = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=180,
                            cwd=tmp_path, check=False)
    assert result.returncode == 0, f"{name} failed:\n{result.stdout}\n{result.stderr}"
