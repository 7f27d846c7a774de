"""A poll as a message carries it: made from the request (``new_poll``), and its ``results`` as the
message shows them to one reader: the count of each answer voted for, and whether the reader voted
for it (``me_voted``). Messages are rendered by areas/channel_messages (guild channels) and
areas/private_channels (DMs), which call ``fill`` for the messages they render with their table of
votes; this module reads only the votes."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from typing import Any, Literal

from ...core.clock import format_instant
from ...core.errors import ApiError
from ...events.audience import Payload

CANNOT_EDIT_POLL = 520003
# The votes of guild channel messages' polls, and of DM and group DM messages' polls.
VoteTable = Literal["poll_votes", "private_poll_votes"]


def new_poll(poll: dict[str, Any], now: datetime) -> Payload:
    """The poll as messages carry it: it ends ``duration`` hours from now; no votes yet."""
    return {"question": poll["question"], "answers": poll["answers"],
            "expiry": format_instant(now + timedelta(hours=poll["duration"])),
            "allow_multiselect": poll["allow_multiselect"], "layout_type": poll["layout_type"],
            "results": {"answer_counts": [], "is_finalized": False}}


def fill(conn: sqlite3.Connection, messages: list[Payload], viewer_id: int | None,
         votes: VoteTable = "poll_votes") -> None:
    """Set ``poll.results.answer_counts`` of the messages carrying a poll (in place), with one query."""
    polled = {m["id"]: m for m in messages if "poll" in m}
    if not polled:
        return
    marks = ",".join("?" * len(polled))
    counts: dict[str, list[Payload]] = {}
    for row in conn.execute(
            f"SELECT message_id, answer_id, COUNT(*) AS n, MAX(user_id = ?) AS mine FROM {votes}"
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
