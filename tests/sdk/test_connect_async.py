"""connect_async() and wait_until_ready() against the emulator, with coroutine event handlers."""

from __future__ import annotations

import asyncio

import pytest
from sdk_support import Outcome, sign_in

import platformpp
from platformpp import Client


def _signed_in(client: Client) -> None:
    access, _ = sign_in(client)
    done = Outcome()
    client.update_token(platformpp.AuthorizationTokenType.Bearer, access, done)
    assert done.wait()[0].successful


def test_connect_async_returns_once_ready_and_coroutine_handlers_run_on_the_loop(client: Client) -> None:
    _signed_in(client)

    async def main() -> list[Client.Status]:
        statuses: list[Client.Status] = []
        ready = asyncio.Event()

        @client.on("status_changed")
        async def changed(status: Client.Status, error: Client.Error, detail: int) -> None:
            statuses.append(status)
            if status == Client.Status.Ready:
                ready.set()

        await client.connect_async(timeout=10)
        assert client.get_status() == Client.Status.Ready
        await client.wait_until_ready(timeout=1)  # already Ready: returns at once
        await asyncio.wait_for(ready.wait(), 5)
        return statuses

    assert asyncio.run(main())[-1] == Client.Status.Ready
    client.disconnect()


def test_connect_async_without_a_token_says_what_to_call() -> None:
    client = Client("http://127.0.0.1:9/api/v10", "http://127.0.0.1:9")
    with pytest.raises(platformpp.ClientNotReady, match=r"call update_token\(\) first"):
        asyncio.run(client.connect_async(timeout=5))


def test_wait_until_ready_fails_when_the_connection_fails() -> None:
    client = Client("http://127.0.0.1:9/api/v10", "http://127.0.0.1:9")

    async def main() -> None:
        waiting = asyncio.ensure_future(client.wait_until_ready(timeout=10))
        await asyncio.sleep(0)
        client.connect()  # no token: Disconnected with ConnectionFailed
        await waiting

    with pytest.raises(platformpp.NetworkError, match="ConnectionFailed"):
        asyncio.run(main())
