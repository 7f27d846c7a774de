"""What happens to a provisional account's social data when it is merged into a full account: its
lobby memberships and messages, game direct messages, game relationships and identity profile in
that game move to the full account (the full account's own data wins where both have some). After
an unmerge the data stays with the full account, as the merged account's history."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from .events import Event

if TYPE_CHECKING:
    from .state import EmulatorState


def move_social_data(conn: sqlite3.Connection, application_id: int, source: int, target: int) -> None:
    lobbies = "SELECT id FROM lobbies WHERE application_id = ?"
    # Lobbies the full account is already in keep its own membership.
    conn.execute(f"DELETE FROM lobby_members WHERE user_id = ? AND lobby_id IN ({lobbies})"
                 " AND lobby_id IN (SELECT lobby_id FROM lobby_members WHERE user_id = ?)",
                 (source, application_id, target))
    conn.execute(f"UPDATE lobby_members SET user_id = ? WHERE user_id = ? AND lobby_id IN ({lobbies})",
                 (target, source, application_id))
    conn.execute(f"UPDATE lobby_messages SET author_id = ? WHERE author_id = ? AND lobby_id IN ({lobbies})",
                 (target, source, application_id))
    conn.execute("DELETE FROM lobby_invites WHERE target_user_id = ? AND used_at IS NULL", (source,))
    # Direct messages between the two accounts have nobody left to talk to; the others move.
    conn.execute("DELETE FROM dm_messages WHERE application_id = ? AND user_low = ? AND user_high = ?",
                 (application_id, min(source, target), max(source, target)))
    conn.execute("UPDATE dm_messages SET author_id = ? WHERE application_id = ? AND author_id = ?",
                 (target, application_id, source))
    conn.execute("UPDATE dm_messages SET recipient_id = ? WHERE application_id = ? AND recipient_id = ?",
                 (target, application_id, source))
    conn.execute("UPDATE dm_messages SET user_low = MIN(author_id, recipient_id), user_high = MAX(author_id,"
                 " recipient_id) WHERE application_id = ? AND ? IN (author_id, recipient_id)",
                 (application_id, target))
    for column in ("user_id", "other_id"):
        conn.execute(f"UPDATE OR IGNORE game_relationships SET {column} = ? WHERE application_id = ? AND {column} = ?"
                     " AND user_id != other_id", (target, application_id, source))
    conn.execute("DELETE FROM game_relationships WHERE application_id = ? AND (? IN (user_id, other_id)"
                 " OR user_id = other_id)", (application_id, source))
    conn.execute("UPDATE OR IGNORE application_identity_profiles SET user_id = ? WHERE application_id = ?"
                 " AND user_id = ?", (target, application_id, source))
    conn.execute("DELETE FROM application_identity_profiles WHERE application_id = ? AND user_id = ?",
                 (application_id, source))


def subscribe(state: EmulatorState) -> None:
    def on_event(event: Event) -> None:
        if event.name != "account.merged":
            return
        payload = event.payload
        # The event arrives from the merge's after-commit callback, where ``transaction()`` joins the
        # finished transaction instead of opening one: a savepoint makes the move atomic either way.
        with state.db.transaction() as conn:
            conn.execute("SAVEPOINT social_merge")
            try:
                move_social_data(conn, int(payload["application_id"]), int(payload["provisional_user_id"]),
                                 int(payload["user_id"]))
            except BaseException:
                conn.execute("ROLLBACK TO social_merge")
                raise
            finally:
                conn.execute("RELEASE social_merge")

    state.events.subscribe(on_event)
