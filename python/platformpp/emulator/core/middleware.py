"""One ASGI middleware for what every HTTP request goes through: the admin secret (admin routes, when
the emulator listens beyond loopback), injected faults, rate limits (API routes only) and the
redacted request log. Admin routes are exempt from faults and limits so a test can always turn
faults off again."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..paths import ADMIN, API_ROOT, INSPECTOR_PAGE
from . import audit_reason
from .errors import JSON, UNAUTHORIZED
from .ratelimit import Decision, rate_limited_body, rate_limited_headers
from .requestlog import RawRequest, body_to_keep, redact_path

if TYPE_CHECKING:
    from ..state import EmulatorState


class DroppedConnection(Exception):
    """Raised after a partial response to make the server close the connection (a fault)."""


_LOG = logging.getLogger("platformpp.emulator.requests")
_AUDIT_REASON = audit_reason.HEADER.lower().encode()
_USED = frozenset((b"authorization", b"content-type", _AUDIT_REASON))


def _headers_used(scope: Scope) -> tuple[str, str, str]:
    """(authorization, content-type, audit log reason), each "" when absent: the first of each, in one
    pass over the request's headers."""
    found: dict[bytes, bytes] = {}
    for key, value in scope.get("headers", ()):
        if key in _USED and key not in found:
            found[key] = value
    return (found.get(b"authorization", b"").decode("latin-1"), found.get(b"content-type", b"").decode("latin-1"),
            found.get(_AUDIT_REASON, b"").decode("latin-1"))


async def _send_json(send: Send, status: int, body: Any, headers: dict[str, str]) -> None:
    payload = json.dumps(body, separators=(",", ":")).encode()
    raw = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
    raw += [(b"content-type", JSON.encode()), (b"content-length", str(len(payload)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": payload})


_REQUEST_LOG = f"{ADMIN}/requests"


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
        authorization, content_type, reason = _headers_used(scope)
        audit_reason.bind(reason or None)
        started = time.perf_counter()
        body = bytearray()
        outcome: dict[str, Any] = {"status": None}

        async def recording_receive() -> Message:
            message = await receive()
            if message["type"] == "http.request" and len(body) <= 64 * 1024:
                body.extend(message.get("body", b""))
            return message

        try:
            await self._handle(scope, recording_receive, send, path, method, authorization, outcome)
        finally:
            elapsed_ms = (time.perf_counter() - started) * 1000
            if path != _REQUEST_LOG:   # reading or clearing the log is not itself logged
                self.state.requests.add(RawRequest(
                    self.state.clock.timestamp(), method, path, scope.get("query_string", b""), authorization,
                    scope.get("platformpp.principal"), body_to_keep(bytes(body), path), content_type,
                    outcome["status"], elapsed_ms, bytes(outcome["response"]) if outcome.get("response") else None))
            if _LOG.isEnabledFor(logging.INFO):
                _LOG.info("%s %s %s %.1f ms", method, redact_path(path), outcome["status"], elapsed_ms)

    async def _handle(self, scope: Scope, receive: Receive, send: Send, path: str, method: str,
                      authorization: str, outcome: dict[str, Any]) -> None:
        state = self.state
        admin = path.startswith(ADMIN)
        # The inspector's page is static and holds no secret: a browser loads it without the header,
        # then sends the secret with every admin call it makes.
        if admin and state.admin_secret is not None and path != INSPECTOR_PAGE \
                and not path.startswith(INSPECTOR_PAGE + "/") \
                and not state.admin_secret.admits(authorization):
            outcome["status"] = 401
            await _send_json(send, 401, {"code": UNAUTHORIZED, "message": "401: Unauthorized"},
                             {"WWW-Authenticate": 'Bearer realm="platformpp emulator admin"'})
            return
        action = None if admin else state.faults.decide(method, path)
        if action and action.latency_s:
            await asyncio.sleep(action.latency_s)
        decision: Decision | None = None
        if path.startswith(API_ROOT):
            caller = authorization or (scope.get("client") or ("?",))[0]
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

        # Response bodies are kept only while someone follows the log live (an inspector page).
        response = bytearray() if state.requests.keep_responses else None
        outcome["response"] = response

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                outcome["status"] = message["status"]
                if decision is not None:
                    message = {**message, "headers": [*message.get("headers", ()), *decision.raw_headers()]}
            elif response is not None and len(response) <= 64 * 1024:
                response.extend(message.get("body", b""))
            await send(message)

        await self.app(scope, receive, send_with_headers)
