"""The asyncio layer: awaitable methods driven by the wake-up fd, errors, cancellation, timeouts."""

from __future__ import annotations

import asyncio
import inspect

import pytest
from sdk_support import GAME_ID

import platformpp
from platformpp import AuthorizationArgs, Client


def test_every_completion_callback_method_has_an_async_counterpart() -> None:
    for name in ("authorize", "get_token", "refresh_token", "revoke_token", "update_token", "fetch_current_user",
                 "get_provisional_token", "exchange_child_token", "unmerge_into_provisional_account"):
        method = getattr(Client, f"{name}_async")
        assert inspect.iscoroutinefunction(method)
        assert "callback" not in inspect.signature(method).parameters
    assert not hasattr(Client, "set_status_changed_callback_async")  # events are not calls


def test_the_whole_flow_with_await(client: Client) -> None:
    async def main() -> None:
        pair = client.create_authorization_code_verifier()
        client.set_emulator_consent_user("bob")
        args = AuthorizationArgs(scopes=Client.get_default_communication_scopes(), code_challenge=pair.challenge)
        code, redirect_uri = await client.authorize_async(args)
        access, refresh, token_type, expires_in, scopes = await client.get_token_async(
            GAME_ID, code, pair.verifier, redirect_uri)
        assert token_type is platformpp.AuthorizationTokenType.Bearer and expires_in > 0
        assert await client.update_token_async(platformpp.AuthorizationTokenType.Bearer, access) is None
        user_id, name = await client.fetch_current_user_async(platformpp.AuthorizationTokenType.Bearer, access)
        assert name == "bob"
        await client.revoke_token_async(GAME_ID, access)
        with pytest.raises(platformpp.AuthorizationFailed) as raised:
            await client.refresh_token_async(GAME_ID, refresh)
        assert raised.value.result.deauthorized
        assert isinstance(raised.value, platformpp.ClientError) and isinstance(raised.value, platformpp.Error)

    asyncio.run(main())


def test_validation_failures_raise_validation_error_with_the_field() -> None:
    offline = Client("http://127.0.0.1:9/api/v10", "http://127.0.0.1:9")

    async def main() -> None:
        with pytest.raises(platformpp.ValidationError) as raised:
            await offline.authorize_async(AuthorizationArgs())
        assert raised.value.field == "scopes"
        assert raised.value.result.type is platformpp.ErrorType.ValidationError

    asyncio.run(main())


def test_network_failures_raise_network_error() -> None:
    offline = Client("http://127.0.0.1:9/api/v10", "http://127.0.0.1:9")

    async def main() -> None:
        with pytest.raises(platformpp.NetworkError) as raised:
            await offline.fetch_current_user_async(platformpp.AuthorizationTokenType.Bearer, "token")
        assert raised.value.result.retryable

    asyncio.run(main())


def test_timeout_and_cancellation_abort_the_authorization() -> None:
    offline = Client("http://127.0.0.1:9/api/v10", "http://127.0.0.1:9")
    offline.set_authorize_url_opener(lambda url: None)  # nobody ever answers

    async def main() -> None:
        with pytest.raises(asyncio.TimeoutError):
            await offline.authorize_async(AuthorizationArgs(scopes="openid", client_id=1), timeout=0.05)
        task = asyncio.ensure_future(offline.authorize_async(AuthorizationArgs(scopes="openid", client_id=1)))
        await asyncio.sleep(0.02)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        # A cancelled authorization was aborted: a redirect for it is no longer accepted.
        assert not offline.handle_authorize_redirect("platform-1:/authorize/callback?code=x&state=y")

    asyncio.run(main())


def test_callbacks_run_without_polling_once_the_loop_pumps() -> None:
    offline = Client("http://127.0.0.1:9/api/v10", "http://127.0.0.1:9")

    async def main() -> list[object]:
        platformpp.aio.pump()
        seen: list[object] = []
        offline.authorize(AuthorizationArgs(), lambda result, *rest: seen.append(result))
        for _ in range(100):  # the loop runs the callback by itself; nobody calls run_callbacks()
            if seen:
                break
            await asyncio.sleep(0.01)
        return seen

    assert len(asyncio.run(main())) == 1
