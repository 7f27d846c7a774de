"""Relationships: platform ones (friends, blocks, pending requests; visible in every game) and game
ones (the same kinds, scoped to one application). Each change is dispatched to the two users' SDK
sessions as RELATIONSHIP_ADD / RELATIONSHIP_UPDATE / RELATIONSHIP_REMOVE, from that user's point of
view.

Types (both kinds): 0 none, 1 friend, 2 blocked, 3 pending incoming, 4 pending outgoing; platform
ones also 5 implicit and 6 suggestion (one-directional, from fixtures: the platform's own doing). An
incoming platform request may carry ``is_spam_request`` (the platform's spam filter flagged it).
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ...core import errors
from ...core.errors import ApiError
from ...events.audience import Payload, Viewer
from ...events.outbox import Outbox
from ...wire.user import public_user_json
from ..presence.store import presence_object

NONE, FRIEND, BLOCKED, INCOMING, OUTGOING, IMPLICIT, SUGGESTION = 0, 1, 2, 3, 4, 5, 6


FIXTURE_KINDS = ("friend", "blocked", "pending", "implicit", "suggestion")


def _platform(conn: sqlite3.Connection, user_id: int, other_id: int) -> int:
    row = conn.execute("SELECT type FROM relationships WHERE user_id = ? AND other_id = ?",
                       (user_id, other_id)).fetchone()
    return row[0] if row else NONE


def _game(conn: sqlite3.Connection, application_id: int, user_id: int, other_id: int) -> int:
    row = conn.execute("SELECT type FROM game_relationships WHERE application_id = ? AND user_id = ?"
                       " AND other_id = ?", (application_id, user_id, other_id)).fetchone()
    return row[0] if row else NONE


def relationship_object(conn: sqlite3.Connection, application_id: int, user_id: int, other_id: int
                        ) -> Payload | None:
    """``{id, type, game_type, user, since}`` as ``user_id`` sees ``other_id`` in one application."""
    platform, game = _platform(conn, user_id, other_id), _game(conn, application_id, user_id, other_id)
    if platform == NONE and game == NONE:
        return None
    user = conn.execute("SELECT * FROM users WHERE id = ?", (other_id,)).fetchone()
    since = conn.execute(
        "SELECT MIN(since) FROM (SELECT since FROM relationships WHERE user_id = ? AND other_id = ? UNION ALL"
        " SELECT since FROM game_relationships WHERE application_id = ? AND user_id = ? AND other_id = ?)",
        (user_id, other_id, application_id, user_id, other_id)).fetchone()[0]
    spam = conn.execute("SELECT is_spam_request FROM relationships WHERE user_id = ? AND other_id = ?",
                        (user_id, other_id)).fetchone()
    return {"id": str(other_id), "type": platform, "game_type": game,
            "user": public_user_json(user) if user else {"id": str(other_id)}, "since": since,
            "is_spam_request": bool(spam[0]) if spam else False}


def list_for(conn: sqlite3.Connection, application_id: int, user_id: int) -> list[Payload]:
    others = {r[0] for r in conn.execute("SELECT other_id FROM relationships WHERE user_id = ?", (user_id,))}
    others |= {r[0] for r in conn.execute("SELECT other_id FROM game_relationships WHERE application_id = ?"
                                          " AND user_id = ?", (application_id, user_id))}
    result = [relationship_object(conn, application_id, user_id, o) for o in sorted(others)]
    return [r for r in result if r is not None]


def _set(conn: sqlite3.Connection, table: str, application_id: int | None, user_id: int, other_id: int,
         kind: int, now: str) -> None:
    scope = "application_id = ? AND " if table == "game_relationships" else ""
    keys: tuple[Any, ...] = (application_id,) if table == "game_relationships" else ()
    if kind == NONE:
        conn.execute(f"DELETE FROM {table} WHERE {scope}user_id = ? AND other_id = ?", (*keys, user_id, other_id))
        return
    existing = conn.execute(f"SELECT type FROM {table} WHERE {scope}user_id = ? AND other_id = ?",
                            (*keys, user_id, other_id)).fetchone()
    if existing is None:
        columns = ("application_id, " if keys else "") + "user_id, other_id, type, since"
        conn.execute(f"INSERT INTO {table} ({columns}) VALUES ({', '.join('?' * (len(keys) + 4))})",
                     (*keys, user_id, other_id, kind, now))
    elif existing[0] != kind:
        spam = ", is_spam_request = 0" if table == "relationships" else ""   # only a pending request is spam
        conn.execute(f"UPDATE {table} SET type = ?, since = ?{spam} WHERE {scope}user_id = ? AND other_id = ?",
                     (kind, now, *keys, user_id, other_id))


def change(conn: sqlite3.Connection, table: str, application_id: int | None, me: int, other: int,
           action: str, now: str) -> None:
    """Apply ``action`` (request, block, remove) from ``me`` towards ``other`` to both directions."""
    mine = _type(conn, table, application_id, me, other)
    theirs = _type(conn, table, application_id, other, me)
    if action == "block":
        _set(conn, table, application_id, me, other, BLOCKED, now)
        if theirs != BLOCKED:
            _set(conn, table, application_id, other, me, NONE, now)
    elif action == "request":
        if BLOCKED in (mine, theirs):
            raise ApiError(403, errors.MISSING_ACCESS, "Missing Access: a block is in place between these users.")
        if mine == INCOMING or mine == FRIEND:
            _set(conn, table, application_id, me, other, FRIEND, now)
            _set(conn, table, application_id, other, me, FRIEND, now)
        else:
            _set(conn, table, application_id, me, other, OUTGOING, now)
            _set(conn, table, application_id, other, me, INCOMING, now)
    else:  # remove: unfriend, cancel or decline a request, or lift my block
        _set(conn, table, application_id, me, other, NONE, now)
        if theirs != BLOCKED:
            _set(conn, table, application_id, other, me, NONE, now)


def _type(conn: sqlite3.Connection, table: str, application_id: int | None, user_id: int, other_id: int) -> int:
    if table == "game_relationships":
        assert application_id is not None
        return _game(conn, application_id, user_id, other_id)
    return _platform(conn, user_id, other_id)


def _views(conn: sqlite3.Connection, a: int, b: int) -> dict[tuple[int, int], tuple[int, dict[int, int]]]:
    """Each direction's platform type and game types by application, to diff before/after."""
    views = {}
    for user_id, other_id in ((a, b), (b, a)):
        games = {r[0]: r[1] for r in conn.execute("SELECT application_id, type FROM game_relationships"
                                                  " WHERE user_id = ? AND other_id = ?", (user_id, other_id))}
        views[(user_id, other_id)] = (_platform(conn, user_id, other_id), games)
    return views


def announce(conn: sqlite3.Connection, outbox: Outbox, before: dict[Any, Any], after: dict[Any, Any]) -> None:
    """Dispatch, to each of the two users' SDK sessions, how the relationship changed for them."""
    for (user_id, other_id), (platform_after, games_after) in after.items():
        platform_before, games_before = before[(user_id, other_id)]
        apps = {r[0] for r in conn.execute("SELECT id FROM applications")}
        objects = {app: relationship_object(conn, app, user_id, other_id) for app in apps}
        for event in ("RELATIONSHIP_ADD", "RELATIONSHIP_UPDATE", "RELATIONSHIP_REMOVE"):
            outbox.add(event, _render(event, user_id, other_id, (platform_before, games_before),
                                      (platform_after, games_after), objects))
        outbox.add("PRESENCE_UPDATE", _new_friend_presence(conn, user_id, other_id, (platform_before, games_before),
                                                           (platform_after, games_after)))


def _new_friend_presence(conn: sqlite3.Connection, user_id: int, other_id: int, before: tuple[int, dict[int, int]],
                         after: tuple[int, dict[int, int]]) -> Any:
    """A new friend's presence, so that ``user_id``'s sessions need not wait for its next change."""
    payload = presence_object(conn, other_id)

    def render(viewer: Viewer) -> Payload | None:
        if viewer.kind != "bearer" or viewer.user_id != user_id:
            return None
        was = before[0] == FRIEND or before[1].get(viewer.application_id) == FRIEND
        now = after[0] == FRIEND or after[1].get(viewer.application_id) == FRIEND
        return payload if now and not was else None
    return render


def _render(event: str, user_id: int, other_id: int, before: tuple[int, dict[int, int]],
            after: tuple[int, dict[int, int]], objects: dict[int, Payload | None]) -> Any:
    def render(viewer: Viewer) -> Payload | None:
        if viewer.kind != "bearer" or viewer.user_id != user_id:
            return None
        old = (before[0], before[1].get(viewer.application_id, NONE))
        new = (after[0], after[1].get(viewer.application_id, NONE))
        if old == new:
            return None
        kind = ("RELATIONSHIP_ADD" if old == (NONE, NONE) else
                "RELATIONSHIP_REMOVE" if new == (NONE, NONE) else "RELATIONSHIP_UPDATE")
        if kind != event:
            return None
        if kind == "RELATIONSHIP_REMOVE":
            return {"id": str(other_id), "type": old[0], "game_type": old[1]}
        return objects.get(viewer.application_id)
    return render


def move_account_data(conn: sqlite3.Connection, application_id: int, source: int, target: int) -> None:
    """A provisional account merged into ``target``: its game relationships move (none with itself)."""
    for column in ("user_id", "other_id"):
        conn.execute(f"UPDATE OR IGNORE game_relationships SET {column} = ? WHERE application_id = ? AND {column} = ?"
                     " AND user_id != other_id", (target, application_id, source))
    conn.execute("DELETE FROM game_relationships WHERE application_id = ? AND (? IN (user_id, other_id)"
                 " OR user_id = other_id)", (application_id, source))


def user_id_by_username(conn: sqlite3.Connection, username: str) -> int:
    """The signed-up user with this unique username (friend requests by username); 404 otherwise."""
    row = conn.execute("SELECT id FROM users WHERE username = ? AND provisional = 0 AND merged_into IS NULL",
                       (username,)).fetchone()
    if row is None:
        raise errors.not_found(errors.UNKNOWN_USER, "User")
    return int(row[0])
