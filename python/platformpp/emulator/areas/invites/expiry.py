"""Invites expire on the emulator clock: when an invite's ``expires_at`` passes it is deleted and its
audience gets INVITE_DELETE (as when it is used up; no audit entry: nobody deleted it).

Expiry is applied at the instant it falls due: one timer per emulator waits (in real time, the clock
running at real speed) for the earliest ``expires_at``; a move of the clock (its ``on_change`` hook), a
new invite and a new world re-arm it. A frozen clock never reaches a new instant by itself, so then only
a move of the clock expires anything. The timer holds the emulator weakly: a stopped emulator's timer
does nothing."""

from __future__ import annotations

import logging
import sqlite3
import threading
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...core.clock import format_instant, parse_instant
from ...events.bus import Event
from ...events.outbox import Outbox
from . import store

if TYPE_CHECKING:
    from ...state import EmulatorState

log = logging.getLogger("platformpp.emulator.invites")
_KEY = "invites.expiry"
# A timer wakes a little after the instant, so that the clock reads it as passed.
_SLACK_S = 0.005
# ... and at least this often (then re-arms): a stopped emulator's timer thread ends within this long,
# whatever its invites' lifetimes (a day by default).
_MAX_WAIT_S = 60.0


@dataclass
class _Timer:
    lock: threading.Lock = field(default_factory=threading.Lock)
    timer: threading.Timer | None = None


def expire_due(state: EmulatorState) -> int:
    """Delete every invite whose expiry has passed (INVITE_DELETE each), in one transaction."""
    outbox = Outbox(state)
    with state.db.transaction() as conn:
        now = state.clock.now()
        rows = conn.execute("SELECT * FROM guild_invites WHERE expires_at IS NOT NULL AND expires_at <= ?"
                            " ORDER BY expires_at, code", (format_instant(now),)).fetchall()
        for row in rows:
            store.delete(conn, outbox, now, row, None)
        return len(rows)


def _next_expiry(conn: sqlite3.Connection) -> str | None:
    row = conn.execute("SELECT MIN(expires_at) FROM guild_invites WHERE expires_at IS NOT NULL").fetchone()
    return row[0] if row else None


def arm(state: EmulatorState) -> None:
    """(Re)start the timer for the earliest expiry (none when no invite expires or the clock is frozen)."""
    holder: _Timer = state.extras.setdefault(_KEY, _Timer())
    with state.db.transaction() as conn:
        earliest = _next_expiry(conn)
    delay = None
    if earliest is not None and not state.clock.frozen:
        remaining = (parse_instant(earliest) - state.clock.now()).total_seconds()
        delay = min(_MAX_WAIT_S, max(0.0, remaining) + _SLACK_S)
    state_ref = weakref.ref(state)

    def fire() -> None:
        current = state_ref()
        if current is None:
            return
        try:
            expire_due(current)
            arm(current)
        except Exception:   # e.g. the emulator stopped and closed its database meanwhile
            log.debug("invite expiry run failed", exc_info=True)

    with holder.lock:
        if holder.timer is not None:
            holder.timer.cancel()
            holder.timer = None
        if delay is not None:
            holder.timer = threading.Timer(delay, fire)
            holder.timer.daemon = True
            holder.timer.start()


def apply_now(state: EmulatorState) -> None:
    """Expire what is due, then wait for the next (the clock hook; a new world)."""
    try:
        expire_due(state)
        arm(state)
    except Exception:
        log.debug("invite expiry run failed", exc_info=True)


def start(state: EmulatorState) -> None:
    """Area startup: follow the clock and new worlds, and arm for what is stored."""
    state.clock.on_change(lambda: apply_now(state))

    def on_event(event: Event) -> None:
        if event.name == "emulator.loaded":
            apply_now(state)

    state.bus.subscribe(on_event, dispatches=False)
    apply_now(state)
