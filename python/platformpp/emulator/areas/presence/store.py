"""Presence: a user's status and rich presence (one current activity per application), and who is
told about changes: the user's friends (SDK sessions) and bots sharing a guild with the user that
asked for GUILD_PRESENCES, with the seed's privacy rule applied per guild.

Privacy rule (seed, Events): for bots, a user whose profile privacy is ``friends_only``, or
``friends_and_small_servers`` in a guild of more than 200 members, has the custom status
(activity type 4) omitted from ``activities``; other activity types are unaffected.
"""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from ...core import errors
from ...core.validation import Form
from ...events.audience import Payload, Viewer
from ...events.outbox import Outbox
from ..members import activity as member_activity

if TYPE_CHECKING:
    from ...state import EmulatorState

CUSTOM_STATUS = 4
ACTIVITY_TYPES = (0, 1, 2, 3, 4, 5, 6)  # Playing, Streaming, Listening, Watching, Custom, Competing, HangStatus
STATUS_DISPLAY_TYPES = (0, 1, 2)       # which field the status line shows: name, state, details
PARTY_PRIVACY = (0, 1)                 # private, public
# ActivityGamePlatforms bits: desktop 1, xbox 2, samsung 4, ios 8, android 16, embedded 32, ps4 64, ps5 128.
ALL_GAME_PLATFORMS = 255
STATUSES = ("online", "idle", "dnd", "invisible", "offline")
LARGE_GUILD = 200
GUILD_PRESENCES = 1 << 8
_TEXT = 128
_ASSET = 512
_MAX_BUTTONS = 2   # an activity shows at most two buttons, each a label and a URL
_BUTTON_LABEL = 32


# --- the privacy rule -------------------------------------------------------------------------------

def activities_for_guild(activities: list[Payload], privacy: str, guild_member_count: int) -> list[Payload]:
    hide_custom = privacy == "friends_only" or (privacy == "friends_and_small_servers"
                                                and guild_member_count > LARGE_GUILD)
    return [a for a in activities if not (hide_custom and a.get("type") == CUSTOM_STATUS)]


# --- validation -------------------------------------------------------------------------------------

def parse_activity(form: Form) -> Payload:
    """An activity object (rich presence) from a client; field errors go to ``form``."""
    activity: Payload = {"name": form.string("name", min_len=1, max_len=_TEXT),
                         "type": form.choice("type", ACTIVITY_TYPES)}
    for name in ("state", "details"):
        value = form.string(name, required=False, max_len=_TEXT, nullable=True)
        if value is not None:
            activity[name] = value
    for name in ("url", "state_url", "details_url"):
        value = form.string(name, required=False, max_len=_ASSET, nullable=True)
        if value is not None:
            activity[name] = value
    if form.data.get("status_display_type") is not None:
        activity["status_display_type"] = form.choice("status_display_type", STATUS_DISPLAY_TYPES)
    if form.data.get("parent_application_id") is not None:
        parent = form.snowflake("parent_application_id")
        activity["parent_application_id"] = None if parent is None else str(parent)
    if "supported_platforms" in form.data:
        activity["supported_platforms"] = form.integer("supported_platforms", minimum=0, maximum=ALL_GAME_PLATFORMS)
    if "instance" in form.data:
        activity["instance"] = form.boolean("instance")
    if "flags" in form.data:
        activity["flags"] = form.integer("flags", minimum=0, maximum=(1 << 16) - 1)
    timestamps = form.obj("timestamps", required=False)
    if timestamps is not None:
        activity["timestamps"] = {k: timestamps.integer(k, required=False, minimum=0)
                                  for k in ("start", "end") if k in timestamps.data}
    party = form.obj("party", required=False)
    if party is not None:
        activity["party"] = {}
        if "privacy" in party.data:
            activity["party"]["privacy"] = party.choice("privacy", PARTY_PRIVACY)
        if "id" in party.data:
            activity["party"]["id"] = party.string("id", max_len=_TEXT)
        size = party.array("size", required=False, min_items=2, max_items=2)
        if size is not None:
            if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in size) or size[0] > size[1]:
                party.fail("size", "BASE_TYPE_BAD_SIZE", "Must be [current, max] with 0 <= current <= max.")
            activity["party"]["size"] = size
    secrets = form.obj("secrets", required=False)
    if secrets is not None:
        activity["secrets"] = {k: secrets.string(k, max_len=_TEXT) for k in ("join", "spectate", "match")
                               if k in secrets.data}
    assets = form.obj("assets", required=False)
    if assets is not None:
        keys = ("large_image", "large_text", "large_url", "small_image", "small_text", "small_url",
                "invite_cover_image")
        # Images are an asset key or a URL (invite_cover_image too, per invite).
        activity["assets"] = {k: assets.string(k, max_len=_ASSET if not k.endswith("_text") else _TEXT)
                              for k in keys if k in assets.data}
    buttons = form.array("buttons", required=False, max_items=_MAX_BUTTONS)
    if buttons is not None:
        activity["buttons"] = []
        for index, raw in enumerate(buttons):
            button = form.item("buttons", index, raw)
            activity["buttons"].append({"label": button.string("label", min_len=1, max_len=_BUTTON_LABEL),
                                        "url": button.string("url", min_len=1, max_len=_ASSET)})
    emoji = form.obj("emoji", required=False, nullable=True)
    if emoji is not None:
        activity["emoji"] = {"name": emoji.string("name", min_len=1, max_len=32)}
        if "id" in emoji.data:
            activity["emoji"]["id"] = str(emoji.snowflake("id", nullable=True) or "") or None
        if "animated" in emoji.data:
            activity["emoji"]["animated"] = emoji.boolean("animated")
    return activity


# --- reads ------------------------------------------------------------------------------------------

def _status(conn: sqlite3.Connection, user_id: int) -> str:
    row = conn.execute("SELECT status FROM presences WHERE user_id = ?", (user_id,)).fetchone()
    status = row["status"] if row else "offline"
    return "offline" if status == "invisible" else status  # invisible looks offline to everyone else


def _activities(conn: sqlite3.Connection, user_id: int) -> list[Payload]:
    if _status(conn, user_id) == "offline":
        return []
    custom = conn.execute("SELECT activity FROM custom_statuses WHERE user_id = ?", (user_id,)).fetchone()
    rows = conn.execute("SELECT application_id, activity, updated_at FROM activities WHERE user_id = ?"
                        " ORDER BY updated_at, application_id", (user_id,)).fetchall()
    games = [{**_seen_by_others(json.loads(r["activity"])), "application_id": str(r["application_id"])}
             for r in rows]
    return ([json.loads(custom["activity"])] if custom else []) + games


def _seen_by_others(activity: Payload) -> Payload:
    """An activity as presence shows it: ``metadata`` (the desktop client keeps the button URLs there)
    is the game's alone; everyone else sees the button labels only."""
    activity.pop("metadata", None)
    return activity


def presence_object(conn: sqlite3.Connection, user_id: int) -> Payload:
    status = _status(conn, user_id)
    client_status = {} if status == "offline" else {"desktop": status}
    return {"user": {"id": str(user_id)}, "status": status, "activities": _activities(conn, user_id),
            "client_status": client_status}


def _privacy(conn: sqlite3.Connection, user_id: int) -> str:
    row = conn.execute("SELECT profile_privacy FROM users WHERE id = ?", (user_id,)).fetchone()
    return row["profile_privacy"] if row else "everyone"


def friend_ids(conn: sqlite3.Connection, application_id: int | None, user_id: int) -> set[int]:
    """Platform friends, plus game friends in ``application_id``."""
    ids = {r[0] for r in conn.execute("SELECT other_id FROM relationships WHERE user_id = ? AND type = 1",
                                      (user_id,))}
    if application_id is not None:
        ids |= {r[0] for r in conn.execute("SELECT other_id FROM game_relationships WHERE application_id = ?"
                                           " AND user_id = ? AND type = 1", (application_id, user_id))}
    return ids


def friend_presences(conn: sqlite3.Connection, application_id: int, user_id: int) -> list[Payload]:
    return [presence_object(conn, f) for f in sorted(friend_ids(conn, application_id, user_id))]


def guild_presences(conn: sqlite3.Connection, guild_id: int, member_count: int) -> list[Payload]:
    """Presences of a guild's online members as a bot sees them (privacy rule applied)."""
    rows = conn.execute("SELECT m.user_id, u.profile_privacy FROM members m JOIN users u ON u.id = m.user_id"
                        " WHERE m.guild_id = ? ORDER BY m.user_id", (guild_id,)).fetchall()
    result = []
    for row in rows:
        presence = presence_object(conn, row["user_id"])
        if presence["status"] == "offline":
            continue
        presence["activities"] = activities_for_guild(presence["activities"], row["profile_privacy"], member_count)
        result.append(presence)
    return result


# --- announcing a change ----------------------------------------------------------------------------

def announce(conn: sqlite3.Connection, outbox: Outbox, user_id: int) -> None:
    """Queue PRESENCE_UPDATE for everyone who may see ``user_id``'s presence."""
    presence = presence_object(conn, user_id)
    # Friends' SDK sessions: platform friends in any application, game friends in theirs.
    platform_friends = friend_ids(conn, None, user_id)
    game_friends = {(r[0], r[1]) for r in conn.execute(
        "SELECT application_id, other_id FROM game_relationships WHERE user_id = ? AND type = 1", (user_id,))}

    def render_friends(viewer: Viewer) -> Payload | None:
        if viewer.kind == "bearer" and (viewer.user_id in platform_friends
                                        or (viewer.application_id, viewer.user_id) in game_friends):
            return presence
        return None

    outbox.add("PRESENCE_UPDATE", render_friends)
    privacy = _privacy(conn, user_id)
    for (guild_id,) in conn.execute("SELECT guild_id FROM members WHERE user_id = ?", (user_id,)).fetchall():
        count = int(conn.execute("SELECT COUNT(*) FROM members WHERE guild_id = ?", (guild_id,)).fetchone()[0])
        payload = {**presence, "guild_id": str(guild_id),
                   "activities": activities_for_guild(presence["activities"], privacy, count)}
        outbox.add("PRESENCE_UPDATE", _render_guild(guild_id, user_id, payload))


def _render_guild(guild_id: int, user_id: int, payload: Payload) -> Any:
    def render(viewer: Viewer) -> Payload | None:
        if (viewer.kind == "bot" and guild_id in viewer.guild_ids and viewer.intents & GUILD_PRESENCES
                and viewer.user_id != user_id):
            return payload
        return None
    return render


def _write(state: EmulatorState, user_id: int, change: Any) -> None:
    outbox = Outbox(state)
    with state.db.transaction() as conn:
        before = presence_object(conn, user_id)
        change(conn)
        if presence_object(conn, user_id) != before:
            announce(conn, outbox, user_id)


def set_status(conn: sqlite3.Connection, user_id: int, status: str, now: str) -> None:
    if status == "offline":
        conn.execute("DELETE FROM presences WHERE user_id = ?", (user_id,))
    else:
        conn.execute("INSERT INTO presences (user_id, status, updated_at) VALUES (?, ?, ?) ON CONFLICT (user_id)"
                     " DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at",
                     (user_id, status, now))


def set_activity(conn: sqlite3.Connection, user_id: int, application_id: int, activity: Payload | None,
                 now: str) -> None:
    """The game's rich presence; a custom status (type 4) is the user's own, shared by every game."""
    if activity is not None and activity["type"] == CUSTOM_STATUS:
        conn.execute("INSERT INTO custom_statuses (user_id, activity, updated_at) VALUES (?, ?, ?)"
                     " ON CONFLICT (user_id) DO UPDATE SET activity = excluded.activity,"
                     " updated_at = excluded.updated_at", (user_id, json.dumps(activity), now))
        return
    if activity is None:
        conn.execute("DELETE FROM activities WHERE user_id = ? AND application_id = ?", (user_id, application_id))
    else:
        conn.execute("INSERT INTO activities (user_id, application_id, activity, updated_at) VALUES (?, ?, ?, ?)"
                     " ON CONFLICT (user_id, application_id) DO UPDATE SET activity = excluded.activity,"
                     " updated_at = excluded.updated_at", (user_id, application_id, json.dumps(activity), now))


# --- what keeps a user online: SDK sessions on the Gateway, the desktop client ---------------------

_HOLDERS_KEY = "presence.holders"
GATEWAY, DESKTOP = "gateway", "desktop"


def _holders(state: EmulatorState) -> dict[int, set[str]]:
    """Per user, what holds them online now (in memory, as live connections are)."""
    holders: dict[int, set[str]] = state.extras.setdefault(_HOLDERS_KEY, {})
    return holders


def _hold(state: EmulatorState, user_id: int, holder: str) -> None:
    """``holder`` makes ``user_id`` online (unless they chose another status) and announces it."""
    _holders(state).setdefault(user_id, set()).add(holder)

    def change(conn: sqlite3.Connection) -> None:
        if conn.execute("SELECT 1 FROM presences WHERE user_id = ?", (user_id,)).fetchone() is None:
            set_status(conn, user_id, "online", state.clock.iso())
        member_activity.touch_everywhere(conn, user_id, state.clock.now())   # prune reads it
    _write(state, user_id, change)


def _release(state: EmulatorState, user_id: int, holder: str, application_id: int | None) -> None:
    """``holder`` lets go of ``user_id``: with nothing else holding them they are offline and their games'
    rich presence ends; otherwise only ``application_id``'s (the session's own game) ends."""
    holders = _holders(state)
    remaining = holders.get(user_id, set()) - {holder}
    if remaining:
        holders[user_id] = remaining
    else:
        holders.pop(user_id, None)

    def change(conn: sqlite3.Connection) -> None:
        if not remaining:
            set_status(conn, user_id, "offline", state.clock.iso())
            # The games' rich presence ends with the last connection; a custom status outlives it.
            conn.execute("DELETE FROM activities WHERE user_id = ?", (user_id,))
        elif application_id is not None:
            set_activity(conn, user_id, application_id, None, state.clock.iso())
    _write(state, user_id, change)


def session_connected(state: EmulatorState, viewer: Viewer) -> None:
    """An SDK user's first live session makes them online (unless they chose another status)."""
    _hold(state, viewer.user_id, GATEWAY)


def session_disconnected(state: EmulatorState, viewer: Viewer, still_connected: bool) -> None:
    """When a user's last live session goes away they are offline and their rich presence ends, unless
    the desktop client runs for them: then only that session's game's rich presence ends."""
    if not still_connected:
        _release(state, viewer.user_id, GATEWAY, viewer.application_id)


def desktop_client_started(state: EmulatorState, user_id: int) -> None:
    """The desktop client runs signed in as ``user_id``: they are online for friends, as with a session."""
    _hold(state, user_id, DESKTOP)


def desktop_client_stopped(state: EmulatorState, user_id: int) -> None:
    """The desktop client quit: its user stays online only while an SDK session holds them."""
    _release(state, user_id, DESKTOP, None)


class InvalidPresence(ValueError):
    """A Gateway presence that does not validate; the message names the first bad field (the Gateway
    closes the socket with 4002 and this reason)."""


def parse_gateway_presence(d: Any, field: str = "d") -> tuple[str, list[Payload]]:
    """``{since, activities, status, afk}`` of op 3 or Identify's ``presence``; ``InvalidPresence``
    naming the field."""
    form = Form(d)
    status = form.choice("status", STATUSES)
    form.boolean("afk", required=True)
    if form.data.get("since") is not None:
        form.integer("since", minimum=0)
    items = form.array("activities", max_items=2) or []
    activities = [parse_activity(form.item("activities", i, a)) for i, a in enumerate(items)]
    if sum(1 for a in activities if a.get("type") != CUSTOM_STATUS) > 1 or \
            sum(1 for a in activities if a.get("type") == CUSTOM_STATUS) > 1:
        form.fail("activities", "BASE_TYPE_BAD_LENGTH", "At most one custom status and one game activity.")
    if form.errors:
        raise InvalidPresence(f"{field}.{_first_error_path(form.errors.tree)}: invalid")
    return status, activities


def gateway_update(state: EmulatorState, viewer: Viewer, status: str, activities: list[Payload]) -> None:
    """Op 3 (or Identify's presence): the session's own status, custom status and game activity."""
    def change(conn: sqlite3.Connection) -> None:
        # It replaces the whole presence: status, custom status and this game's activity.
        now = state.clock.iso()
        set_status(conn, viewer.user_id, status, now)
        conn.execute("DELETE FROM custom_statuses WHERE user_id = ?", (viewer.user_id,))
        set_activity(conn, viewer.user_id, viewer.application_id, None, now)
        for activity in activities:
            set_activity(conn, viewer.user_id, viewer.application_id, activity, now)
        member_activity.touch_everywhere(conn, viewer.user_id, state.clock.now())   # prune reads it
    _write(state, viewer.user_id, change)


def _first_error_path(tree: dict[str, Any], prefix: str = "") -> str:
    for key, value in tree.items():
        if key == "_errors":
            break
        return _first_error_path(value, f"{prefix}{key}.")
    return prefix.rstrip(".") or "_"


# The fixture's ``desktop_user`` (fixtures.py), read by the desktop client's IPC endpoint when it starts.
DESKTOP_USER_SETTING = "desktop_user"


def stored_desktop_user(db: Any) -> str | None:
    """The id of the user the fixture signs in to the desktop client, if any."""
    row = db.query_one("SELECT value FROM settings WHERE key = ?", (DESKTOP_USER_SETTING,))
    return None if row is None else str(row["value"])
