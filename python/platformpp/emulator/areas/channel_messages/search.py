"""Search Guild Messages over SQLite FTS5 (``message_search``, rowid = message id) with bm25 relevance.

Indexing is asynchronous, as on the platform: a guild can be searched once its indexing job has run
(``search_index_state.ready``). Until then a search answers 202 / 110000 and starts the job if none is
pending. Jobs run on a timer thread: every guild when the emulator starts or its world is (re)loaded,
a guild first searched, or one marked "not indexed yet" through the admin API. A job rebuilds the
guild's part of the index from its messages; afterwards every write keeps it current."""

from __future__ import annotations

import logging
import re
import sqlite3
import threading
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...events.bus import Event
    from ...state import EmulatorState

log = logging.getLogger("platformpp.emulator.search")

INDEX_NOT_READY = 110000
# How long a client is told to wait before searching a guild that is being indexed (seconds).
RETRY_AFTER_S = 2
_JOBS_KEY = "channel_messages.search_jobs"
_WORD = re.compile(r"\w+", re.UNICODE)


# --- keeping the index current (inside the writer's transaction) -------------------------------------
#
# In an in-memory store a new message is queued in a per-connection TEMP table (transactional like
# the write that queues it, never in snapshots) and moved into the full-text index in batches: FTS5
# writes a new index segment at every commit that touched it, which cost a one-message transaction
# about as much as the rest of its writes together. Whatever reads or changes the index (a search, its
# document count, an edit, a delete, a rebuild) first moves the queue in, in the same transaction, so
# every reader sees exactly the index it would have seen without the queue. A file's index is written
# at once: it must survive a restart, and a TEMP table does not.

_QUEUE = "temp.message_search_queue"
_QUEUE_BATCH = 256   # queued messages that start a move on the next new message
_queued_since_move = 0


def _no_queue_table(exc: sqlite3.OperationalError) -> bool:
    return "no such table" in str(exc)


def index_message(conn: sqlite3.Connection, message_id: int, guild_id: int, content: str, *, new: bool = False,
                  in_memory: bool = False) -> None:
    """Index a message's content, replacing what was indexed of it. ``new``: a message just created,
    which has nothing indexed (ids are never reused); in an ``in_memory`` store it is queued."""
    global _queued_since_move
    if not new:
        unindex_message(conn, message_id)
    if not (new and in_memory):
        conn.execute("INSERT INTO message_search (rowid, content, guild_id) VALUES (?, ?, ?)",
                     (message_id, content, guild_id))
        return
    row = (message_id, content, guild_id)
    try:
        conn.execute(f"INSERT INTO {_QUEUE} (id, content, guild_id) VALUES (?, ?, ?)", row)
    except sqlite3.OperationalError as exc:   # the connection's first queued message
        if not _no_queue_table(exc):
            raise
        conn.execute(f"CREATE TEMP TABLE IF NOT EXISTS {_QUEUE.split('.')[1]}"
                     " (id INTEGER PRIMARY KEY, content TEXT NOT NULL, guild_id INTEGER NOT NULL)")
        conn.execute(f"INSERT INTO {_QUEUE} (id, content, guild_id) VALUES (?, ?, ?)", row)
    _queued_since_move += 1
    if _queued_since_move >= _QUEUE_BATCH:
        move_queue(conn)


def move_queue(conn: sqlite3.Connection) -> None:
    """Move the queued messages into the index (call inside a transaction, before reading the index)."""
    global _queued_since_move
    _queued_since_move = 0
    try:
        conn.execute(f"INSERT INTO message_search (rowid, content, guild_id) SELECT id, content, guild_id"
                     f" FROM {_QUEUE} ORDER BY id")
    except sqlite3.OperationalError as exc:   # nothing was ever queued on this connection
        if not _no_queue_table(exc):
            raise
        return
    conn.execute(f"DELETE FROM {_QUEUE}")


def unindex_message(conn: sqlite3.Connection, message_id: int) -> None:
    move_queue(conn)
    conn.execute("DELETE FROM message_search WHERE rowid = ?", (message_id,))


def match_query(text: str) -> str | None:
    """The FTS5 query for a search string: every word must occur (quoted, so no operator syntax
    leaks through); None when the text has no word at all."""
    words = _WORD.findall(text)
    return " ".join('"' + word.replace('"', '""') + '"' for word in words) if words else None


# --- readiness and jobs --------------------------------------------------------------------------------

def is_ready(conn: sqlite3.Connection, guild_id: int) -> bool:
    row = conn.execute("SELECT ready FROM search_index_state WHERE guild_id = ?", (guild_id,)).fetchone()
    return bool(row and row["ready"])


def documents_indexed(conn: sqlite3.Connection, guild_id: int) -> int:
    move_queue(conn)
    return int(conn.execute("SELECT COUNT(*) FROM message_search WHERE guild_id = ?", (guild_id,)).fetchone()[0])


def rebuild(state: EmulatorState, guild_id: int) -> int:
    """The indexing job: rebuild the guild's part of the index and mark it ready. Returns the number
    of messages indexed (0 when the guild no longer exists)."""
    with state.db.transaction() as conn:
        move_queue(conn)
        conn.execute("DELETE FROM message_search WHERE guild_id = ?", (guild_id,))
        if conn.execute("SELECT 1 FROM guilds WHERE id = ?", (guild_id,)).fetchone() is None:
            return 0
        conn.execute("INSERT INTO message_search (rowid, content, guild_id)"
                     " SELECT id, content, guild_id FROM channel_messages WHERE guild_id = ?", (guild_id,))
        conn.execute("INSERT INTO search_index_state (guild_id, ready) VALUES (?, 1)"
                     " ON CONFLICT (guild_id) DO UPDATE SET ready = 1", (guild_id,))
        return documents_indexed(conn, guild_id)


@dataclass
class _Jobs:
    lock: threading.Lock
    pending: dict[int, threading.Timer]


def _jobs(state: EmulatorState) -> _Jobs:
    jobs = state.extras.get(_JOBS_KEY)
    if jobs is None:
        jobs = state.extras.setdefault(_JOBS_KEY, _Jobs(threading.Lock(), {}))
    return jobs


def schedule(state: EmulatorState, guild_id: int, delay_s: float = 0.0, *, replace: bool = False) -> None:
    """Start the guild's indexing job after ``delay_s`` (unless one is pending and not ``replace``)."""
    jobs = _jobs(state)
    # The timer holds the emulator weakly: a stopped emulator's pending job does not keep it alive.
    state_ref = weakref.ref(state)

    def run() -> None:
        with jobs.lock:
            if jobs.pending.get(guild_id) is not timer:
                return
        try:
            current = state_ref()
            if current is not None:
                rebuild(current, guild_id)
        except Exception:   # e.g. the emulator stopped and closed its database meanwhile
            log.warning("search indexing job for guild %s failed", guild_id, exc_info=True)
        finally:
            with jobs.lock:
                if jobs.pending.get(guild_id) is timer:
                    del jobs.pending[guild_id]

    with jobs.lock:
        current = jobs.pending.get(guild_id)
        if current is not None:
            if not replace:
                return
            current.cancel()
        timer = threading.Timer(delay_s, run)
        timer.daemon = True
        jobs.pending[guild_id] = timer
    timer.start()


def mark_not_indexed(state: EmulatorState, conn: sqlite3.Connection, guild_id: int, index_after_s: float) -> None:
    """Admin: the guild answers 110000 until a job, started ``index_after_s`` after the commit, has run."""
    conn.execute("INSERT INTO search_index_state (guild_id, ready) VALUES (?, 0)"
                 " ON CONFLICT (guild_id) DO UPDATE SET ready = 0", (guild_id,))
    state.db.on_commit(lambda: schedule(state, guild_id, index_after_s, replace=True))


def index_all(state: EmulatorState) -> None:
    """Start a job for every guild not indexed yet (start-up, and after the world is loaded)."""
    rows = state.db.query("SELECT g.id FROM guilds g LEFT JOIN search_index_state s ON s.guild_id = g.id"
                          " WHERE s.ready IS NULL OR s.ready = 0")
    for row in rows:
        schedule(state, row[0])


def start(state: EmulatorState) -> None:
    def on_event(event: Event) -> None:
        if event.name == "emulator.loaded":   # a new world: the old index describes nothing in it
            with state.db.transaction() as conn:
                move_queue(conn)
                conn.execute("DELETE FROM message_search")
                conn.execute("UPDATE search_index_state SET ready = 0")   # a snapshot may say ready
            index_all(state)

    state.bus.subscribe(on_event, dispatches=False)
    index_all(state)
