"""One ASGI middleware for what every HTTP request goes through: the admin secret (admin routes, when
the emulator listens beyond loopback), injected faults, rate limits (API routes only) and the
redacted request log. Admin routes are exempt from faults and limits so a test can always turn
faults off again."""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from typing import TYPE_CHECKING, Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..paths import ADMIN, API_ROOT
from . import audit_reason
from .errors import JSON, UNAUTHORIZED
from .ratelimit import Decision, rate_limited_body, rate_limited_headers
from .requestlog import redact_authorization, redact_body, redact_path, redact_query

if TYPE_CHECKING:
    from ..state import EmulatorState


class DroppedConnection(Exception):
    """Raised after a partial response to make the server close the connection (a fault)."""


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return ""


async def _send_json(send: Send, status: int, body: Any, headers: dict[str, str]) -> None:
    payload = json.dumps(body, separators=(",", ":")).encode()
    raw = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
    raw += [(b"content-type", JSON.encode()), (b"content-length", str(len(payload)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": payload})


class TrafficMiddleware:
    def __init__(self, app: ASGIApp, state: EmulatorState) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        method: str = scope["method"]
        audit_reason.bind(_header(scope, audit_reason.HEADER.encode()) or None)
        started = time.perf_counter()
        body = bytearray()
        outcome: dict[str, Any] = {"status": None}

        async def recording_receive() -> Message:
            message = await receive()
            if message["type"] == "http.request" and len(body) <= 64 * 1024:
                body.extend(message.get("body", b""))
            return message

        try:
            await self._handle(scope, recording_receive, send, path, method, outcome)
        finally:
            if path != f"{ADMIN}/requests":   # reading or clearing the log is not itself logged
                self._log(scope, method, path, bytes(body), outcome, started)

    async def _handle(self, scope: Scope, receive: Receive, send: Send, path: str, method: str,
                      outcome: dict[str, Any]) -> None:
        state = self.state
        if path.startswith(ADMIN) and state.admin_secret is not None \
                and not state.admin_secret.admits(_header(scope, b"authorization")):
            outcome["status"] = 401
            await _send_json(send, 401, {"code": UNAUTHORIZED, "message": "401: Unauthorized"},
                             {"WWW-Authenticate": 'Bearer realm="platformpp emulator admin"'})
            return
        action = None if path.startswith(ADMIN) else state.faults.decide(method, path)
        if action and action.latency_s:
            await asyncio.sleep(action.latency_s)
        decision: Decision | None = None
        if path.startswith(API_ROOT):
            caller = _header(scope, b"authorization") or (scope.get("client") or ("?",))[0]
            decision = state.limits.hit(method, path, hashlib.sha256(caller.encode()).hexdigest())
        if action and action.force_429 is not None:
            rule = action.force_429
            outcome["status"] = 429
            await _send_json(send, 429, rate_limited_body(rule.retry_after, rule.global_429),
                             rate_limited_headers(decision, rule.retry_after, rule.global_429,
                                                  "global" if rule.global_429 else "user"))
            return
        if decision is not None and decision.limited:
            outcome["status"] = 429
            await _send_json(send, 429, rate_limited_body(decision.reset_after, False),
                             rate_limited_headers(decision, decision.reset_after, False, "user"))
            return
        if action and action.error_status is not None:
            outcome["status"] = action.error_status
            await _send_json(send, action.error_status,
                             {"code": 0, "message": f"{action.error_status}: injected fault"},
                             decision.headers() if decision else {})
            return
        if action and action.drop:
            outcome["status"] = "dropped"
            # Promise a body, send none, then fail: the server closes the socket mid-response.
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", JSON.encode()), (b"content-length", b"64")]})
            raise DroppedConnection(path)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                outcome["status"] = message["status"]
                if decision is not None:
                    message = {**message, "headers": [*message.get("headers", ()), *decision.raw_headers()]}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _log(self, scope: Scope, method: str, path: str, body: bytes, outcome: dict[str, Any],
             started: float) -> None:
        principal = scope.get("platformpp.principal")
        self.state.requests.add({
            "time": self.state.clock.timestamp(),   # formatted when the log is read
            "method": method,
            "path": redact_path(path),
            "query": redact_query(scope.get("query_string", b"").decode("latin-1")),
            "authorization": redact_authorization(_header(scope, b"authorization")),
            "principal": None if principal is None else {
                "kind": principal.kind, "user_id": str(principal.user_id),
                "application_id": str(principal.application_id)},
            "body": redact_body(body, _header(scope, b"content-type"), path),
            "status": outcome["status"],
            "duration_ms": round((time.perf_counter() - started) * 1000, 3),
        })
