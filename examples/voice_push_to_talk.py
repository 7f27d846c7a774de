"""Push-to-talk with speaking indicators, in plain Python on the embedded emulator.

You are alice; bob listens. Both join their lobby's voice call; alice's call is in push-to-talk mode.
Press SPACE to start talking and SPACE again to stop (a terminal cannot see a key being held), q to
quit. The speaking indicators come from the SDK's speaking callbacks, as a game would draw them.
Alice's microphone is replaced by a 440 Hz tone (--tone, the default; --microphone sends the real
input device instead), so that bob's side can show what it hears.

    python examples/voice_push_to_talk.py                 # interactive, in a terminal
    python examples/voice_push_to_talk.py --script "space@1.0,space@2.5,q@3.5"   # headless (tests)
"""

from __future__ import annotations

import argparse
import math
import os
import select
import sys
import termios
import time
import tty
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

import platformpp
from platformpp.emulator import Emulator

GAME_ID = 1000000000000000000
FRAME = 1 / 60


def pump_until(condition: Any, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {condition}")
        platformpp.run_callbacks()
        time.sleep(0.005)


def signed_in(emulator: Emulator, user: str) -> platformpp.Client:
    client = platformpp.Client(emulator.api_base, emulator.web_base)
    client.set_application_id(GAME_ID)
    client.set_emulator_consent_user(user)
    pair = client.create_authorization_code_verifier()
    args = platformpp.AuthorizationArgs(scopes=platformpp.Client.get_default_communication_scopes(),
                                        code_challenge=pair.challenge)
    done: dict[str, Any] = {}
    client.authorize(args, lambda result, code, uri: done.update(code=code, uri=uri, ok=result.successful))
    pump_until(lambda: "ok" in done)
    client.get_token(GAME_ID, done["code"], pair.verifier, done["uri"],
                     lambda result, access, *rest: done.update(access=access))
    pump_until(lambda: "access" in done)
    client.update_token(platformpp.AuthorizationTokenType.Bearer, done["access"], lambda result: done.update(t=1))
    pump_until(lambda: "t" in done)
    client.connect()
    pump_until(lambda: client.get_status() == platformpp.Client.Status.Ready)
    return client


class Keys:
    """Key presses from the terminal (raw mode), or from a script of `key@seconds` for headless runs."""

    def __init__(self, script: str | None) -> None:
        self.started = time.monotonic()
        self.script = [] if script is None else [
            (float(at), key) for key, _, at in (item.strip().partition("@") for item in script.split(","))]
        self.script.sort()

    def poll(self) -> str | None:
        if self.script:
            at, key = self.script[0]
            if time.monotonic() - self.started >= at:
                self.script.pop(0)
                return " " if key == "space" else key
            return None
        if not sys.stdin.isatty() or not select.select([sys.stdin], [], [], 0)[0]:
            return None
        return os.read(sys.stdin.fileno(), 1).decode(errors="ignore")


@contextmanager
def raw_terminal(enabled: bool) -> Iterator[None]:
    if not enabled or not sys.stdin.isatty():
        yield
        return
    saved = termios.tcgetattr(sys.stdin)
    tty.setcbreak(sys.stdin)
    try:
        yield
    finally:
        termios.tcsetattr(sys.stdin, termios.TCSADRAIN, saved)


def current_user_id(client: platformpp.Client) -> int:
    user = client.get_current_user()   # None before the Client is ready; signed_in() waited for that
    assert user is not None
    return int(user.id)


def end_calls(client: platformpp.Client) -> None:
    ended: list[bool] = []
    client.end_calls(lambda: ended.append(True))
    pump_until(lambda: bool(ended))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--script", help="headless: key presses as key@seconds, comma-separated")
    parser.add_argument("--microphone", action="store_true", help="send the input device instead of a tone")
    options = parser.parse_args(argv)

    with Emulator(db=":memory:") as emulator:
        alice, bob = signed_in(emulator, "alice"), signed_in(emulator, "bob")
        ids = {current_user_id(alice): "alice", current_user_id(bob): "bob"}
        lobby: dict[str, int] = {}
        alice.create_or_join_lobby("push-to-talk", lambda result, lobby_id: lobby.update(id=lobby_id))
        pump_until(lambda: "id" in lobby)
        bob.create_or_join_lobby("push-to-talk", lambda result, lobby_id: lobby.update(bob=lobby_id))
        pump_until(lambda: "bob" in lobby)

        phase = [0]

        def tone(samples: np.ndarray, sample_rate: int) -> None:  # audio thread: fill and return
            n = samples.shape[0]
            t = (np.arange(n) + phase[0]) / sample_rate
            samples[:] = (6000 * np.sin(2 * math.pi * 440 * t)).astype(np.int16)[:, None]
            phase[0] += n

        heard = {"frames": 0}

        def listen(user_id: int, samples: np.ndarray, sample_rate: int) -> None:  # audio thread
            heard["frames"] += 1

        talker = alice.start_call_with_audio_callbacks(lobby["id"], None, None if options.microphone else tone)
        listener = bob.start_call_with_audio_callbacks(lobby["id"], listen, None)
        talker.set_audio_mode(platformpp.AudioModeType.MODE_PTT)
        talker.set_ptt_release_delay(200)
        # Speaking indicators: what bob's game would draw next to each player.
        listener.set_speaking_status_changed_callback(
            lambda user_id, speaking: print(f"[indicator] {ids.get(user_id, user_id)}: "
                                            f"{'speaking' if speaking else 'silent'}", flush=True))
        connected = platformpp.Call.Status.Connected
        pump_until(lambda: talker.get_status() == connected and listener.get_status() == connected)
        print("in the call: SPACE talks / stops, q quits", flush=True)

        keys = Keys(options.script)
        with raw_terminal(options.script is None):
            while True:
                key = keys.poll()
                if key == "q":
                    break
                if key == " ":
                    talking = not talker.get_ptt_active()
                    talker.set_ptt_active(talking)
                    print(f"[ptt] {'down' if talking else 'up'} (bob has heard {heard['frames']} frames)", flush=True)
                platformpp.run_callbacks()
                time.sleep(FRAME)
        print(f"bob heard {heard['frames']} frames of alice", flush=True)
        for client in (alice, bob):
            end_calls(client)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
