"""The fixture format (JSON or YAML) and its loader. A fixture is an object of top-level sections
(``users``, ``applications``, ``guilds``, ``relationships``, ...); each area loads its own sections
(``FixtureSection``, listed in the area's ``AREA``). Loading is one transaction: a fixture with any
bad field raises a 50035 naming every bad path, and loads nothing."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .clock import format_instant
from .errors import ApiError
from .validation import Form

if TYPE_CHECKING:
    from ..state import EmulatorState


class FixtureSection(NamedTuple):
    """One top-level key of a fixture and the function that loads it. ``load(state, conn, form, name)``
    reads ``form`` (the whole fixture) and records field errors on it; lower ``order`` loads first
    (users 10, applications 20, guilds 30, relationships 40), so references point backwards."""

    name: str
    order: int
    load: Callable[[EmulatorState, sqlite3.Connection, Form, str], None]


class FixtureError(ValueError):
    """A fixture that cannot be loaded; ``errors`` is the 50035 error tree."""

    def __init__(self, errors: dict[str, Any]) -> None:
        super().__init__("invalid fixture: " + "; ".join(_flatten(errors)))
        self.errors = errors


def _flatten(tree: dict[str, Any], prefix: str = "") -> list[str]:
    lines: list[str] = []
    for key, value in tree.items():
        if key == "_errors":
            lines += [f"{prefix or '<root>'}: {e['message']}" for e in value]
        else:
            lines += _flatten(value, f"{prefix}.{key}" if prefix else key)
    return lines


def read_fixture_file(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() in (".yaml", ".yml"):
        import yaml  # only paid for when a YAML fixture is used

        data = yaml.safe_load(text)
    else:
        data = json.loads(text)
    if not isinstance(data, dict):
        raise FixtureError({"_errors": [{"code": "DICT_TYPE_CONVERT", "message": "A fixture is an object."}]})
    return data


def default_world() -> dict[str, Any]:
    text = resources.files("platformpp.emulator").joinpath("world", "default.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def load_fixture(state: EmulatorState, data: Any) -> None:
    """Add the fixture's contents to the world (ids must be new). Raises ApiError 50035 on bad input."""
    sections = sorted(state.fixture_sections, key=lambda section: section.order)
    form = Form(data)
    form.done()
    form.refuse_unknown_keys({section.name for section in sections})
    with state.db.transaction() as conn:
        # References may point forwards (a channel's parent listed after it): check them at the end.
        conn.execute("PRAGMA defer_foreign_keys=ON")
        for section in sections:
            if section.name in form.data:
                section.load(state, conn, form, section.name)
        # Check references once everything is in; a dangling id is a field error, not a crash.
        if not form.errors:
            for problem in conn.execute("PRAGMA foreign_key_check"):
                form.errors.add((problem[0],), "REFERENCE_UNKNOWN",
                                f"A {problem[0]} row refers to a missing {problem[2]} row.")
        form.done()
        conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES ('world_loaded', ?)",
                     (format_instant(state.clock.now()),))
        state.observe_stored_ids()


def load_fixture_or_raise(state: EmulatorState, data: Any) -> None:
    """``load_fixture`` for Python callers: a ``FixtureError`` instead of an HTTP error."""
    try:
        load_fixture(state, data)
    except ApiError as exc:
        raise FixtureError(exc.errors or {"_errors": [{"code": str(exc.code), "message": exc.message}]}) from None


# -- helpers for the areas' section loaders -------------------------------------------------------

def fixture_id(state: EmulatorState, item: Form, name: str = "id") -> int:
    value = item.snowflake(name, required=False)
    return value if value is not None else state.ids.next()


def insert_checked(conn: sqlite3.Connection, where: Form, sql: str, params: tuple[Any, ...]) -> None:
    """Insert unless the fixture already failed (its reads ran while building ``params``, so every field
    error is still reported); a constraint violation becomes a field error at ``where``."""
    if where.errors:
        return
    try:
        conn.execute(sql, params)
    except (sqlite3.IntegrityError, OverflowError) as exc:
        where.errors.add(where.path, "CONSTRAINT_VIOLATED", f"Conflicts with existing data or limits ({exc}).")


def row_exists(conn: sqlite3.Connection, table: str, key: int) -> bool:
    return conn.execute(f"SELECT 1 FROM {table} WHERE id = ?", (key,)).fetchone() is not None


