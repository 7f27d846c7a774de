"""A correct program using platformpp type-checks under ``mypy --strict``: the complete programs of
README.md and docs/*.md, examples/ and docs/examples/, as a user's editor and CI would check them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from doc_programs import ROOT, complete_programs


def mypy_strict(tmp_path: Path, files: list[Path]) -> subprocess.CompletedProcess[str]:
    """``mypy --strict`` over ``files`` as a user's project sees platformpp. The extension's stub is read
    from stubs/ (an editable install has no .pyi beside the package); its own pybind11-generated text
    is not what is checked here."""
    config = tmp_path / "mypy.ini"
    config.write_text(f"[mypy]\nmypy_path = {ROOT / 'stubs'}\n\n[mypy-platformpp._platformpp]\nignore_errors = True\n",
                      encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--config-file", str(config),
                           "--cache-dir", str(tmp_path / "cache"), *map(str, files)],
                          capture_output=True, text=True, timeout=600, check=False)


def test_user_programs_pass_mypy_strict(tmp_path: Path) -> None:
    programs = list(complete_programs().values())
    assert programs, "the docs' complete programs were not found"
    files = [*sorted((ROOT / "examples").glob("*.py")), *sorted((ROOT / "docs" / "examples").glob("*.py"))]
    for number, program in enumerate(programs):
        path = tmp_path / f"doc_program_{number}.py"
        path.write_text(program, encoding="utf-8")
        files.append(path)
    result = mypy_strict(tmp_path, files)
    assert result.returncode == 0, result.stdout + result.stderr


_EVENTS_PROGRAM = '''
from platformpp import Client


def show(status: Client.Status, error: Client.Error, detail: int) -> None: ...


async def on_message(message_id: int) -> None: ...


client = Client()
client.on("status_changed", show)
client.on("message_created", on_message)


@client.on("lobby_member_added")
def joined(lobby_id: int, member_id: int) -> None: ...


client.off("status_changed", show)
client.on("status_chnaged", show)                    # error: no such event
client.on("message_created", show)                   # error: a status handler for a message event


@client.on("lobby_created")                          # error: the handler below takes a str for an id
def wrong(lobby_id: str) -> None: ...
'''


def test_client_on_names_events_and_checks_handlers(tmp_path: Path) -> None:
    """``client.on`` takes only the Client's events and checks the handler against the event's
    arguments, in both forms; ``off`` takes the same names."""
    program = tmp_path / "events_program.py"
    program.write_text(_EVENTS_PROGRAM, encoding="utf-8")
    result = mypy_strict(tmp_path, [program])
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    expected = [number for number, line in enumerate(_EVENTS_PROGRAM.splitlines(), 1) if "# error" in line]
    assert sorted({int(line.split(":")[1]) for line in errors}) == expected, result.stdout
