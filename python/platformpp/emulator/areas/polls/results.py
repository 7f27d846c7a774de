"""A poll's ``results`` as a message shows it to one reader: the count of each answer voted for, and
whether the reader voted for it (``me_voted``). Messages are rendered by areas/channel_messages, which
calls ``fill`` for the messages it renders; this module reads only the votes."""

from __future__ import annotations

import sqlite3

from ...core.errors import ApiError
from ...events.audience import Payload

CANNOT_EDIT_POLL = 520003


def fill(conn: sqlite3.Connection, messages: list[Payload], viewer_id: int | None) -> None:
    """Set ``poll.results.answer_counts`` of the messages carrying a poll (in place), with one query."""
    polled = {m["id"]: m for m in messages if "poll" in m}
    if not polled:
        return
    marks = ",".join("?" * len(polled))
    counts: dict[str, list[Payload]] = {}
    for row in conn.execute(
            f"SELECT message_id, answer_id, COUNT(*) AS n, MAX(user_id = ?) AS mine FROM poll_votes"
            f" WHERE message_id IN ({marks}) GROUP BY message_id, answer_id ORDER BY message_id, answer_id",
            (viewer_id or 0, *(int(i) for i in polled))):
        counts.setdefault(str(row["message_id"]), []).append(
            {"id": row["answer_id"], "count": row["n"], "me_voted": bool(row["mine"])})
    for message_id, message in polled.items():
        poll = message["poll"]
        poll["results"] = {**poll.get("results", {}), "answer_counts": counts.get(message_id, [])}
        poll["results"].setdefault("is_finalized", False)


def refuse_edit(row: sqlite3.Row, given: set[str]) -> None:
    """A poll message keeps what it says: only its flags may change (400 / 520003 otherwise)."""
    if "poll" in given or (row["poll"] is not None and given - {"flags"}):
        raise ApiError(400, CANNOT_EDIT_POLL, "Cannot edit a poll message")
