"""Validation of what a Gateway client sends. Every failure closes with 4002 naming the field
(or 4010/4013 where docs/wire.md has a dedicated code), and nothing of a rejected payload is applied."""

from __future__ import annotations

from typing import Any, NamedTuple, TypeGuard

from .codec import GatewayClose
from .protocol import ACCEPTED_INTENTS, LARGE_THRESHOLD_RANGE, Close


class Identify(NamedTuple):
    token: str
    intents: int
    properties: dict[str, Any]
    shard: list[int] | None
    large_threshold: int | None
    presence: dict[str, Any] | None
    capabilities: int


class Resume(NamedTuple):
    token: str
    session_id: str
    seq: int


def _bad(field: str, rule: str) -> GatewayClose:
    return GatewayClose(Close.DECODE_ERROR, f"{field}: {rule}")


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _object(payload: dict[str, Any]) -> dict[str, Any]:
    d = payload.get("d")
    if not isinstance(d, dict):
        raise _bad("d", "must be an object")
    return d


def _token(d: dict[str, Any]) -> str:
    token = d.get("token")
    if not isinstance(token, str) or not token:
        raise _bad("d.token", "must be a non-empty string")
    return token


def identify(payload: dict[str, Any]) -> Identify:
    """Everything the platform accepts is accepted: ``properties`` with any keys (the legacy ``$os``
    style too), absent or null optional fields, ``compress`` true or false, legacy presence fields.
    Refused, as the platform refuses them: intent bits above the highest one (4013), a bad shard (4010), anything of
    the wrong type (4002)."""
    d = _object(payload)
    token = _token(d)
    properties = d.get("properties")
    if not isinstance(properties, dict):
        raise _bad("d.properties", "must be an object (os, browser, device)")
    intents = d.get("intents")
    if not _is_int(intents):
        raise _bad("d.intents", "must be an integer")
    if intents < 0 or intents & ~ACCEPTED_INTENTS:
        raise GatewayClose(Close.INVALID_INTENTS, "d.intents: unknown intent bits")
    shard = d.get("shard")
    if shard is not None and (not isinstance(shard, list) or len(shard) != 2
                              or not all(_is_int(x) for x in shard) or shard[1] < 1 or not 0 <= shard[0] < shard[1]):
        raise GatewayClose(Close.INVALID_SHARD, "d.shard: must be [shard_id, num_shards] with 0 <= id < num")
    large_threshold = d.get("large_threshold")
    if large_threshold is not None:
        low, high = LARGE_THRESHOLD_RANGE
        if not _is_int(large_threshold) or not low <= large_threshold <= high:
            raise _bad("d.large_threshold", f"must be an integer from {low} to {high}")
    compress = d.get("compress")
    if compress is not None and not isinstance(compress, bool):
        raise _bad("d.compress", "must be a boolean")
    # compress=true only says the client can inflate zlib payloads; such clients read plain text frames
    # too, which is what the emulator sends (transport compression is the ?compress=zlib-stream query).
    capabilities = d.get("capabilities")
    if capabilities is None:
        capabilities = 0
    if not _is_int(capabilities) or capabilities < 0:
        raise _bad("d.capabilities", "must be a non-negative integer")
    presence = d.get("presence")
    if presence is not None:
        if not isinstance(presence, dict):
            raise _bad("d.presence", "must be an object")
        presence = identify_presence(presence)
    return Identify(token, intents, dict(properties), shard, large_threshold, presence, capabilities)


def identify_presence(presence: dict[str, Any]) -> dict[str, Any]:
    """Identify's ``presence`` in the form op 3 takes: every field may be absent or null (status
    defaults to online, afk to false, activities to none), and the legacy ``game`` (one activity) stands
    for ``activities`` when those are absent; other fields are ignored, as the platform ignores them. The
    result's values are checked by the presence area."""
    activities = presence.get("activities")
    game = presence.get("game")
    if activities is None:
        activities = [game] if game is not None else []
    status = presence.get("status")
    afk = presence.get("afk")
    normal: dict[str, Any] = {
        "status": "online" if status is None else status, "afk": False if afk is None else afk,
        "activities": [_activity(a) for a in activities] if isinstance(activities, list) else activities}
    if presence.get("since") is not None:
        normal["since"] = presence["since"]
    return normal


def _activity(activity: Any) -> Any:
    """An activity with its null fields left out (libraries send ``"url": null`` and the like)."""
    if not isinstance(activity, dict):
        return activity
    return {key: value for key, value in activity.items() if value is not None}


def resume(payload: dict[str, Any]) -> Resume:
    d = _object(payload)
    token = _token(d)
    session_id = d.get("session_id")
    if not isinstance(session_id, str) or not session_id:
        raise _bad("d.session_id", "must be a non-empty string")
    seq = d.get("seq")
    if not _is_int(seq) or seq < 0:
        raise _bad("d.seq", "must be a non-negative integer")
    return Resume(token, session_id, seq)


def heartbeat(payload: dict[str, Any]) -> int | None:
    d = payload.get("d")
    if d is not None and (not _is_int(d) or d < 0):
        raise _bad("d", "must be the last sequence number received, or null")
    return d
