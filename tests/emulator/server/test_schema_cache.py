"""The migrated empty schema is cached on disk: a new process copies it instead of running every
migration again (core/storage.py), and a cache file that does not fit is never used."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from platformpp.emulator.core import storage
from platformpp.emulator.core.storage import MEMORY, SCHEMA_CACHE_VARIABLE, Database

_numbers = itertools.count(1)


def _migrations(extra_column: str = "note") -> list[tuple[int, str, str]]:
    # A set no other test uses, so that no template of this process answers for it.
    tag = next(_numbers)
    return [(1, "0001_things.sql", f"CREATE TABLE things_{tag} (id INTEGER PRIMARY KEY, name TEXT);"),
            (2, "0002_more.sql", f"ALTER TABLE things_{tag} ADD COLUMN {extra_column} TEXT;")]


def _forget_this_process(migrations: list[tuple[int, str, str]]) -> None:
    """As a new process: no template in memory for these migrations."""
    storage._TEMPLATES.pop(tuple(sorted(migrations))).close()


def _columns(db: Database, table: str) -> list[str]:
    return [row["name"] for row in db.query(f'PRAGMA table_info("{table}")')]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(SCHEMA_CACHE_VARIABLE, str(tmp_path))
    return tmp_path


def test_a_new_process_copies_the_cached_schema_without_migrating(cache: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    migrations = _migrations()
    table = migrations[0][2].split()[2]
    Database(MEMORY, migrations).close()
    assert len(list(cache.glob("schema-*.sqlite3"))) == 1
    _forget_this_process(migrations)

    def no_migrating(*args: object) -> None:
        raise AssertionError("migrated again instead of copying the cached schema")
    monkeypatch.setattr(storage, "_apply", no_migrating)
    db = Database(MEMORY, migrations)
    assert _columns(db, table) == ["id", "name", "note"]
    assert [tuple(row) for row in db.query("SELECT version, name FROM schema_version ORDER BY version")] == \
        [(1, "0001_things.sql"), (2, "0002_more.sql")]
    db.execute(f'INSERT INTO "{table}" (name, note) VALUES (?, ?)', ("a", "b"))   # a working copy
    db.close()


def test_a_changed_migration_is_never_served_from_an_older_file(cache: Path) -> None:
    first = _migrations("note")
    Database(MEMORY, first).close()
    changed = [first[0], (2, "0002_more.sql", first[1][2].replace("note", "remark"))]
    table = first[0][2].split()[2]
    db = Database(MEMORY, changed)
    assert _columns(db, table) == ["id", "name", "remark"]
    assert len(list(cache.glob("schema-*.sqlite3"))) == 2
    db.close()


def test_a_damaged_cache_file_is_migrated_over_and_replaced(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    migrations = _migrations()
    table = migrations[0][2].split()[2]
    Database(MEMORY, migrations).close()
    _forget_this_process(migrations)
    (cached,) = cache.glob("schema-*.sqlite3")
    cached.write_bytes(b"not a database" * 100)
    db = Database(MEMORY, migrations)
    assert _columns(db, table) == ["id", "name", "note"]
    db.close()
    _forget_this_process(migrations)

    def no_migrating(*args: object) -> None:
        raise AssertionError("the damaged file was not replaced")
    monkeypatch.setattr(storage, "_apply", no_migrating)
    Database(MEMORY, migrations).close()


def test_an_empty_setting_keeps_no_cache_on_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SCHEMA_CACHE_VARIABLE, "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    Database(MEMORY, _migrations()).close()
    assert not list(tmp_path.rglob("schema-*"))
