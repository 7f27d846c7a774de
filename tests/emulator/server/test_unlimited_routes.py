"""Routes the platform does not rate limit: an interaction's callback answers a burst without a 429
and without ``X-RateLimit-*`` headers, while other routes keep their limits and headers."""

from __future__ import annotations

from collections.abc import Callable

import httpx
from channel_helpers import GENERAL, set_clock
from emulator_world import ALICE, APP_ID
from interaction_bots import GatewayBot, Replies
from platformpp.emulator import Emulator
from platformpp.emulator.core.ratelimit import unlimited
from platformpp.emulator.simulated_user import SimulatedUser
from social_helpers import bot


def rate_headers(response: httpx.Response) -> set[str]:
    return {name for name in response.headers if name.lower().startswith("x-ratelimit")}


def test_the_interaction_callback_is_never_rate_limited(
        emu: Emulator, gateway_bot: GatewayBot, replies: Replies,
        platformpp_user: Callable[..., SimulatedUser]) -> None:
    with bot(emu) as http:
        assert http.post(f"/applications/{APP_ID}/commands", json={"name": "ping", "description": "d"}).status_code == 201
    replies.next = lambda p: None   # the test answers
    set_clock(emu, "2026-11-01T00:00:00Z")   # frozen: the 3-second window does not run out
    started = [platformpp_user(ALICE, channel_id=GENERAL, wait_s=0).command("ping") for _ in range(3)]
    assert httpx.put(f"{emu.base_url}/_emulator/rate-limits", json={"limit": 2, "window_s": 60}).status_code == 200
    with httpx.Client(base_url=emu.api_base) as client:
        answers = []
        for interaction in started:
            callback = f"/interactions/{interaction.id}/{interaction.interaction['token']}/callback"
            answers += [client.post(callback, json={"type": 4, "data": {"content": "pong"}}) for _ in range(5)]
    assert [a.status_code for a in answers].count(204) == 3   # each interaction answered once
    assert all(a.status_code != 429 and not rate_headers(a) for a in answers)
    # Other routes keep their limits: the third call in the window is refused, with the headers.
    with bot(emu) as http:
        limited = [http.get("/users/@me") for _ in range(3)]
    assert [r.status_code for r in limited] == [200, 200, 429] and all(rate_headers(r) for r in limited)


def test_only_the_callback_route_is_unlimited() -> None:
    assert unlimited("POST", "/api/v10/interactions/123/a-token/callback")
    assert unlimited("POST", "/api/v9/interactions/123/a-token/callback")
    assert not unlimited("GET", "/api/v10/interactions/123/a-token/callback")
    assert not unlimited("POST", "/api/v10/webhooks/123/a-token/callback")
    assert not unlimited("POST", "/api/v10/interactions/x/a-token/callback")
    assert not unlimited("POST", "/api/v10/webhooks/123/a-token")
