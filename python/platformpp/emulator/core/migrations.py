"""The schema's migrations: ``NNNN_lowercase_name.sql`` files, applied once each in number order and
recorded in ``schema_version``. Numbers are global across all folders (core/schema and each area's
schema/); a number, once shipped, is never reused or edited, because databases written by earlier
versions record which numbers they have.

0001_core.sql and 0100_social.sql predate the area layout: they create tables of several areas and
stay whole in core/schema/ so that old databases, which recorded them, still open. Every later
migration lives in the schema/ folder of the area that owns its tables."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.abc import Traversable  # (importlib.resources.abc from 3.11 on)

Migration = tuple[int, str, str]   # (number, file name, SQL)
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
CORE_SCHEMA = resources.files(__name__.rpartition(".")[0]) / "schema"


class MigrationError(RuntimeError):
    """A schema file is misnamed or failed to apply; nothing of it was kept."""


def collect(folders: Iterable[Traversable]) -> list[Migration]:
    """Every migration in ``folders``, in number order; an error for a misnamed file or a number used twice."""
    found: list[Migration] = []
    for folder in folders:
        for entry in folder.iterdir():
            if not entry.name.endswith(".sql"):
                continue
            match = _MIGRATION_NAME.match(entry.name)
            if match is None:
                raise MigrationError(f"schema file {entry.name!r} must be named NNNN_lowercase_name.sql")
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [number for number, _, _ in found]
    if len(numbers) != len(set(numbers)):
        raise MigrationError(f"two schema files share a number: {sorted(numbers)}")
    return found


def split_sql(script: str) -> list[str]:
    """Split a migration into statements (sqlite3.complete_statement knows about quotes and triggers)."""
    statements: list[str] = []
    current = ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            if current.strip():
                statements.append(current.strip())
            current = ""
    if current.strip().rstrip(";").strip() and not all(
            part.strip().startswith("--") for part in current.strip().splitlines()):
        raise MigrationError(f"incomplete SQL statement at end of migration: {current.strip()[:60]!r}")
    return statements
