"""The rate limiter's bookkeeping: route keys without a per-path cache, and forgetting finished
windows without rescanning open ones on every request."""

from __future__ import annotations

import time

from platformpp.emulator.core import ratelimit
from platformpp.emulator.core.ratelimit import RateLimiter, route_bucket, route_key


def test_route_keys_collapse_ids_except_major_parameters() -> None:
    assert route_key("GET", "/api/v10/channels/123/messages/456") == "GET /api/v10/channels/123/messages/:id"
    assert route_key("POST", "/api/v10/interactions/123/tok/callback") == "POST /api/v10/interactions/:id/tok/callback"
    assert route_key("GET", "/api/v10/users/@me") == "GET /api/v10/users/@me"
    # what the former ``^\d+$`` accepted: any decimal digits, and a trailing newline
    assert route_key("GET", "/a/\u0661\u0662/b/7\n") == "GET /a/:id/b/:id"
    assert route_key("GET", "/a/\u00b2/12a") == "GET /a/\u00b2/12a"
    key, bucket = route_bucket("GET", "/api/v10/users/99")
    assert key == "GET /api/v10/users/:id" and route_bucket("GET", "/api/v10/users/12") == (key, bucket)
    assert len(bucket) == 16 and route_bucket("PUT", "/api/v10/users/12")[1] != bucket


def test_open_windows_are_kept_and_not_rescanned_on_every_request() -> None:
    limiter = RateLimiter(limit=1, window_s=3600)
    callers = ratelimit._PRUNE_AT + 50
    started = time.perf_counter()
    for caller in range(callers):
        assert not limiter.hit("GET", "/api/v10/users/@me", str(caller)).limited
    elapsed = time.perf_counter() - started
    # every window is still open: each caller's second request is limited
    assert limiter.hit("GET", "/api/v10/users/@me", "0").limited
    assert limiter.hit("GET", "/api/v10/users/@me", str(callers - 1)).limited
    # the one prune found nothing finished; the next waits until there are twice as many windows
    assert limiter._prune_at == 2 * (ratelimit._PRUNE_AT + 1)
    assert elapsed < 5.0   # a scan of 10,000 windows on each of the last 50 requests would not matter; on
    # each of thousands it would (the threshold above is what prevents it)


def test_finished_windows_are_forgotten() -> None:
    limiter = RateLimiter(limit=1, window_s=0.05)
    for caller in range(ratelimit._PRUNE_AT):
        limiter.hit("GET", "/x", str(caller))
    time.sleep(0.06)
    limiter.hit("GET", "/x", "late-1")
    limiter.hit("GET", "/x", "late-2")   # over the threshold: the finished windows go
    assert len(limiter._windows) <= 2
    assert limiter._prune_at == ratelimit._PRUNE_AT
