"""What a session is sent right after Identify: READY (docs/wire.md), then for bots one GUILD_CREATE per
guild of its shard with the full guild object; and the answer to Request Guild Members."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..areas.guilds import dispatch as guilds_dispatch
from ..areas.guilds import store as guilds
from ..areas.lobbies.store import lobbies_of_user, lobby_object
from ..areas.presence import store as presence
from ..areas.relationships import store as relationships
from ..areas.soundboard import listing as soundboard
from ..areas.voice_states import store as voice_states
from ..core.auth import Principal
from ..core.snowflake import snowflake_value
from ..events.audience import Payload, Viewer
from ..wire.user import public_user_json
from .codec import GatewayClose
from .grants import READY_FIELD_SCOPES
from .protocol import API_VERSION, CAPABILITY_CHANNEL_OBFUSCATION, LARGE_THRESHOLD_DEFAULT, Close, Intent
from .validate import Identify

if TYPE_CHECKING:
    from ..state import EmulatorState
    from .sessions import Session

MEMBER_CHUNK_SIZE = 1000


def shard_of(guild_id: int, num_shards: int) -> int:
    return (guild_id >> 22) % num_shards


def shard_guild_ids(state: EmulatorState, bot_user_id: int, shard: list[int] | None) -> frozenset[int]:
    rows = state.db.query("SELECT guild_id FROM members WHERE user_id = ?", (bot_user_id,))
    ids = {row[0] for row in rows}
    if shard is not None:
        ids = {g for g in ids if shard_of(g, shard[1]) == shard[0]}
    return frozenset(ids)


def _user(row: Any) -> Payload:
    user = {**public_user_json(row), "bot": bool(row["bot"]), "mfa_enabled": bool(row["mfa_enabled"])}
    if row["provisional"]:  # as GET /users/@me says it: the SDK's UserHandle::IsProvisional reads it here
        user["is_provisional_account"] = True
    if row["bot"]:   # as GET /users/@me answers a bot
        user.update(verified=True, email=None)
    return user


def build(state: EmulatorState, session: Session, principal: Principal, ident: Identify,
          resume_url: str) -> list[tuple[str, Payload]]:
    db = state.db
    with db.transaction() as conn:
        user = conn.execute("SELECT * FROM users WHERE id = ?", (principal.user_id,)).fetchone()
        app = conn.execute("SELECT id, flags FROM applications WHERE id = ?", (principal.application_id,)).fetchone()
        if user is None or app is None:
            raise GatewayClose(Close.AUTHENTICATION_FAILED, "authentication failed")
        viewer = session.viewer
        ready: Payload = {
            "v": API_VERSION, "user": _user(user),
            "guilds": [{"id": str(g), "unavailable": True} for g in sorted(viewer.guild_ids)],
            "session_id": session.id, "resume_gateway_url": resume_url,
            "application": {"id": str(app["id"]), "flags": app["flags"]},
        }
        if ident.shard is not None:
            ready["shard"] = ident.shard
        if principal.kind == "bot":
            events: list[tuple[str, Payload]] = [("READY", ready)]
            for guild_id in sorted(viewer.guild_ids):
                events.append(("GUILD_CREATE", guild_create(conn, guild_id, viewer, ident)))
            return events
        # SDK-user sessions also get the state the SDK starts from (documented emulator fields).
        # Each only with the scope REST asks for the same data (gateway/grants.py): else an empty list.
        app_id, user_id, granted = principal.application_id, principal.user_id, viewer.scopes
        fields = {
            "lobbies": lambda: [lobby_object(conn, conn.execute("SELECT * FROM lobbies WHERE id = ?", (lobby_id,))
                                             .fetchone())
                                for lobby_id in lobbies_of_user(conn, app_id, user_id)],
            "relationships": lambda: relationships.list_for(conn, app_id, user_id),
            "presences": lambda: presence.friend_presences(conn, app_id, user_id),
            # Who is in the calls of the user's lobbies (the SDK's LobbyHandle::GetCallInfoHandle).
            "voice_states": lambda: voice_states.lobby_voice_states(conn, app_id, user_id),
        }
        for name, read in fields.items():
            ready[name] = read() if READY_FIELD_SCOPES[name] in granted else []
        return [("READY", ready)]


def guild_create(conn: Any, guild_id: int, viewer: Viewer, ident: Identify) -> Payload:
    obfuscate = bool(ident.capabilities & CAPABILITY_CHANNEL_OBFUSCATION) or guilds_dispatch.app_obfuscates(
        conn, viewer.application_id)
    presences = (presence.guild_presences(conn, guild_id, guilds.member_count(conn, guild_id))
                 if viewer.intents & Intent.GUILD_PRESENCES else [])
    payload = guilds.guild_create_payload(conn, guild_id, viewer.user_id, obfuscate=obfuscate,
                                          large_threshold=ident.large_threshold or LARGE_THRESHOLD_DEFAULT,
                                          presences=presences)
    payload["voice_states"] = voice_states.guild_voice_states(conn, guild_id)
    return payload


def guild_members_chunks(state: EmulatorState, viewer: Viewer, d: Any) -> list[Payload]:
    """Op 8 for bots: ``{guild_id, query?, limit?, user_ids?, presences?, nonce?}`` → GUILD_MEMBERS_CHUNKs."""
    if viewer.kind != "bot":
        raise GatewayClose(Close.UNKNOWN_OPCODE, "op: 8 is for bot sessions")
    if not isinstance(d, dict):
        raise GatewayClose(Close.DECODE_ERROR, "d: must be an object")
    guild_id = _session_guild(viewer, d)
    query, limit, raw_user_ids = d.get("query"), d.get("limit", 0), d.get("user_ids")
    nonce, want_presences = d.get("nonce"), d.get("presences", False)
    if query is not None and not isinstance(query, str):
        raise GatewayClose(Close.DECODE_ERROR, "d.query: must be a string")
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
        raise GatewayClose(Close.DECODE_ERROR, "d.limit: must be a non-negative integer")
    # One id alone is accepted as a list of one, as the platform accepts it.
    if raw_user_ids is not None and not isinstance(raw_user_ids, list):
        raw_user_ids = [raw_user_ids]
    user_ids = None if raw_user_ids is None else [snowflake_value(u) for u in raw_user_ids]
    if user_ids is not None and (len(user_ids) > 100 or None in user_ids):
        raise GatewayClose(Close.DECODE_ERROR, "d.user_ids: must be up to 100 snowflakes")
    if query is None and user_ids is None:
        raise GatewayClose(Close.DECODE_ERROR, "d: query or user_ids is required")
    if nonce is not None and (not isinstance(nonce, str) or len(nonce) > 32):
        raise GatewayClose(Close.DECODE_ERROR, "d.nonce: must be a string of at most 32 characters")
    if not isinstance(want_presences, bool):
        raise GatewayClose(Close.DECODE_ERROR, "d.presences: must be a boolean")
    if (query == "" and limit == 0 or want_presences) and not viewer.intents & Intent.GUILD_MEMBERS:
        raise GatewayClose(Close.DISALLOWED_INTENTS, "d: listing all members needs GUILD_MEMBERS")
    with state.db.transaction() as conn:
        members = guilds.members_of(conn, guild_id)
        count = guilds.member_count(conn, guild_id)
        if user_ids is not None:
            wanted = {str(u) for u in user_ids}
            found = [m for m in members if m["user"]["id"] in wanted]
            not_found = sorted(wanted - {m["user"]["id"] for m in found})
        else:
            prefix = (query or "").lower()
            found = [m for m in members if m["user"]["username"].lower().startswith(prefix)]
            found = found[:limit] if limit else found
            not_found = []
        presences = presence.guild_presences(conn, guild_id, count) if want_presences else None
    chunks = [found[i:i + MEMBER_CHUNK_SIZE] for i in range(0, len(found), MEMBER_CHUNK_SIZE)] or [[]]
    result = []
    for index, chunk in enumerate(chunks):
        payload: Payload = {"guild_id": str(guild_id), "members": chunk, "chunk_index": index,
                            "chunk_count": len(chunks)}
        if not_found and index == 0:
            payload["not_found"] = not_found
        if presences is not None:
            ids = {m["user"]["id"] for m in chunk}
            payload["presences"] = [p for p in presences if p["user"]["id"] in ids]
        if nonce is not None:
            payload["nonce"] = nonce
        result.append(payload)
    return result


def channel_info(state: EmulatorState, viewer: Viewer, d: Any) -> Payload:
    """Op 43 Request Channel Info ``{guild_id, fields}`` → CHANNEL_INFO ``{guild_id, channels}``: the
    guild's voice and stage channels the bot can view, each with the requested ephemeral fields
    (``status``, ``voice_start_time``) that are set."""
    if viewer.kind != "bot":
        raise GatewayClose(Close.UNKNOWN_OPCODE, "op: 43 is for bot sessions")
    if not isinstance(d, dict):
        raise GatewayClose(Close.DECODE_ERROR, "d: must be an object")
    guild_id, fields = _session_guild(viewer, d), d.get("fields")
    if (not isinstance(fields, list) or not fields
            or not all(f in ("status", "voice_start_time") for f in fields)):
        raise GatewayClose(Close.DECODE_ERROR, 'd.fields: must list "status" and/or "voice_start_time"')
    with state.db.transaction() as conn:
        visible = guilds.visible_channel_ids(conn, guild_id, viewer.user_id)
        entries = voice_states.channel_info_entries(conn, guild_id, fields)
    return {"guild_id": str(guild_id), "channels": [e for e in entries if int(e["id"]) in visible]}


def soundboard_sounds(state: EmulatorState, viewer: Viewer, d: Any) -> list[Payload]:
    """Op 31 Request Soundboard Sounds ``{guild_ids}`` → one SOUNDBOARD_SOUNDS ``{guild_id,
    soundboard_sounds}`` per guild of the session named (others are passed over)."""
    if viewer.kind != "bot":
        raise GatewayClose(Close.UNKNOWN_OPCODE, "op: 31 is for bot sessions")
    raw = d.get("guild_ids") if isinstance(d, dict) else None
    guild_ids = [snowflake_value(g) for g in raw] if isinstance(raw, list) else None
    if guild_ids is None or None in guild_ids:
        raise GatewayClose(Close.DECODE_ERROR, "d.guild_ids: must be a list of snowflakes")
    with state.db.transaction() as conn:
        return [{"guild_id": str(g), "soundboard_sounds": soundboard.guild_sounds(conn, g)}
                for g in dict.fromkeys(guild_ids) if g in viewer.guild_ids]


def _session_guild(viewer: Viewer, d: dict[str, Any]) -> int:
    """``d.guild_id`` (a string or an integer, as clients send snowflakes): a guild of the session."""
    guild_id = snowflake_value(d.get("guild_id"))
    if guild_id is None or guild_id not in viewer.guild_ids:
        raise GatewayClose(Close.DECODE_ERROR, "d.guild_id: must be the id of a guild of this session")
    return guild_id
