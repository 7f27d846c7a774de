"""The inspector's live feed: server-sent events for one open page.

A page's feed subscribes to the bus when the page connects and unsubscribes when it goes, so with no
page open the emulator does no work for the inspector at all. While subscribed, the bus subscriber
only appends the event to a deque; the stream takes what came every 100 ms and summarises it (who
received a dispatch, its size) off the publishers' path.

Messages (``event: <kind>``, ``data: <JSON>``):

- ``dispatch`` ``{time, event, size, to_count, to: [{session_id, kind, user_id}], payload}``: a Gateway
  dispatch as it was sent, to the sessions its audience admitted (the first 20 named), secrets in the
  payload redacted;
- ``event`` ``{time, name, payload}``: a domain event (bus.py), secrets redacted;
- ``http`` a request log entry (core/requestlog.py: redacted), with the response body kept while a
  page follows the log, the inspector's own requests left out;
- ``status`` once a second: ``{clock, sessions, ipc, deliveries, voice}``."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from ..areas.webhooks.store import deliveries_json
from ..core.clock import format_instant
from ..core.json_text import compact_json
from ..core.requestlog import redact_value
from ..events.audience import ToUsers
from ..events.bus import Event, to_json
from ..gateway import grants
from ..gateway.hub import Hub, get_hub
from ..ipc.endpoint import endpoint_of
from ..paths import ADMIN, INSPECTOR_PAGE

if TYPE_CHECKING:
    from ..state import EmulatorState

STATUS_EVERY_S = 1.0
POLL_S = 0.1
KEPT = 2000            # events waiting for a slow page; older ones are dropped
DELIVERIES_SHOWN = 50
INSPECTOR_READS = f"{ADMIN}/inspector"
STOPPING = "emulator.stopping"
RECIPIENTS_SHOWN = 20  # sessions named per dispatch (all are counted): a lobby of hundreds stays readable


def sse(kind: str, data: Any) -> str:
    return f"event: {kind}\ndata: {compact_json(data)}\n\n"


class Feed:
    """One page's subscription to the bus: the subscriber only keeps the event (no cross-thread call,
    no work on the publisher's path); the page's stream takes them every ``POLL_S``."""

    def __init__(self) -> None:
        self._events: deque[tuple[float, Event]] = deque(maxlen=KEPT)

    def on_event(self, event: Event) -> None:
        self._events.append((time.time(), event))

    def drain(self) -> list[tuple[float, Event]]:
        events = []
        while self._events:
            events.append(self._events.popleft())
        return events


def _instant(timestamp: float) -> str:
    return format_instant(datetime.fromtimestamp(timestamp, tz=timezone.utc))


def summarise(hub: Hub, at: float, event: Event) -> tuple[str, dict[str, Any]]:
    audience = event.audience
    if audience is None:
        return "event", {"time": _instant(at), "name": event.name, "payload": redact_value(event.payload)}
    # The payload shown is the first recipient's (an audience may render one per viewer); a dispatch
    # no session may see shows none.
    shown: Any = None
    if isinstance(audience, ToUsers):
        shown = audience.payload
        # What a session may see depends on its token's scopes only: asked once per distinct set.
        admitted: dict[frozenset[str], bool] = {}
        to = []
        for session in hub.store.of_users(audience.application_id, audience.user_ids):
            scopes = session.viewer.scopes
            allowed = admitted.get(scopes)
            if allowed is None:
                allowed = admitted[scopes] = grants.admits(session.viewer, event.name)
            if allowed:
                to.append(session)
    else:
        to = []
        for session in hub.store.all():
            payload = audience(session.viewer)
            if payload is not None and grants.admits(session.viewer, event.name):
                to.append(session)
                shown = payload if shown is None else shown
    return "dispatch", {"time": _instant(at), "event": event.name,
                        "size": 0 if shown is None else len(to_json(shown).encode()), "to_count": len(to),
                        "to": [{"session_id": s.id, "kind": s.viewer.kind, "user_id": str(s.viewer.user_id)}
                               for s in to[:RECIPIENTS_SHOWN]],
                        "payload": None if shown is None else redact_value(shown)}


def sessions_json(hub: Hub) -> list[dict[str, Any]]:
    out = []
    for session in hub.store.all():
        viewer, connection = session.viewer, session.connection
        beat = getattr(connection, "last_heartbeat", None)
        out.append({"session_id": session.id, "kind": "bot" if viewer.kind == "bot" else "user",
                    "user_id": str(viewer.user_id), "application_id": str(viewer.application_id),
                    "intents": viewer.intents, "shard": list(viewer.shard) if viewer.shard else None,
                    "seq": session.seq, "connected": connection is not None,
                    "last_heartbeat": _instant(beat) if beat else None})
    return out


def _ipc_json(state: EmulatorState) -> list[dict[str, Any]]:
    return [{"client_id": str(c.client_id), "application_name": c.application_name,
             "authenticated": c.grant_scopes is not None, "subscriptions": sorted(e for e, _ in c.subscriptions)}
            for c in endpoint_of(state).connections()]


def _voice_json(state: EmulatorState) -> dict[str, Any]:
    service = state.voice
    if service is None:   # no call yet (the service starts with the first): nothing relayed
        return {"calls": [], "relay": {}}
    stats = service.stats()
    calls = [{"channel_id": str(channel_id), "participants": [str(u) for u in service.participants(channel_id)],
              "dave_epoch": dave.get("epoch") if dave else None,
              "dave_group_size": dave.get("group_size") if dave else None}
             for channel_id in list(service.gateway.calls)
             for dave in [stats["calls"].get(channel_id)]]
    return {"calls": calls, "relay": stats["relay"]}


def status(state: EmulatorState, hub: Hub) -> dict[str, Any]:
    return {"clock": state.clock.iso(), "frozen": state.clock.frozen, "sessions": sessions_json(hub),
            "ipc": _ipc_json(state), "deliveries": deliveries_json(state)[-DELIVERIES_SHOWN:],
            "voice": _voice_json(state)}


def _shown(entry: dict[str, Any]) -> bool:
    path: str = entry["path"]
    return not (path.startswith(INSPECTOR_READS) or path.startswith(INSPECTOR_PAGE))


async def stream(state: EmulatorState) -> AsyncIterator[str]:
    """The feed of one page, from connecting until the page goes (the generator is then closed) or the
    server stops."""
    loop = asyncio.get_running_loop()
    hub = get_hub(state)
    feed = Feed()
    unsubscribe = state.bus.subscribe(feed.on_event)
    state.requests.following(1)
    try:
        last_request = state.requests.last_id
        yield sse("status", await asyncio.to_thread(status, state, hub))
        next_status = loop.time() + STATUS_EVERY_S
        while True:
            # Polled rather than woken per event: the Gateway's writers on this loop go first, and a
            # burst costs one pass.
            await asyncio.sleep(POLL_S)
            for at, event in feed.drain():
                if event.name == STOPPING:   # the server shuts down: end the response now
                    return
                yield sse(*summarise(hub, at, event))
            entries = state.requests.since(last_request)
            if entries:
                last_request = entries[-1]["id"]
                for entry in entries:
                    if _shown(entry):
                        yield sse("http", entry)
            if loop.time() >= next_status:
                next_status = loop.time() + STATUS_EVERY_S
                yield sse("status", await asyncio.to_thread(status, state, hub))
    finally:
        state.requests.following(-1)
        unsubscribe()
