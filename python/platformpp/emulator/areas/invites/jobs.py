"""The target-users job: replaces an invite's target users with a staged upload, in batches, each its
own transaction, so that its progress (``processed_users``) can be read while it runs.

queued (0) -> processing (1) -> completed (2), or failed (3) with ``error_message`` naming the first
line whose id is no user (the old list is then kept). A job whose invite was deleted, or that a newer
upload replaced, stops and drops its upload."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import TYPE_CHECKING

from ...core.clock import format_instant
from ...core.http import off_loop
from . import store

if TYPE_CHECKING:
    from ...state import EmulatorState

QUEUED, PROCESSING, COMPLETED, FAILED = 0, 1, 2, 3
BATCH = 1000

# Running jobs, kept referenced until they finish (asyncio keeps only weak references to tasks).
_running: set[asyncio.Task[None]] = set()


def start(state: EmulatorState, code: str, upload_id: int) -> None:
    """Run the job in a worker thread; called from a request handler after the commit."""
    task = asyncio.get_running_loop().create_task(off_loop(run, state, code, upload_id))
    _running.add(task)
    task.add_done_callback(_running.discard)


def _current(conn: sqlite3.Connection, code: str, upload_id: int) -> bool:
    row = conn.execute("SELECT upload_id FROM invite_target_jobs WHERE code = ?", (code,)).fetchone()
    return row is not None and row["upload_id"] == upload_id


def run(state: EmulatorState, code: str, upload_id: int) -> None:
    with state.db.transaction() as conn:
        if not _current(conn, code, upload_id):
            store.discard_upload(conn, upload_id)
            return
        conn.execute("UPDATE invite_target_jobs SET status = ? WHERE code = ?", (PROCESSING, code))
        unknown = store.first_unknown_user(conn, upload_id)
        if unknown is not None:
            line, user_id = unknown
            conn.execute("UPDATE invite_target_jobs SET status = ?, completed_at = ?, error_message = ?"
                         " WHERE code = ?", (FAILED, state.clock.iso(),
                                             f"line {line}: {user_id} is not a known user", code))
            store.discard_upload(conn, upload_id)
            return
        conn.execute("DELETE FROM invite_target_users WHERE code = ?", (code,))
        conn.execute("UPDATE guild_invites SET restricted = 1 WHERE code = ?", (code,))
    after = 0
    while True:
        with state.db.transaction() as conn:
            if not _current(conn, code, upload_id):
                store.discard_upload(conn, upload_id)
                return
            rows = conn.execute("SELECT line, user_id FROM invite_target_uploads"
                                " WHERE upload_id = ? AND line > ? ORDER BY line LIMIT ?",
                                (upload_id, after, BATCH)).fetchall()
            if not rows:
                store.discard_upload(conn, upload_id)
                conn.execute("UPDATE invite_target_jobs SET status = ?, completed_at = ?,"
                             " processed_users = (SELECT COUNT(*) FROM invite_target_users WHERE code = ?)"
                             " WHERE code = ?", (COMPLETED, format_instant(state.clock.now()), code, code))
                return
            store.set_targets(conn, code, (row["user_id"] for row in rows), add=True)
            after = rows[-1]["line"]
            conn.execute("UPDATE invite_target_jobs SET processed_users ="
                         " (SELECT COUNT(*) FROM invite_target_users WHERE code = ?) WHERE code = ?",
                         (code, code))
