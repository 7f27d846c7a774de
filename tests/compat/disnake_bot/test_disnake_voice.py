"""disnake's own voice client in a guild voice channel of the emulator served over TLS (voice servers are
reached only over wss): two bots join, their DAVE group forms through the emulator's voice gateway (the
library's DAVE is libdave, through ``dave.py``: an implementation independent of the emulator's and of
davey), one plays a short PCM source through the library's Opus encoder, both leave; the emulator's voice
service relayed the media."""

from __future__ import annotations

import base64
import io
import math
import struct
import threading
import time
from pathlib import Path
from typing import Any

import disnake
from disnake_bot import LOUNGE, WAIT_S, admin, running
from emulator_world import ALICE, BOT_ID, GUILD_ID
from platformpp.emulator import Emulator, local_certificate

def tone(seconds: float) -> bytes:
    """A 440 Hz stereo 16-bit tone at 48 kHz: what disnake's PCMAudio reads 3840 bytes at a time."""
    samples = int(48000 * seconds)
    return b"".join(struct.pack("<hh", v, v) for v in
                    (int(8000 * math.sin(2 * math.pi * 440 * n / 48000)) for n in range(samples)))


def voice_admin(emu: Emulator) -> dict[str, Any]:
    return dict(admin(emu, "GET", "/voice").json())


LISTENER_APP, LISTENER_BOT = 1300000000000000000, 1300000000000000001
# a bot token's first segment is base64 of the bot's user id
LISTENER_TOKEN = base64.b64encode(str(LISTENER_BOT).encode()).decode() + ".ZW11bGF0b3I.bGlzdGVuZXI"


def add_listener_bot(emu: Emulator) -> None:
    """A second application's bot in the guild: a second member of the call, so that the DAVE group forms."""
    emu.admin.seed({"applications": [{
        "id": str(LISTENER_APP), "name": "Listener", "client_secret": "listener-app-client-secret",
        "owner_id": str(ALICE),
        "bot": {"id": str(LISTENER_BOT), "username": "listener", "token": LISTENER_TOKEN}}]})
    admin(emu, "POST", f"/guilds/{GUILD_ID}/members", {"user_id": str(LISTENER_BOT)})


def until(done: Any) -> bool:
    deadline = time.monotonic() + WAIT_S
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_voice_join_play_leave_end_to_end_encrypted(tmp_path: Path) -> None:
    with Emulator(tls=local_certificate(tmp_path)) as emu:
        assert emu.base_url.startswith("https://")
        add_listener_bot(emu)
        with running(emu, disnake.Client, intents=disnake.Intents.default()) as bot, \
                running(emu, disnake.Client, token=LISTENER_TOKEN,
                        intents=disnake.Intents.default()) as listener:
            lounge: disnake.VoiceChannel = bot.client.get_channel(LOUNGE)
            voice: disnake.VoiceClient = bot.call(lounge.connect(timeout=WAIT_S), timeout=WAIT_S + 5)
            assert voice.is_connected() and voice.channel.id == LOUNGE
            assert voice.mode == "aead_xchacha20_poly1305_rtpsize"
            assert bot.client.get_guild(GUILD_ID).me.voice.channel.id == LOUNGE
            other_lounge: disnake.VoiceChannel = listener.client.get_channel(LOUNGE)
            heard: disnake.VoiceClient = listener.call(other_lounge.connect(timeout=WAIT_S),
                                                       timeout=WAIT_S + 5)
            assert {str(BOT_ID), str(LISTENER_BOT)} == set(voice_admin(emu)["calls"][str(LOUNGE)])

            # the DAVE group forms through the emulator's voice gateway (key packages, proposals, commit,
            # welcome, transition): both clients' key ratchets are up, the call at protocol version 1
            assert until(lambda: voice.dave.can_encrypt() and heard.dave.can_encrypt()), "no DAVE group"
            assert emu.state.voice.stats()["calls"][LOUNGE]["version"] == 1
            before = voice_admin(emu)["stats"]

            finished = threading.Event()
            bot.loop.call_soon_threadsafe(lambda: voice.play(
                disnake.PCMAudio(io.BytesIO(tone(1.0))), after=lambda error: finished.set()))
            assert finished.wait(WAIT_S), "the library's player did not finish a one-second source"

            relay = voice_admin(emu)["stats"]
            assert relay.get("received", 0) - before.get("received", 0) >= 40, relay   # ~50 frames of 20 ms
            assert relay.get("forwarded", 0) - before.get("forwarded", 0) >= 40, relay  # to the listener
            assert relay.get("dropped", 0) == 0, relay
            dave = emu.state.voice.stats()["calls"][LOUNGE]
            # both pending members may commit the first epoch; the gateway takes the first, drops the other
            assert dave["commits_accepted"] == 1 and dave["transitions_executed"] >= 1
            assert dave["transitions_timed_out"] == 0 and dave["invalid_reports"] == 0, dave

            listener.call(heard.disconnect())
            # Left alone, the player is told to start a new group (prepare epoch 1) and answers with a
            # key package: the library's own step, which it cannot take on a socket it is closing.
            assert until(lambda: voice.dave.voice_privacy_code is None
                         and BOT_ID in emu.state.voice.stats()["calls"][LOUNGE]["key_packages"]), \
                emu.state.voice.stats()
            bot.call(voice.disconnect())
            assert until(lambda: voice_admin(emu)["calls"] == {}), voice_admin(emu)
            assert not voice.is_connected() and bot.client.get_guild(GUILD_ID).me.voice is None
