"""Lobbies (docs/wire.md "Social SDK server API"): the lobby and member objects, validation of their
fields, the writes (``LobbyWriter``) with the dispatches they cause, and the idle timeout. The HTTP
routes are in routes.py (lobbies, members) and invite_routes.py.

Every write runs in one transaction; the dispatches it causes go out only after the commit
(``events.outbox.Outbox``), and only to the lobby's members.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from ...core import errors
from ...core.auth import Principal
from ...core.clock import format_instant, parse_instant
from ...core.errors import ApiError
from ...core.http import new_id
from ...core.validation import FieldErrors, Form
from ...events.audience import Payload, to_users
from ...events.outbox import Outbox

if TYPE_CHECKING:
    from ...state import EmulatorState

SOCIAL_SCOPE = "sdk.social_layer"
CAN_LINK_LOBBY = 1 << 0
MEMBER_FLAGS = CAN_LINK_LOBBY
IDLE_TIMEOUT_RANGE = (5, 604800)
IDLE_TIMEOUT_DEFAULT = 300
MAX_BULK = 25
METADATA_KEYS, METADATA_KEY_LEN, METADATA_VALUE_LEN = 25, 256, 1024


# --- objects ---------------------------------------------------------------------------------------

def member_object(row: sqlite3.Row) -> Payload:
    member: Payload = {"id": str(row["user_id"]), "metadata": _load(row["metadata"]), "flags": row["flags"]}
    if row["additional_name"] is not None:
        member["additional_name"] = row["additional_name"]
    return member


def lobby_object(conn: sqlite3.Connection, lobby: sqlite3.Row) -> Payload:
    members = conn.execute("SELECT * FROM lobby_members WHERE lobby_id = ? ORDER BY joined_at, user_id",
                           (lobby["id"],)).fetchall()
    # flags: the emulator models no lobby flags, so none is ever set
    result: Payload = {"id": str(lobby["id"]), "application_id": str(lobby["application_id"]),
                       "metadata": _load(lobby["metadata"]), "members": [member_object(m) for m in members],
                       "flags": 0}
    if lobby["linked_channel_id"] is not None:
        channel = conn.execute("SELECT id, guild_id, name, type, position, flags FROM channels WHERE id = ?",
                               (lobby["linked_channel_id"],)).fetchone()
        if channel is not None:
            result["linked_channel"] = {"id": str(channel["id"]), "guild_id": str(channel["guild_id"]),
                                        "name": channel["name"], "type": channel["type"],
                                        "position": channel["position"], "flags": channel["flags"]}
    return result


def metadata_field(form: Form, name: str) -> dict[str, str] | None:
    """A metadata object: at most 25 string keys (≤ 256) with string values (≤ 1024); null clears."""
    return form.string_map(name, max_keys=METADATA_KEYS, max_key_len=METADATA_KEY_LEN,
                           max_value_len=METADATA_VALUE_LEN)


def _load(text: str | None) -> Any:
    return json.loads(text) if text is not None else None


def _dump(value: dict[str, str] | None) -> str | None:
    return json.dumps(value, separators=(",", ":")) if value is not None else None


# --- shared lookups (also used by messages.py and the Gateway) ---------------------------------------

def get_lobby(conn: sqlite3.Connection, lobby_id: int | None, application_id: int) -> sqlite3.Row:
    """The lobby, or 404 10031 when it does not exist or belongs to another application."""
    row = None
    if lobby_id is not None:
        row = conn.execute("SELECT * FROM lobbies WHERE id = ? AND application_id = ?",
                           (lobby_id, application_id)).fetchone()
    if row is None:
        raise errors.not_found(errors.UNKNOWN_LOBBY, "Lobby")
    return row


def member_ids(conn: sqlite3.Connection, lobby_id: int) -> list[int]:
    return [r[0] for r in conn.execute("SELECT user_id FROM lobby_members WHERE lobby_id = ?", (lobby_id,))]


def get_member(conn: sqlite3.Connection, lobby_id: int, user_id: int) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM lobby_members WHERE lobby_id = ? AND user_id = ?",
                        (lobby_id, user_id)).fetchone()


def member_now(conn: sqlite3.Connection, lobby_id: int, user_id: int) -> Payload:
    """The member object of someone just written as a member (within the same transaction)."""
    row = get_member(conn, lobby_id, user_id)
    assert row is not None
    return member_object(row)


def require_member(conn: sqlite3.Connection, lobby: sqlite3.Row, principal: Principal) -> None:
    """SDK users act only in lobbies they belong to; the application's bot acts in all of its lobbies."""
    if principal.kind == "bearer" and get_member(conn, lobby["id"], principal.user_id) is None:
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access: you are not a member of this lobby.")


def lobbies_of_user(conn: sqlite3.Connection, application_id: int, user_id: int) -> list[int]:
    """Ids of the user's lobbies in one application."""
    return [r[0] for r in conn.execute(
        "SELECT l.id FROM lobbies l JOIN lobby_members m ON m.lobby_id = l.id"
        " WHERE l.application_id = ? AND m.user_id = ?", (application_id, user_id))]


# --- validation ------------------------------------------------------------------------------------

def idle_timeout_field(form: Form) -> int | None:
    low, high = IDLE_TIMEOUT_RANGE
    return form.integer("idle_timeout_seconds", required=False, minimum=low, maximum=high)


def member_fields(form: Form, *, with_id: bool) -> dict[str, Any]:
    """Fields of a member write (bot token): metadata, flags, additional_name; ``id`` in bulk/create."""
    fields: dict[str, Any] = {}
    if with_id:
        fields["id"] = form.snowflake("id")
        fields["remove_member"] = form.boolean("remove_member")
    for name in ("metadata", "flags", "additional_name"):
        if name in form.data:
            fields[name] = None
    if "metadata" in form.data:
        fields["metadata"] = metadata_field(form, "metadata")
    if "flags" in form.data:
        fields["flags"] = form.integer("flags", minimum=0, maximum=MEMBER_FLAGS)
        if fields["flags"] is not None and fields["flags"] & ~MEMBER_FLAGS:
            form.fail("flags", "BASE_TYPE_CHOICES", "Only CanLinkLobby (1) is a member flag.")
    if "additional_name" in form.data and form.data["additional_name"] is not None:
        fields["additional_name"] = form.string("additional_name", min_len=1, max_len=80)
    return fields


def members_list(form: Form, name: str, *, required: bool) -> list[dict[str, Any]]:
    items = form.array(name, required=required, min_items=1 if required else 0, max_items=MAX_BULK)
    members = [member_fields(form.item(name, i, item), with_id=True) for i, item in enumerate(items or [])]
    seen: set[int] = set()
    for index, member in enumerate(members):
        if member["id"] in seen:
            form.errors.add((name, index, "id"), "DUPLICATE", "Each member may appear once.")
        seen.add(member["id"])
    return members


# --- writes ----------------------------------------------------------------------------------------

class LobbyWriter:
    """One request's changes to lobbies and the dispatches they cause."""

    def __init__(self, state: EmulatorState, conn: sqlite3.Connection, application_id: int) -> None:
        self.state = state
        self.conn = conn
        self.application_id = application_id
        self.outbox = Outbox(state)
        self.now = self.state.clock.iso()

    def to(self, user_ids: list[int] | set[int], event: str, payload: Payload) -> None:
        self.outbox.add(event, to_users(self.application_id, user_ids, payload))

    def require_users(self, user_ids: list[int], form_errors: FieldErrors, field: tuple[Any, ...]) -> None:
        for index, user_id in enumerate(user_ids):
            if self.conn.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is None:
                form_errors.add((*field, index, "id") if field else ("user_id",), "UNKNOWN_USER",
                                f"Unknown user {user_id}.")

    def create(self, metadata: dict[str, str] | None, idle_timeout: int | None, secret: str | None) -> int:
        lobby_id = new_id(self.state)
        self.conn.execute(
            "INSERT INTO lobbies (id, application_id, secret, metadata, idle_timeout_seconds, idle_since,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (lobby_id, self.application_id, secret, _dump(metadata), idle_timeout or IDLE_TIMEOUT_DEFAULT,
             self.now, self.now))
        return lobby_id

    def upsert_member(self, lobby_id: int, user_id: int, fields: dict[str, Any]) -> None:
        """Add or update a member; the others hear MEMBER_ADD/UPDATE, a new member hears LOBBY_CREATE."""
        before = get_member(self.conn, lobby_id, user_id)
        others = [u for u in member_ids(self.conn, lobby_id) if u != user_id]
        if before is None:
            self.conn.execute(
                "INSERT INTO lobby_members (lobby_id, user_id, metadata, flags, additional_name, joined_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (lobby_id, user_id, _dump(fields.get("metadata")), fields.get("flags") or 0,
                 fields.get("additional_name"), self.now))
        else:
            updates = {k: v for k, v in fields.items() if k in ("metadata", "flags", "additional_name")}
            if not updates:
                return
            if "metadata" in updates:
                updates["metadata"] = _dump(updates["metadata"])
            if "flags" in updates and updates["flags"] is None:
                updates["flags"] = 0
            assignments = ", ".join(f"{name} = ?" for name in updates)
            self.conn.execute(f"UPDATE lobby_members SET {assignments} WHERE lobby_id = ? AND user_id = ?",
                              (*updates.values(), lobby_id, user_id))
        member = member_now(self.conn, lobby_id, user_id)
        event = "LOBBY_MEMBER_ADD" if before is None else "LOBBY_MEMBER_UPDATE"
        self.to(others, event, {"lobby_id": str(lobby_id), "member": member})
        if before is None:
            lobby = self.conn.execute("SELECT * FROM lobbies WHERE id = ?", (lobby_id,)).fetchone()
            self.to([user_id], "LOBBY_CREATE", lobby_object(self.conn, lobby))
        elif before is not None:
            self.to([user_id], event, {"lobby_id": str(lobby_id), "member": member})

    def remove_member(self, lobby_id: int, user_id: int) -> bool:
        row = get_member(self.conn, lobby_id, user_id)
        if row is None:
            return False
        audience = member_ids(self.conn, lobby_id)
        self.conn.execute("DELETE FROM lobby_members WHERE lobby_id = ? AND user_id = ?", (lobby_id, user_id))
        self.conn.execute("DELETE FROM lobby_invites WHERE lobby_id = ? AND target_user_id = ? AND used_at IS NULL",
                          (lobby_id, user_id))
        self.to(audience, "LOBBY_MEMBER_REMOVE", {"lobby_id": str(lobby_id), "member": member_object(row)})
        return True

    def delete(self, lobby_id: int, reason: str) -> None:
        audience = member_ids(self.conn, lobby_id)
        self.conn.execute("DELETE FROM lobbies WHERE id = ?", (lobby_id,))
        self.to(audience, "LOBBY_DELETE", {"id": str(lobby_id), "reason": reason})

    def set_metadata(self, lobby_id: int, metadata: dict[str, str] | None) -> None:
        self.conn.execute("UPDATE lobbies SET metadata = ? WHERE id = ?", (_dump(metadata), lobby_id))

    def refresh_idle(self, connected: set[int]) -> None:
        set_idle_state(self.state, self.conn, self.application_id, connected)

    def announce_update(self, lobby_id: int) -> None:
        lobby = self.conn.execute("SELECT * FROM lobbies WHERE id = ?", (lobby_id,)).fetchone()
        self.to(member_ids(self.conn, lobby_id), "LOBBY_UPDATE", lobby_object(self.conn, lobby))


def expire_idle_lobbies(state: EmulatorState) -> None:
    """Delete lobbies idle for longer than their idle timeout (emulator clock). Runs lazily, at the
    start of every lobby request and whenever a Gateway session connects or goes away."""
    now = state.clock.now()
    with state.db.transaction() as conn:
        rows = conn.execute("SELECT id, application_id, idle_since, idle_timeout_seconds FROM lobbies"
                            " WHERE idle_since IS NOT NULL").fetchall()
        expired = [r for r in rows
                   if parse_instant(r["idle_since"]) + timedelta(seconds=r["idle_timeout_seconds"]) <= now]
        for row in expired:
            LobbyWriter(state, conn, row["application_id"]).delete(row["id"], "idle_timeout")


def connections_changed(state: EmulatorState, application_id: int, connected: set[int]) -> None:
    """A Gateway session of the application came or went: lobbies start or stop being idle."""
    expire_idle_lobbies(state)
    with state.db.transaction() as conn:
        set_idle_state(state, conn, application_id, connected)


def set_idle_state(state: EmulatorState, conn: sqlite3.Connection, application_id: int,
                   connected: set[int]) -> None:
    """Recompute ``idle_since`` of an application's lobbies from who has a connected session."""
    now = format_instant(state.clock.now())
    for lobby_id, idle_since in conn.execute(
            "SELECT id, idle_since FROM lobbies WHERE application_id = ?", (application_id,)).fetchall():
        active = any(u in connected for u in member_ids(conn, lobby_id))
        if active and idle_since is not None:
            conn.execute("UPDATE lobbies SET idle_since = NULL WHERE id = ?", (lobby_id,))
        elif not active and idle_since is None:
            conn.execute("UPDATE lobbies SET idle_since = ? WHERE id = ?", (now, lobby_id))


def move_account_data(conn: sqlite3.Connection, application_id: int, source: int, target: int) -> None:
    """A provisional account merged into ``target``: its memberships and messages in the game's lobbies
    move (lobbies the full account is already in keep its own membership); its open invites end."""
    lobbies = "SELECT id FROM lobbies WHERE application_id = ?"
    conn.execute(f"DELETE FROM lobby_members WHERE user_id = ? AND lobby_id IN ({lobbies})"
                 " AND lobby_id IN (SELECT lobby_id FROM lobby_members WHERE user_id = ?)",
                 (source, application_id, target))
    conn.execute(f"UPDATE lobby_members SET user_id = ? WHERE user_id = ? AND lobby_id IN ({lobbies})",
                 (target, source, application_id))
    conn.execute(f"UPDATE lobby_messages SET author_id = ? WHERE author_id = ? AND lobby_id IN ({lobbies})",
                 (target, source, application_id))
    conn.execute("DELETE FROM lobby_invites WHERE target_user_id = ? AND used_at IS NULL", (source,))
