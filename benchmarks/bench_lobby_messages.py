"""Lobby message latency, send → receive through the emulator, from Python: platformpp against a
pure-Python client of the same protocol (httpx for HTTP, websockets for the Gateway), in one run.

Both clients sign two players in, join one lobby, and time N messages from the moment the sender
starts the send until the receiver has the LOBBY_MESSAGE_CREATE event. The emulator runs as a
separate process on loopback so that its work is not counted. Also reported: the process CPU time
per delivered message (sender and receiver together), the Python-side cost of each client.

    python benchmarks/bench_lobby_messages.py [--messages 200] [--record]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).parent))
from machine import describe  # noqa: E402

import platformpp  # noqa: E402

GAME_ID = 1000000000000000000


def start_emulator() -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen([sys.executable, "-m", "platformpp", "emulator", "--port", "0", "--db", ":memory:"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    return process, line.rsplit(" ", 1)[-1].strip()


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


# ---- the pure-Python baseline -------------------------------------------------------------------

async def baseline_sign_in(http: httpx.AsyncClient, base: str, user: str) -> str:
    import base64
    import hashlib
    import secrets

    verifier = secrets.token_urlsafe(32)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    redirect = f"platform-{GAME_ID}:/authorize/callback"
    query = urllib.parse.urlencode({
        "response_type": "code", "client_id": GAME_ID, "scope": "openid sdk.social_layer", "state": "s",
        "redirect_uri": redirect, "code_challenge": challenge, "code_challenge_method": "S256",
        "emulator_user": user, "emulator_consent": "allow"})
    answer = await http.get(f"{base}/oauth2/authorize?{query}")
    code = urllib.parse.parse_qs(urllib.parse.urlparse(answer.headers["location"]).query)["code"][0]
    token = await http.post(f"{base}/api/v10/oauth2/token", data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": redirect, "code_verifier": verifier,
        "client_id": str(GAME_ID)})
    return token.json()["access_token"]


async def baseline_gateway(base: str, token: str) -> websockets.ClientConnection:
    socket = await websockets.connect(base.replace("http", "ws", 1) + "/gateway?v=10&encoding=json")
    hello = json.loads(await socket.recv())
    await socket.send(json.dumps({"op": 2, "d": {"token": token, "intents": 0,
                                                 "properties": {"os": "linux", "browser": "bench", "device": "bench"}}}))
    while json.loads(await socket.recv()).get("t") != "READY":
        pass
    interval = hello["d"]["heartbeat_interval"] / 1000

    async def beat() -> None:
        while True:
            await asyncio.sleep(interval)
            await socket.send(json.dumps({"op": 1, "d": None}))

    socket.heartbeat = asyncio.ensure_future(beat())  # type: ignore[attr-defined]
    return socket


async def run_baseline(base: str, count: int) -> tuple[list[float], float]:
    async with httpx.AsyncClient() as http:
        tokens = [await baseline_sign_in(http, base, user) for user in ("alice", "bob")]
        headers = [{"Authorization": f"Bearer {token}"} for token in tokens]
        lobby = (await http.put(f"{base}/api/v10/lobbies", json={"secret": "bench-baseline"}, headers=headers[0])).json()
        await http.put(f"{base}/api/v10/lobbies", json={"secret": "bench-baseline"}, headers=headers[1])
        receiver = await baseline_gateway(base, tokens[1])
        samples = []
        cpu = time.process_time()
        for index in range(count):
            started = time.perf_counter()
            await http.post(f"{base}/api/v10/lobbies/{lobby['id']}/messages", json={"content": f"m{index}"},
                            headers=headers[0])
            while True:
                event = json.loads(await receiver.recv())
                if event.get("t") == "LOBBY_MESSAGE_CREATE" and event["d"]["content"] == f"m{index}":
                    break
            samples.append(time.perf_counter() - started)
        cpu_per_message = (time.process_time() - cpu) / count
        receiver.heartbeat.cancel()  # type: ignore[attr-defined]
        await receiver.close()
    return samples, cpu_per_message


# ---- platformpp ---------------------------------------------------------------------------------

async def run_platformpp(base: str, count: int) -> tuple[list[float], float]:
    from platformpp.demo import sign_in

    alice = platformpp.Client(f"{base}/api/v10", base)
    bob = platformpp.Client(f"{base}/api/v10", base)
    for client in (alice, bob):
        client.set_application_id(GAME_ID)
    await sign_in(alice, "alice")
    await sign_in(bob, "bob")
    lobby_id = await alice.create_or_join_lobby_async("bench-platformpp")
    await bob.create_or_join_lobby_async("bench-platformpp")
    loop = asyncio.get_running_loop()
    arrived: asyncio.Future[int] = loop.create_future()

    def on_created(message_id: int) -> None:
        if not arrived.done():
            arrived.set_result(message_id)

    bob.on("message_created", on_created)
    samples = []
    cpu = time.process_time()
    for index in range(count):
        arrived = loop.create_future()
        started = time.perf_counter()
        sent_id = await alice.send_lobby_message_async(lobby_id, f"m{index}")
        while await arrived != sent_id:  # a message id we did not send: keep waiting
            arrived = loop.create_future()
        samples.append(time.perf_counter() - started)
    cpu_per_message = (time.process_time() - cpu) / count
    return samples, cpu_per_message


def report(count: int, ours: tuple[list[float], float], baseline: tuple[list[float], float]) -> str:
    (p50, p99), (b50, b99) = percentiles(ours[0]), percentiles(baseline[0])
    rows = [
        ("send → receive p50 (ms)", p50 * 1e3, b50 * 1e3),
        ("send → receive p99 (ms)", p99 * 1e3, b99 * 1e3),
        ("process CPU per message (µs)", ours[1] * 1e6, baseline[1] * 1e6),
    ]
    lines = [f"Machine: {describe()}", f"Messages: {count} per client, emulator in a separate process", "",
             "| measure | platformpp | pure Python (httpx + websockets) | ratio |", "|---|---:|---:|---:|"]
    lines += [f"| {name} | {a:.2f} | {b:.2f} | {a / b:.2f} |" for name, a, b in rows]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--record", action="store_true", help="append to benchmarks/results/lobby_messages.md")
    options = parser.parse_args()
    emulator, base = start_emulator()
    try:
        # The emulator's default rate limit (50/s per route) would throttle both clients alike.
        httpx.put(f"{base}/_emulator/rate-limits", json={"limit": 100000, "window_s": 1}).raise_for_status()
        baseline = asyncio.run(run_baseline(base, options.messages))
        ours = asyncio.run(run_platformpp(base, options.messages))
    finally:
        emulator.terminate()
        emulator.wait()
    text = report(options.messages, ours, baseline)
    print(text)
    if options.record:
        with (Path(__file__).parent / "results" / "lobby_messages.md").open("a") as out:
            out.write("\n" + text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
