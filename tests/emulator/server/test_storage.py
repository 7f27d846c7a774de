"""SQLite storage: WAL, migrations in order and all-or-nothing, transactions and commit hooks."""

from __future__ import annotations

from pathlib import Path

import pytest
from platformpp.emulator.core.migrations import MigrationError, split_sql
from platformpp.emulator.core.storage import Database
from platformpp.emulator.state import migrations, open_database


def test_file_store_uses_wal_and_full_sync(tmp_path: Path) -> None:
    db = open_database(tmp_path / "world.sqlite3")
    assert db.query_one("PRAGMA journal_mode")[0] == "wal"
    assert db.query_one("PRAGMA synchronous")[0] == 2       # FULL
    assert db.query_one("PRAGMA foreign_keys")[0] == 1
    db.close()


def test_migrations_apply_once_in_number_order(tmp_path: Path) -> None:
    path = tmp_path / "world.sqlite3"
    db = open_database(path)
    versions = [row["version"] for row in db.query("SELECT version FROM schema_version ORDER BY rowid")]
    assert versions == sorted(versions) and versions[0] == 1
    assert db.schema_version == versions[-1]
    db.close()
    again = open_database(path)
    assert [row["version"] for row in again.query("SELECT version FROM schema_version ORDER BY rowid")] == versions
    again.close()


def test_a_failing_migration_leaves_nothing_behind(tmp_path: Path) -> None:
    real = migrations()
    broken = (9999, "9999_broken.sql", "CREATE TABLE half_done (id INTEGER);\nINSERT INTO no_such_table VALUES (1);")
    with pytest.raises(MigrationError, match="9999_broken.sql"):
        Database(tmp_path / "world.sqlite3", [*real, broken])
    db = Database(tmp_path / "world.sqlite3", real)
    assert db.query_one("SELECT name FROM sqlite_master WHERE name = 'half_done'") is None
    assert db.query_one("SELECT 1 FROM schema_version WHERE version = 9999") is None
    db.close()


def test_transaction_rolls_back_and_skips_commit_hooks_on_error() -> None:
    db = open_database()
    ran: list[str] = []
    with pytest.raises(RuntimeError), db.transaction() as conn:
        conn.execute("INSERT INTO settings (key, value) VALUES ('a', '1')")
        db.on_commit(lambda: ran.append("rolled back"))
        with db.transaction() as inner:          # nested use joins the outer transaction
            inner.execute("INSERT INTO settings (key, value) VALUES ('b', '2')")
        raise RuntimeError("boom")
    assert db.query("SELECT * FROM settings") == [] and ran == []
    with db.transaction() as conn:
        conn.execute("INSERT INTO settings (key, value) VALUES ('c', '3')")
        db.on_commit(lambda: ran.append("committed"))
        assert ran == []
    assert ran == ["committed"]
    db.on_commit(lambda: ran.append("no transaction"))
    assert ran == ["committed", "no transaction"]


def test_a_commit_hook_that_writes_gets_a_transaction_of_its_own() -> None:
    db = open_database()

    def write_then_fail() -> None:
        with db.transaction() as conn:
            conn.execute("INSERT INTO settings (key, value) VALUES ('from-hook', '1')")
            raise RuntimeError("hook failed")

    with pytest.raises(RuntimeError, match="hook failed"), db.transaction() as conn:
        conn.execute("INSERT INTO settings (key, value) VALUES ('first', '1')")
        db.on_commit(write_then_fail)
    # The first transaction committed; the hook's own transaction rolled back on its own.
    assert [row["key"] for row in db.query("SELECT key FROM settings")] == ["first"]


def test_statement_splitting_respects_strings_and_triggers() -> None:
    script = ("CREATE TABLE t (v TEXT DEFAULT 'a;b');\n-- a comment; with a semicolon\n"
              "CREATE TRIGGER tr AFTER INSERT ON t BEGIN\n  UPDATE t SET v = 'x;y';\nEND;\n")
    assert len(split_sql(script)) == 2
    with pytest.raises(MigrationError):
        split_sql("CREATE TABLE t (v TEXT")


def test_snapshot_tables_round_trip_through_import() -> None:
    db = open_database()
    db.execute("INSERT INTO settings (key, value) VALUES ('k', 'v')")
    exported = db.export_tables()
    db.clear()
    assert db.query("SELECT * FROM settings") == []
    db.import_tables(exported)
    assert [dict(r) for r in db.query("SELECT * FROM settings")] == [{"key": "k", "value": "v"}]
    with pytest.raises(ValueError, match="unknown table"):
        db.import_tables({"nope": []})
