"""Activity invites and join requests between friends in one game (SDK SendActivityInvite,
SendActivityJoinRequest, SendActivityJoinRequestReply, AcceptActivityInvite).

An invite (type 1) offers the recipient the sender's party; a join request (type 5) asks the recipient,
who has a party, to let the sender in (the answer is an invite back). The recipient's SDK sessions get
ACTIVITY_INVITE_CREATE; accepting an invite answers the party's join secret while the sender still
shows that party, else the invite turns invalid (ACTIVITY_INVITE_UPDATE to the recipient)."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from ...core import errors
from ...core.errors import ApiError
from ...core.secrets import new_token
from ...events.audience import Payload, to_users
from ...events.outbox import Outbox
from .store import friend_ids

if TYPE_CHECKING:
    from ...state import EmulatorState

JOIN, JOIN_REQUEST = 1, 5


def _activity(conn: sqlite3.Connection, user_id: int, application_id: int) -> dict[str, Any]:
    row = conn.execute("SELECT activity FROM activities WHERE user_id = ? AND application_id = ?",
                       (user_id, application_id)).fetchone()
    return json.loads(row[0]) if row else {}


def _party_id(activity: dict[str, Any]) -> str:
    return str((activity.get("party") or {}).get("id") or "")


def _join_secret(activity: dict[str, Any]) -> str:
    return str((activity.get("secrets") or {}).get("join") or "")


def invite_payload(row: Any) -> Payload:
    return {"message_id": str(row["message_id"]), "channel_id": str(row["channel_id"]),
            "sender_id": str(row["sender_id"]), "recipient_id": str(row["recipient_id"]), "type": row["type"],
            "application_id": str(row["application_id"]), "parent_application_id": "0",
            "party_id": row["party_id"], "session_id": row["session_id"], "content": row["content"],
            "is_valid": bool(row["valid"])}


def send(state: EmulatorState, outbox: Outbox, application_id: int, sender: int, recipient: int, kind: int,
         content: str) -> Payload:
    """Create an invite (or join request) from ``sender`` to ``recipient`` and tell the recipient."""
    with state.db.transaction() as conn:
        if recipient == sender or conn.execute("SELECT 1 FROM users WHERE id = ?", (recipient,)).fetchone() is None:
            raise errors.not_found(errors.UNKNOWN_USER, "User")
        if recipient not in friend_ids(conn, application_id, sender):
            raise ApiError(403, errors.MISSING_ACCESS, "Missing Access: activity invites go to friends only.")
        owner = sender if kind == JOIN else recipient
        activity = _activity(conn, owner, application_id)
        if not _party_id(activity) or (kind == JOIN and not _join_secret(activity)):
            who = "your" if kind == JOIN else "their"
            raise ApiError(400, errors.GENERAL, f"{who} activity in this game has no party"
                           + (" and join secret" if kind == JOIN else "") + " to join")
        message_id = state.ids.next()
        conn.execute(
            "INSERT INTO activity_invites (message_id, channel_id, application_id, sender_id, recipient_id, type,"
            " party_id, session_id, content, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (message_id, state.ids.next(), application_id, sender, recipient, kind, _party_id(activity),
             new_token()[:32], content, state.clock.iso()))
        row = conn.execute("SELECT * FROM activity_invites WHERE message_id = ?", (message_id,)).fetchone()
        payload = invite_payload(row)
        outbox.add("ACTIVITY_INVITE_CREATE", to_users(application_id, [recipient], payload))
    return payload


def accept(state: EmulatorState, outbox: Outbox, application_id: int, user_id: int, message_id: int) -> Payload:
    """The recipient accepts an invite: ``{join_secret}`` while the sender still shows its party."""
    with state.db.transaction() as conn:
        row = conn.execute("SELECT * FROM activity_invites WHERE message_id = ? AND recipient_id = ?"
                           " AND application_id = ?", (message_id, user_id, application_id)).fetchone()
        if row is None:
            raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
        if row["type"] != JOIN:
            raise ApiError(400, errors.GENERAL, "a join request is answered with an invite, not accepted")
        activity = _activity(conn, row["sender_id"], application_id)
        if row["valid"] and _party_id(activity) == row["party_id"] and _join_secret(activity):
            return {"join_secret": _join_secret(activity)}
        if row["valid"]:
            conn.execute("UPDATE activity_invites SET valid = 0 WHERE message_id = ?", (message_id,))
            row = conn.execute("SELECT * FROM activity_invites WHERE message_id = ?", (message_id,)).fetchone()
            outbox.add("ACTIVITY_INVITE_UPDATE", to_users(application_id, [user_id], invite_payload(row)))
    raise ApiError(400, errors.GENERAL, "the invite is no longer valid: the sender left that party")
