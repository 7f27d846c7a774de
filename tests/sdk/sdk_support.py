"""Helpers shared by the SDK's tests (imported by name: tests/sdk is on sys.path under pytest)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

import platformpp

GAME_ID = 1000000000000000000  # the default world's "Demo Game"


def pump_until(done: Callable[[], bool], timeout: float = 10.0) -> None:
    """Runs platformpp.run_callbacks() like a frame loop until done() or the timeout (then fails)."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {done}")
        platformpp.run_callbacks()
        time.sleep(0.002)


class Outcome:
    """A callback that records its arguments; `wait()` pumps until it was called."""

    def __init__(self) -> None:
        self.args: tuple[Any, ...] | None = None
        self.calls = 0

    def __call__(self, *args: Any) -> None:
        self.args = args
        self.calls += 1

    def wait(self, timeout: float = 10.0) -> tuple[Any, ...]:
        pump_until(lambda: self.args is not None, timeout)
        assert self.args is not None
        return self.args


def sign_in(client: platformpp.Client, user: str = "alice") -> tuple[str, str]:
    """The whole PKCE flow with headless consent; returns (access_token, refresh_token)."""
    pair = client.create_authorization_code_verifier()
    args = platformpp.AuthorizationArgs(scopes=platformpp.Client.get_default_communication_scopes(),
                                        code_challenge=pair.challenge)
    client.set_emulator_consent_user(user)
    authorized = Outcome()
    client.authorize(args, authorized)
    result, code, redirect_uri = authorized.wait()
    assert result.successful, result.to_string()
    tokens = Outcome()
    client.get_token(GAME_ID, code, pair.verifier, redirect_uri, tokens)
    result, access, refresh, token_type, expires_in, scopes = tokens.wait()
    assert result.successful, result.to_string()
    assert token_type is platformpp.AuthorizationTokenType.Bearer
    return access, refresh


def ready_player(emulator: Any, user: str) -> platformpp.Client:
    """A Client signed in as ``user`` (headless consent) and connected until Ready."""
    player = platformpp.Client(emulator.api_base, emulator.web_base)
    player.set_application_id(GAME_ID)
    access, _ = sign_in(player, user)
    updated = Outcome()
    player.update_token(platformpp.AuthorizationTokenType.Bearer, access, updated)
    assert updated.wait()[0].successful
    player.connect()
    pump_until(lambda: player.get_status() == platformpp.Client.Status.Ready)
    return player
