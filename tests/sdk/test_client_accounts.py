"""Provisional accounts, publisher-level linking, unmerge, token expiry, authorize requests and Gateway
drops, from Python against a live emulator (issue: SDK core)."""

from __future__ import annotations

import datetime
import time
from typing import Any

import httpx
import pytest

import platformpp
from platformpp import AuthenticationExternalAuthType, AuthorizationArgs, AuthorizationTokenType, Client, ErrorType

from sdk_support import GAME_ID, Outcome, pump_until, sign_in

ALICE = 1100000000000000001
STEAM = AuthenticationExternalAuthType.SteamSessionTicket
# Seeded by the linking tests: a parent application approved for publisher-level linking, its child.
PARENT_ID = 1300000000000000000
CHILD_ID = 1300000000000000001
LINKING_FIXTURE = {"applications": [
    {"id": str(PARENT_ID), "name": "Publisher Hub", "public_client": True, "publisher_linking_approved": True},
    {"id": str(CHILD_ID), "name": "Child Game", "public_client": True, "parent_application_id": str(PARENT_ID)},
]}


def admin(emu: Any, method: str, path: str, body: Any = None) -> httpx.Response:
    response = httpx.request(method, emu.base_url + path, json=body, timeout=10)
    assert response.status_code < 300, f"{method} {path}: {response.status_code} {response.text}"
    return response


def call(method: Any, *args: Any) -> tuple[Any, ...]:
    """Runs an SDK call whose callback is last and returns the callback's arguments."""
    outcome = Outcome()
    method(*args, outcome)
    return outcome.wait()


def update_token(client: Client, token: str) -> platformpp.ClientResult:
    return call(client.update_token, AuthorizationTokenType.Bearer, token)[0]


def connect_ready(client: Client, statuses: list[Client.Status]) -> None:
    client.set_status_changed_callback(lambda status, error, detail: statuses.append(status))
    client.connect()
    pump_until(lambda: bool(statuses) and statuses[-1] is Client.Status.Ready)


# ---- provisional accounts --------------------------------------------------------------------------


def test_provisional_token_then_update_token_and_connect_to_ready(client: Client) -> None:
    result, access, refresh, token_type, expires_in, scopes = call(client.get_provisional_token, GAME_ID, STEAM,
                                                                   "demo-player-1")
    assert result.successful, result.to_string()
    assert access and refresh == ""  # only OIDC provisional tokens come with a refresh token
    assert token_type is AuthorizationTokenType.Bearer and expires_in == 604800
    assert "lobbies.write" in scopes.split()
    result, user_id, name = call(client.fetch_current_user, AuthorizationTokenType.Bearer, access)
    assert result.successful and user_id not in (0, ALICE)
    # The same provider identity is the same provisional account next time.
    again = call(client.get_provisional_token, GAME_ID, STEAM, "demo-player-1")[1]
    assert call(client.fetch_current_user, AuthorizationTokenType.Bearer, again)[1] == user_id

    assert update_token(client, access).successful and client.is_authenticated()
    statuses: list[Client.Status] = []
    connect_ready(client, statuses)
    assert client.get_status() is Client.Status.Ready
    client.disconnect()
    pump_until(lambda: statuses[-1] is Client.Status.Disconnected)


def test_provisional_token_failures_say_why(client: Client) -> None:
    result, access, *_ = call(client.get_provisional_token, GAME_ID, STEAM, "not-a-ticket-it-issued")
    assert result.type is ErrorType.HTTPError and result.status == 401 and result.error_code == 530001
    assert "external auth token is invalid" in result.error and access == ""
    assert "not-a-ticket-it-issued" not in result.error
    # The default world declares no OIDC provider.
    result = call(client.get_provisional_token, GAME_ID, AuthenticationExternalAuthType.OIDC, "x.y.z")[0]
    assert result.status == 400 and result.error_code == 530002 and "OIDC" in result.error
    result = call(client.get_provisional_token, GAME_ID, STEAM, "")[0]
    assert result.type is ErrorType.ValidationError and result.error.startswith("externalAuthToken:")
    result = call(client.get_provisional_token, 0, STEAM, "demo-player-1")[0]
    assert result.type is ErrorType.ValidationError and result.error.startswith("applicationId:")


def test_fetch_current_user_with_a_bad_token(client: Client) -> None:
    expired: list[bool] = []
    client.set_token_expiration_callback(lambda: expired.append(True))
    result, user_id, name = call(client.fetch_current_user, AuthorizationTokenType.Bearer, "not-a-token")
    assert result.type is ErrorType.HTTPError and result.status == 401 and result.error_code == 50025
    assert (user_id, name) == (0, "")
    platformpp.run_callbacks()
    assert expired == []  # not the Client's own token: nothing of the Client's expired
    assert call(client.fetch_current_user, AuthorizationTokenType.Bearer, "")[0].error.startswith("token:")


# ---- publisher-level linking -----------------------------------------------------------------------


def parent_token(client: Client, emu: Any) -> str:
    admin(emu, "POST", "/_emulator/seed", LINKING_FIXTURE)
    pair = client.create_authorization_code_verifier()
    client.set_emulator_consent_user("alice")
    result, code, redirect_uri = call(client.authorize, AuthorizationArgs(client_id=PARENT_ID, scopes="openid identify",
                                                                         code_challenge=pair.challenge))
    assert result.successful, result.to_string()
    result, access, *_ = call(client.get_token, PARENT_ID, code, pair.verifier, redirect_uri)
    assert result.successful, result.to_string()
    return access


def test_exchange_child_token(client: Client, platformpp_emulator: Any) -> None:
    parent = parent_token(client, platformpp_emulator)
    result, child, token_type, expires_in, scopes = call(client.exchange_child_token, parent, CHILD_ID)
    assert result.successful, result.to_string()
    assert child and child != parent and token_type is AuthorizationTokenType.Bearer and expires_in == 604800
    assert set(scopes.split()) == {"openid", "identify"}
    assert call(client.fetch_current_user, AuthorizationTokenType.Bearer, child)[1] == ALICE


def test_exchange_child_token_is_refused_for_another_parents_token(client: Client, platformpp_emulator: Any) -> None:
    admin(platformpp_emulator, "POST", "/_emulator/seed", LINKING_FIXTURE)
    game_token, _ = sign_in(client)  # Demo Game is not the child's parent
    result, child, *_ = call(client.exchange_child_token, game_token, CHILD_ID)
    assert result.type is ErrorType.AuthorizationFailed and result.error.startswith("invalid_grant")
    assert result.status == 400 and child == ""
    result = call(client.exchange_child_token, game_token, 0)[0]
    assert result.type is ErrorType.ValidationError and result.error.startswith("childApplicationId:")


# ---- unmerge ---------------------------------------------------------------------------------------


def merge_into_alice(client: Client, emu: Any, external_token: str) -> str:
    """Alice consents and her code is exchanged with the provider token: the identity moves to her."""
    pair = client.create_authorization_code_verifier()
    client.set_emulator_consent_user("alice")
    result, code, redirect_uri = call(client.authorize, AuthorizationArgs(scopes="openid identify",
                                                                         code_challenge=pair.challenge))
    assert result.successful, result.to_string()
    # The SDK has no merge call (the game's server does it): the token endpoint directly.
    merged = httpx.post(f"{emu.api_base}/oauth2/token", data={
        "grant_type": "authorization_code", "code": code, "code_verifier": pair.verifier,
        "redirect_uri": redirect_uri, "client_id": str(GAME_ID),
        "external_auth_type": "STEAM_SESSION_TICKET", "external_auth_token": external_token})
    assert merged.status_code == 200, merged.text
    return merged.json()["access_token"]


def test_unmerge_into_provisional_account(client: Client, platformpp_emulator: Any) -> None:
    provisional = call(client.get_provisional_token, GAME_ID, STEAM, "demo-player-2")[1]
    provisional_id = call(client.fetch_current_user, AuthorizationTokenType.Bearer, provisional)[1]
    alice_token = merge_into_alice(client, platformpp_emulator, "demo-player-2")
    merged = call(client.get_provisional_token, GAME_ID, STEAM, "demo-player-2")[1]
    assert call(client.fetch_current_user, AuthorizationTokenType.Bearer, merged)[1] == ALICE

    result = call(client.unmerge_into_provisional_account, GAME_ID, STEAM, "demo-player-2")[0]
    assert result.successful, result.to_string()
    # The identity is a new provisional account again; Alice's grant of the game ended.
    result, access, *_ = call(client.get_provisional_token, GAME_ID, STEAM, "demo-player-2")
    new_id = call(client.fetch_current_user, AuthorizationTokenType.Bearer, access)[1]
    assert new_id not in (0, ALICE, provisional_id)
    assert call(client.fetch_current_user, AuthorizationTokenType.Bearer, alice_token)[0].status == 401

    again = call(client.unmerge_into_provisional_account, GAME_ID, STEAM, "demo-player-2")[0]
    assert again.type is ErrorType.HTTPError and again.status == 400 and again.error_code == 530005
    unknown = call(client.unmerge_into_provisional_account, GAME_ID, STEAM, "forged")[0]
    assert unknown.status == 401 and unknown.error_code == 530001


# ---- token expiration ------------------------------------------------------------------------------


def test_token_expiration_callback_when_the_platform_rejects_the_token(client: Client, platformpp_emulator: Any) -> None:
    access, _ = sign_in(client)
    assert update_token(client, access).successful
    expired: list[bool] = []
    client.set_token_expiration_callback(lambda: expired.append(True))
    # The player removes the game elsewhere: the platform stops accepting the token.
    admin(platformpp_emulator, "DELETE", f"/_emulator/users/{ALICE}/applications/{GAME_ID}")
    result = call(client.fetch_current_user, AuthorizationTokenType.Bearer, access)[0]
    assert result.status == 401
    pump_until(lambda: bool(expired))
    client.set_token_expiration_callback(None)


def test_token_expiration_callback_when_the_emulator_clock_passes_the_expiry(client: Client,
                                                                           platformpp_emulator: Any) -> None:
    access, _ = sign_in(client)
    assert update_token(client, access).successful
    expired: list[bool] = []
    client.set_token_expiration_callback(lambda: expired.append(True))
    later = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=8)
    admin(platformpp_emulator, "PUT", "/_emulator/clock", {"now": later.isoformat()})
    assert call(client.fetch_current_user, AuthorizationTokenType.Bearer, access)[0].status == 401
    pump_until(lambda: bool(expired))
    assert len(expired) == 1


def test_token_expiration_callback_before_a_short_lived_token_expires(client: Client, platformpp_emulator: Any) -> None:
    admin(platformpp_emulator, "PUT", "/_emulator/token-lifetime", {"access_token_s": 2})
    access, _ = sign_in(client)
    received = time.monotonic()
    expired: list[float] = []
    client.set_token_expiration_callback(lambda: expired.append(time.monotonic()))
    assert update_token(client, access).successful
    # Lifetimes of 50 minutes or less warn at 90%: 1.8 s after the token answer.
    pump_until(lambda: bool(expired))
    assert expired[0] - received >= 1.5
    time.sleep(0.5)  # the timer fires once
    platformpp.run_callbacks()
    assert len(expired) == 1


def test_token_expiration_callback_when_the_gateway_closes_with_4004(client: Client, platformpp_emulator: Any) -> None:
    access, _ = sign_in(client)
    assert update_token(client, access).successful
    expired: list[bool] = []
    client.set_token_expiration_callback(lambda: expired.append(True))
    changes: list[tuple[Client.Status, Client.Error, int]] = []
    client.set_status_changed_callback(lambda *change: changes.append(change))
    client.connect()
    pump_until(lambda: bool(changes) and changes[-1][0] is Client.Status.Ready)
    revoked = httpx.post(f"{platformpp_emulator.api_base}/oauth2/token/revoke",
                         data={"token": access, "client_id": str(GAME_ID)})
    assert revoked.status_code == 200
    pump_until(lambda: changes[-1][0] is Client.Status.Disconnected and bool(expired))
    assert changes[-1] == (Client.Status.Disconnected, Client.Error.UnexpectedClose, 4004)


# ---- authorize requests ----------------------------------------------------------------------------


def request_authorization(emu: Any) -> None:
    delivered = admin(emu, "POST", "/_emulator/gateway/authorize-request", {"user_id": str(ALICE)}).json()
    assert delivered == {"delivered": 1}


def test_authorize_request_callback_and_its_removal(client: Client, platformpp_emulator: Any) -> None:
    access, _ = sign_in(client)
    assert update_token(client, access).successful
    first: list[bool] = []
    client.register_authorize_request_callback(lambda: first.append(True))
    connect_ready(client, [])
    request_authorization(platformpp_emulator)
    pump_until(lambda: len(first) == 1)

    client.remove_authorize_request_callback()
    request_authorization(platformpp_emulator)
    # Dispatches arrive in order: once the next callback ran, the one before was seen and ignored.
    second: list[bool] = []
    client.register_authorize_request_callback(lambda: second.append(True))
    time.sleep(0.3)
    request_authorization(platformpp_emulator)
    pump_until(lambda: len(second) >= 1)
    assert first == [True]
    with pytest.raises(TypeError):
        client.register_authorize_request_callback(None)


# ---- resilience ------------------------------------------------------------------------------------


def test_back_to_ready_after_twenty_gateway_drops(client: Client, platformpp_emulator: Any) -> None:
    access, _ = sign_in(client)
    assert update_token(client, access).successful
    statuses: list[Client.Status] = []
    connect_ready(client, statuses)
    for drop in range(20):
        seen = len(statuses)
        dropped = admin(platformpp_emulator, "POST", "/_emulator/gateway/drop", {"user_id": str(ALICE)}).json()
        assert dropped == {"dropped": 1}, f"drop {drop}"
        pump_until(lambda: statuses[-1] is Client.Status.Ready and len(statuses) > seen)
        after = statuses[seen:]
        assert after[0] is Client.Status.Reconnecting, (drop, after)
        assert Client.Status.Disconnected not in after, (drop, after)
    assert statuses.count(Client.Status.Reconnecting) == 20
    assert client.get_status() is Client.Status.Ready
