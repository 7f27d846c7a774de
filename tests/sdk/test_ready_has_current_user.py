"""Ready is reported only once READY's user is stored: inside the status callback at Ready the current
user is always there (the Gateway stores what READY carries before it announces the state)."""

from __future__ import annotations

import time
from typing import Any

from sdk_support import GAME_ID, Outcome, pump_until, sign_in

import platformpp
from platformpp import AuthorizationTokenType, Client

CONNECTS = 25


def test_the_current_user_is_present_inside_the_ready_status_callback(platformpp_emulator: Any) -> None:
    first = Client(platformpp_emulator.api_base, platformpp_emulator.web_base)
    first.set_application_id(GAME_ID)
    access, _ = sign_in(first, "alice")
    seen_at_ready: list[int | None] = []
    for _ in range(CONNECTS):
        # A fresh Client each time: nothing of a previous session is cached.
        client = Client(platformpp_emulator.api_base, platformpp_emulator.web_base)
        client.set_application_id(GAME_ID)
        updated = Outcome()
        client.update_token(AuthorizationTokenType.Bearer, access, updated)
        assert updated.wait()[0].successful

        def on_status(status: Any, error: Any, detail: int, client: Client = client) -> None:
            if status == Client.Status.Ready:
                user = client.get_current_user()
                seen_at_ready.append(None if user is None else user.id)

        client.set_status_changed_callback(on_status)
        expected = len(seen_at_ready) + 1
        client.connect()
        # run_callbacks() without a pause between calls: a Ready reported before the user is stored
        # would be delivered inside that window, not after it.
        deadline = time.monotonic() + 10
        while len(seen_at_ready) < expected:
            assert time.monotonic() < deadline, "the Client did not become Ready"
            platformpp.run_callbacks()
        client.disconnect()
        pump_until(lambda: client.get_status() == Client.Status.Disconnected)
    alice = seen_at_ready[0]
    assert seen_at_ready == [alice] * CONNECTS and alice is not None
    platformpp.run_callbacks()
