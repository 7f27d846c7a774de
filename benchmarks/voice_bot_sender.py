"""The sender of ``bench_voice_sdk.py --python-sender bot-library``: a Python bot library's own voice client
(its Gateway session, voice gateway, PyNaCl transport encryption, davey for DAVE, its own Opus encoder and
20 ms send loop). It joins a guild voice channel of an emulator that serves TLS and plays the benchmark's
signal (``tone_frames``).

    BOT_PYTHON voice_bot_sender.py --library MODULE --api URL --ca-file FILE --token TOKEN --channel ID
        --warmup S --seconds S --linger S

MODULE is the library's import name; the library itself is installed by whoever runs the benchmark, in
the interpreter that runs this file. The library has no setting for its HTTP API base: it is pointed at the
emulator here, as a bot's own test suite would do. The bot is auto-sharded, so it asks the HTTP API for
its Gateway URL (GET /gateway/bot) as large bots do. Prints ``BENCH {json}`` with this process's CPU
seconds over ``seconds`` of playing, taken after ``warmup`` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import logging
import ssl
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_voice_sdk import cpu_seconds, tone_frames  # noqa: E402


async def main() -> None:
    parser = argparse.ArgumentParser()
    for name in ("--library", "--api", "--ca-file", "--token"):
        parser.add_argument(name, required=True)
    parser.add_argument("--channel", type=int, required=True)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--linger", type=float, default=5.0, help="keep playing this long after the window")
    parser.add_argument("--log-level", default="WARNING", help="the library's log level, on stderr")
    args = parser.parse_args()
    logging.basicConfig(level=args.log_level, stream=sys.stderr)

    lib: Any = importlib.import_module(args.library)
    import aiohttp
    lib.http.Route.BASE = args.api

    # The signal the SDK side and the Python client send (how hard Opus works depends on it).
    frames = tone_frames()

    class Tone(lib.AudioSource):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            self.count = 0

        def read(self) -> bytes:
            self.count += 1
            return frames[self.count % len(frames)]

        def is_opus(self) -> bool:
            return False

    result: dict[str, Any] = {}

    class Sender(lib.AutoShardedClient):  # type: ignore[misc, name-defined]
        async def on_ready(self) -> None:
            print("ready", file=sys.stderr, flush=True)
            voice = await self.get_channel(args.channel).connect()
            print("voice connected", file=sys.stderr, flush=True)
            source = Tone()
            voice.play(source)
            await asyncio.sleep(args.warmup)
            cpu0, t0, sent0 = cpu_seconds(), time.monotonic(), source.count
            await asyncio.sleep(args.seconds)
            result.update(cpu_s=cpu_seconds() - cpu0, wall_s=time.monotonic() - t0, frames_sent=source.count - sent0)
            await asyncio.sleep(args.linger)
            voice.stop()
            await voice.disconnect()
            await self.close()

    tls = ssl.create_default_context(cafile=args.ca_file)
    sender = Sender(intents=lib.Intents.default(), connector=aiohttp.TCPConnector(ssl=tls))
    await sender.start(args.token)
    print("BENCH " + json.dumps(result), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
