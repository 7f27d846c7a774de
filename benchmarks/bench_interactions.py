"""Interaction throughput of the emulator (not a test): how many interactions per second it delivers
to a bot that answers at once, over the Gateway and over signed HTTP.

The emulator runs as a subprocess (``python -m platformpp emulator --db :memory:``) on loopback; the
simulated users (admin API calls, ``--concurrency`` in flight) and the bot run in one asyncio loop (uvloop
when installed) in this process. The load generator uses benchmarks/light_http.py and light_ws.py: with
httpx and websockets it cost about as much CPU as the emulator it measured, on a 2-core machine. Every
loop is bounded; nothing leaves 127.0.0.1.

1. Gateway delivery: users start ``--interactions`` interactions without waiting for answers
   (``wait_s`` 0); the rate at which the bot's session receives INTERACTION_CREATE.
2. Gateway round trip: each user waits for the answer; the bot answers each INTERACTION_CREATE at once
   with ``POST /interactions/{id}/{token}/callback`` (CHANNEL_MESSAGE_WITH_SOURCE); the rate of
   completed conversations (the admin call returned the bot's message).
3. Signed HTTP round trip: the app has an interactions endpoint URL served by an asyncio HTTP server
   in this process that verifies each Ed25519 signature and answers in the response body.
4. The round trip without sockets (``logic``): a subprocess builds the emulator's ASGI application
   and calls it directly, the user's admin call (``wait_s`` 0) then the bot's callback, no Gateway
   session; its CPU per round trip is the emulator's own work (routing, middleware, the interaction's
   checks, SQL and JSON) without uvicorn, the sockets and the Gateway frame: the difference to (2)
   is what those cost.

Each row also says the emulator's CPU seconds per interaction and the share of the wall time its
process was on a CPU: near 100 % the emulator is the bottleneck, well below it the load generator.

Run: ``PYTHONPATH=python python benchmarks/bench_interactions.py [--interactions 2000] [--write]``;
``--emulator-source DIR`` runs the emulator from another tree's ``python/`` folder (``git archive HEAD
python/platformpp | tar -x -C /tmp/old``) to compare versions in the same run; ``--profile FILE``
runs the emulator under cProfile, timing CPU (not wall) time so that a shared machine's waits do not
count, and writes its statistics to FILE when it stops. ``--runs N`` repeats every scenario N times,
alternating which version goes first, and reports (and ``--write`` records) the medians.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.request import Request, urlopen

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

sys.path.insert(0, str(Path(__file__).parent))
from light_http import LightHttpConnection  # noqa: E402
from light_ws import LightWebSocket  # noqa: E402
from machine import describe  # noqa: E402

RESULTS = Path(__file__).parent / "results" / "interactions.md"
APP_ID, ALICE, GENERAL = "1000000000000000000", "1100000000000000001", "1200000000000000101"
BOT_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.ZW11bGF0b3I.ZGVmYXVsdC13b3JsZC1ib3QtdG9rZW4tbm90LXNlY3JldA"
TIMEOUT_S = 120.0
# Run the emulator from another tree's python/ folder, or under cProfile (argv: source, profile file).
_LAUNCH = (
    "import runpy, sys\n"
    "source, profile = sys.argv.pop(1), sys.argv.pop(1)\n"
    "if source:\n"
    "    sys.meta_path[:] = [f for f in sys.meta_path if 'Redirecting' not in type(f).__name__]\n"
    "    sys.path.insert(0, source)\n"
    "if profile:\n"
    "    import cProfile, signal, time\n"
    "    profiler = cProfile.Profile(time.process_time)   # CPU time: the machine may be shared\n"
    "    profiler.enable()\n"
    "    try:\n"
    "        runpy.run_module('platformpp', run_name='__main__', alter_sys=True)\n"
    "    except SystemExit:\n"
    "        pass\n"
    "    profiler.disable()\n"
    "    profiler.dump_stats(profile)\n"
    "else:\n"
    "    runpy.run_module('platformpp', run_name='__main__', alter_sys=True)\n"
)


# The round trip called in-process on the ASGI application (argv: source, count); prints a JSON row.
_LOGIC = (
    "import asyncio, json, sys, time\n"
    "source, count = sys.argv[1], int(sys.argv[2])\n"
    "if source:\n"
    "    sys.meta_path[:] = [f for f in sys.meta_path if 'Redirecting' not in type(f).__name__]\n"
    "    sys.path.insert(0, source)\n"
    "from platformpp.emulator.app import create_app\n"
    "from platformpp.emulator.server import prepare_state\n"
    "app = create_app(prepare_state(':memory:', None, None))\n"
    "def scope(method, path, headers):\n"
    "    return {'type': 'http', 'asgi': {'version': '3.0'}, 'http_version': '1.1', 'method': method,\n"
    "            'scheme': 'http', 'path': path, 'raw_path': path.encode(), 'query_string': b'', 'root_path': '',\n"
    "            'headers': [(b'host', b'127.0.0.1:1'), (b'content-type', b'application/json'), *headers],\n"
    "            'client': ('127.0.0.1', 2), 'server': ('127.0.0.1', 1)}\n"
    "async def call(method, path, body, headers=()):\n"
    "    data = json.dumps(body).encode()\n"
    "    sent = []\n"
    "    async def receive():\n"
    "        return {'type': 'http.request', 'body': data, 'more_body': False}\n"
    "    async def send(message):\n"
    "        sent.append(message)\n"
    "    await app(scope(method, path, list(headers)), receive, send)\n"
    "    if sent[0]['status'] >= 300:\n"
    "        raise RuntimeError(f'{path}: {sent}')\n"
    "    return json.loads(sent[1]['body']) if sent[1]['body'] else None\n"
    "async def round_trip():\n"
    "    started = await call('POST', '/_emulator/interactions', {'action': 'command', 'application_id': APP_ID,\n"
    "                         'user_id': ALICE, 'channel_id': GENERAL, 'command_name': 'ping', 'wait_s': 0})\n"
    "    one = started['interaction']\n"
    "    await call('POST', f\"/api/v10/interactions/{one['id']}/{one['token']}/callback\",\n"
    "               {'type': 4, 'data': {'content': 'pong'}})\n"
    "async def main():\n"
    "    async with app.router.lifespan_context(app):\n"
    "        await call('PUT', '/_emulator/rate-limits', {'limit': 1_000_000, 'window_s': 1})\n"
    "        await call('POST', f'/api/v10/applications/{APP_ID}/commands', {'name': 'ping', 'description': 'Answers'},\n"
    "                   [(b'authorization', f'Bot {BOT_TOKEN}'.encode())])\n"
    "        for _ in range(50):\n"
    "            await round_trip()\n"
    "        cpu, wall = time.process_time(), time.perf_counter()\n"
    "        for _ in range(count):\n"
    "            await round_trip()\n"
    "        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall\n"
    "    print(json.dumps({'cpu': cpu, 'wall': wall}))\n"
    "asyncio.run(main())\n"
)


def logic(source: str | None, count: int) -> dict[str, Any]:
    constants = f"APP_ID, ALICE, GENERAL, BOT_TOKEN = {APP_ID!r}, {ALICE!r}, {GENERAL!r}, {BOT_TOKEN!r}\n"
    out = subprocess.run([sys.executable, "-c", constants + _LOGIC, source or "", str(count)], check=True,
                         capture_output=True, text=True, env=os.environ.copy(), timeout=TIMEOUT_S * 5).stdout
    measured = json.loads(out.strip().splitlines()[-1])
    return _row(count, count, count, measured["wall"], measured["cpu"], 0.0)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def emulator(source: str | None, profile: str | None) -> Iterator[tuple[str, int]]:
    process = subprocess.Popen([sys.executable, "-c", _LAUNCH, source or "", profile or "", "emulator", "--port", "0",
                                "--db", ":memory:"], stdout=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        if "listening on" not in line:
            raise RuntimeError(f"the emulator did not start: {line!r}")
        yield line.rsplit(" ", 1)[1], process.pid
    finally:
        process.terminate()
        process.wait(timeout=30)


def _call(base_url: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = Request(base_url + path, data=data, method=method,
                      headers={"Content-Type": "application/json", **(headers or {})})
    with urlopen(request, timeout=30) as response:
        raw = response.read()
    return json.loads(raw) if raw else None


def prepare(base_url: str) -> None:
    _call(base_url, "PUT", "/_emulator/rate-limits", {"limit": 1_000_000, "window_s": 1})
    _call(base_url, "POST", f"/api/v10/applications/{APP_ID}/commands", {"name": "ping", "description": "Answers"},
          {"Authorization": f"Bot {BOT_TOKEN}"})


class GatewayBot:
    """A bot session; counts INTERACTION_CREATE and (when ``answer``) answers each at once through a
    small pool of keep-alive connections."""

    def __init__(self, base_url: str, answer: bool) -> None:
        self.base_url, self.answer = base_url, answer
        self.received = 0
        self.expected = 0
        self.done = asyncio.Event()
        self.ready = asyncio.Event()
        self.hello = asyncio.Event()
        self.pending: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self.answered = 0
        self.idle = asyncio.Event()
        self.ws: LightWebSocket | None = None
        self.workers: list[asyncio.Task[None]] = []

    async def start(self, connections: int) -> None:
        url = self.base_url.replace("http://", "ws://") + "/gateway/?v=10&encoding=json"
        self.ws = await LightWebSocket.connect(url, self.on_message)
        await asyncio.wait_for(self.hello.wait(), 30)   # may have come with the handshake, before ws was set
        self.ws.send_text(json.dumps({"op": 2, "d": {"token": BOT_TOKEN, "intents": 1, "properties": {
            "os": "linux", "browser": "bench", "device": "bench"}}}))
        if self.answer:
            for _ in range(connections):
                connection = await LightHttpConnection.open(self.base_url + "/api/v10", {})
                self.workers.append(asyncio.create_task(self.respond(connection)))
        await asyncio.wait_for(self.ready.wait(), 30)

    def on_message(self, frame: bytes) -> None:
        message = json.loads(frame)
        kind = message.get("t")
        if message["op"] == 10:
            self.hello.set()
        elif message["op"] == 1 and self.ws is not None:
            self.ws.send_text(json.dumps({"op": 1, "d": message.get("s")}))
        elif kind == "READY":
            self.ready.set()
        elif kind == "INTERACTION_CREATE":
            self.received += 1
            if self.answer:
                self.pending.put_nowait((message["d"]["id"], message["d"]["token"]))
            if self.received >= self.expected > 0:
                self.done.set()

    async def respond(self, connection: LightHttpConnection) -> None:
        answer = {"type": 4, "data": {"content": "pong"}}
        while True:
            interaction_id, token = await self.pending.get()
            await connection.post_json(f"/interactions/{interaction_id}/{token}/callback", answer)
            self.answered += 1
            self.pending.task_done()

    async def stop(self) -> None:
        if self.answer:
            await self.pending.join()
        for worker in self.workers:
            worker.cancel()
        if self.ws is not None:
            await self.ws.close()


class EndpointBot:
    """An interactions endpoint on asyncio streams: verifies the signature, answers in the body."""

    def __init__(self, verify_key_hex: str) -> None:
        self.key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(verify_key_hex))
        self.received = 0
        self.server: asyncio.AbstractServer | None = None
        self.writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> str:
        self.server = await asyncio.start_server(self.serve, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}/interactions"

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writers.add(writer)
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
            self.writers.discard(writer)
            writer.close()

    async def stop(self) -> None:
        """Close the server and the emulator's kept-alive connections to it."""
        assert self.server is not None
        self.server.close()
        for writer in list(self.writers):
            writer.close()
        await self.server.wait_closed()


async def users(base_url: str, count: int, concurrency: int, wait_s: float, repeat: int = 1) -> tuple[float, int]:
    """``count`` interactions started by simulated users, ``concurrency`` calls at a time, each call
    ``repeat`` interactions. (elapsed, answered)."""
    body = {"action": "command", "application_id": APP_ID, "user_id": ALICE, "channel_id": GENERAL,
            "command_name": "ping", "wait_s": wait_s, **({"repeat": repeat} if repeat > 1 else {})}
    answered = 0
    calls = count // repeat
    issued = 0
    connections = [await LightHttpConnection.open(base_url + "/_emulator", {}) for _ in range(concurrency)]

    async def worker(connection: LightHttpConnection) -> None:
        nonlocal answered, issued
        while issued < calls:
            issued += 1
            _, raw = await connection.post_json("/interactions", body)
            if repeat == 1 and wait_s:
                message = json.loads(raw)["answer"]["message"]
                answered += message is not None and message["content"] == "pong"

    started = time.perf_counter()
    await asyncio.gather(*(worker(connection) for connection in connections))
    elapsed = time.perf_counter() - started
    for connection in connections:
        await connection.close()
    return elapsed, answered


def _row(count: int, delivered: int, answered: int, seconds: float, cpu: float, generator_cpu: float
         ) -> dict[str, Any]:
    return {"interactions": count, "delivered": delivered, "answered": answered, "rate": round(count / seconds),
            "cpu_ms": round(cpu * 1000 / count, 3), "busy": round(100 * cpu / seconds),
            "generator_busy": round(100 * generator_cpu / seconds)}


async def gateway(base_url: str, pid: int, count: int, concurrency: int, answer: bool, repeat: int = 1
                  ) -> dict[str, Any]:
    bot = GatewayBot(base_url, answer)
    await bot.start(concurrency)
    await users(base_url, 50, concurrency, 3.0 if answer else 0)   # warm-up
    await asyncio.sleep(0.5)
    if answer:
        await bot.pending.join()
    bot.received, bot.expected = 0, count
    bot.done.clear()
    cpu, own = cpu_seconds(pid), cpu_seconds(os.getpid())
    started = time.perf_counter()
    elapsed, answered = await users(base_url, count, concurrency, 3.0 if answer else 0, repeat)
    await asyncio.wait_for(bot.done.wait(), TIMEOUT_S)
    delivered_s = time.perf_counter() - started
    await bot.stop()   # the last callbacks may still be in flight once every user has its answer
    cpu, own = cpu_seconds(pid) - cpu, cpu_seconds(os.getpid()) - own
    return _row(count, bot.received, answered, elapsed if answer else delivered_s, cpu, own)


async def endpoint(base_url: str, pid: int, count: int, concurrency: int) -> dict[str, Any]:
    key = _call(base_url, "GET", f"/_emulator/applications/{APP_ID}")["verify_key"]
    bot = EndpointBot(key)
    url = await bot.start()
    await asyncio.get_running_loop().run_in_executor(
        None, lambda: _call(base_url, "PUT", f"/_emulator/applications/{APP_ID}/interactions-endpoint", {"url": url}))
    await users(base_url, 50, concurrency, 3.0)   # warm-up
    bot.received = 0
    cpu, own = cpu_seconds(pid), cpu_seconds(os.getpid())
    elapsed, answered = await users(base_url, count, concurrency, 3.0)
    cpu, own = cpu_seconds(pid) - cpu, cpu_seconds(os.getpid()) - own
    await bot.stop()
    return _row(count, bot.received, answered, elapsed, cpu, own)


SCENARIOS = {
    "batch": "Gateway delivery, users acting 100 at a time (`repeat` 100)",
    "single": "Gateway delivery, one admin call per interaction",
    "roundtrip": "Gateway round trip (bot answers via the callback route)",
    "http": "Signed HTTP round trip (endpoint answers in the body)",
    "logic": "Round trip called in-process on the ASGI app (no sockets, no Gateway session)",
}


def run(name: str, args: argparse.Namespace, source: str | None) -> dict[str, Any]:
    if name == "logic":
        return logic(source, args.interactions)
    scenario = {
        "batch": lambda url, pid: gateway(url, pid, args.interactions, 2, answer=False, repeat=100),
        "single": lambda url, pid: gateway(url, pid, args.interactions, args.concurrency, answer=False),
        "roundtrip": lambda url, pid: gateway(url, pid, args.interactions, args.concurrency, answer=True),
        "http": lambda url, pid: endpoint(url, pid, args.interactions, args.concurrency),
    }[name]
    with emulator(source, args.profile) as (base_url, pid):
        prepare(base_url)
        return asyncio.run(scenario(base_url, pid))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--interactions", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--only", choices=sorted(SCENARIOS), action="append", help="run only these scenarios")
    parser.add_argument("--emulator-source", default=None, metavar="DIR",
                        help="also run every scenario with the emulator from this python/ folder (e.g. HEAD"
                             " extracted with git archive), alternating with this tree's")
    parser.add_argument("--profile", default=None, metavar="FILE", help="run the emulator under cProfile (CPU time)")
    parser.add_argument("--runs", type=int, default=1, metavar="N",
                        help="run every scenario N times (alternating versions each time) and report the"
                             " median rate and CPU per interaction; on a shared machine single runs vary a lot")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    try:
        import uvloop
        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    except ImportError:
        pass
    versions = [("this tree", None)] + ([("previous", args.emulator_source)] if args.emulator_source else [])
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for attempt in range(max(1, args.runs)):
        for name in args.only or list(SCENARIOS):
            # alternate which version goes first, so neither always runs in the other's wake
            for version, source in (versions if attempt % 2 == 0 else versions[::-1]):
                result = run(name, args, source)
                runs.setdefault((name, version), []).append(result)
                print(f"{SCENARIOS[name]} [{version}]: {result} (load {os.getloadavg()[0]:.2f})", flush=True)
    results = {key: _median_row(rows) for key, rows in runs.items()}
    if args.runs > 1:
        for (name, version), result in results.items():
            rows = runs[(name, version)]
            print(f"{SCENARIOS[name]} [{version}], median of {len(rows)}: rate {result['rate']}/s, emulator CPU"
                  f" {result['cpu_ms']} ms per interaction (runs: {', '.join(str(r['cpu_ms']) for r in rows)} ms)")
        if len(versions) == 2:
            for name in args.only or list(SCENARIOS):
                mine, previous = results[(name, "this tree")], results[(name, "previous")]
                print(f"{SCENARIOS[name]}: this tree / previous = {mine['cpu_ms'] / previous['cpu_ms']:.3f} in CPU per"
                      f" interaction, {mine['rate'] / previous['rate']:.3f} in rate (medians)")
    load = os.getloadavg()
    print(f"load average: {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f}")
    if args.write:
        write(args, versions, results, load)


def _median_row(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Each figure's median over the runs (the counts are the same in every run)."""
    return {key: round(statistics.median(row[key] for row in rows), _MEDIANS[key]) if key in _MEDIANS else rows[0][key]
            for key in rows[0]}


_MEDIANS = {"rate": None, "cpu_ms": 3, "busy": None, "generator_busy": None}   # figure -> digits kept


def write(args: argparse.Namespace, versions: list[tuple[str, str | None]],
          results: dict[tuple[str, str], dict[str, Any]], load: tuple[float, float, float]) -> None:
    lines = [
        "# Interaction benchmark", "",
        f"Recorded by `benchmarks/bench_interactions.py --interactions {args.interactions} --concurrency "
        f"{args.concurrency}" + (f" --runs {args.runs}" if args.runs > 1 else "")
        + (" --emulator-source <HEAD>`" if args.emulator_source else "`") + "."
        + (" Each figure is the median of the runs." if args.runs > 1 else ""), "",
        "## Machine", "", f"- {describe()}",
        f"- load average at the end of the run: {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} (1 / 5 / 15 min)",
        "- load generator: benchmarks/light_http.py and benchmarks/light_ws.py on uvloop", "",
        "The emulator ran as a subprocess (`python -m platformpp emulator --db :memory:`); the simulated users "
        "(admin API calls) and the bot ran in one asyncio loop in the benchmark process, on the same machine, "
        "over loopback. A round trip is the user's admin call (which checks the user, channel and command, "
        "stores and delivers the interaction, waits for the answer and reads it) and the bot's callback. "
        "`emulator busy` is the emulator process's CPU time over the wall time (near 100 %: the emulator is the "
        "bottleneck), `load generator busy` the same for this benchmark's process (users and bot).", "",
        "## Results", "",
        "| what | version | interactions | delivered | answered | per second (wall clock) | emulator CPU ms per"
        " interaction | emulator busy | load generator busy |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for (name, version), result in results.items():
        lines.append(f"| {SCENARIOS[name]} | {version} | {result['interactions']} | {result['delivered']} | "
                     f"{result['answered']} | **{result['rate']}** | {result['cpu_ms']} | {result['busy']} % | "
                     f"{result['generator_busy']} % |")
    # Sections written by hand (readings, earlier rounds) are kept after the new tables.
    previous = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
    kept = [section for section in previous.split("\n## ")[1:]
            if not section.startswith(("Machine\n", "Results\n"))]
    RESULTS.write_text("\n".join(lines) + "".join(f"\n\n## {section.rstrip()}" for section in kept) + "\n",
                       encoding="utf-8")
    print(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
