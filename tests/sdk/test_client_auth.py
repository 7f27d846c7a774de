"""The authorization flows end to end from Python against a live emulator (issue: SDK core)."""

from __future__ import annotations

import platformpp
from platformpp import AuthorizationArgs, Client, ErrorType

from sdk_support import GAME_ID, Outcome, pump_until, sign_in


def test_whole_pkce_flow_to_ready(client: Client) -> None:
    statuses: list[Client.Status] = []
    client.set_status_changed_callback(lambda status, error, detail: statuses.append(status))
    access, refresh = sign_in(client)
    assert access and refresh and access != refresh
    updated = Outcome()
    client.update_token(platformpp.AuthorizationTokenType.Bearer, access, updated)
    (result,) = updated.wait()
    assert result.successful and client.is_authenticated()
    client.connect()
    pump_until(lambda: bool(statuses) and statuses[-1] is Client.Status.Ready)
    assert statuses[0] is Client.Status.HttpWait
    assert client.get_status() is Client.Status.Ready
    client.disconnect()
    pump_until(lambda: statuses[-1] is Client.Status.Disconnected)


def test_state_mismatch_is_refused(client: Client) -> None:
    client.set_authorize_url_opener(lambda url: None)
    outcome = Outcome()
    client.authorize(AuthorizationArgs(scopes="openid"), outcome)
    forged = f"platform-{GAME_ID}:/authorize/callback?code=stolen&state=forged"
    assert client.handle_authorize_redirect(forged)
    result, code, _ = outcome.wait()
    assert result.type is ErrorType.AuthorizationFailed and "state" in result.error
    assert code == ""


def test_revoked_token_refresh_gives_invalid_grant(client: Client) -> None:
    access, refresh = sign_in(client)
    revoked = Outcome()
    client.revoke_token(GAME_ID, access, revoked)
    assert revoked.wait()[0].successful
    refreshed = Outcome()
    client.refresh_token(GAME_ID, refresh, refreshed)
    result = refreshed.wait()[0]
    assert result.type is ErrorType.AuthorizationFailed
    assert result.deauthorized
    assert result.status == 400 and "invalid_grant" in result.error


def test_bad_arguments_are_validation_errors_naming_the_field(client: Client) -> None:
    outcome = Outcome()
    client.authorize(AuthorizationArgs(), outcome)
    result = outcome.wait()[0]
    assert result.type is ErrorType.ValidationError and result.error.startswith("Scopes:")
    tokens = Outcome()
    client.get_token(0, "code", "verifier", "uri", tokens)
    assert tokens.wait()[0].error.startswith("applicationId:")


def test_a_429_storm_completes_every_request(client: Client, platformpp_emulator) -> None:
    import httpx

    httpx.put(f"{platformpp_emulator.base_url}/_emulator/faults",
              json={"rules": [{"path": "/api/v10/users/@me", "force_429": 6, "retry_after": 0.05}]}).raise_for_status()
    access, _ = sign_in(client)
    outcomes = [Outcome() for _ in range(5)]
    for outcome in outcomes:
        client.fetch_current_user(platformpp.AuthorizationTokenType.Bearer, access, outcome)
    for outcome in outcomes:
        result, user_id, name = outcome.wait()
        assert result.successful, result.to_string()
        assert (user_id, name) == (1100000000000000001, "alice")


def test_logs_reach_python_without_secrets(client: Client) -> None:
    lines: list[tuple[str, platformpp.LoggingSeverity]] = []
    client.add_log_callback(lambda line, severity: lines.append((line, severity)), platformpp.LoggingSeverity.Verbose)
    access, refresh = sign_in(client)
    pump_until(lambda: any("oauth2/token" in line for line, _ in lines))
    assert all(access not in line and refresh not in line for line, _ in lines)
    assert all(isinstance(severity, platformpp.LoggingSeverity) for _, severity in lines)
