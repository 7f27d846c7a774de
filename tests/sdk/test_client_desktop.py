"""The SDK with the platform's desktop client running (the emulator's IPC endpoint, found through the
socket path the SDK searches): Authorize through it, AUTHORIZE_REQUEST over IPC, the desktop user's
voice settings and their updates, and what the calls do when no desktop client runs."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sdk_support import GAME_ID, Outcome, pump_until

import platformpp
from platformpp import AuthorizationArgs, AuthorizationTokenType, Client, ErrorType
from platformpp.emulator import Emulator


@pytest.fixture
def socket_prefix(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A private socket prefix, shared by the emulator (--ipc-path) and the SDK (PLATFORMPP_IPC_PATH)."""
    with tempfile.TemporaryDirectory(prefix="ppsdk", dir="/tmp") as folder:
        prefix = str(Path(folder) / "platformpp-ipc")
        monkeypatch.setenv("PLATFORMPP_IPC_PATH", prefix)
        yield prefix


@pytest.fixture
def desktop(socket_prefix: str) -> Iterator[Emulator]:
    with Emulator(desktop_user="alice", ipc_path=socket_prefix) as emu:
        yield emu


def _client(emu: Emulator) -> Client:
    client = Client(emu.api_base, emu.web_base)
    client.set_application_id(GAME_ID)
    return client


def _authorize(client: Client) -> tuple[platformpp.ClientResult, str, str, str]:
    pair = client.create_authorization_code_verifier()
    args = AuthorizationArgs(scopes=Client.get_default_communication_scopes(), code_challenge=pair.challenge)
    authorized = Outcome()
    client.authorize(args, authorized)   # no consent user, no opener: only the desktop client can answer
    result, code, redirect_uri = authorized.wait()
    return result, code, redirect_uri, pair.verifier


def _signed_in(client: Client) -> str:
    result, code, redirect_uri, verifier = _authorize(client)
    assert result.successful, result.to_string()
    tokens = Outcome()
    client.get_token(GAME_ID, code, verifier, redirect_uri, tokens)
    result, access, *_ = tokens.wait()
    assert result.successful, result.to_string()
    updated = Outcome()
    client.update_token(AuthorizationTokenType.Bearer, access, updated)
    assert updated.wait()[0].successful
    return access


def _admin(emu: Emulator, method: str, path: str, **kwargs: object) -> httpx.Response:
    return httpx.request(method, f"{emu.base_url}/_emulator/desktop{path}", timeout=10, **kwargs)


def test_the_desktop_client_is_found(desktop: Emulator) -> None:
    found = Outcome()
    _client(desktop).is_platform_app_installed(found)
    assert found.wait() == (True,)


def test_no_desktop_client_found_without_its_socket(socket_prefix: str, platformpp_emulator: Emulator) -> None:
    client = _client(platformpp_emulator)
    found = Outcome()
    client.is_platform_app_installed(found)
    assert found.wait() == (False,)


def test_authorize_goes_through_the_desktop_client_and_its_user_consents(desktop: Emulator) -> None:
    client = _client(desktop)
    access = _signed_in(client)
    user = Outcome()
    client.fetch_current_user(AuthorizationTokenType.Bearer, access, user)
    assert user.wait()[2] == "alice"   # the desktop user, with no browser and no consent user set


def test_authorize_refused_by_the_desktop_user(desktop: Emulator) -> None:
    assert _admin(desktop, "PUT", "/consent", json={"deny": True}).status_code == 200
    result, code, _, _ = _authorize(_client(desktop))
    assert not result.successful and result.type is ErrorType.AuthorizationFailed
    assert "access_denied" in result.error and code == ""


def test_voice_settings_and_their_updates(desktop: Emulator) -> None:
    client = _client(desktop)
    _signed_in(client)
    got = Outcome()
    client.get_voice_settings(got)
    result, settings = got.wait()
    assert result.successful, result.to_string()
    assert settings and not settings.self_mute and settings.input_mode is platformpp.VoiceInputModeType.VoiceActivity
    assert settings.input_volume == 100 and settings.output_volume == 100 and settings.noise_suppression
    updates: list[platformpp.VoiceSettings] = []
    client.set_voice_settings_updated_callback(updates.append)
    pump_until(lambda: any("VOICE_SETTINGS_UPDATE" in c["subscriptions"]
                           for c in _admin(desktop, "GET", "").json()["connections"]))
    changed = _admin(desktop, "PATCH", "/voice-settings", json={
        "self_deaf": True, "input_mode": "push_to_talk", "ptt_key": "SHIFT + F", "input_volume": 35,
        "output_volume": 180, "echo_cancellation": False, "noise_cancellation": True})
    assert changed.status_code == 200
    pump_until(lambda: bool(updates))
    update = updates[-1]
    assert update.self_deaf and update.input_mode is platformpp.VoiceInputModeType.PushToTalk
    assert update.ptt_key == "SHIFT + F" and update.input_volume == 35 and update.output_volume == 180
    assert not update.echo_cancellation and update.noise_cancellation
    copy = platformpp.VoiceSettings()
    copy.self_mute = True    # a snapshot: setting it changes nothing in the desktop client
    assert _admin(desktop, "GET", "").json()["voice_settings"]["self_mute"] is False


def test_voice_settings_async(desktop: Emulator) -> None:
    client = _client(desktop)
    _signed_in(client)

    async def main() -> platformpp.VoiceSettings:
        return await client.get_voice_settings_async()
    assert asyncio.run(main()).output_volume == 100


def test_voice_settings_without_a_desktop_client_fail_clearly(socket_prefix: str,
                                                               platformpp_emulator: Emulator) -> None:
    client = _client(platformpp_emulator)
    _token_without_desktop(client, platformpp_emulator)
    got = Outcome()
    client.get_voice_settings(got)
    result, settings = got.wait()
    assert result.type is ErrorType.RPCError and "no desktop client" in result.error
    assert not settings


def _token_without_desktop(client: Client, emu: Emulator) -> None:
    pair = client.create_authorization_code_verifier()
    client.set_emulator_consent_user("alice")
    authorized = Outcome()
    client.authorize(AuthorizationArgs(scopes=Client.get_default_communication_scopes(),
                                       code_challenge=pair.challenge), authorized)
    result, code, redirect_uri = authorized.wait()
    assert result.successful
    tokens = Outcome()
    client.get_token(GAME_ID, code, pair.verifier, redirect_uri, tokens)
    access = tokens.wait()[1]
    updated = Outcome()
    client.update_token(AuthorizationTokenType.Bearer, access, updated)
    assert updated.wait()[0].successful


def test_authorize_request_arrives_over_ipc(desktop: Emulator) -> None:
    client = _client(desktop)
    requests = Outcome()
    client.register_authorize_request_callback(requests)
    pump_until(lambda: any("AUTHORIZE_REQUEST" in c["subscriptions"]
                           for c in _admin(desktop, "GET", "").json()["connections"]))
    delivered = _admin(desktop, "POST", "/authorize-request", json={"application_id": str(GAME_ID)}).json()
    assert delivered == {"delivered": 1}
    assert requests.wait() == ()


def test_platform_client_connected_user_needs_no_token(desktop: Emulator) -> None:
    client = _client(desktop)
    got = Outcome()
    client.get_platform_client_connected_user(GAME_ID, got)
    result, user = got.wait()
    assert result.successful, result.to_string()
    assert user is not None and user.username == "alice" and user.id > 0
    assert not client.is_authenticated()
    assert _admin(desktop, "PUT", "", json={"user": "bob"}).status_code == 200

    async def main() -> platformpp.UserHandle | None:
        return await client.get_platform_client_connected_user_async(GAME_ID)
    switched = asyncio.run(main())
    assert switched is not None and switched.username == "bob"


def test_platform_client_connected_user_failures(desktop: Emulator) -> None:
    client = _client(desktop)
    got = Outcome()
    client.get_platform_client_connected_user(424242424242424242, got)   # no such application
    result, user = got.wait()
    assert result.type is ErrorType.RPCError and "Client ID" in result.error and user is None
    assert _admin(desktop, "DELETE", "").status_code == 204

    async def main() -> None:
        await client.get_platform_client_connected_user_async(GAME_ID)
    with pytest.raises(platformpp.RPCError, match="no desktop client"):
        asyncio.run(main())


def test_activity_join_from_the_desktop_client(desktop: Emulator) -> None:
    client = _client(desktop)
    joined: list[str] = []
    with_application: list[tuple[int, str]] = []
    client.set_activity_join_callback(joined.append)
    client.set_activity_join_with_application_callback(lambda app, secret: with_application.append((app, secret)))
    pump_until(lambda: any("ACTIVITY_JOIN" in str(c) for c in _admin(desktop, "GET", "").json()["connections"]))
    delivered = _admin(desktop, "POST", "/activity-join", json={"application_id": str(GAME_ID), "secret": "join-7"})
    assert delivered.json()["delivered"] == 1
    pump_until(lambda: joined == ["join-7"] and with_application == [(GAME_ID, "join-7")])
    assert not client.is_authenticated()
