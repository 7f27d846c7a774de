"""`platformpp demo`: the SDK end to end on the embedded emulator, as a readable transcript.

Two players sign in through the full OAuth2 PKCE flow (headless consent on the emulator), connect,
create and join a lobby by its secret, exchange lobby and direct messages, set rich presence, and
list a guild's channels in display order. Each step prints how long it took; any failure exits 1.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")
GAME_ID = 1000000000000000000  # the emulator's default world game
STEP_TIMEOUT = 15.0


class Transcript:
    def __init__(self) -> None:
        self.started = time.perf_counter()

    async def step(self, title: str, action: Callable[[], Awaitable[T]]) -> T:
        began = time.perf_counter()
        result = await asyncio.wait_for(action(), STEP_TIMEOUT)
        print(f"  {(time.perf_counter() - began) * 1000:7.1f} ms  {title}")
        return result

    def line(self, text: str) -> None:
        print(f"             {text}")


async def sign_in(client: Any, user: str) -> Any:
    import platformpp

    pair = client.create_authorization_code_verifier()
    client.set_emulator_consent_user(user)
    args = platformpp.AuthorizationArgs(scopes=platformpp.Client.get_default_communication_scopes(),
                                        code_challenge=pair.challenge)
    code, redirect_uri = await client.authorize_async(args)
    access, _refresh, token_type, _expires, _scopes = await client.get_token_async(
        GAME_ID, code, pair.verifier, redirect_uri)
    await client.update_token_async(token_type, access)
    return await connect(client)


async def connect(client: Any) -> Any:
    import platformpp

    ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def on_status(status: Any, error: Any, detail: int) -> None:
        if status is platformpp.Client.Status.Ready and not ready.done():
            ready.set_result(None)
        elif error is not platformpp.Client.Error.None_ and not ready.done():
            ready.set_exception(RuntimeError(f"connection failed: {error.name} ({detail})"))

    client.on("status_changed", on_status)
    client.connect()
    await ready
    client.off("status_changed", on_status)
    return client


async def next_message(client: Any) -> Any:
    """Waits for the next message_created event on `client` and returns the message."""
    arrived: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def on_created(message_id: int) -> None:
        if not arrived.done():
            arrived.set_result(message_id)

    client.on("message_created", on_created)
    try:
        message_id = await arrived
    finally:
        client.off("message_created", on_created)
    return client.get_message_handle(message_id)


async def run(emulator: Any) -> None:
    import platformpp

    transcript = Transcript()
    alice = platformpp.Client(emulator.api_base, emulator.web_base)
    bob = platformpp.Client(emulator.api_base, emulator.web_base)
    for client in (alice, bob):
        client.set_application_id(GAME_ID)

    await transcript.step("alice signs in (authorize, PKCE token exchange, connect)", lambda: sign_in(alice, "alice"))
    await transcript.step("bob signs in (authorize, PKCE token exchange, connect)", lambda: sign_in(bob, "bob"))

    lobby_id = await transcript.step("alice creates the lobby 'demo-night'",
                                     lambda: alice.create_or_join_lobby_async("demo-night"))
    joined = await transcript.step("bob joins it by the same secret",
                                   lambda: bob.create_or_join_lobby_async("demo-night"))
    if joined != lobby_id:
        raise RuntimeError(f"bob joined lobby {joined}, not alice's {lobby_id}")
    transcript.line(f"lobby {lobby_id}")

    async def lobby_message() -> Any:
        waiting = asyncio.ensure_future(next_message(bob))
        await alice.send_lobby_message_async(lobby_id, "gg, one more round?")
        return await waiting

    received = await transcript.step("alice says hello in the lobby; bob receives it", lobby_message)
    transcript.line(f"bob got: {received.content!r}")
    history = await transcript.step("bob reads the lobby history",
                                    lambda: bob.get_lobby_messages_with_limit_async(lobby_id, 50))
    transcript.line(f"{len(history)} message(s) in the lobby")

    bob_user = bob.get_current_user()

    async def direct_message() -> Any:
        waiting = asyncio.ensure_future(next_message(bob))
        await alice.send_user_message_async(bob_user.id, "psst: bring snacks")
        return await waiting

    dm = await transcript.step("alice sends bob a direct message", direct_message)
    transcript.line(f"bob got: {dm.content!r}")

    activity = platformpp.Activity()
    activity.type = platformpp.ActivityTypes.Playing
    activity.name = "Demo Game"
    activity.state = "In a lobby"
    activity.details = "Round 2"
    await transcript.step("alice sets her rich presence", lambda: alice.update_rich_presence_async(activity))

    guilds = await transcript.step("alice lists her guilds", alice.get_user_guilds_async)
    if not guilds:
        raise RuntimeError("alice is in no guild")
    channels = await transcript.step(f"alice lists the channels of {guilds[0].name}",
                                     lambda: alice.get_guild_channels_async(guilds[0].id))
    for channel in channels:
        transcript.line(f"#{channel.name} (type {channel.type}, position {channel.position})")
    print(f"demo finished in {(time.perf_counter() - transcript.started) * 1000:.0f} ms")


def main(argv: list[str]) -> int:
    from .emulator import Emulator

    print("platformpp demo: two players on the embedded emulator")
    try:
        with Emulator(db=":memory:") as emulator:
            print(f"  emulator at {emulator.base_url}")
            asyncio.run(run(emulator))
    except Exception as error:  # the demo's contract: a readable reason and a non-zero exit
        print(f"demo failed: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    return 0
