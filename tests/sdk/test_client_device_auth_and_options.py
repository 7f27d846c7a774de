"""The SDK 1.10 members of the auth and client areas from Python against a live emulator:
device authorization, provisional merges and display names, ClientCreateOptions, threads, the log
file, HttpStatusCode and enum_to_string."""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import httpx
import pytest

import platformpp
from platformpp import (
    AuthenticationExternalAuthType,
    AuthorizationTokenType,
    Client,
    ClientCreateOptions,
    DeviceAuthorizationArgs,
    ErrorType,
    HttpStatusCode,
    LoggingSeverity,
)

from sdk_support import GAME_ID, Outcome, pump_until, sign_in

ALICE = 1100000000000000001
STEAM = AuthenticationExternalAuthType.SteamSessionTicket


def admin(emu: Any, method: str, path: str, body: Any = None) -> httpx.Response:
    response = httpx.request(method, emu.base_url + path, json=body, timeout=10)
    assert response.status_code < 300, f"{method} {path}: {response.status_code} {response.text}"
    return response


def call(method: Any, *args: Any, timeout: float = 10.0) -> tuple[Any, ...]:
    outcome = Outcome()
    method(*args, outcome)
    return outcome.wait(timeout)


def me(client: Client, token: str) -> int:
    result, user_id, _ = call(client.fetch_current_user, AuthorizationTokenType.Bearer, token)
    assert result.successful, result.to_string()
    return int(user_id)


@pytest.fixture
def fast_device(platformpp_emulator: Any) -> None:
    admin(platformpp_emulator, "PUT", "/_emulator/oauth/device-interval", {"interval": 1})


def device_args() -> DeviceAuthorizationArgs:
    return DeviceAuthorizationArgs(scopes=Client.get_default_communication_scopes())


def test_device_authorization_args_value_class() -> None:
    args = DeviceAuthorizationArgs(client_id=5, scopes="openid")
    assert (args.client_id, args.scopes) == (5, "openid")
    args.scopes = "sdk.social_layer"
    twin = copy.copy(args)
    assert twin.scopes == "sdk.social_layer" and bool(twin) and not DeviceAuthorizationArgs.nullobj
    assert repr(args) == "DeviceAuthorizationArgs(client_id=5, scopes='sdk.social_layer')"
    with pytest.raises(platformpp.NullHandleError):
        _ = DeviceAuthorizationArgs.nullobj.scopes


def test_device_authorization_headless(client: Client, fast_device: None, platformpp_emulator: Any) -> None:
    opened: list[str] = []
    closed: list[bool] = []
    client.set_authorize_url_opener(opened.append)
    client.set_authorize_device_screen_closed_callback(lambda: closed.append(True))
    client.set_emulator_consent_user("alice")
    result, access, refresh, token_type, expires_in, scopes = call(client.get_token_from_device, device_args(),
                                                                    timeout=20)
    assert result.successful, result.to_string()
    assert me(client, access) == ALICE and refresh and "sdk.social_layer" in scopes
    assert opened and opened[0].startswith(platformpp_emulator.base_url + "/activate?user_code=")
    assert closed == [True]


def test_device_authorization_admin_approval_denial_and_abort(client: Client, fast_device: None,
                                                             platformpp_emulator: Any) -> None:
    opened: list[str] = []
    client.set_authorize_url_opener(opened.append)
    outcome = Outcome()
    client.get_token_from_device(device_args(), outcome)
    pump_until(lambda: bool(opened))
    user_code = opened[-1].split("user_code=")[1]
    admin(platformpp_emulator, "POST", f"/_emulator/oauth/device/{user_code}/approve", {"user": "alice"})
    result, access, *_ = outcome.wait(10)
    assert result.successful and me(client, access) == ALICE

    denied = Outcome()
    client.get_token_from_device(device_args(), denied)
    pump_until(lambda: len(opened) == 2)
    admin(platformpp_emulator, "POST", f"/_emulator/oauth/device/{opened[-1].split('user_code=')[1]}/deny", {})
    result = denied.wait(10)[0]
    assert result.type is ErrorType.AuthorizationFailed and result.error.startswith("access_denied")

    aborted = Outcome()
    client.get_token_from_device(device_args(), aborted)
    client.abort_get_token_from_device()
    assert aborted.wait()[0].type is ErrorType.Aborted
    invalid = call(client.get_token_from_device, DeviceAuthorizationArgs())[0]
    assert invalid.type is ErrorType.ValidationError and "Scopes" in invalid.error


def test_device_provisional_merge(client: Client, fast_device: None) -> None:
    result, provisional, *_ = call(client.get_provisional_token, GAME_ID, STEAM, "demo-player-1")
    assert result.successful and me(client, provisional) != ALICE
    client.set_emulator_consent_user("alice")
    result, access, *_ = call(client.get_token_from_device_provisional_merge, device_args(), STEAM,
                              "demo-player-1", timeout=20)
    assert result.successful, result.to_string()
    result, again, *_ = call(client.get_provisional_token, GAME_ID, STEAM, "demo-player-1")
    assert me(client, again) == ALICE


def test_get_token_from_provisional_merge(client: Client) -> None:
    pair = client.create_authorization_code_verifier()
    args = platformpp.AuthorizationArgs(scopes=Client.get_default_communication_scopes(),
                                        code_challenge=pair.challenge)
    client.set_emulator_consent_user("alice")
    result, code, redirect_uri = call(client.authorize, args)
    assert result.successful
    result, *_ = call(client.get_token_from_provisional_merge, GAME_ID, code, pair.verifier, redirect_uri, STEAM,
                      "demo-player-2")
    assert result.successful, result.to_string()
    _, again, *_ = call(client.get_provisional_token, GAME_ID, STEAM, "demo-player-2")
    assert me(client, again) == ALICE


def test_display_name_merge_completed_and_window_pid(client: Client, platformpp_emulator: Any) -> None:
    _, provisional, *_ = call(client.get_provisional_token, GAME_ID, STEAM, "demo-player-1")
    assert call(client.update_token, AuthorizationTokenType.Bearer, provisional)[0].successful
    result = call(client.update_provisional_account_display_name, "Player One")[0]
    assert result.successful, result.to_string()
    body = httpx.get(platformpp_emulator.base_url + "/api/v10/users/@me",
                     headers={"Authorization": f"Bearer {provisional}"}).json()
    assert body["global_name"] == "Player One"
    too_long = call(client.update_provisional_account_display_name, "x" * 33)[0]
    assert too_long.type is ErrorType.ValidationError and "name" in too_long.error
    client.provisional_user_merge_completed(True)
    assert client.is_authenticated()
    client.set_game_window_pid(os.getpid())
    with pytest.raises(platformpp.ValidationError):
        client.set_game_window_pid(-1)


def test_http_status_code_is_an_int_enum(client: Client) -> None:
    result = call(client.get_provisional_token, GAME_ID, STEAM, "no-such-ticket")[0]
    assert result.status is HttpStatusCode.Unauthorized
    assert result.status == 401 and isinstance(result.status, int)
    assert platformpp.ClientResult().status is HttpStatusCode.None_
    custom = platformpp.ClientResult()
    custom.status = 418  # not listed: kept as the number
    assert custom.status == 418 and type(custom.status) is int
    custom.status = HttpStatusCode.NotFound
    assert custom.status is HttpStatusCode.NotFound
    assert platformpp.enum_to_string(HttpStatusCode.TooManyRequests) == "TooManyRequests"


def test_client_create_options(tmp_path: Path) -> None:
    options = ClientCreateOptions()
    options.api_base = "http://127.0.0.1:9/api/v10"
    options.web_base = "http://127.0.0.1:9"
    options.experimental_audio_system = platformpp.AudioSystem.Game
    options.experimental_android_prevent_comms_for_bluetooth = True
    options.cpu_affinity_mask = 1
    client = Client(options)
    assert client.get_api_base() == "http://127.0.0.1:9/api/v10" and client.get_web_base() == "http://127.0.0.1:9"
    assert options.cpu_affinity_mask == 1 and options.experimental_audio_system is platformpp.AudioSystem.Game
    options.cpu_affinity_mask = 0
    with pytest.raises(platformpp.ValidationError, match="cpu_affinity_mask"):
        Client(options)
    options.cpu_affinity_mask = None
    options.api_base = "nope"
    with pytest.raises(platformpp.ValidationError, match="api_base"):
        Client(options)


def test_threads_version_hash_log_dir_and_enum_strings(tmp_path: Path) -> None:
    assert Client.thread_to_string(Client.Thread.Network) == "Network"
    digest = Client.get_version_hash()
    assert digest == "unknown" or (len(digest) == 40 and int(digest, 16) >= 0)
    client = Client("http://127.0.0.1:9/api/v10", "http://127.0.0.1:9")
    with pytest.raises(platformpp.ValidationError, match="priority"):
        client.set_thread_priority(Client.Thread.Network, 20)
    client.set_thread_priority(Client.Thread.Network, 4)
    assert client.set_log_dir(str(tmp_path / "logs"), LoggingSeverity.Info)
    result = call(client.update_token, AuthorizationTokenType.Bearer, "python-secret-token-value")[0]
    assert not result.successful
    client.open_authorize_device_screen(GAME_ID, "BCDF-GHJK")
    text = (tmp_path / "logs" / "platformpp.log").read_text()
    assert "BCDF-GHJK" in text and "python-secret-token-value" not in text
    assert not client.set_log_dir("/proc/no-such-dir/x", LoggingSeverity.Info)
    assert platformpp.enum_to_string(Client.Thread.Voice) == "Voice"
    assert platformpp.enum_to_string(ErrorType.HTTPError) == "HTTPError"
    assert platformpp.enum_to_string(AuthenticationExternalAuthType.AppleIdToken) == "AppleIdToken"
    assert platformpp.enum_to_string(platformpp.VoiceInputModeType.PushToTalk) == "PushToTalk"


def test_get_current_user_v2(client: Client) -> None:
    assert client.get_current_user_v2() is None  # not connected yet
    access, _ = sign_in(client)
    assert call(client.update_token, AuthorizationTokenType.Bearer, access)[0].successful
    statuses: list[Client.Status] = []
    client.set_status_changed_callback(lambda status, error, detail: statuses.append(status))
    client.connect()
    pump_until(lambda: bool(statuses) and statuses[-1] is Client.Status.Ready)
    user = client.get_current_user_v2()
    assert user is not None and user.id == ALICE
    assert user.id == client.get_current_user().id


def test_avatar_type() -> None:
    assert platformpp.UserHandle.avatar_type_to_string(platformpp.UserHandle.AvatarType.Webp) == "Webp"
    assert platformpp.enum_to_string(platformpp.UserHandle.AvatarType.Jpeg) == "Jpeg"
    assert [m.value for m in platformpp.UserHandle.AvatarType] == [0, 1, 2, 3]
