"""Polls of channel messages, in guild channels and in DMs and group DMs: votes (added and removed,
single or multiple choice), the voters of an answer, and the end of a poll (early by its author, or at
its expiry on the emulator clock): the results are finalised, the message is updated and the channel
gets the poll result message (type 46, with the ``poll_result`` embed the platform sends). A ``Place``
says what differs between the two: where the messages and votes are, who may vote, who hears. Every
function runs in the caller's transaction and adds its dispatches to the caller's outbox."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core import errors
from ...core.clock import format_instant, parse_instant
from ...core.errors import ApiError
from ...core.permissions import Permission
from ...events.audience import Payload
from ...wire.user import public_user_json
from ..channel_messages import store as channel_store
from ..channel_messages.access import bot_members_viewing, channel_access
from ..channel_messages.audience import GuildBots
from ..private_channels import messages as private_messages
from .results import VoteTable

if TYPE_CHECKING:
    from ...events.outbox import Outbox

GUILD_MESSAGE_POLLS = 1 << 24
DIRECT_MESSAGE_POLLS = 1 << 25
POLL_RESULT = 46
MAX_VOTERS, DEFAULT_VOTERS = 100, 25
# The platform's poll error codes.
POLL_EXPIRED = 520001
NOT_A_POLL = 520006


class Place(NamedTuple):
    """The channel of a poll, as one user stands in it: a guild channel (``channel_messages``, the
    permission engine, guild bots by GUILD_MESSAGE_POLLS) or a DM / group DM (``private_messages``, its
    recipients, bot recipients by DIRECT_MESSAGE_POLLS)."""

    channel: sqlite3.Row
    private: bool
    can_read_history: bool = True

    @property
    def messages(self) -> str:
        return "private_messages" if self.private else "channel_messages"

    @property
    def votes(self) -> VoteTable:
        return "private_poll_votes" if self.private else "poll_votes"

    def row(self, conn: sqlite3.Connection, message_id: int) -> sqlite3.Row:
        if self.private:
            return private_messages.get_row(conn, self.channel["id"], message_id)
        return channel_store.get_row(conn, self.channel["id"], message_id)

    def render(self, conn: sqlite3.Connection, message_id: int, viewer_id: int | None = None) -> Payload:
        if self.private:
            return private_messages.render(conn, self.row(conn, message_id), viewer_id)
        return channel_store.render(conn, self.row(conn, message_id), viewer_id)

    def vote_event(self, conn: sqlite3.Connection, outbox: Outbox, now: datetime, event: str, message_id: int,
                   user_id: int, answer_id: int) -> None:
        payload: Payload = {"user_id": str(user_id), "channel_id": str(self.channel["id"]),
                            "message_id": str(message_id), "answer_id": answer_id}
        if self.private:
            outbox.add(event, private_messages.bots_of(private_messages.recipient_ids(conn, self.channel), payload,
                                                       DIRECT_MESSAGE_POLLS))
            return
        payload["guild_id"] = str(self.channel["guild_id"])
        outbox.add(event, GuildBots(self.channel["guild_id"], GUILD_MESSAGE_POLLS, payload,
                                    bot_members_viewing(conn, self.channel, now)))

    def announce_update(self, conn: sqlite3.Connection, outbox: Outbox, now: datetime, message_id: int) -> Payload:
        if self.private:
            return private_messages.announce_update(conn, outbox, self.channel, message_id)
        message = self.render(conn, message_id)
        channel_store.announce_message(conn, outbox, "MESSAGE_UPDATE", self.channel, message, now)
        return message

    def post_result(self, conn: sqlite3.Connection, outbox: Outbox, now: datetime, result_id: int, author_id: int,
                    embed: Payload, reference: Payload) -> None:
        columns = "id, channel_id, author_id, type, content, embeds, message_reference, created_at"
        values: tuple[Any, ...] = (result_id, self.channel["id"], author_id, POLL_RESULT, "", json.dumps([embed]),
                                   json.dumps(reference), format_instant(now))
        if not self.private:
            columns += ", guild_id"
            values += (self.channel["guild_id"],)
        conn.execute(f"INSERT INTO {self.messages} ({columns}) VALUES ({', '.join('?' * len(values))})", values)
        if self.private:
            private_messages.announce_new(conn, outbox, self.channel, result_id,
                                          private_messages.recipient_ids(conn, self.channel))
            return
        conn.execute("UPDATE channels SET last_message_id = ? WHERE id = ?", (result_id, self.channel["id"]))
        channel_store.announce_message(conn, outbox, "MESSAGE_CREATE", self.channel, self.render(conn, result_id), now)


def place_of(conn: sqlite3.Connection, channel_id: int, user_id: int | None, now: datetime) -> Place:
    """The poll's channel as ``user_id`` stands in it (None: the platform itself): 50001 for a user who
    cannot view it, 10003 for no such channel."""
    private = private_messages.private_channel(conn, channel_id)
    if private is not None:
        if user_id is not None:
            private_messages.require_recipient(conn, private, user_id)
        return Place(private, True)
    if user_id is None:
        return Place(conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone(), False)
    access = channel_access(conn, channel_id, user_id, now)
    return Place(access.channel, False, access.has(int(Permission.READ_MESSAGE_HISTORY)))


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


def vote(conn: sqlite3.Connection, outbox: Outbox, now: datetime, *, channel_id: int, message_id: int,
         user_id: int, answer_id: int) -> bool:
    """``user_id`` votes for ``answer_id`` (a user who can view the channel; 50001 otherwise). In a
    single-choice poll the vote replaces the user's other one (MESSAGE_POLL_VOTE_REMOVE, then ADD).
    False when the vote was already there. An ended poll refuses votes (520001)."""
    place = place_of(conn, channel_id, user_id, now)
    poll = poll_of(place.row(conn, message_id))
    _answer(poll, answer_id)
    if _is_over(poll, now):
        raise ApiError(400, POLL_EXPIRED, "Poll expired")
    mine = [r["answer_id"] for r in conn.execute(
        f"SELECT answer_id FROM {place.votes} WHERE message_id = ? AND user_id = ?", (message_id, user_id))]
    if answer_id in mine:
        return False
    if not poll["allow_multiselect"]:
        for other in mine:
            conn.execute(f"DELETE FROM {place.votes} WHERE message_id = ? AND user_id = ? AND answer_id = ?",
                         (message_id, user_id, other))
            place.vote_event(conn, outbox, now, "MESSAGE_POLL_VOTE_REMOVE", message_id, user_id, other)
    conn.execute(f"INSERT INTO {place.votes} (message_id, answer_id, user_id) VALUES (?, ?, ?)",
                 (message_id, answer_id, user_id))
    place.vote_event(conn, outbox, now, "MESSAGE_POLL_VOTE_ADD", message_id, user_id, answer_id)
    return True


def unvote(conn: sqlite3.Connection, outbox: Outbox, now: datetime, *, channel_id: int, message_id: int,
           user_id: int, answer_id: int) -> bool:
    """Remove ``user_id``'s vote for ``answer_id``; False when there was none."""
    place = place_of(conn, channel_id, user_id, now)
    poll = poll_of(place.row(conn, message_id))
    _answer(poll, answer_id)
    if _is_over(poll, now):
        raise ApiError(400, POLL_EXPIRED, "Poll expired")
    removed = conn.execute(f"DELETE FROM {place.votes} WHERE message_id = ? AND user_id = ? AND answer_id = ?",
                           (message_id, user_id, answer_id)).rowcount
    if removed:
        place.vote_event(conn, outbox, now, "MESSAGE_POLL_VOTE_REMOVE", message_id, user_id, answer_id)
    return bool(removed)


def voters(conn: sqlite3.Connection, now: datetime, reader: channel_store.Author, *, channel_id: int,
           message_id: int, answer_id: int, after: int | None, limit: int) -> Payload:
    """``{users}``: who voted for the answer, by user id, after ``after``."""
    place = place_of(conn, channel_id, reader.user_id, now)
    if not place.can_read_history:
        raise ApiError(403, errors.MISSING_PERMISSIONS, "Missing Permissions: READ_MESSAGE_HISTORY")
    _answer(poll_of(place.row(conn, message_id)), answer_id)
    users = conn.execute(f"SELECT u.* FROM {place.votes} v JOIN users u ON u.id = v.user_id WHERE v.message_id = ?"
                         " AND v.answer_id = ? AND v.user_id > ? ORDER BY v.user_id LIMIT ?",
                         (message_id, answer_id, after or 0, limit)).fetchall()
    return {"users": [public_user_json(u) for u in users]}


def expire(conn: sqlite3.Connection, outbox: Outbox, next_id: Callable[[], int], now: datetime,
           author: channel_store.Author, *, channel_id: int, message_id: int) -> Payload:
    """The poll's author ends it now (50005 for another's poll, 520001 once ended): the message as
    it stands after."""
    place = place_of(conn, channel_id, author.user_id, now)
    row = place.row(conn, message_id)
    poll = poll_of(row)
    if row["author_id"] != author.user_id:
        raise ApiError(403, channel_store.CANNOT_EDIT_OTHERS, "Cannot edit a message authored by another user")
    if poll["results"].get("is_finalized"):
        raise ApiError(400, POLL_EXPIRED, "Poll expired")
    finalize(conn, outbox, next_id, now, place, row)
    message = place.render(conn, message_id, author.user_id)
    return message if place.private else channel_store.for_reader(conn, message, author)


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


def finalize(conn: sqlite3.Connection, outbox: Outbox, next_id: Callable[[], int], now: datetime, place: Place,
             row: sqlite3.Row) -> None:
    """End the poll of message ``row``: results final (an early end moves ``expiry`` to now), the
    channel's bots hear MESSAGE_UPDATE, then MESSAGE_CREATE of the poll result message."""
    poll = poll_of(row)
    poll["results"] = {"answer_counts": [], "is_finalized": True}
    if parse_instant(poll["expiry"]) > now:
        poll["expiry"] = format_instant(now)
    conn.execute(f"UPDATE {place.messages} SET poll = ? WHERE id = ?", (json.dumps(poll), row["id"]))
    updated = place.announce_update(conn, outbox, now, row["id"])
    reference = {"type": 0, "channel_id": str(row["channel_id"]), "message_id": str(row["id"])}
    if not place.private:
        reference["guild_id"] = str(row["guild_id"])
    place.post_result(conn, outbox, now, int(next_id()), row["author_id"],
                      _result_embed(poll, updated["poll"]["results"]["answer_counts"]), reference)


def finalize_due(conn: sqlite3.Connection, outbox: Outbox, next_id: Callable[[], int], now: datetime) -> int:
    """End every open poll whose expiry has passed, in guild channels and DMs; how many."""
    ended = 0
    for table in ("channel_messages", "private_messages"):
        rows = [row for row in conn.execute(f"SELECT * FROM {table} WHERE poll IS NOT NULL ORDER BY id")
                if not json.loads(row["poll"])["results"].get("is_finalized")
                and parse_instant(json.loads(row["poll"])["expiry"]) <= now]
        for row in rows:
            finalize(conn, outbox, next_id, now, place_of(conn, row["channel_id"], None, now), row)
        ended += len(rows)
    return ended
