"""Voice in the SDK, measured: mouth-to-ear latency through the emulator's voice service on
loopback, and the CPU of the SDK side for 1 sender + N receivers against a Python voice client of the same
protocol doing the same work in the same run.

    python benchmarks/bench_voice_sdk.py --binary BUILD/cpp/tests/voice_integration_tests [--receivers 1,8,24]
        [--seconds 10] [--write]

SDK side: the C++ engine (``voice_integration_tests --run_test=bench_sdk_voice``, an optimised build is what
should be measured): 1 + N engines, each with its own audio thread (null audio backend), Opus encode or
decode, transport AEAD, DAVE, jitter buffer, mixer, capture processing on. It prints its own CPU seconds
over the window (getrusage of its process; the voice service runs in a child process, not counted).

Python side: the minimal voice client of the emulator tests (tests/emulator_voice/voice_client.py:
``websockets``, PyNaCl / ``cryptography`` for the transport AEAD, ``davey`` for DAVE), with libopus through
ctypes as the bot libraries load it: the sender encodes a 20 ms stereo frame every 20 ms, DAVE-encrypts and
seals it; each receiver opens, DAVE-decrypts and decodes every frame. No jitter buffer, mixer or capture
processing: less work than the SDK side does. The sender's encoder is set up as the most used Python bot
library's voice client sets up its own by default (``--python-encoder library``: the "audio" application,
128 x 1024 bit/s, in-band FEC with 15 % expected loss, full band, automatic signal type); ``minimal`` is
the emulator tests' lighter setting (the "voip" application, 64 kbit/s, the FEC flag alone).

``--python-sender bot-library --bot-python PYTHON --bot-library MODULE``: the sender is that bot library's
own voice client instead (voice_bot_sender.py, run by PYTHON, which must have the library, davey and
PyNaCl). It logs in to an emulator serving TLS, joins the default world's voice channel through the
Gateway, and plays the same signal as the other senders with its own encoder, transport encryption and
DAVE. The receivers are still the Python client: the library has no voice receiver of its own. They join
first, on the same emulator's voice service. The Python side's CPU is the receivers' process plus the bot's process
(each over its own window of the same length). Results go to voice_sdk_bot_library.md.

``--write`` records the table and the machine in benchmarks/results/voice_sdk.md (or the bot-library file).
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import ctypes.util
import json
import math
import os
import resource
import ssl
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = {"client": Path(__file__).parent / "results" / "voice_sdk.md",
           "bot-library": Path(__file__).parent / "results" / "voice_sdk_bot_library.md"}
DRIVER = ROOT / "cpp" / "tests" / "voice_service_driver.py"
CHANNEL = 515151
LOUNGE = 1200000000000000201   # the default world's guild voice channel (python/platformpp/emulator/world/default.json)


# ------------------------------------------------------------------------------------------ the Python client

# libopus constants (opus_defines.h).
OPUS_APPLICATION_VOIP, OPUS_APPLICATION_AUDIO = 2048, 2049
OPUS_SET_BITRATE, OPUS_SET_BANDWIDTH, OPUS_SET_INBAND_FEC, OPUS_SET_PACKET_LOSS_PERC = 4002, 4008, 4012, 4014
OPUS_SET_DTX, OPUS_SET_SIGNAL = 4016, 4024
OPUS_AUTO, OPUS_BANDWIDTH_FULLBAND, OPUS_SIGNAL_VOICE = -1000, 1105, 3001

# Encoder set-ups: (application, [(ctl, value), ...]).
ENCODERS: dict[str, tuple[int, list[tuple[int, int]]]] = {
    # The most used Python bot library's voice client, as it sets up its encoder by default.
    "library": (OPUS_APPLICATION_AUDIO, [(OPUS_SET_BITRATE, 128 * 1024), (OPUS_SET_INBAND_FEC, 1),
                                         (OPUS_SET_PACKET_LOSS_PERC, 15), (OPUS_SET_BANDWIDTH, OPUS_BANDWIDTH_FULLBAND),
                                         (OPUS_SET_SIGNAL, OPUS_AUTO)]),
    # The emulator tests' minimal client.
    "minimal": (OPUS_APPLICATION_VOIP, [(OPUS_SET_BITRATE, 64000), (OPUS_SET_INBAND_FEC, 1)]),
    # The SDK (cpp/src/voice/opus_codec.cpp with voice_engine.cpp's settings, at the channel's 64 kbit/s).
    "sdk": (OPUS_APPLICATION_VOIP, [(OPUS_SET_BITRATE, 64000), (OPUS_SET_INBAND_FEC, 1), (OPUS_SET_DTX, 1),
                                    (OPUS_SET_PACKET_LOSS_PERC, 10), (OPUS_SET_SIGNAL, OPUS_SIGNAL_VOICE)]),
}


class Opus:
    """libopus through ctypes (48 kHz stereo, 20 ms frames)."""

    def __init__(self) -> None:
        name = ctypes.util.find_library("opus") or "libopus.so.0"
        self.lib = lib = ctypes.CDLL(name)
        lib.opus_encoder_create.restype = ctypes.c_void_p
        lib.opus_decoder_create.restype = ctypes.c_void_p
        lib.opus_encode.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int32]
        lib.opus_decode.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int32, ctypes.c_char_p, ctypes.c_int,
                                    ctypes.c_int]
        lib.opus_encoder_ctl.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]

    def encoder(self, setup: str) -> Any:
        application, settings = ENCODERS[setup]
        error = ctypes.c_int()
        enc = self.lib.opus_encoder_create(48000, 2, application, ctypes.byref(error))
        for request, value in settings:
            if self.lib.opus_encoder_ctl(enc, request, value) != 0:
                raise RuntimeError(f"opus_encoder_ctl({request}, {value}) failed for the {setup!r} encoder")
        return enc

    def decoder(self) -> Any:
        error = ctypes.c_int()
        return self.lib.opus_decoder_create(48000, 2, ctypes.byref(error))


def cpu_seconds() -> float:
    """This process's CPU time so far, user and system."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def tone_frames() -> list[bytes]:
    """0.6 s of the SDK side's signal: 400, 700, 1000 Hz for 200 ms each, as 30 stereo int16 frames."""
    frames, phase = [], 0
    for step in (400.0, 700.0, 1000.0):
        for _ in range(10):
            samples = []
            for _ in range(960):
                v = int(8000 * math.sin(2 * math.pi * step * phase / 48000))
                samples += (v, v)
                phase += 1
            frames.append(struct.pack("<1920h", *samples))
    return frames


async def python_clients(receivers: int, seconds: float, encoder_setup: str,
                         call: dict[str, Any] | None = None) -> dict[str, Any]:
    """Our Python client: the sender and N receivers on the standalone voice service, or with ``call`` (the
    bot-library mode) only the N receivers, in a call of an emulator serving TLS whose sender is the bot."""
    sys.path.insert(0, str(ROOT / "tests" / "emulator_voice"))
    import davey
    from voice_client import VoiceClient

    driver: subprocess.Popen[str] | None = None
    if call is None:
        driver = subprocess.Popen([sys.executable, str(DRIVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True)
        assert driver.stdin is not None and driver.stdout is not None
        driver.stdout.readline()

    def allocate(user: int) -> VoiceClient:
        assert driver is not None and driver.stdin is not None and driver.stdout is not None
        request = {"cmd": "allocate", "server_id": CHANNEL, "channel_id": CHANNEL, "user_id": user,
                   "session_id": f"s{user}"}
        driver.stdin.write(json.dumps(request) + "\n")
        driver.stdin.flush()
        answer = json.loads(driver.stdout.readline())
        client = VoiceClient(answer["endpoint"], CHANNEL, user, f"s{user}", answer["token"])
        client.enable_dave(CHANNEL)
        return client

    def allocated(user: dict[str, Any]) -> VoiceClient:
        assert call is not None
        client = VoiceClient(call["endpoint"], call["server_id"], user["user_id"], user["session_id"], user["token"],
                             tls=ssl.create_default_context(cafile=call["ca_file"]))
        client.enable_dave(call["channel_id"])
        return client

    opus = Opus()
    sender = allocate(8000) if call is None else None
    sender_id = sender.user_id if sender is not None else int(call["sender_id"])  # type: ignore[index]
    listeners = [allocate(8001 + i) for i in range(receivers)] if call is None else [allocated(u) for u in call["users"]]
    everyone = [c for c in (sender, *listeners) if c is not None]
    for client in everyone:
        await client.join()
    if sender is not None:
        await sender.speak()
    else:
        print("JOINED", flush=True)    # the runner starts the bot now
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        epochs = {c.dave.epoch for c in everyone}
        codes = {c.dave.get_epoch_authenticator() if c.dave.ready else None for c in everyone}
        if len(epochs) == 1 and None not in codes and len(codes) == 1 and \
                len(listeners[0].dave.get_user_ids()) == receivers + 1 and \
                all(sender_id in c.ssrc_users.values() for c in listeners):
            break
        await asyncio.sleep(0.05)
    else:
        raise RuntimeError("the Python clients did not form one DAVE group with the sender")

    loop = asyncio.get_running_loop()
    decoded = [0]
    failures = [0]
    pcm_out = ctypes.create_string_buffer(960 * 2 * 2)

    def reader(client: VoiceClient, decoder: Any) -> None:
        from voice_client import client_open
        assert client.sock is not None
        while True:
            try:
                packet = client.sock.recv(4096)
            except (BlockingIOError, InterruptedError):
                return
            if 200 <= packet[1] <= 204:
                continue
            try:
                frame = client.dave.decrypt(sender_id, davey.MediaType.audio,
                                            client_open(client.mode, client.key, packet, 12))
            except Exception:
                failures[0] += 1
                continue
            if opus.lib.opus_decode(decoder, frame, len(frame), pcm_out, 960, 0) > 0:
                decoded[0] += 1

    for client in listeners:
        assert client.sock is not None
        client.sock.setblocking(False)
        loop.add_reader(client.sock.fileno(), reader, client, opus.decoder())

    encoder = opus.encoder(encoder_setup)
    frames = tone_frames()
    packet = ctypes.create_string_buffer(4000)

    async def send_for(duration: float) -> None:
        """The sender's 20 ms loop; with the bot as the sender, only the receivers' work goes on."""
        start = time.monotonic()
        if sender is None:
            await asyncio.sleep(duration)
            return
        n = 0
        while time.monotonic() - start < duration:
            size = opus.lib.opus_encode(encoder, frames[n % len(frames)], 960, packet, 4000)
            sender.send_audio(packet.raw[:size])
            n += 1
            await asyncio.sleep(max(0.0, start + n * 0.02 - time.monotonic()))

    await send_for(2.0)                     # warm-up, as on the SDK side
    cpu0, decoded_before, failures_before = cpu_seconds(), decoded[0], failures[0]
    t0 = time.monotonic()
    await send_for(seconds)
    cpu, wall = cpu_seconds() - cpu0, time.monotonic() - t0
    result = {"receivers": receivers, "cpu_s": cpu, "wall_s": wall, "frames_received": decoded[0] - decoded_before,
              "dave_decrypt_failures": failures[0] - failures_before}
    for client in everyone:
        if client.sock is not None and client is not sender:
            loop.remove_reader(client.sock.fileno())
        await client.close()
    if driver is not None and driver.stdin is not None:
        driver.stdin.close()
        driver.wait(10)
    return result


# ---------------------------------------------------------------------------------------------- the runner

def run_sdk(binary: str, receivers: int, seconds: float, processing: bool, mic: str) -> dict[str, Any]:
    env = dict(os.environ, PLATFORMPP_VOICE_BENCH_RECEIVERS=str(receivers), PLATFORMPP_VOICE_BENCH_SECONDS=str(seconds),
               PLATFORMPP_VOICE_BENCH_PROCESSING="1" if processing else "0", PLATFORMPP_VOICE_BENCH_MIC=mic,
               PLATFORMPP_VOICE_TEST_PYTHON=sys.executable, PYTHONPATH=str(ROOT / "python"))
    out = subprocess.run([binary, "--run_test=bench_sdk_voice"], env=env, capture_output=True, text=True, timeout=300)
    return bench_line(out.stdout.splitlines(keepends=True) + out.stderr.splitlines(keepends=True), "the SDK side")


def run_python(receivers: int, seconds: float, encoder_setup: str) -> dict[str, Any]:
    out = subprocess.run([sys.executable, __file__, "--python-client", str(receivers), "--seconds", str(seconds),
                          "--python-encoder", encoder_setup],
                         capture_output=True, text=True, timeout=300, env=dict(os.environ, PYTHONPATH=str(ROOT / "python")))
    return bench_line(out.stdout.splitlines(keepends=True) + out.stderr.splitlines(keepends=True), "the Python client")


def bench_line(stream: Any, what: str) -> dict[str, Any]:
    """Read lines until ``BENCH {json}``."""
    lines = []
    for line in stream:
        if line.startswith("BENCH "):
            return dict(json.loads(line[6:]))
        lines.append(line)
    raise RuntimeError(f"no BENCH line from {what}:\n{''.join(lines)}")


def run_python_with_bot(receivers: int, seconds: float, bot_python: str, library: str) -> dict[str, Any]:
    """The Python side with a bot library's own voice client as the sender: the emulator (this process, not
    counted) serves TLS; the receivers (our Python client, allocated on its voice service) join first, then
    the bot joins the guild's voice channel through the Gateway and plays. Its CPU is added to theirs."""
    sys.path.insert(0, str(ROOT / "tests" / "emulator"))
    from emulator_world import BOT_ID, BOT_TOKEN, GUILD_ID
    from platformpp.emulator import Emulator, local_certificate

    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    with tempfile.TemporaryDirectory() as folder, Emulator(tls=local_certificate(folder)) as emu, \
            tempfile.TemporaryFile("w+") as bot_log:
        assert emu.state.voice is not None and emu.ca_file is not None
        users, endpoint = [], ""
        for i in range(receivers):
            user, session = 8001 + i, f"bench-{8001 + i}"
            token, endpoint = emu.state.voice.allocate(GUILD_ID, LOUNGE, user, session)
            users.append({"user_id": user, "session_id": session, "token": token})
        call = {"endpoint": endpoint, "ca_file": str(emu.ca_file), "server_id": GUILD_ID, "channel_id": LOUNGE,
                "sender_id": BOT_ID, "users": users}
        listeners = subprocess.Popen([sys.executable, __file__, "--python-client", str(receivers), "--seconds",
                                      str(seconds), "--call", json.dumps(call)], stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, env=env)
        assert listeners.stdout is not None
        for line in listeners.stdout:
            if line.startswith("JOINED"):
                break
        # The bot's window starts after the DAVE group has formed and the receivers' warm-up has begun, and
        # it keeps playing until well after theirs has ended.
        bot = subprocess.Popen([bot_python, str(Path(__file__).parent / "voice_bot_sender.py"), "--library", library,
                                "--api", emu.api_base, "--ca-file", str(emu.ca_file), "--token", BOT_TOKEN,
                                "--channel", str(LOUNGE), "--warmup", "4", "--seconds", str(seconds),
                                "--linger", "6", "--log-level", "INFO"], stdout=subprocess.PIPE,
                               stderr=bot_log, text=True)
        assert bot.stdout is not None
        try:
            heard = bench_line(listeners.stdout, "the receivers")
            sent = bench_line(bot.stdout, "the bot library's sender")
        except RuntimeError as exc:
            bot_log.seek(0)
            raise RuntimeError(f"{exc}\nthe bot's log:\n{bot_log.read()[-4000:]}") from None
        finally:
            for process in (listeners, bot):
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    process.kill()
    sender_share = sent["cpu_s"] / sent["wall_s"]
    return {**heard, "cpu_s": heard["cpu_s"] + sender_share * heard["wall_s"], "sender_cpu_pct": 100 * sender_share,
            "frames_sent": sent["frames_sent"]}


def opus_cost(setup: str, frames: int = 2000) -> tuple[float, float]:
    """libopus alone, in this process: CPU microseconds to encode one 20 ms frame of the tone with an encoder
    set up as ENCODERS[setup], and to decode one of those packets."""
    opus = Opus()
    encoder, decoder = opus.encoder(setup), opus.decoder()
    tone = tone_frames()
    packet, pcm = ctypes.create_string_buffer(4000), ctypes.create_string_buffer(960 * 2 * 2)
    packets = []
    t0 = time.process_time()
    for i in range(frames):
        size = opus.lib.opus_encode(encoder, tone[i % len(tone)], 960, packet, 4000)
        packets.append(packet.raw[:size])
    encode_us = (time.process_time() - t0) / frames * 1e6
    t0 = time.process_time()
    for data in packets:
        opus.lib.opus_decode(decoder, data, len(data), pcm, 960, 0)
    decode_us = (time.process_time() - t0) / frames * 1e6
    return encode_us, decode_us


def bot_version(args: argparse.Namespace) -> str:
    """The bot library's version and those of its voice dependencies, asked of its interpreter."""
    script = ("import importlib, importlib.metadata as m, sys\n"
              "lib = importlib.import_module(sys.argv[1])\n"
              "print(f\"{lib.__version__}, with davey {m.version('davey')} and PyNaCl {m.version('PyNaCl')}\")")
    return subprocess.run([args.bot_python, "-c", script, args.bot_library], capture_output=True, text=True,
                          check=True).stdout.strip()


def machine() -> list[str]:
    sys.path.insert(0, str(Path(__file__).parent))
    from machine import describe
    return [f"- {describe()}", f"- load average before the run (1/5/15 min): "
            + " / ".join(f"{v:.2f}" for v in os.getloadavg())]


# (capture processing, microphone): the default with the null backend's silent microphone (digital
# silence: the processing is skipped), the default with a quiet room's noise (it cannot be), and off.
MODES = [(True, "silent"), (True, "noise"), (False, "silent")]
NOTES_MARK = "Reading it:"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(ROOT / "build" / "tests" / "cpp" / "tests" / "voice_integration_tests"))
    parser.add_argument("--baseline", default=None,
                        help="an older voice_integration_tests: each of its rows runs right after the same row of --binary")
    parser.add_argument("--receivers", default="1,8,24")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--python-client", type=int, default=None)
    parser.add_argument("--python-encoder", choices=sorted(k for k in ENCODERS if k != "sdk"), default="library",
                        help="how the Python client's sender sets up libopus (default: as the most used Python bot "
                             "library does)")
    parser.add_argument("--python-sender", choices=["client", "bot-library"], default="client",
                        help="the Python side's sender: our Python client (default), or a bot library's own voice "
                             "client (voice_bot_sender.py; needs --bot-python and --bot-library)")
    parser.add_argument("--bot-python", default=None, help="an interpreter with the bot library, davey and PyNaCl")
    parser.add_argument("--bot-library", default=None, help="the bot library's import name")
    parser.add_argument("--call", default=None, help=argparse.SUPPRESS)   # the receivers' process, bot-library mode
    parser.add_argument("--write", action="store_true",
                        help="rewrite the measured part of benchmarks/results/voice_sdk.md (the notes from "
                             f"'{NOTES_MARK}' on are kept)")
    args = parser.parse_args()
    if args.python_client is not None:
        call = json.loads(args.call) if args.call else None
        result = asyncio.run(python_clients(args.python_client, args.seconds, args.python_encoder, call))
        print("BENCH " + json.dumps(result), flush=True)
        return
    if args.python_sender == "bot-library" and not (args.bot_python and args.bot_library):
        parser.error("--python-sender bot-library: --bot-python and --bot-library are required")
    header = machine()
    encode_us, decode_us = opus_cost("sdk")
    py_encode_us, py_decode_us = opus_cost(args.python_encoder)
    binaries = [("this build", args.binary)] + ([("baseline", args.baseline)] if args.baseline else [])
    rows = []
    for n in (int(x) for x in args.receivers.split(",")):
        py = (run_python_with_bot(n, args.seconds, args.bot_python, args.bot_library)
              if args.python_sender == "bot-library" else run_python(n, args.seconds, args.python_encoder))
        for processing, mic in MODES:
            for label, binary in binaries:
                sdk = run_sdk(binary, n, args.seconds, processing, mic)
                rows.append((n, processing, mic, label, sdk, py))
                print(n, label, json.dumps(sdk), json.dumps(py), flush=True)
    python_side = ("Python side CPU % of a core (bot library sender + Python client receivers)"
                   if args.python_sender == "bot-library" else "Python client CPU % of a core")
    lines = ["| receivers | SDK capture processing | microphone | SDK build | SDK CPU % of a core | "
             f"{python_side} | ratio SDK / Python | libopus floor / Python | "
             "frames decoded SDK / Python | frames processed / skipped (silence) | "
             "latency p50 / p99 ms (receiver 0) | DAVE failures SDK / Python |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for n, processing, mic, label, sdk, py in rows:
        s, p = 100 * sdk["cpu_s"] / sdk["wall_s"], 100 * py["cpu_s"] / py["wall_s"]
        floor = 100 * (encode_us + n * decode_us) * 50 / 1e6
        counts = (f"{sdk['frames_processed']} / {sdk['frames_skipped_silent']}" if "frames_processed" in sdk else "n/a")
        lines.append(f"| {n} | {'on' if processing else 'off'} | {mic if processing else '-'} | {label} | {s:.1f} | "
                     f"{p:.1f} | {s / p:.2f} | {floor / p:.2f} | "
                     f"{sdk['frames_received']} / {py['frames_received']} | {counts} | "
                     f"{sdk['latency_p50_ms']:.1f} / {sdk['latency_p99_ms']:.1f} | "
                     f"{sdk['dave_decrypt_failures']} / {py['dave_decrypt_failures']} |")
    sender_line = ("" if args.python_sender != "bot-library" else
                   "The bot library's sender alone: " + ", ".join(
                       f"{py['sender_cpu_pct']:.1f} %" for n, processing, mic, label, sdk, py in rows[::len(MODES) * len(binaries)])
                   + " of a core in the Python side's runs with " + ", ".join(args.receivers.split(",")) + " receivers; "
                   "the Python client's own sender, in the same role, is in voice_sdk.md.")
    floor_line = (f"libopus alone on this machine, one 20 ms stereo frame at 64 kbit/s: {encode_us:.0f} us to encode with "
                  f"the SDK's settings (in-band FEC at 10 % expected loss, DTX, voice) and {decode_us:.0f} us to decode "
                  f"that; {py_encode_us:.0f} us and {py_decode_us:.0f} us with the Python client's "
                  f"(`--python-encoder {args.python_encoder}`). "
                  "1 encode + N decodes every 20 ms is the SDK side's floor: the \"libopus floor / Python\" column "
                  "is the lowest ratio an SDK with these encoder settings can reach while it decodes every frame.")
    print("\n".join(lines))
    print(sender_line)
    print(floor_line)
    if args.write:
        results = RESULTS[args.python_sender]
        notes = ""
        if results.exists() and NOTES_MARK in results.read_text():
            notes = results.read_text()[results.read_text().index(NOTES_MARK):]
        baseline = (f" `--baseline` {args.baseline}: the same rows of an older build, run right after each row "
                    "of this one." if args.baseline else "")
        sender = (f"; `--python-sender bot-library`, the sender being the bot library at {bot_version(args)}"
                  if args.python_sender == "bot-library" else f"; `--python-encoder {args.python_encoder}`")
        results.write_text("\n".join(["# Voice in the SDK: latency and CPU", "",
                                      f"Measured by `benchmarks/bench_voice_sdk.py` ({args.seconds:.0f} s per row after "
                                      "2 s warm-up; `--binary` " + Path(args.binary).name
                                      + sender + ")." + baseline, "",
                                      *lines, "", *([sender_line, ""] if sender_line else []), floor_line, "", "Machine:", "", *header, "", notes]).rstrip() + "\n")


if __name__ == "__main__":
    main()
