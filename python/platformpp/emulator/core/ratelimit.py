"""Per-route, per-caller rate limits with docs/wire.md headers. Windows follow real (monotonic) time, not
the emulator clock: moving the clock by days must not stall or release every client at once."""

from __future__ import annotations

import hashlib
import threading
import time
from typing import NamedTuple

# A major parameter keeps its own bucket (as on the platform); other ids collapse into the route.
_MAJOR = frozenset(("channels", "guilds", "webhooks", "lobbies"))
_PRUNE_AT = 10_000


def _is_id(part: str) -> bool:
    """``re.match(r"^\\d+$", part)``: decimal digits, optionally followed by one newline (what ``$``
    also accepts), without the regular expression."""
    return part.isdecimal() or (part[-1:] == "\n" and part[:-1].isdecimal())


def unlimited(method: str, path: str) -> bool:
    """Routes the platform does not rate limit (no ``X-RateLimit-*`` headers either): an interaction's
    callback, ``POST /api/v{n}/interactions/{id}/{token}/callback``, answered once per interaction."""
    if method != "POST" or not path.endswith("/callback"):
        return False
    parts = path.split("/")   # "", "api", "v10", "interactions", id, token, "callback"
    return len(parts) == 7 and parts[3] == "interactions" and _is_id(parts[4])


def route_bucket(method: str, path: str) -> tuple[str, str]:
    """The route key of a request and its bucket id (the hash clients see). Not cached: a path that
    carries a token (an interaction's callback, a webhook's) makes a new key on every request, so a
    cache would only churn memory, and the hash costs less than a microsecond."""
    key = route_key(method, path)
    return key, hashlib.sha256(key.encode()).hexdigest()[:16]


def route_key(method: str, path: str) -> str:
    parts = path.split("/")
    out = parts.copy()
    for index, part in enumerate(parts):
        if _is_id(part) and not (index and parts[index - 1] in _MAJOR):
            out[index] = ":id"
    return f"{method} {'/'.join(out)}"


class Decision(NamedTuple):
    """One request's verdict (a named tuple: one is made per API request)."""

    limited: bool
    limit: int
    remaining: int
    reset_at: float       # epoch seconds
    reset_after: float    # seconds
    bucket: str

    def headers(self) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": f"{self.reset_at:.3f}",
            "X-RateLimit-Reset-After": f"{self.reset_after:.3f}",
            "X-RateLimit-Bucket": self.bucket,
        }

    def raw_headers(self) -> list[tuple[bytes, bytes]]:
        """``headers()`` as ASGI header pairs (lower-case names), for the middleware's hot path."""
        return [(b"x-ratelimit-limit", str(self.limit).encode()),
                (b"x-ratelimit-remaining", str(self.remaining).encode()),
                (b"x-ratelimit-reset", f"{self.reset_at:.3f}".encode()),
                (b"x-ratelimit-reset-after", f"{self.reset_after:.3f}".encode()),
                (b"x-ratelimit-bucket", self.bucket.encode())]


DEFAULT_LIMIT = 50
DEFAULT_WINDOW_S = 1.0


class RateLimiter:
    def __init__(self, limit: int = DEFAULT_LIMIT, window_s: float = DEFAULT_WINDOW_S) -> None:
        self._lock = threading.Lock()
        self._windows: dict[tuple[str, str], tuple[float, int]] = {}
        self.configure(limit, window_s)

    def configure(self, limit: int, window_s: float) -> None:
        with self._lock:
            self.limit, self.window_s = limit, window_s
            self._windows.clear()
            self._prune_at = _PRUNE_AT

    def hit(self, method: str, path: str, caller: str) -> Decision | None:
        """This request's verdict; None for a route the platform does not limit."""
        if unlimited(method, path):
            return None
        key, bucket = route_bucket(method, path)
        now_mono, now_wall = time.monotonic(), time.time()
        with self._lock:
            if len(self._windows) > self._prune_at:   # a long run sees many tokens; forget finished windows
                self._windows = {k: v for k, v in self._windows.items() if now_mono - v[0] < self.window_s}
                # Windows still open stay; scanning them again on every request would cost a scan of
                # thousands per request (many callers within one long window): not before twice as many.
                self._prune_at = max(_PRUNE_AT, 2 * len(self._windows))
            started, used = self._windows.get((key, caller), (now_mono, 0))
            if now_mono - started >= self.window_s:
                started, used = now_mono, 0
            limited = used >= self.limit
            if not limited:
                used += 1
            self._windows[(key, caller)] = (started, used)
            reset_after = max(0.0, self.window_s - (now_mono - started))
        return Decision(limited, self.limit, max(0, self.limit - used), now_wall + reset_after, reset_after, bucket)


def rate_limited_body(retry_after: float, is_global: bool) -> dict[str, object]:
    # code 0 (general error) as in every error body; the published schema requires it on 429s too
    return {"message": "You are being rate limited.", "retry_after": round(retry_after, 3), "global": is_global,
            "code": 0}


def rate_limited_headers(decision: Decision | None, retry_after: float, is_global: bool,
                         scope: str) -> dict[str, str]:
    headers = decision.headers() if decision else {}
    headers.update({
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Global": "true" if is_global else "false",
        "X-RateLimit-Scope": scope,
        "Retry-After": str(max(1, round(retry_after + 0.499))),
        "Via": "1.1 platformpp-emulator",
    })
    return headers
