"""REST throughput of the emulator against a floor: a minimal Starlette app over the same SQLite schema
and data, served the same way (uvicorn, one process), measured in the same run with the same load.

Operations (authenticated with the default world's bot token):
  me     GET  /api/v10/users/@me
  list   GET  /api/v10/channels/{general}/messages?limit=50   (the channel holds 200 messages)
  create POST /api/v10/channels/{general}/messages            ({"content": ...})
  webhook POST /api/v10/webhooks/{id}/{token}                  ({"content": ...}: an incoming webhook of
         the general channel executed, no ``wait``: 204)
  thread POST /api/v10/channels/{thread}/messages             ({"content": ...} in a public thread of the
         general channel with 20 members: the message, the thread's message_count, total_message_sent and
         last activity, and MESSAGE_CREATE fanned out to the members through the bus; no Gateway session
         listens, so the cost is the emulator's bookkeeping, not socket writes: bench_emulator_gateway.py
         measures those)

The floor does what any server of these routes must: find the bot token's digest, read (or write) the
rows and encode the JSON (of a webhook's message too, though the answer is a 204: MESSAGE_CREATE carries
it to the channel's listeners). The emulator additionally checks permissions, rate limits (the limit is
raised so that no answer is a 429, but the bookkeeping still runs), logs the request and builds the
platform's full objects. The load generator is wrk (``apt-get install wrk``) in its own process,
``--connections`` connections on one thread; the servers and wrk share the machine's cores.

    python benchmarks/bench_rest_throughput.py [--duration 4] [--rounds 5] [--connections 32] [--ops me,list,create,webhook,thread] [--record]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from machine import describe  # noqa: E402

BOT_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.ZW11bGF0b3I.ZGVmYXVsdC13b3JsZC1ib3QtdG9rZW4tbm90LXNlY3JldA"
GENERAL = 1200000000000000101
GUILD, BOT_ROLE = 1200000000000000000, 1200000000000000011
MANAGE_WEBHOOKS, CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS = 1 << 29, 1 << 35, 1 << 38
RESULTS = Path(__file__).parent / "results" / "rest_throughput.md"
OPERATIONS = {
    "me": ("GET", "/api/v10/users/@me", None),
    "list": ("GET", f"/api/v10/channels/{GENERAL}/messages?limit=50", None),
    "create": ("POST", f"/api/v10/channels/{GENERAL}/messages", {"content": "benchmark message"}),
    "webhook": ("POST", "/api/v10/webhooks/{webhook_id}/{webhook_token}", {"content": "benchmark webhook message"}),
    "thread": ("POST", "/api/v10/channels/{thread_id}/messages", {"content": "benchmark thread message"}),
}
THREAD_MEMBERS = 20
THREAD_TYPES = (10, 11, 12)
# The webhook and the thread the operations use (made by prepare_emulator; their paths' placeholders).
PLACES: dict[str, str] = {}


# ---- the floor: a minimal Starlette app over the same schema -------------------------------------

def floor_app(db_path: str):  # type: ignore[no-untyped-def]
    import hashlib

    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    conn = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    next_id = [int(time.time() * 1000 - 1420070400000) << 22]
    lock = threading.Lock()

    def reply(data: object, status: int = 200) -> Response:
        return Response(json.dumps(data, separators=(",", ":")), status, media_type="application/json")

    def bot_user(request: Request) -> sqlite3.Row | None:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        found = conn.execute("SELECT a.bot_user_id FROM bot_tokens t JOIN applications a ON a.id = t.application_id"
                             " WHERE t.token_hash = ?", (hashlib.sha256(token.encode()).hexdigest(),)).fetchone()
        if scheme != "Bot" or found is None:
            return None
        return conn.execute("SELECT * FROM users WHERE id = ?", (found["bot_user_id"],)).fetchone()

    def user_json(row: sqlite3.Row) -> dict[str, object]:
        return {"id": str(row["id"]), "username": row["username"], "discriminator": row["discriminator"],
                "global_name": row["global_name"], "avatar": row["avatar"], "public_flags": row["flags"],
                "flags": row["flags"], "bot": bool(row["bot"]), "primary_guild": None}

    def message_json(row: sqlite3.Row, author: dict[str, object]) -> dict[str, object]:
        return {"id": str(row["id"]), "channel_id": str(row["channel_id"]), "type": row["type"],
                "content": row["content"], "author": author, "timestamp": row["created_at"],
                "edited_timestamp": row["edited_at"], "flags": row["flags"], "tts": bool(row["tts"]),
                "mention_everyone": bool(row["mention_everyone"]), "mentions": [], "mention_roles": [],
                "attachments": [], "embeds": [], "components": [], "pinned": row["pinned_at"] is not None}

    async def me(request: Request) -> Response:
        user = bot_user(request)
        return reply(user_json(user)) if user else reply({"code": 0, "message": "401: Unauthorized"}, 401)

    async def list_messages(request: Request) -> Response:
        if bot_user(request) is None:
            return reply({"code": 0, "message": "401: Unauthorized"}, 401)
        limit = int(request.query_params.get("limit", "50"))
        rows = conn.execute("SELECT m.*, u.id AS uid, u.username, u.discriminator, u.global_name, u.avatar,"
                            " u.flags AS uflags, u.bot FROM channel_messages m JOIN users u ON u.id = m.author_id"
                            " WHERE m.channel_id = ? ORDER BY m.id DESC LIMIT ?",
                            (int(request.path_params["channel_id"]), limit)).fetchall()
        return reply([message_json(r, {"id": str(r["uid"]), "username": r["username"],
                                       "discriminator": r["discriminator"], "global_name": r["global_name"],
                                       "avatar": r["avatar"], "public_flags": r["uflags"], "flags": r["uflags"],
                                       "bot": bool(r["bot"]), "primary_guild": None}) for r in rows])

    async def create_message(request: Request) -> Response:
        user = bot_user(request)
        if user is None:
            return reply({"code": 0, "message": "401: Unauthorized"}, 401)
        content = json.loads(await request.body())["content"]
        channel_id = int(request.path_params["channel_id"])

        def write() -> sqlite3.Row:
            # off the event loop, as the commit waits for fsync (synchronous=FULL, like the emulator)
            with lock:
                next_id[0] += 1
                now = time.strftime("%Y-%m-%dT%H:%M:%S+00:00")
                channel = conn.execute("SELECT guild_id, type FROM channels WHERE id = ?", (channel_id,)).fetchone()
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("INSERT INTO channel_messages (id, channel_id, guild_id, author_id, content, created_at)"
                             " VALUES (?, ?, ?, ?, ?, ?)", (next_id[0], channel_id, channel["guild_id"], user["id"],
                                                            content, now))
                if channel["type"] in THREAD_TYPES:   # a thread keeps its counters and last activity
                    conn.execute("UPDATE channels SET message_count = message_count + 1, total_message_sent ="
                                 " total_message_sent + 1, thread_last_activity = ? WHERE id = ?", (now, channel_id))
                conn.execute("COMMIT")
                return conn.execute("SELECT * FROM channel_messages WHERE id = ?", (next_id[0],)).fetchone()

        return reply(message_json(await run_in_threadpool(write), user_json(user)))

    async def execute_webhook(request: Request) -> Response:
        # the token is the credential: find the webhook by id and token, write the message as it, and
        # encode the message as MESSAGE_CREATE carries it to listeners (the answer itself is a 204)
        content = json.loads(await request.body())["content"]
        hook = conn.execute("SELECT * FROM channel_webhooks WHERE id = ? AND token = ?",
                            (int(request.path_params["webhook_id"]), request.path_params["token"])).fetchone()
        if hook is None:
            return reply({"code": 10015, "message": "Unknown Webhook"}, 404)
        author = {"id": str(hook["id"]), "username": hook["name"], "avatar": hook["avatar"]}

        def write() -> sqlite3.Row:
            with lock:
                next_id[0] += 1
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("INSERT INTO channel_messages (id, channel_id, guild_id, author_id, content, created_at,"
                             " webhook_id, webhook_author) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                             (next_id[0], hook["channel_id"], hook["guild_id"], hook["user_id"], content,
                              time.strftime("%Y-%m-%dT%H:%M:%S+00:00"), hook["id"], json.dumps(author)))
                conn.execute("COMMIT")
                return conn.execute("SELECT * FROM channel_messages WHERE id = ?", (next_id[0],)).fetchone()

        message = message_json(await run_in_threadpool(write), author)
        json.dumps({"t": "MESSAGE_CREATE", "s": None, "op": 0, "d": message}, separators=(",", ":"))
        return Response(status_code=204)

    return Starlette(routes=[
        Route("/api/v10/users/@me", me, methods=["GET"]),
        Route("/api/v10/channels/{channel_id:int}/messages", list_messages, methods=["GET"]),
        Route("/api/v10/channels/{channel_id:int}/messages", create_message, methods=["POST"]),
        Route("/api/v10/webhooks/{webhook_id:int}/{token}", execute_webhook, methods=["POST"]),
    ])


def serve_floor(db_path: str) -> None:
    """Child process: serve the floor on a free port and print its base URL (like the emulator's CLI)."""
    import socket

    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    print(f"floor listening on http://127.0.0.1:{sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(floor_app(db_path), log_config=None, log_level="warning", access_log=False)
    uvicorn.Server(config).run(sockets=[sock])


# ---- the run ------------------------------------------------------------------------------------

def start(command: list[str]) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    if "listening on" not in line:
        process.kill()
        raise RuntimeError(f"{command[:4]} did not start: {line!r}")
    return process, line.rsplit(" ", 1)[-1].strip()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wrk(base: str, op: str, duration: float, connections: int, workdir: Path, pid: int) -> tuple[float, float]:
    """(requests per second, server CPU microseconds per request) of one wrk run."""
    method, path, body = OPERATIONS[op]
    path = path.format_map(PLACES)
    script = workdir / f"{op}.lua"
    lines = [f'wrk.method = "{method}"', f'wrk.headers["Authorization"] = "Bot {BOT_TOKEN}"']
    if body is not None:
        lines += ['wrk.headers["Content-Type"] = "application/json"', f"wrk.body = '{json.dumps(body)}'"]
    lines += ["done = function(summary, latency, requests)",
              '  io.write(string.format("non2xx %d\\n", summary.errors.status))', "end"]
    script.write_text("\n".join(lines) + "\n")
    cpu_before = cpu_seconds(pid)
    out = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{duration:g}s", "-s", str(script), base + path],
                         capture_output=True, text=True, check=True).stdout
    cpu = cpu_seconds(pid) - cpu_before
    non2xx = int(re.search(r"non2xx (\d+)", out).group(1))  # type: ignore[union-attr]
    if non2xx:
        raise RuntimeError(f"{op}: {non2xx} answers were not 2xx:\n{out}")
    requests = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    return rate, cpu * 1e6 / max(requests, 1)


def prepare_emulator(base: str) -> None:
    with httpx.Client(base_url=base, timeout=10) as http:
        limited = http.put("/_emulator/rate-limits", json={"limit": 1_000_000, "window_s": 1.0})
        assert limited.status_code < 300, limited.text
        for n in range(200):
            sent = http.post(f"/api/v10/channels/{GENERAL}/messages", json={"content": f"message {n}"},
                             headers={"Authorization": f"Bot {BOT_TOKEN}"})
            assert sent.status_code == 200, sent.text
        # the bot's role gains MANAGE_WEBHOOKS and CREATE_PUBLIC_THREADS for as long as it takes to make the
        # webhook and the thread, and keeps SEND_MESSAGES_IN_THREADS
        bot = {"Authorization": f"Bot {BOT_TOKEN}"}
        roles = http.get(f"/api/v10/guilds/{GUILD}/roles", headers=bot).json()
        held = int(next(r["permissions"] for r in roles if r["id"] == str(BOT_ROLE))) | SEND_MESSAGES_IN_THREADS
        role = f"/_emulator/guilds/{GUILD}/roles/{BOT_ROLE}"
        making = held | MANAGE_WEBHOOKS | CREATE_PUBLIC_THREADS
        assert http.patch(role, json={"permissions": str(making)}).status_code < 300
        created = http.post(f"/api/v10/channels/{GENERAL}/webhooks", json={"name": "benchmark"}, headers=bot)
        assert created.status_code == 200, created.text
        PLACES.update(webhook_id=created.json()["id"], webhook_token=created.json()["token"])
        thread = http.post(f"/api/v10/channels/{GENERAL}/threads", json={"name": "benchmark", "type": 11},
                           headers=bot)
        assert thread.status_code == 201, thread.text
        PLACES["thread_id"] = thread.json()["id"]
        assert http.patch(role, json={"permissions": str(held)}).status_code < 300
        members = [str(1300000000000000000 + n) for n in range(THREAD_MEMBERS)]
        seeded = http.post("/_emulator/seed", json={"users": [{"id": user_id, "username": f"member{n}"}
                                                                for n, user_id in enumerate(members)]})
        assert seeded.status_code < 300, seeded.text
        for user_id in members:
            added = http.post(f"/_emulator/guilds/{GUILD}/members", json={"user_id": user_id})
            assert added.status_code < 300, added.text
            joined = http.put(f"/_emulator/channels/{PLACES['thread_id']}/thread-members/{user_id}")
            assert joined.status_code < 300, joined.text


def copy_database(source: Path, target: Path) -> None:
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=4.0)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--ops", default="me,list,create,webhook,thread")
    parser.add_argument("--rounds", type=int, default=5, help="alternate emulator and floor this many times")
    parser.add_argument("--record", action="store_true", help=f"append the run to {RESULTS}")
    parser.add_argument("--serve-floor", metavar="DB", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_floor:
        serve_floor(args.serve_floor)
        return
    if shutil.which("wrk") is None:
        sys.exit("wrk is required (apt-get install wrk)")
    ops = args.ops.split(",")
    workdir = Path(tempfile.mkdtemp(prefix="bench-rest-"))
    emulator_db, floor_db = workdir / "emulator.sqlite3", workdir / "floor.sqlite3"
    emulator, emulator_base = start([sys.executable, "-m", "platformpp", "emulator", "--port", "0",
                                     "--db", str(emulator_db)])
    floor = None
    try:
        prepare_emulator(emulator_base)
        copy_database(emulator_db, floor_db)
        floor, floor_base = start([sys.executable, __file__, "--serve-floor", str(floor_db)])
        load_before = os.getloadavg()
        # per operation and server: the rates and CPU costs of every round (alternating, so both
        # servers see the same machine load on average)
        results: dict[str, dict[str, list[tuple[float, float]]]] = {op: {"emulator": [], "floor": []} for op in ops}
        servers = (("emulator", emulator_base, emulator.pid), ("floor", floor_base, floor.pid))
        for _ in range(args.rounds):
            for op in ops:
                for name, base, pid in servers:
                    rate, cpu = wrk(base, op, args.duration, args.connections, workdir, pid)
                    results[op][name].append((rate, cpu))
                    print(f"{op:7} {name:9} {rate:9.0f} req/s {cpu:8.0f} µs CPU/request", flush=True)
        load_after = os.getloadavg()
    finally:
        for process in (emulator, floor):
            if process is not None:
                process.terminate()
                process.wait(10)
        shutil.rmtree(workdir, ignore_errors=True)
    report(results, args, load_before, load_after)


def report(results: dict[str, dict[str, list[tuple[float, float]]]], args: argparse.Namespace,
           before: tuple[float, ...], after: tuple[float, ...]) -> None:
    """Best rate of each server, the median of the per-round rate ratios, and the CPU cost per request
    (the figure least disturbed by other work on the machine)."""
    labels = {op: f"`{OPERATIONS[op][0]} {OPERATIONS[op][1].replace(str(GENERAL), '{id}')}`" for op in results}
    lines = ["", f"Machine: {describe()}",
             f"Load average (1, 5, 15 min) before: {before[0]:.2f} {before[1]:.2f} {before[2]:.2f} · after: "
             f"{after[0]:.2f} {after[1]:.2f} {after[2]:.2f}",
             f"wrk -t1 -c{args.connections}, {args.duration:g} s per measure, {args.rounds} alternating rounds",
             "", "| operation | emulator best (req/s) | floor best (req/s) | rate ratio (median of rounds) "
             "| emulator CPU/request (µs) | floor CPU/request (µs) | CPU ratio floor/emulator |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for op, runs in results.items():
        emulator, floor = runs["emulator"], runs["floor"]
        ratios = [e[0] / f[0] for e, f in zip(emulator, floor) if f[0]]
        cpu_e = statistics.median(c for _, c in emulator)
        cpu_f = statistics.median(c for _, c in floor)
        lines.append(f"| {labels[op]} | {max(r for r, _ in emulator):.0f} | {max(r for r, _ in floor):.0f} | "
                     f"{statistics.median(ratios):.2f} | {cpu_e:.0f} | {cpu_f:.0f} | {cpu_f / cpu_e:.2f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.record:
        with RESULTS.open("a", encoding="utf-8") as out:
            out.write(text)


if __name__ == "__main__":
    main()
