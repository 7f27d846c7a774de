"""Gateway benchmarks of the emulator (not a test): lobby message POST → dispatch latency, and
sustained dispatch throughput to many connected SDK sessions.

The emulator runs as a subprocess (``python -m platformpp emulator --db :memory:``) on loopback, so
the load generator — the minimal clients of ``light_http.py`` and ``light_ws.py``, in one asyncio
loop — does not share its interpreter (those files say why not ``httpx`` and ``websockets``). Every
loop is bounded; nothing leaves 127.0.0.1.

1. Latency: one member posts ``--messages`` lobby messages one at a time; the time from sending the
   POST to another member's session receiving LOBBY_MESSAGE_CREATE, with plain JSON frames and with
   ``compress=zlib-stream``.
2. Throughput: ``--sessions`` SDK sessions in one lobby; ``--burst`` messages are posted (four in
   flight at a time) and the time until every session has received every dispatch gives the
   sustained dispatches per second.

   Beside the wall-clock rate, each run reports the CPU time the emulator process used, and so the
   dispatches per emulator CPU-second: on a shared machine the wall-clock rate follows the load, the
   CPU cost per dispatch much less.

Run: ``PYTHONPATH=python python benchmarks/bench_emulator_gateway.py [--sessions 100] [--write]``;
``--write`` records the results and the machine in benchmarks/results/emulator_gateway.md. To compare
with an earlier version in the same conditions, extract its tree (``git archive <commit>
python/platformpp | tar -x -C /tmp/old``) and run alternately with ``--emulator-source /tmp/old/python``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from light_http import LightHttpConnection
from light_ws import LightWebSocket

RESULTS = Path(__file__).parent / "results" / "emulator_gateway.md"
BOT_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.ZW11bGF0b3I.ZGVmYXVsdC13b3JsZC1ib3QtdG9rZW4tbm90LXNlY3JldA"
PROPS = {"os": "linux", "browser": "bench", "device": "bench"}
TIMEOUT_S = 60.0


# Runs ``python -m platformpp`` from another source tree (argv[1]), past the editable install's finder:
# how an earlier version is measured beside this one, in the same conditions.
_FROM_SOURCE = (
    "import runpy, sys\n"
    "sys.meta_path[:] = [f for f in sys.meta_path if 'Redirecting' not in type(f).__name__]\n"
    "sys.path.insert(0, sys.argv.pop(1))\n"
    "runpy.run_module('platformpp', run_name='__main__', alter_sys=True)\n"
)


@contextmanager
def emulator(source: str | None = None) -> Iterator[tuple[str, int]]:
    """A fresh emulator subprocess (from ``source``, a ``python/`` folder of another tree, if given);
    yields its base URL and process id, and stops it afterwards."""
    start = [sys.executable, "-c", _FROM_SOURCE, source] if source else [sys.executable, "-m", "platformpp"]
    process = subprocess.Popen([*start, "emulator", "--port", "0", "--db", ":memory:"],
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


class Session:
    """An SDK-user Gateway session that counts (and times) lobby message dispatches. Every frame is
    inflated (zlib-stream) and parsed as JSON, as an SDK does."""

    def __init__(self, compressed: bool) -> None:
        self.ws: LightWebSocket | None = None
        self.inflater = zlib.decompressobj() if compressed else None
        self.received = 0
        self.sequence: int | None = None
        self.waiters: dict[str, asyncio.Future[float]] = {}
        self.done = asyncio.Event()
        self.expected = 0
        loop = asyncio.get_running_loop()
        self.hello: asyncio.Future[None] = loop.create_future()
        self.ready: asyncio.Future[None] = loop.create_future()

    @classmethod
    async def open(cls, gateway: str, token: str, compressed: bool = False) -> Session:
        query = "v=10&encoding=json" + ("&compress=zlib-stream" if compressed else "")
        # No permessage-deflate: like the SDK's client, compression is the Gateway's own zlib-stream only.
        session = cls(compressed)
        session.ws = await LightWebSocket.connect(f"{gateway}/?{query}", session.on_message)
        await asyncio.wait_for(session.hello, TIMEOUT_S)
        session.ws.send_text(json.dumps({"op": 2, "d": {"token": token, "intents": 0, "properties": PROPS}}))
        await asyncio.wait_for(session.ready, TIMEOUT_S)
        return session

    def on_message(self, frame: bytes) -> None:
        if self.inflater is not None:
            frame = self.inflater.decompress(frame)
        payload = json.loads(frame)
        if payload.get("s") is not None:
            self.sequence = payload["s"]
        kind = payload.get("t")
        if kind == "LOBBY_MESSAGE_CREATE":
            self.received += 1
            arrived = time.perf_counter()
            waiter = self.waiters.pop(payload["d"]["content"], None)
            if waiter is not None:
                waiter.set_result(arrived)
            if self.received >= self.expected:
                self.done.set()
        elif payload["op"] == 10:
            self.hello.set_result(None)
        elif payload["op"] == 1 and self.ws is not None:  # the Gateway asks for a heartbeat now
            self.ws.send_text(json.dumps({"op": 1, "d": self.sequence}))
        elif kind == "READY":
            self.ready.set_result(None)

    async def close(self) -> None:
        """Close the socket; a session closed before its expected count is also done."""
        assert self.ws is not None
        await self.ws.close()
        self.done.set()


def prepare(base_url: str, players: int) -> tuple[str, str, list[str]]:
    """Provisional players made by the bot, all in one lobby. Returns (gateway URL, lobby id, tokens)."""
    with httpx.Client(base_url=base_url, timeout=30) as admin:
        admin.put("/_emulator/rate-limits", json={"limit": 1_000_000, "window_s": 1}).raise_for_status()
        api = base_url + "/api/v10"
        bot = {"Authorization": f"Bot {BOT_TOKEN}"}
        tokens, ids = [], []
        for n in range(players):
            issued = admin.post(f"{api}/partner-sdk/token/bot", headers=bot, json={"external_user_id": f"bench-{n}"})
            issued.raise_for_status()
            token = issued.json()["access_token"]
            me = admin.get(f"{api}/users/@me", headers={"Authorization": f"Bearer {token}"}).json()
            tokens.append(token)
            ids.append(me["id"])
        lobby = admin.post(f"{api}/lobbies", headers=bot, json={}).json()
        for start in range(0, players, 25):
            batch = [{"id": user_id} for user_id in ids[start:start + 25]]
            admin.post(f"{api}/lobbies/{lobby['id']}/members/bulk", headers=bot, json=batch).raise_for_status()
        gateway = admin.get(f"{api}/gateway").json()["url"]
    return gateway, lobby["id"], tokens


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def latency(base_url: str, gateway: str, lobby_id: str, tokens: list[str], messages: int,
                  compressed: bool, warmup: int) -> list[float]:
    receiver = await Session.open(gateway, tokens[1], compressed)
    receiver.expected = messages + warmup
    samples = []
    http = await LightHttpConnection.open(f"{base_url}/api/v10", {"Authorization": f"Bearer {tokens[0]}"})
    for n in range(warmup + messages):
        content = f"{'z' if compressed else 'j'}{n}"
        arrival = receiver.waiters[content] = asyncio.get_running_loop().create_future()
        started = time.perf_counter()
        await http.post_json(f"/lobbies/{lobby_id}/messages", {"content": content})
        elapsed_ms = (await asyncio.wait_for(arrival, TIMEOUT_S) - started) * 1000
        if n >= warmup:  # the first requests of a connection pay for warming caches up
            samples.append(elapsed_ms)
    await http.close()
    await receiver.close()
    return samples


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far (Linux /proc): unlike wall time, it hardly
    depends on what else the shared machine is running."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def throughput(base_url: str, gateway: str, lobby_id: str, tokens: list[str], burst: int,
                     run: int, pid: int) -> dict[str, float]:
    sessions = [await Session.open(gateway, token) for token in tokens]
    for session in sessions:
        session.expected = burst
    # Four requests in flight: four keep-alive connections, each posting its share one at a time.
    posters = [await LightHttpConnection.open(f"{base_url}/api/v10", {"Authorization": f"Bearer {tokens[0]}"})
               for _ in range(4)]

    async def post_share(http: LightHttpConnection, first: int) -> None:
        for n in range(first, burst, len(posters)):
            await http.post_json(f"/lobbies/{lobby_id}/messages", {"content": f"t{run}-{n}"})

    started, cpu_started = time.perf_counter(), cpu_seconds(pid)
    await asyncio.gather(*(post_share(http, index) for index, http in enumerate(posters)))
    posted = time.perf_counter()
    await asyncio.wait_for(asyncio.gather(*(s.done.wait() for s in sessions)), TIMEOUT_S)
    finished, cpu_finished = time.perf_counter(), cpu_seconds(pid)
    for http in posters:
        await http.close()
    await asyncio.gather(*(session.close() for session in sessions))
    delivered = sum(s.received for s in sessions)
    return {"sessions": len(sessions), "messages": burst, "delivered": delivered,
            "post_s": posted - started, "total_s": finished - started,
            "dispatches_per_s": delivered / (finished - started), "messages_per_s": burst / (posted - started),
            "emulator_cpu_s": cpu_finished - cpu_started,
            "dispatches_per_cpu_s": delivered / max(cpu_finished - cpu_started, 1e-9)}


def machine() -> list[str]:
    cpu = "unknown"
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                   if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    uname = subprocess.run(["uname", "-a"], capture_output=True, text=True, check=False).stdout.strip()
    return [f"- `uname -a`: {uname}", f"- `nproc`: {os.cpu_count()}", f"- CPU: {cpu}",
            f"- Python: {sys.version.split()[0]} ({platform.python_implementation()})",
            "- load generator: benchmarks/light_http.py and benchmarks/light_ws.py on uvloop",
            # The machine is shared (C++ builds): the load tells how noisy the numbers are.
            "- load average (1, 5, 15 min) when the report was written: "
            + ", ".join(f"{x:.2f}" for x in os.getloadavg())]


def report(lat: dict[str, list[float]], runs: list[dict[str, float]], args: argparse.Namespace) -> str:
    options = (f"--sessions {args.sessions} --messages {args.messages} --warmup {args.warmup} "
               f"--burst {args.burst} --repeat {args.repeat}")
    setup = ("The emulator ran as a subprocess (`python -m platformpp emulator --db :memory:`, uvicorn, SQLite in "
             "memory); the clients ran in one asyncio loop in the benchmark process, on the same 2-core machine, "
             "over loopback.")
    recorded = f"Recorded {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC"
    lines = ["# Emulator Gateway benchmark", "", f"{recorded} by `benchmarks/bench_emulator_gateway.py {options}`.", "",
             "## Machine", "", *machine(), "", setup, "",
             "## Lobby message POST → LOBBY_MESSAGE_CREATE latency (ms)", "",
             "| frames | n | p50 | p90 | p99 | max | mean |", "|---|---|---|---|---|---|---|"]
    for name, samples in lat.items():
        lines.append(f"| {name} | {len(samples)} | {percentile(samples, .5):.2f} | {percentile(samples, .9):.2f} | "
                     f"{percentile(samples, .99):.2f} | {max(samples):.2f} | {statistics.fmean(samples):.2f} |")
    ratio = percentile(lat["zlib-stream"], .5) / percentile(lat["json"], .5)
    header = ("| run | messages posted | dispatches delivered | POST phase (s) | until all delivered (s) "
              "| dispatches/s | messages/s accepted | emulator CPU (s) | dispatches per emulator CPU-s |")
    lines += ["", f"zlib-stream / json p50 ratio: {ratio:.2f}.", "",
              f"## Sustained dispatches to {int(runs[0]['sessions'])} SDK sessions ({len(runs)} runs)", "",
              header, "|---|---|---|---|---|---|---|---|---|"]
    for index, tput in enumerate(runs, 1):
        lines.append(f"| {index} | {int(tput['messages'])} | {int(tput['delivered'])} | {tput['post_s']:.2f} | "
                     f"{tput['total_s']:.2f} | {tput['dispatches_per_s']:.0f} | {tput['messages_per_s']:.0f} | "
                     f"{tput['emulator_cpu_s']:.2f} | {tput['dispatches_per_cpu_s']:.0f} |")
    rates = [tput["dispatches_per_s"] for tput in runs]
    per_cpu = [tput["dispatches_per_cpu_s"] for tput in runs]
    fan_out = runs[0]["delivered"] / runs[0]["messages"]
    lines += ["", (f"Median {statistics.median(rates):.0f} dispatches/s (min {min(rates):.0f}, max {max(rates):.0f}); "
                   f"each accepted message became {fan_out:.0f} dispatches (one per member session) and every "
                   "session received every dispatch. "
                   f"Median {statistics.median(per_cpu):.0f} dispatches per CPU-second of the emulator process."), ""]
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> str:
    with emulator(args.emulator_source) as (base_url, pid):
        gateway, lobby_id, tokens = prepare(base_url, max(args.sessions, 2))
        lat = {"json": await latency(base_url, gateway, lobby_id, tokens, args.messages, False, args.warmup),
               "zlib-stream": await latency(base_url, gateway, lobby_id, tokens, args.messages, True, args.warmup)}
        runs = [await throughput(base_url, gateway, lobby_id, tokens[:args.sessions], args.burst, run, pid)
                for run in range(args.repeat)]
    return report(lat, runs, args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=100, help="connected SDK sessions (throughput)")
    parser.add_argument("--messages", type=int, default=200, help="messages per latency run")
    parser.add_argument("--warmup", type=int, default=10, help="unrecorded messages before each latency run")
    parser.add_argument("--burst", type=int, default=200, help="messages posted in the throughput run")
    parser.add_argument("--repeat", type=int, default=3, help="throughput runs")
    parser.add_argument("--emulator-source", default=None, metavar="DIR",
                        help="run the emulator from this python/ folder of another tree (e.g. an earlier"
                             " commit extracted with git archive), to compare versions in the same conditions")
    parser.add_argument("--write", action="store_true", help=f"write {RESULTS.relative_to(Path.cwd())}")
    args = parser.parse_args()
    try:  # the load generator on uvloop (as the emulator's uvicorn is): 100 sockets' wake-ups cost it less
        import uvloop
        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    except ImportError:
        pass
    text = asyncio.run(main_async(args))
    print(text)
    if args.write:
        RESULTS.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
