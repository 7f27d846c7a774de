"""Reading pybind11's signature lines (``name(self: T, a: A, callback: Callable[[...], None]) -> R``).

The async and event layers derive their methods from the bound methods' own signatures, so that
every callback method gets its counterpart, typed like it, without a list to keep in step."""

from __future__ import annotations

import re
from dataclasses import dataclass

_SIGNATURE = re.compile(r"^(?P<name>\w+)\((?P<params>.*)\) -> (?P<returns>.+)$")
_CALLABLE = re.compile(r"^collections\.abc\.Callable\[\[(?P<args>.*)\], None\]$")


@dataclass(frozen=True)
class Parameter:
    name: str
    annotation: str
    default: str | None = None


@dataclass(frozen=True)
class Signature:
    name: str
    parameters: tuple[Parameter, ...]   # without self
    returns: str


def split_top_level(text: str, separator: str = ",") -> list[str]:
    """Splits at separators outside brackets."""
    parts, depth, current = [], 0, []
    for char in text:
        if char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        if char == separator and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    if "".join(current).strip():
        parts.append("".join(current).strip())
    return parts


def parse(doc: str | None) -> Signature | None:
    """The signature on the first line of a pybind11 docstring (None when there is none, or overloads)."""
    if not doc:
        return None
    match = _SIGNATURE.match(doc.splitlines()[0])
    if match is None:
        return None
    parameters = []
    for part in split_top_level(match.group("params")):
        if part in ("*", "/"):
            continue
        name, _, rest = part.partition(":")
        annotation, _, default = rest.partition(" = ")
        parameters.append(Parameter(name.strip(), annotation.strip(), default.strip() or None))
    if parameters and parameters[0].name == "self":
        parameters = parameters[1:]
    return Signature(match.group("name"), tuple(parameters), match.group("returns").strip())


def callback_arguments(annotation: str) -> list[str] | None:
    """The argument types of a ``Callable[[...], None]`` annotation, or None if it is not one."""
    match = _CALLABLE.match(annotation)
    if match is None:
        return None
    return split_top_level(match.group("args"))
