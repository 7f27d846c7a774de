"""Regenerate stubs/platformpp/_platformpp.pyi from the built extension.

    python stubs/regenerate.py           # rewrite the committed stub
    python stubs/regenerate.py --check   # exit 1 if the committed stub differs from a fresh one

Two fix-ups make pybind11-stubgen's output what type checkers and stubtest expect:
- members of `py::native_enum` enums come out as `Name: typing.ClassVar[Enum]`, which type checkers
  read as an enum with no members: they become `Name = <value>`, as typeshed spells them, and the
  `__new__` / `__format__` that the enums inherit from `enum.IntEnum` are dropped;
- classes bound with `py::is_final` cannot be subclassed: they get `@typing.final`;
- the coroutine methods platformpp.aio adds come out as plain `def`: they become `async def`.
"""

from __future__ import annotations

import argparse
import difflib
import enum
import importlib
import inspect
import re
import subprocess
import sys
import tempfile
from pathlib import Path

MODULE = "platformpp._platformpp"
STUB = Path(__file__).resolve().parent / "platformpp" / "_platformpp.pyi"
_CLASS = re.compile(r"^(\s*)class (\w+)[(:]")
_CLASSVAR_MEMBER = re.compile(r"^(\s*)(\w+): typing\.ClassVar\[([\w.]+)\]$")
_INHERITED_FROM_INTENUM = re.compile(r"^\s*(@classmethod|def __new__\(|def __format__\()")
_DEF = re.compile(r"^(\s*)def (\w+)\(")
_BASETYPE = 1 << 10  # Py_TPFLAGS_BASETYPE: the class can be subclassed


def _fix_up(text: str) -> str:
    module = importlib.import_module(MODULE)
    lines: list[str] = []
    scopes: list[tuple[int, object]] = []  # (indent of the class line, the runtime class), innermost last
    skip_deeper_than: int | None = None     # dropping an inherited enum method's body
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip())
        if skip_deeper_than is not None:
            if line.strip() and indent > skip_deeper_than:
                continue
            skip_deeper_than = None
        while scopes and line.strip() and indent <= scopes[-1][0]:
            scopes.pop()
        if match := _CLASS.match(line):
            parent = scopes[-1][1] if scopes else module
            runtime = getattr(parent, match.group(2), None)
            if isinstance(runtime, type) and not runtime.__flags__ & _BASETYPE:
                lines.append(f"{match.group(1)}@typing.final")
            scopes.append((indent, runtime))
            lines.append(line)
            continue
        current = scopes[-1][1] if scopes else None
        if (method := _DEF.match(line)) and inspect.iscoroutinefunction(getattr(current, method.group(2), None)):
            line = f"{method.group(1)}async {line.lstrip()}"
        if isinstance(current, enum.EnumMeta):
            if _INHERITED_FROM_INTENUM.match(line):
                if line.strip() != "@classmethod":
                    skip_deeper_than = indent
                continue
            member = _CLASSVAR_MEMBER.match(line)
            if member and member.group(3).split(".")[-1] == current.__name__:
                line = f"{member.group(1)}{member.group(2)} = {current[member.group(2)].value!r}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def generate() -> str:
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(
            [sys.executable, "-m", "pybind11_stubgen", MODULE, "--output-dir", out, "--exit-code",
             # Client(options) is bound before the ClientCreateOptions class is registered, so pybind11
             # writes the C++ name into that signature; _fix_up puts the Python name back.
             "--ignore-invalid-expressions", "platformpp::ClientCreateOptions"],
            check=True, capture_output=True, text=True,
        )
        raw = (Path(out) / "platformpp" / "_platformpp.pyi").read_text()
    raw = raw.replace("def __init__(self, options: ...) -> None:", "def __init__(self, options: ClientCreateOptions) -> None:")
    # AudioDevice binds __eq__(AudioDevice) and sets __hash__ to None (pybind11 answers NotImplemented
    # for another type, so == with anything is valid): spelled as mypy expects of an unhashable class.
    raw = raw.replace("    __hash__: typing.ClassVar[None] = None\n",
                      "    __hash__: typing.ClassVar[None]  # type: ignore[assignment]\n")
    raw = raw.replace("def __eq__(self, other: AudioDevice) -> bool:", "def __eq__(self, other: object) -> bool:")
    return _fix_up(raw)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    fresh = generate()
    if parser.parse_args().check:
        committed = STUB.read_text() if STUB.exists() else ""
        if committed != fresh:
            sys.stdout.writelines(difflib.unified_diff(
                committed.splitlines(True), fresh.splitlines(True), str(STUB), "regenerated"))
            return 1
        return 0
    STUB.write_text(fresh)
    return 0


if __name__ == "__main__":
    sys.exit(main())
