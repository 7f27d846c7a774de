"""The whole state of the emulator as one JSON document, out and back in: the admin API's
``/_emulator/snapshot`` and the CLI's ``--import`` / ``--export-on-exit`` share it."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from ...core.clock import parse_instant
from ...core.validation import FieldErrors, Form

if TYPE_CHECKING:
    from ...state import EmulatorState

SNAPSHOT_FORMAT = "platformpp-emulator-snapshot/1"


def export_snapshot(state: EmulatorState) -> dict[str, Any]:
    return {"format": SNAPSHOT_FORMAT, "schema_version": state.db.schema_version,
            "clock": {"now": state.clock.iso(), "frozen": state.clock.frozen,
                      "real_time": state.clock.is_real_time},
            "tables": state.db.export_tables()}


def import_snapshot(state: EmulatorState, data: Any) -> None:
    """Replace the whole state with an exported snapshot (same schema version); all or nothing: a
    snapshot that does not fit raises the 50035 naming what is wrong and leaves the state as it was."""
    form = Form(data)
    form.choice("format", (SNAPSHOT_FORMAT,))
    form.choice("schema_version", (state.db.schema_version,))
    tables = form.obj("tables")
    clock = form.obj("clock", required=False)
    now = clock.string("now", required=False) if clock else None
    instant = None
    if now is not None and clock is not None:
        try:
            instant = parse_instant(now)
        except ValueError as exc:
            clock.fail("now", "DATE_TYPE_CONVERT", str(exc))
    form.done()
    assert tables is not None
    for name, rows in tables.data.items():
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            tables.fail(name, "LIST_TYPE_CONVERT", "Must be an array of row objects.")
    form.done()
    try:
        state.db.import_tables(tables.data)
    except (ValueError, OverflowError, sqlite3.Error) as exc:
        errors = FieldErrors()
        errors.add(("tables",), "SNAPSHOT_INVALID", f"The snapshot does not fit the schema: {exc}")
        errors.raise_if_any()
    if instant is not None and clock is not None:
        state.clock.set(instant, frozen=clock.data.get("frozen") is True)
    state.observe_stored_ids()
    state.bus.publish("emulator.reset", {})
    state.bus.publish("emulator.loaded", {})
