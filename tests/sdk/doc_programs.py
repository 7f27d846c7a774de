"""The complete programs of README.md and docs/*.md: fenced blocks whose info string is
``python program`` (docs/development.md, "Programs in the docs"). Imported by name by the tests that
run them and type-check them."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_PROGRAM = re.compile(r"^```python program\n(.*?)^```", re.S | re.M)


def complete_programs() -> dict[str, str]:
    """Each complete program by a name saying where it is (``docs/client.md:2`` is its second)."""
    programs: dict[str, str] = {}
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for number, program in enumerate(_PROGRAM.findall(page.read_text(encoding="utf-8")), start=1):
            programs[f"{page.relative_to(ROOT)}:{number}"] = program
    return programs
