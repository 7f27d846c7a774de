"""A correct program using platformpp type-checks under ``mypy --strict``: the complete programs of
README.md and docs/*.md, examples/ and docs/examples/, as a user's editor and CI would check them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from doc_programs import ROOT, complete_programs


def test_user_programs_pass_mypy_strict(tmp_path: Path) -> None:
    programs = list(complete_programs().values())
    assert programs, "the docs' complete programs were not found"
    files = [*sorted((ROOT / "examples").glob("*.py")), *sorted((ROOT / "docs" / "examples").glob("*.py"))]
    for number, program in enumerate(programs):
        path = tmp_path / f"doc_program_{number}.py"
        path.write_text(program, encoding="utf-8")
        files.append(path)
    # The extension's stub is read from stubs/ (an editable install has no .pyi beside the package); its
    # own pybind11-generated text is not what is checked here.
    config = tmp_path / "mypy.ini"
    config.write_text(f"[mypy]\nmypy_path = {ROOT / 'stubs'}\n\n[mypy-platformpp._platformpp]\nignore_errors = True\n",
                      encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--config-file", str(config),
                             "--cache-dir", str(tmp_path / "cache"), *map(str, files)],
                            capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
