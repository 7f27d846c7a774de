"""SQLite storage: one connection, WAL journal, ordered SQL migrations, whole-state snapshots.

Every request runs its writes inside ``Database.transaction()``: either all of them commit (and are on
disk before the response is sent, ``synchronous=FULL``) or none do. The connection is shared by the
server's event loop, the webhook thread and the embedding test; a lock serialises them, so never
``await`` inside a transaction.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from .migrations import Migration, MigrationError, split_sql

MEMORY = ":memory:"


class Database:
    """The emulator's single SQLite connection, shared by the server thread and the caller's thread."""

    def __init__(self, path: str | Path = MEMORY, migrations: Sequence[Migration] = ()) -> None:
        self.path = str(path)
        if self.path != MEMORY:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves so a transaction spans exactly one request.
        self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._conn.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        self._depth = 0
        self._after_commit: list[Callable[[], None]] = []
        if self.path != MEMORY:
            self._conn.execute("PRAGMA journal_mode=WAL")
        # FULL: a commit is fsynced before we answer, so an acknowledged write survives kill -9 and power loss.
        self._conn.execute("PRAGMA synchronous=FULL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        self._conn.execute("PRAGMA busy_timeout=5000")
        self.migrate(migrations)

    # -- transactions -------------------------------------------------------------------------------
    def transaction(self) -> _Transaction:
        """Run a unit of work atomically (``with db.transaction() as conn``); nested uses join the
        outer transaction."""
        return _Transaction(self)

    def on_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once the current transaction commits (never if it rolls back); at once when
        no transaction is open. Events and deliveries go out only for work that really happened."""
        with self._lock:
            if self._depth:
                self._after_commit.append(callback)
                return
        callback()

    @property
    def total_changes(self) -> int:
        """Rows changed on this connection so far (every write counts, rolled back ones too): a cache
        of rows read is valid while this is unchanged."""
        return self._conn.total_changes

    def query(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    def query_one(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> sqlite3.Row | None:
        with self._lock:
            row: sqlite3.Row | None = self._conn.execute(sql, params).fetchone()
            return row

    def execute(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> sqlite3.Cursor:
        """One statement in its own transaction (or the caller's, when inside ``transaction()``)."""
        with self.transaction() as conn:
            return conn.execute(sql, params)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # -- schema -------------------------------------------------------------------------------------
    def migrate(self, migrations: Sequence[Migration]) -> None:
        """Apply, in number order, each migration not applied yet; each in its own transaction. A new
        in-memory database copies the schema an earlier one of this process was migrated to."""
        with self._lock:
            if self.path == MEMORY and _is_blank(self._conn):
                _copy_migrated(self._conn, migrations)
                return
            _apply(self._conn, migrations)

    @property
    def schema_version(self) -> int:
        row = self.query_one("SELECT MAX(version) FROM schema_version")
        return int(row[0] or 0) if row else 0

    def data_tables(self) -> list[str]:
        """Every table holding world state, parents before children (creation order)."""
        rows = self.query(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%' AND name != 'schema_version' ORDER BY rowid")
        # Virtual tables (full-text indexes) and their shadow tables hold derived data that their
        # owners rebuild; deleting or copying shadow rows directly would corrupt the index.
        plain = {row[1] for row in self.query("PRAGMA main.table_list") if row[2] == "table"}
        return [row[0] for row in rows if row[0] in plain]

    def clear(self) -> None:
        """Delete all world state (keeps the schema). Call inside ``transaction()``."""
        with self.transaction() as conn:
            conn.execute("PRAGMA defer_foreign_keys=ON")
            for table in reversed(self.data_tables()):
                conn.execute(f'DELETE FROM "{table}"')

    def export_tables(self) -> dict[str, list[dict[str, Any]]]:
        with self._lock:
            return {table: [dict(row) for row in self._conn.execute(f'SELECT * FROM "{table}"')]
                    for table in self.data_tables()}

    def import_tables(self, tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
        """Replace all world state with ``tables`` (as produced by ``export_tables``)."""
        known = set(self.data_tables())
        unknown = sorted(set(tables) - known)
        if unknown:
            raise ValueError(f"unknown table(s) {unknown}")
        with self.transaction() as conn:
            self.clear()
            for table in self.data_tables():
                columns = {row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')}
                for row in tables.get(table, ()):
                    extra = sorted(set(row) - columns)
                    if extra:
                        raise ValueError(f"table {table!r} has no column(s) {extra}")
                    names = list(row)
                    column_list = ", ".join(f'"{name}"' for name in names)
                    placeholders = ", ".join("?" for _ in names)
                    conn.execute(f'INSERT INTO "{table}" ({column_list}) VALUES ({placeholders})',
                                 [row[name] for name in names])



class _Transaction:
    """``Database.transaction()``: a plain context manager (every request opens one or two, and a
    generator-based one costs a generator and two extra calls each time). BEGIN IMMEDIATE on the
    outermost entry; COMMIT when it leaves normally, ROLLBACK when it raises (a failed COMMIT rolls
    back too); then, still under the lock, the commit callbacks, once the transaction is over."""

    __slots__ = ("_db", "_nested")

    def __init__(self, db: Database) -> None:
        self._db = db
        self._nested = False

    def __enter__(self) -> sqlite3.Connection:
        db = self._db
        db._lock.acquire()
        try:
            if db._depth:
                db._depth += 1
                self._nested = True
                return db._conn
            db._conn.execute("BEGIN IMMEDIATE")
            db._depth = 1
            return db._conn
        except BaseException:
            db._lock.release()
            raise

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        db = self._db
        try:
            if self._nested:
                db._depth -= 1
                return
            try:
                if exc_type is not None:
                    db._conn.execute("ROLLBACK")
                    return
                try:
                    db._conn.execute("COMMIT")
                except sqlite3.Error:
                    # e.g. a deferred foreign key failed at commit: leave nothing half-done behind.
                    if db._conn.in_transaction:
                        db._conn.execute("ROLLBACK")
                    raise
            finally:
                db._depth = 0
                callbacks, db._after_commit = db._after_commit, []
                if exc_type is not None:
                    # What a failed unit of work leaves standing (``after_rollback`` on its exception, e.g.
                    # auto moderation's record of a message it blocked) runs in a transaction of its own.
                    _run_after_rollback(exc)
            # Only reached after a commit. The transaction is over, so a callback that writes opens
            # a transaction of its own.
            for callback in callbacks:
                callback()
        finally:
            db._lock.release()


def _run_after_rollback(exc: BaseException | None) -> None:
    follow_up = getattr(exc, "after_rollback", None)
    if callable(follow_up):
        exc.after_rollback = None  # type: ignore[union-attr]  # once, even if the error is re-raised through more work
        follow_up()


def _apply(conn: sqlite3.Connection, migrations: Sequence[Migration]) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                 " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)")
    applied = {row[0] for row in conn.execute("SELECT version FROM schema_version")}
    for number, name, sql in sorted(migrations):
        if number in applied:
            continue
        try:
            conn.execute("BEGIN IMMEDIATE")
            for statement in split_sql(sql):
                conn.execute(statement)
            conn.execute("INSERT INTO schema_version (version, name, applied_at)"
                         " VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))", (number, name))
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise MigrationError(f"schema file {name} failed: {exc}") from exc


def _is_blank(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0


# Empty databases migrated to a set of migrations, kept for the process: a fresh in-memory database
# (every test's emulator, an embedded one) copies one with SQLite's backup in about a millisecond,
# where running the migrations again costs ~100 ms (mostly ALTER TABLE, which re-reads the whole
# schema each time). The copy is the same schema, schema_version rows included. A new process loads
# the template from the schema cache on disk (``schema_cache_folder()``), named by a digest of the
# migrations' numbers, names and SQL, so a changed migration can never be served from a stale file.
_TEMPLATES: dict[tuple[Migration, ...], sqlite3.Connection] = {}
_TEMPLATES_LOCK = threading.Lock()
SCHEMA_CACHE_VARIABLE = "PLATFORMPP_SCHEMA_CACHE"


def schema_cache_folder() -> Path | None:
    """Where migrated empty schemas are kept between processes: ``$PLATFORMPP_SCHEMA_CACHE`` when set
    (empty: no cache on disk), else the user's cache folder."""
    configured = os.environ.get(SCHEMA_CACHE_VARIABLE)
    if configured is not None:
        return Path(configured) if configured else None
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("platformpp", appauthor=False)) / "schema"


def _schema_file(migrations: tuple[Migration, ...]) -> Path | None:
    """The schema cache's file for ``migrations``; None when no cache is kept on disk."""
    folder = schema_cache_folder()
    if folder is None:
        return None
    digest = hashlib.sha256()
    for number, name, sql in migrations:
        digest.update(f"{number}\0{name}\0{len(sql)}\0".encode())
        digest.update(sql.encode())
    return folder / f"schema-{digest.hexdigest()[:32]}.sqlite3"


def _new_template() -> sqlite3.Connection:
    template = sqlite3.connect(MEMORY, isolation_level=None, check_same_thread=False)
    template.execute("PRAGMA foreign_keys=ON")
    return template


def _load_cached(path: Path, migrations: tuple[Migration, ...]) -> sqlite3.Connection | None:
    """A template read from the schema cache file ``path``; None when it is not usable: missing,
    unreadable, or not recording exactly these migrations."""
    if not path.is_file():
        return None
    template = _new_template()
    try:
        cached = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
        try:
            cached.backup(template)
        finally:
            cached.close()
        recorded = [tuple(row) for row in template.execute("SELECT version, name FROM schema_version ORDER BY version")]
    except sqlite3.Error:
        recorded = None
    if recorded == [(number, name) for number, name, _ in migrations]:
        return template
    template.close()
    return None


def _store_cached(template: sqlite3.Connection, path: Path) -> None:
    """Write the migrated template to the schema cache file ``path`` (replacing one that could not be
    used), atomically: a concurrent reader sees the whole file or none. A cache that cannot be written
    is only a slower next start."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, scratch = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".partial")
        os.close(handle)
        try:
            target = sqlite3.connect(scratch)
            try:
                template.backup(target)
            finally:
                target.close()
            os.replace(scratch, path)
        finally:
            if os.path.exists(scratch):
                os.unlink(scratch)
    except (OSError, sqlite3.Error):
        return


def _copy_migrated(conn: sqlite3.Connection, migrations: Sequence[Migration]) -> None:
    """``conn`` (blank) becomes a copy of the empty database migrated to ``migrations``."""
    key = tuple(sorted(migrations))
    with _TEMPLATES_LOCK:   # one template connection, read by one copy at a time
        template = _TEMPLATES.get(key)
        if template is None:
            cached = _schema_file(key)
            template = _load_cached(cached, key) if cached is not None else None
            if template is None:
                template = _new_template()
                _apply(template, key)
                if cached is not None:
                    _store_cached(template, cached)
            _TEMPLATES[key] = template
        template.backup(conn)
