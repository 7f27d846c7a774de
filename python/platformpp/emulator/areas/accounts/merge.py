"""What happens to a provisional account's data when it is merged into a full account: every area
that keeps per-user data of a game moves it (lobby memberships and messages, direct messages, game
relationships, identity profiles), the full account's own data winning where both have some. After
an unmerge the data stays with the full account, as the merged account's history.

The accounts area publishes ``account.merged`` after the merge commits; an area subscribes its
``move(conn, application_id, source_user_id, target_user_id)`` with ``on_account_merged``."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING

from ...events.bus import Event

if TYPE_CHECKING:
    from ...state import EmulatorState

MoveAccountData = Callable[[sqlite3.Connection, int, int, int], None]


def on_account_merged(state: EmulatorState, move: MoveAccountData) -> None:
    def on_event(event: Event) -> None:
        if event.name != "account.merged":
            return
        payload = event.payload
        # The event arrives from the merge's after-commit callback, where ``transaction()`` joins the
        # finished transaction instead of opening one: a savepoint makes the move atomic either way.
        with state.db.transaction() as conn:
            conn.execute("SAVEPOINT account_merge")
            try:
                move(conn, int(payload["application_id"]), int(payload["provisional_user_id"]),
                     int(payload["user_id"]))
            except BaseException:
                conn.execute("ROLLBACK TO account_merge")
                raise
            finally:
                conn.execute("RELEASE account_merge")

    state.bus.subscribe(on_event, dispatches=False)
