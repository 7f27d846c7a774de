"""Interaction throughput of the emulator (not a test): how many interactions per second it delivers
to a bot that answers at once, over the Gateway and over signed HTTP.

The emulator runs as a subprocess (``python -m platformpp emulator --db :memory:``) on loopback; the
simulated users (admin API calls, ``--concurrency`` in flight) and the bot run in one asyncio loop in
this process. Every loop is bounded; nothing leaves 127.0.0.1.

1. Gateway delivery: users start ``--interactions`` interactions without waiting for answers
   (``wait_s`` 0); the rate at which the bot's session receives INTERACTION_CREATE.
2. Gateway round trip: each user waits for the answer; the bot answers each INTERACTION_CREATE at once
   with ``POST /interactions/{id}/{token}/callback`` (CHANNEL_MESSAGE_WITH_SOURCE); the rate of
   completed conversations (the admin call returned the bot's message).
3. Signed HTTP round trip: the app has an interactions endpoint URL served by an asyncio HTTP server
   in this process that verifies each Ed25519 signature and answers in the response body.

Run: ``PYTHONPATH=python python benchmarks/bench_interactions.py [--interactions 2000] [--write]``;
``--write`` records the results and the machine in benchmarks/results/interactions.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import websockets
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

sys.path.insert(0, str(Path(__file__).parent))
from machine import describe  # noqa: E402

RESULTS = Path(__file__).parent / "results" / "interactions.md"
APP_ID, ALICE, GENERAL = "1000000000000000000", "1100000000000000001", "1200000000000000101"
BOT_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.ZW11bGF0b3I.ZGVmYXVsdC13b3JsZC1ib3QtdG9rZW4tbm90LXNlY3JldA"
TIMEOUT_S = 120.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def emulator() -> Iterator[tuple[str, int]]:
    process = subprocess.Popen([sys.executable, "-m", "platformpp", "emulator", "--port", "0", "--db", ":memory:"],
                               stdout=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        if "listening on" not in line:
            raise RuntimeError(f"the emulator did not start: {line!r}")
        yield line.rsplit(" ", 1)[1], process.pid
    finally:
        process.terminate()
        process.wait(timeout=10)


def prepare(base_url: str) -> None:
    with httpx.Client(base_url=base_url, timeout=30) as http:
        http.put("/_emulator/rate-limits", json={"limit": 1_000_000, "window_s": 1}).raise_for_status()
        http.post(f"/api/v10/applications/{APP_ID}/commands", headers={"Authorization": f"Bot {BOT_TOKEN}"},
                  json={"name": "ping", "description": "Answers at once"}).raise_for_status()


class GatewayBot:
    """A bot session; counts INTERACTION_CREATE and (when ``answer``) answers each at once."""

    def __init__(self, base_url: str, answer: bool) -> None:
        self.base_url, self.answer = base_url, answer
        self.received = 0
        self.expected = 0
        self.done = asyncio.Event()
        self.callbacks: set[asyncio.Task[Any]] = set()

    async def run(self, ready: asyncio.Event) -> None:
        url = self.base_url.replace("http://", "ws://") + "/gateway/?v=10&encoding=json"
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        async with websockets.connect(url, max_size=None, compression=None) as ws, \
                httpx.AsyncClient(base_url=self.base_url + "/api/v10", timeout=30, limits=limits) as http:
            await ws.recv()
            await ws.send(json.dumps({"op": 2, "d": {"token": BOT_TOKEN, "intents": 1, "properties": {
                "os": "linux", "browser": "bench", "device": "bench"}}}))
            async for frame in ws:
                message = json.loads(frame)
                if message.get("t") == "READY":
                    ready.set()
                elif message.get("t") == "INTERACTION_CREATE":
                    self.received += 1
                    if self.answer:
                        payload = message["d"]
                        task = asyncio.create_task(http.post(
                            f"/interactions/{payload['id']}/{payload['token']}/callback",
                            json={"type": 4, "data": {"content": "pong"}}))
                        self.callbacks.add(task)
                        task.add_done_callback(self.callbacks.discard)
                    if self.received >= self.expected > 0:
                        self.done.set()


class EndpointBot:
    """An interactions endpoint on asyncio streams: verifies the signature, answers in the body."""

    def __init__(self, verify_key_hex: str) -> None:
        self.key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(verify_key_hex))
        self.received = 0
        self.server: asyncio.AbstractServer | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self.serve, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}/interactions"

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                headers = {}
                for line in head.decode("latin-1").split("\r\n")[1:]:
                    if ":" in line:
                        name, value = line.split(":", 1)
                        headers[name.strip().lower()] = value.strip()
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                try:
                    self.key.verify(bytes.fromhex(headers["x-signature-ed25519"]),
                                    headers["x-signature-timestamp"].encode() + body)
                    payload = json.loads(body)
                    status, answer = 200, ({"type": 1} if payload["type"] == 1 else
                                           {"type": 4, "data": {"content": "pong"}})
                    if payload["type"] != 1:
                        self.received += 1
                except Exception:
                    status, answer = 401, {"error": "bad signature"}
                data = json.dumps(answer).encode()
                writer.write(f"HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {len(data)}"
                             "\r\n\r\n".encode() + data)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


async def users(base_url: str, count: int, concurrency: int, wait_s: float, repeat: int = 1) -> tuple[float, int]:
    """``count`` interactions started by simulated users, ``concurrency`` calls at a time, each call
    ``repeat`` interactions. (elapsed, answered)."""
    body = {"action": "command", "application_id": APP_ID, "user_id": ALICE, "channel_id": GENERAL,
            "command_name": "ping", "wait_s": wait_s, **({"repeat": repeat} if repeat > 1 else {})}
    answered = 0
    queue: asyncio.Queue[int] = asyncio.Queue()
    for n in range(count // repeat):
        queue.put_nowait(n)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base_url + "/_emulator", timeout=TIMEOUT_S, limits=limits) as http:
        async def worker() -> None:
            nonlocal answered
            while not queue.empty():
                queue.get_nowait()
                response = await http.post("/interactions", json=body)
                response.raise_for_status()
                if repeat == 1:
                    message = response.json()["answer"]["message"]
                    answered += message is not None and message["content"] == "pong"

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return time.perf_counter() - started, answered


async def gateway(base_url: str, pid: int, count: int, concurrency: int, answer: bool, repeat: int = 1
                  ) -> dict[str, Any]:
    bot = GatewayBot(base_url, answer)
    ready = asyncio.Event()
    task = asyncio.create_task(bot.run(ready))
    await asyncio.wait_for(ready.wait(), 30)
    await users(base_url, 50, concurrency, 3.0 if answer else 0)   # warm-up
    await asyncio.sleep(0.5)
    bot.received, bot.expected = 0, count
    bot.done.clear()
    cpu = cpu_seconds(pid)
    started = time.perf_counter()
    elapsed, answered = await users(base_url, count, concurrency, 3.0 if answer else 0, repeat)
    await asyncio.wait_for(bot.done.wait(), TIMEOUT_S)
    delivered_s = time.perf_counter() - started
    if answer:   # the last callbacks may still be in flight once every user has its answer
        await asyncio.gather(*bot.callbacks)
    cpu = cpu_seconds(pid) - cpu
    task.cancel()
    return {"interactions": count, "delivered": bot.received, "answered": answered,
            "rate": round(count / (elapsed if answer else delivered_s)), "per_cpu_s": round(count / cpu)}


async def endpoint(base_url: str, pid: int, count: int, concurrency: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        key = (await http.get(f"/_emulator/applications/{APP_ID}")).json()["verify_key"]
        bot = EndpointBot(key)
        url = await bot.start()
        (await http.put(f"/_emulator/applications/{APP_ID}/interactions-endpoint", json={"url": url})).raise_for_status()
    await users(base_url, 50, concurrency, 3.0)   # warm-up
    bot.received = 0
    cpu = cpu_seconds(pid)
    elapsed, answered = await users(base_url, count, concurrency, 3.0)
    cpu = cpu_seconds(pid) - cpu
    assert bot.server is not None
    bot.server.close()
    return {"interactions": count, "delivered": bot.received, "answered": answered, "rate": round(count / elapsed),
            "per_cpu_s": round(count / cpu)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--interactions", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    results = {}
    for name, run in (("Gateway delivery, users acting 100 at a time (`repeat` 100)",
                       lambda url, pid: gateway(url, pid, args.interactions, 2, answer=False, repeat=100)),
                      ("Gateway delivery, one admin call per interaction",
                       lambda url, pid: gateway(url, pid, args.interactions, args.concurrency, answer=False)),
                      ("Gateway round trip (bot answers via the callback route)",
                       lambda url, pid: gateway(url, pid, args.interactions, args.concurrency, answer=True)),
                      ("Signed HTTP round trip (endpoint answers in the body)",
                       lambda url, pid: endpoint(url, pid, args.interactions, args.concurrency))):
        with emulator() as (base_url, pid):
            prepare(base_url)
            results[name] = asyncio.run(run(base_url, pid))
        print(f"{name}: {results[name]}", flush=True)
    load = os.getloadavg()
    if args.write:
        lines = [
            "# Interaction benchmark", "",
            f"Recorded by `benchmarks/bench_interactions.py --interactions {args.interactions} --concurrency "
            f"{args.concurrency}`.", "",
            "## Machine", "", f"- {describe()}",
            f"- load average at the end of the run: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (1 / 5 / 15 min); "
            "the machine was shared with other helpers' builds and tests", "",
            "The emulator ran as a subprocess (`python -m platformpp emulator --db :memory:`); the simulated users "
            "(admin API calls) and the bot ran in one asyncio loop in the benchmark process, on the same machine, "
            "over loopback. Every interaction is started through the admin API (one call per interaction, or 100 "
            "per call with `repeat`), which checks the user, the channel and the command with the permission "
            "engine, stores the interaction in SQLite and delivers it. A round trip is three HTTP requests (the "
            "user's call, the bot's callback, reading the answer inside the user's call), so its rate is bounded "
            "by the HTTP layer; the delivery itself (first row) is what the Gateway sustains.", "",
            "## Results", "",
            "| what | interactions | delivered | answered | per second (wall clock) | per emulator CPU-second |",
            "|---|---|---|---|---|---|",
        ]
        for name, result in results.items():
            lines.append(f"| {name} | {result['interactions']} | {result['delivered']} | {result['answered']} | "
                         f"**{result['rate']}** | {result['per_cpu_s']} |")
        RESULTS.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
