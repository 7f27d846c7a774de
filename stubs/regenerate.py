"""Regenerate stubs/platformpp/_platformpp.pyi from the built extension.

    python stubs/regenerate.py           # rewrite the committed stub
    python stubs/regenerate.py --check   # exit 1 if the committed stub differs from a fresh one

Two fix-ups make pybind11-stubgen's output what type checkers and stubtest expect:
- members of `py::native_enum` enums come out as `Name: typing.ClassVar[Enum]`, which type checkers
  read as an enum with no members: they become `Name = <value>`, as typeshed spells them, and the
  `__new__` / `__format__` that the enums inherit from `enum.IntEnum` are dropped;
- classes bound with `py::is_final` cannot be subclassed: they get `@typing.final`;
- the coroutine methods platformpp.aio adds come out as plain `def`: they become `async def`;
- `Client.on` / `Client.off` (platformpp.events) come out with `event: str`: they become overloads,
  one per event, naming the event as a `Literal` and its handler's parameters as the event's
  `set_<event>_callback` gives them (a handler may return anything: an `async def` is scheduled).
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
_CLIENT_SETTER = re.compile(
    r"^    def set_(\w+)_callback\(self, \w+: collections\.abc\.Callable\[\[(.*)\], None\] \| None\) -> None:$")


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


def _method_span(lines: list[str], start: int) -> int:
    """The index after the method that starts at ``lines[start]`` (its signature and docstring)."""
    end = start + 1
    while end < len(lines) and lines[end].startswith("        "):
        end += 1
    return end


def _typed_events(text: str) -> str:
    """Client.on and Client.off, typed per event (see the module's docstring)."""
    lines = text.splitlines()
    client = lines.index("class Client:")
    client_end = next((i for i in range(client + 1, len(lines)) if lines[i] and not lines[i].startswith(" ")),
                      len(lines))
    events = {m.group(1): m.group(2) for line in lines[client:client_end] if (m := _CLIENT_SETTER.match(line))}
    if not events:
        raise SystemExit("regenerate.py: no set_<event>_callback found on Client")

    def handler_type(event: str) -> str:
        return "_" + "".join(word.capitalize() for word in event.split("_")) + "Handler"

    type_vars = ["# Client.on's handler types, one per event (as its set_<event>_callback passes arguments)."]
    type_vars += [f"{handler_type(event)} = typing.TypeVar({handler_type(event)!r}, "
                  f"bound=collections.abc.Callable[[{args}], object])" for event, args in sorted(events.items())]
    names = ", ".join(repr(event) for event in sorted(events))
    on_lines: list[str] = []
    for event in sorted(events):
        handler = handler_type(event)
        on_lines += [
            "    @typing.overload",
            f"    def on(self, event: typing.Literal[{event!r}], handler: None = None)"
            f" -> collections.abc.Callable[[{handler}], {handler}]: ...",
            "    @typing.overload",
            f"    def on(self, event: typing.Literal[{event!r}], handler: {handler}) -> {handler}: ...",
        ]
    insert_at = client   # before the class's decorators
    while insert_at and lines[insert_at - 1].startswith("@"):
        insert_at -= 1
    off_line = (f"    def off(self, event: typing.Literal[{names}],"
                " handler: collections.abc.Callable[..., object]) -> None:")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if client < i < client_end and line.startswith("    def on(self, event: str,"):
            end = _method_span(lines, i)
            out += on_lines[:-1] + [on_lines[-1].removesuffix(" ..."), *lines[i + 1:end]]
            i = end
            continue
        if client < i < client_end and line.startswith("    def off(self, event: str,"):
            out.append(off_line)
            i += 1
            continue
        if i == insert_at:
            out += type_vars
        out.append(line)
        i += 1
    return "\n".join(out) + "\n"


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
    return _typed_events(_fix_up(raw))


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
