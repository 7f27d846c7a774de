"""`platformpp demo`: the SDK end to end on the embedded emulator, as a readable transcript.

Two players sign in through the full OAuth2 PKCE flow (headless consent on the emulator), connect,
create and join a lobby by its secret, exchange lobby and direct messages, set rich presence, list
a guild's channels in display order, and talk in their lobby's voice call (alice's capture callback
sends a 440 Hz tone, bob's received callback measures its frequency and the mouth-to-ear latency,
end-to-end encrypted through the emulator's voice service). Each step prints how long it took; any
failure exits 1.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")
GAME_ID = 1000000000000000000  # the emulator's default world game
STEP_TIMEOUT = 15.0
TONE_HZ = 440.0
TONE_BURSTS = 3  # tone onsets whose mouth-to-ear latency is measured


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
        transcript.line(f"#{channel.name} (type {channel.type.name}, position {channel.position})")

    await voice_call(transcript, alice, bob, lobby_id)
    print(f"demo finished in {(time.perf_counter() - transcript.started) * 1000:.0f} ms")


async def wait_for(condition: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    deadline = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)


class ToneLink:
    """alice's capture callback (a 440 Hz tone in bursts) and bob's received callback (what he hears of
    alice, and when a burst's first loud frame arrives). Both run on the SDK's audio threads with numpy
    views of the SDK's buffers; they only copy and compare, and return at once."""

    def __init__(self, speaker_id: int) -> None:
        self.speaker_id = speaker_id
        self.sending = False
        self.phase = 0
        self.sent_at: float | None = None   # the first captured frame of the burst carrying the tone
        self.heard_at: float | None = None  # the first frame of it bob received
        self.heard: list[Any] = []

    def capture(self, samples: Any, sample_rate: int) -> None:
        import numpy as np

        if not self.sending:
            samples[:] = 0  # whatever the microphone has: the demo sends only its tone
            return
        if self.sent_at is None:
            self.sent_at = time.perf_counter()
        n = samples.shape[0]
        t = (np.arange(n) + self.phase) / sample_rate
        samples[:] = (8000 * np.sin(2 * np.pi * TONE_HZ * t)).astype(np.int16)[:, None]
        self.phase += n

    def receive(self, user_id: int, samples: Any, sample_rate: int) -> None:
        if user_id != self.speaker_id or self.sent_at is None:
            return
        if self.heard_at is None and int(abs(samples[:, 0]).max()) > 2000:
            self.heard_at = time.perf_counter()
        if self.heard_at is not None:
            self.heard.append(samples[:, 0].copy())  # the view is only valid during the call

    def frequency(self) -> float:
        """From the rising zero crossings of what was heard (the first frames of the onset skipped)."""
        import numpy as np

        mono = np.concatenate(self.heard[5:]).astype(np.float64)
        rising = np.nonzero((mono[:-1] < 0) & (mono[1:] >= 0))[0]
        if len(rising) < 2:
            return 0.0
        exact = rising + (-mono[rising]) / (mono[rising + 1] - mono[rising])
        return float((len(exact) - 1) * 48000.0 / (exact[-1] - exact[0]))


async def voice_call(transcript: Transcript, alice: Any, bob: Any, lobby_id: int) -> None:
    import platformpp

    connected = platformpp.Call.Status.Connected
    link = ToneLink(alice.get_current_user().id)
    calls: list[Any] = []

    async def start() -> None:
        calls.append(alice.start_call_with_audio_callbacks(lobby_id, None, link.capture))
        calls.append(bob.start_call_with_audio_callbacks(lobby_id, link.receive, None))
        if not all(calls):
            raise RuntimeError("could not start the lobby's call")
        await wait_for(lambda: all(call.get_status() == connected for call in calls), "both calls Connected")
        # Both in one end-to-end encryption (DAVE) group: the same epoch authenticator.
        await wait_for(lambda: calls[0].get_e2ee_epoch_authenticator() is not None
                       and calls[0].get_e2ee_epoch_authenticator() == calls[1].get_e2ee_epoch_authenticator(),
                       "one DAVE group")

    await transcript.step("alice and bob start their lobby's voice call", start)
    code = calls[0].get_e2ee_verification_code(bob.get_current_user().id)
    transcript.line(f"end-to-end encrypted: DAVE protocol {calls[0].get_e2ee_protocol_version()}, one group; "
                    f"verification code {code[:5] if code else '?'} ... (the same on both sides: "
                    f"{code == calls[1].get_e2ee_verification_code(link.speaker_id)})")

    latencies: list[float] = []
    hz = 0.0

    async def talk() -> None:
        nonlocal hz
        for _ in range(TONE_BURSTS):
            link.sent_at, link.heard_at, link.heard = None, None, []
            link.sending = True
            await wait_for(lambda: link.heard_at is not None, "bob to hear the tone")
            await wait_for(lambda: len(link.heard) >= 30, "half a second of tone")
            link.sending = False
            assert link.sent_at is not None and link.heard_at is not None
            latencies.append((link.heard_at - link.sent_at) * 1000)
            hz = link.frequency()
            if abs(hz - TONE_HZ) > 5:
                raise RuntimeError(f"bob heard {hz:.1f} Hz, not {TONE_HZ:.0f} Hz")
            await asyncio.sleep(0.5)  # silence between bursts: the talk spurt ends

    await transcript.step(f"alice's capture callback sends a {TONE_HZ:.0f} Hz tone; bob's received callback "
                          "measures it", talk)
    latencies.sort()
    transcript.line(f"bob heard {hz:.1f} Hz; mouth-to-ear latency {latencies[len(latencies) // 2]:.0f} ms "
                    f"(median of {len(latencies)} onsets, max {latencies[-1]:.0f} ms)")

    async def leave() -> None:
        platformpp.aio.pump()  # end_calls' callback runs from run_callbacks, which the loop drives
        for client in (alice, bob):
            ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            client.end_calls(lambda ended=ended: ended.done() or ended.set_result(None))
            await ended

    await transcript.step("both leave the call", leave)


def main(argv: list[str]) -> int:
    argparse.ArgumentParser(
        prog="platformpp demo",
        description="Two players on the embedded emulator: OAuth2 sign-in with PKCE, a shared lobby, lobby and"
                    " direct messages, rich presence, guild channels and a voice call.").parse_args(argv)
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
