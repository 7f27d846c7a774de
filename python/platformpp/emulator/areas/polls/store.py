"""Polls of channel messages: votes (added and removed, single or multiple choice), the voters of an
answer, and the end of a poll (early by its author, or at its expiry on the emulator clock): the
results are finalised, the message is updated and the channel gets the poll result message (type 46,
with the ``poll_result`` embed the platform sends). Every function runs in the caller's transaction
and adds its dispatches to the caller's outbox."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ...core import errors
from ...core.clock import format_instant, parse_instant
from ...core.errors import ApiError
from ...core.permissions import Permission
from ...events.audience import Payload
from ...wire.user import public_user_json
from ..channel_messages import store as channel_store
from ..channel_messages.access import bot_members_viewing, channel_access
from ..channel_messages.audience import GuildBots

if TYPE_CHECKING:
    from ...events.outbox import Outbox

GUILD_MESSAGE_POLLS = 1 << 24
POLL_RESULT = 46
MAX_VOTERS, DEFAULT_VOTERS = 100, 25
# The platform's poll error codes.
POLL_EXPIRED = 520001
NOT_A_POLL = 520006


def poll_of(row: sqlite3.Row) -> dict[str, Any]:
    if row["poll"] is None:
        raise ApiError(400, NOT_A_POLL, "Cannot expire a non-poll message")
    poll: dict[str, Any] = json.loads(row["poll"])
    return poll


def _answer(poll: dict[str, Any], answer_id: int) -> Payload:
    for answer in poll["answers"]:
        if answer["answer_id"] == answer_id:
            return answer  # type: ignore[no-any-return]
    raise errors.not_found(errors.UNKNOWN_MESSAGE, "Poll answer")


def _is_over(poll: dict[str, Any], now: datetime) -> bool:
    return bool(poll["results"].get("is_finalized")) or parse_instant(poll["expiry"]) <= now


def _vote_event(conn: sqlite3.Connection, outbox: Outbox, now: datetime, event: str, channel: sqlite3.Row,
                message_id: int, user_id: int, answer_id: int) -> None:
    payload = {"user_id": str(user_id), "channel_id": str(channel["id"]), "message_id": str(message_id),
               "guild_id": str(channel["guild_id"]), "answer_id": answer_id}
    outbox.add(event, GuildBots(channel["guild_id"], GUILD_MESSAGE_POLLS, payload,
                                bot_members_viewing(conn, channel, now)))


def vote(conn: sqlite3.Connection, outbox: Outbox, now: datetime, *, channel_id: int, message_id: int,
         user_id: int, answer_id: int) -> bool:
    """``user_id`` votes for ``answer_id`` (a user who can view the channel; 50001 otherwise). In a
    single-choice poll the vote replaces the user's other one (MESSAGE_POLL_VOTE_REMOVE, then ADD).
    False when the vote was already there. An ended poll refuses votes (520001)."""
    access = channel_access(conn, channel_id, user_id, now)
    row = channel_store.get_row(conn, channel_id, message_id)
    poll = poll_of(row)
    _answer(poll, answer_id)
    if _is_over(poll, now):
        raise ApiError(400, POLL_EXPIRED, "Poll expired")
    mine = [r["answer_id"] for r in conn.execute(
        "SELECT answer_id FROM poll_votes WHERE message_id = ? AND user_id = ?", (message_id, user_id))]
    if answer_id in mine:
        return False
    if not poll["allow_multiselect"]:
        for other in mine:
            conn.execute("DELETE FROM poll_votes WHERE message_id = ? AND user_id = ? AND answer_id = ?",
                         (message_id, user_id, other))
            _vote_event(conn, outbox, now, "MESSAGE_POLL_VOTE_REMOVE", access.channel, message_id, user_id, other)
    conn.execute("INSERT INTO poll_votes (message_id, answer_id, user_id) VALUES (?, ?, ?)",
                 (message_id, answer_id, user_id))
    _vote_event(conn, outbox, now, "MESSAGE_POLL_VOTE_ADD", access.channel, message_id, user_id, answer_id)
    return True


def unvote(conn: sqlite3.Connection, outbox: Outbox, now: datetime, *, channel_id: int, message_id: int,
           user_id: int, answer_id: int) -> bool:
    """Remove ``user_id``'s vote for ``answer_id``; False when there was none."""
    access = channel_access(conn, channel_id, user_id, now)
    row = channel_store.get_row(conn, channel_id, message_id)
    poll = poll_of(row)
    _answer(poll, answer_id)
    if _is_over(poll, now):
        raise ApiError(400, POLL_EXPIRED, "Poll expired")
    removed = conn.execute("DELETE FROM poll_votes WHERE message_id = ? AND user_id = ? AND answer_id = ?",
                           (message_id, user_id, answer_id)).rowcount
    if removed:
        _vote_event(conn, outbox, now, "MESSAGE_POLL_VOTE_REMOVE", access.channel, message_id, user_id, answer_id)
    return bool(removed)


def voters(conn: sqlite3.Connection, now: datetime, reader: channel_store.Author, *, channel_id: int,
           message_id: int, answer_id: int, after: int | None, limit: int) -> Payload:
    """``{users}``: who voted for the answer, by user id, after ``after``."""
    access = channel_access(conn, channel_id, reader.user_id, now)
    access.require(int(Permission.READ_MESSAGE_HISTORY))
    row = channel_store.get_row(conn, channel_id, message_id)
    _answer(poll_of(row), answer_id)
    users = conn.execute("SELECT u.* FROM poll_votes v JOIN users u ON u.id = v.user_id WHERE v.message_id = ?"
                         " AND v.answer_id = ? AND v.user_id > ? ORDER BY v.user_id LIMIT ?",
                         (message_id, answer_id, after or 0, limit)).fetchall()
    return {"users": [public_user_json(u) for u in users]}


def expire(conn: sqlite3.Connection, outbox: Outbox, next_id: Callable[[], int], now: datetime,
           author: channel_store.Author, *, channel_id: int, message_id: int) -> Payload:
    """The poll's author ends it now (50005 for another's poll, 520001 once ended): the message as
    it stands after."""
    channel_access(conn, channel_id, author.user_id, now)
    row = channel_store.get_row(conn, channel_id, message_id)
    poll = poll_of(row)
    if row["author_id"] != author.user_id:
        raise ApiError(403, channel_store.CANNOT_EDIT_OTHERS, "Cannot edit a message authored by another user")
    if poll["results"].get("is_finalized"):
        raise ApiError(400, POLL_EXPIRED, "Poll expired")
    finalize(conn, outbox, next_id, now, row)
    message = channel_store.render(conn, channel_store.get_row(conn, channel_id, message_id), author.user_id)
    return channel_store.for_reader(conn, message, author)


def _result_embed(poll: dict[str, Any], counts: list[Payload]) -> Payload:
    """The ``poll_result`` embed: the question, the total, and the victor when one answer leads."""
    total = sum(c["count"] for c in counts)
    top = max((c["count"] for c in counts), default=0)
    leaders = [c for c in counts if c["count"] == top and top > 0]
    fields = [("poll_question_text", poll["question"]["text"]),
              ("victor_answer_votes", str(top if len(leaders) == 1 else 0)), ("total_votes", str(total))]
    if len(leaders) == 1:
        victor = _answer(poll, leaders[0]["id"])
        fields += [("victor_answer_id", str(victor["answer_id"])), ("victor_answer_text", victor["poll_media"]["text"])]
    return {"type": "poll_result", "fields": [{"name": n, "value": v, "inline": False} for n, v in fields]}


def finalize(conn: sqlite3.Connection, outbox: Outbox, next_id: Callable[[], int], now: datetime,
             row: sqlite3.Row) -> None:
    """End the poll of message ``row``: results final (an early end moves ``expiry`` to now), the
    channel's bots hear MESSAGE_UPDATE, then MESSAGE_CREATE of the poll result message."""
    poll = poll_of(row)
    poll["results"] = {"answer_counts": [], "is_finalized": True}
    if parse_instant(poll["expiry"]) > now:
        poll["expiry"] = format_instant(now)
    conn.execute("UPDATE channel_messages SET poll = ? WHERE id = ?", (json.dumps(poll), row["id"]))
    channel = conn.execute("SELECT * FROM channels WHERE id = ?", (row["channel_id"],)).fetchone()
    updated = channel_store.render(conn, channel_store.get_row(conn, row["channel_id"], row["id"]))
    channel_store.announce_message(conn, outbox, "MESSAGE_UPDATE", channel, updated, now)
    reference = {"type": 0, "channel_id": str(row["channel_id"]), "message_id": str(row["id"]),
                 "guild_id": str(row["guild_id"])}
    result_id = int(next_id())
    conn.execute("INSERT INTO channel_messages (id, channel_id, guild_id, author_id, type, content, embeds,"
                 " message_reference, created_at) VALUES (?, ?, ?, ?, ?, '', ?, ?, ?)",
                 (result_id, row["channel_id"], row["guild_id"], row["author_id"], POLL_RESULT,
                  json.dumps([_result_embed(poll, updated["poll"]["results"]["answer_counts"])]),
                  json.dumps(reference), format_instant(now)))
    conn.execute("UPDATE channels SET last_message_id = ? WHERE id = ?", (result_id, row["channel_id"]))
    result = channel_store.render(conn, channel_store.get_row(conn, row["channel_id"], result_id))
    channel_store.announce_message(conn, outbox, "MESSAGE_CREATE", channel, result, now)


def finalize_due(conn: sqlite3.Connection, outbox: Outbox, next_id: Callable[[], int], now: datetime) -> int:
    """End every open poll whose expiry has passed; how many."""
    rows = [row for row in conn.execute("SELECT * FROM channel_messages WHERE poll IS NOT NULL ORDER BY id")
            if not json.loads(row["poll"])["results"].get("is_finalized")
            and parse_instant(json.loads(row["poll"])["expiry"]) <= now]
    for row in rows:
        finalize(conn, outbox, next_id, now, row)
    return len(rows)
