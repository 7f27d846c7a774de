"""Headless consent against an emulator that requires its admin secret (as one listening beyond loopback
does): set_emulator_consent_user(user, admin_secret) signs in through both the PKCE and the device flow,
without the secret (or with a wrong one) the emulator refuses, and the secret shows nowhere: not in the
SDK's log, not in the emulator's request log, not in a repr."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sdk_support import GAME_ID, Outcome

import platformpp
from platformpp import AuthorizationArgs, Client, DeviceAuthorizationArgs, ErrorType, LoggingSeverity
from platformpp.emulator import Emulator
from platformpp.emulator.core.admin_secret import AdminSecret

SECRET = "sdk-test-admin-secret-0123456789"
ALICE = 1100000000000000001


@pytest.fixture()
def guarded() -> Iterator[Emulator]:
    """An emulator that requires the admin secret for headless consent and its admin API, as it does when
    it listens beyond loopback (the loopback port keeps the test independent of the machine's network)."""
    with Emulator(db=":memory:") as emu:
        emu.state.admin_secret = AdminSecret(SECRET, generated=False)
        yield emu


def _client(emu: Emulator, log: list[str]) -> Client:
    client = Client(emu.api_base, emu.web_base)
    client.set_application_id(GAME_ID)
    client.add_log_callback(lambda line, severity: log.append(line), LoggingSeverity.Verbose)
    return client


def _authorize(client: Client) -> tuple[Any, ...]:
    pair = client.create_authorization_code_verifier()
    args = AuthorizationArgs(scopes=Client.get_default_communication_scopes(), code_challenge=pair.challenge)
    outcome = Outcome()
    client.authorize(args, outcome)
    return outcome.wait(15)


def _me(client: Client, token: str) -> int:
    outcome = Outcome()
    client.fetch_current_user(platformpp.AuthorizationTokenType.Bearer, token, outcome)
    result, user_id, _ = outcome.wait()
    assert result.successful, result.to_string()
    return int(user_id)


def test_headless_consent_passes_the_admin_secret(guarded: Emulator) -> None:
    log: list[str] = []
    client = _client(guarded, log)

    client.set_emulator_consent_user("alice")  # the one-argument form: still works, and is refused here
    result, code, _ = _authorize(client)
    assert not result.successful and result.type == ErrorType.AuthorizationFailed
    assert "401" in result.error and not code

    client.set_emulator_consent_user("alice", "a-wrong-secret-of-enough-length")
    result, *_ = _authorize(client)
    assert not result.successful and result.type == ErrorType.AuthorizationFailed

    client.set_emulator_consent_user("alice", admin_secret=SECRET)
    pair = client.create_authorization_code_verifier()
    args = AuthorizationArgs(scopes=Client.get_default_communication_scopes(), code_challenge=pair.challenge)
    authorized = Outcome()
    client.authorize(args, authorized)
    result, code, redirect_uri = authorized.wait(15)
    assert result.successful, result.to_string()
    tokens = Outcome()
    client.get_token(GAME_ID, code, pair.verifier, redirect_uri, tokens)
    result, access, *_ = tokens.wait()
    assert result.successful, result.to_string()
    assert _me(client, access) == ALICE

    _assert_secret_shown_nowhere(guarded, client, log)


def test_device_flow_consent_passes_the_admin_secret(guarded: Emulator) -> None:
    headers = {"Authorization": f"Bearer {SECRET}"}
    answer = httpx.put(f"{guarded.base_url}/_emulator/oauth/device-interval", json={"interval": 1},
                       headers=headers, timeout=10)
    assert answer.status_code < 300, answer.text
    log: list[str] = []
    client = _client(guarded, log)
    client.set_authorize_url_opener(lambda url: None)
    client.set_emulator_consent_user("alice", SECRET)
    outcome = Outcome()
    client.get_token_from_device(DeviceAuthorizationArgs(scopes=Client.get_default_communication_scopes()), outcome)
    result, access, *_ = outcome.wait(20)
    assert result.successful, result.to_string()
    assert _me(client, access) == ALICE
    _assert_secret_shown_nowhere(guarded, client, log)


def _assert_secret_shown_nowhere(emu: Emulator, client: Client, log: list[str]) -> None:
    platformpp.run_callbacks()
    assert log, "the SDK logged nothing: the check below would prove nothing"
    assert not [line for line in log if SECRET in line]
    assert SECRET not in repr(client)
    requests = httpx.get(f"{emu.base_url}/_emulator/requests", headers={"Authorization": f"Bearer {SECRET}"},
                         timeout=10)
    assert requests.status_code == 200
    assert SECRET not in json.dumps(requests.json())
