"""Go Live opcodes of the Gateway (18 Stream Create, 19 Stream Delete, 20 Stream Watch, 22 Stream Set
Paused): read as the platform reads them (snowflakes as strings or integers, unknown fields ignored),
then handed to the streams area; the asking session gets STREAM_SERVER_UPDATE for each stream session
the voice service opened for it.

Go Live is a user's feature: a bot session sending these opcodes is closed with 4001, as for any
opcode its gateway does not have. A malformed payload closes with 4002 and a message naming the field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..areas.streams import calls, store
from ..core.snowflake import snowflake_value
from .codec import GatewayClose
from .protocol import Close, Op

if TYPE_CHECKING:
    from ..state import EmulatorState
    from .sessions import Session

STREAM_KEY_MAX = 128


def _object(d: Any) -> dict[str, Any]:
    if not isinstance(d, dict):
        raise GatewayClose(Close.DECODE_ERROR, "d: must be an object")
    return d


def _snowflake(d: dict[str, Any], name: str) -> int:
    number = snowflake_value(d.get(name))
    if not number:
        raise GatewayClose(Close.DECODE_ERROR, f"d.{name}: required, a snowflake")
    return number


def _stream_key(d: dict[str, Any]) -> str:
    value = d.get("stream_key")
    if not isinstance(value, str) or not value or len(value) > STREAM_KEY_MAX:
        raise GatewayClose(Close.DECODE_ERROR,
                           f"d.stream_key: required, a non-empty string of at most {STREAM_KEY_MAX} characters")
    return value


def _create(state: EmulatorState, who: store.Session, d: dict[str, Any]) -> store.Effects:
    kind = d.get("type")
    if kind not in (store.GUILD, store.CALL):
        raise GatewayClose(Close.DECODE_ERROR, 'd.type: must be "guild" or "call" (a DM or group DM call)')
    region = d.get("preferred_region")
    if region is not None and not isinstance(region, str):
        raise GatewayClose(Close.DECODE_ERROR, "d.preferred_region: must be a string or null")
    guild_id = _snowflake(d, "guild_id") if kind == store.GUILD else None
    return store.create(state, who, guild_id, _snowflake(d, "channel_id"))


def command(state: EmulatorState, session: Session, op: int, d: Any) -> None:
    """One Go Live opcode of ``session`` (in a worker thread, as every command after Identify)."""
    viewer = session.viewer
    if viewer.kind == "bot":
        raise GatewayClose(Close.UNKNOWN_OPCODE, f"op: {op} is not an opcode of a bot's gateway")
    d = _object(d)
    who = store.Session(viewer.user_id, viewer.application_id or 0, session.id)
    if op == Op.STREAM_CREATE:
        effects = _create(state, who, d)
    elif op == Op.STREAM_WATCH:
        effects = store.watch(state, who, _stream_key(d))
    elif op == Op.STREAM_DELETE:
        effects = store.delete(state, who, _stream_key(d))
    else:
        paused = d.get("paused")
        if not isinstance(paused, bool):
            raise GatewayClose(Close.DECODE_ERROR, "d.paused: required, a boolean")
        store.set_paused(state, who, _stream_key(d), paused)
        return
    for update in calls.follow(state, effects):
        session.deliver("STREAM_SERVER_UPDATE", update)


def voice_left(state: EmulatorState, user_id: int, channel_id: int) -> None:
    """Opcode 4 took the user out of a call (left or moved): its stream there ends. (A guild voice
    state's end anywhere also reaches the streams area as a domain event; a DM call's only here.)"""
    effects = store.end_where(state, "user_id = ? AND channel_id = ?", (user_id, channel_id), store.STREAM_ENDED)
    calls.follow(state, effects)


def session_ended(state: EmulatorState, session_id: str) -> None:
    """The Gateway session is over: it no longer watches or streams (in the hub's voice ending)."""
    calls.follow(state, store.session_ended(state, session_id))
    calls.session_ended(state, session_id)
