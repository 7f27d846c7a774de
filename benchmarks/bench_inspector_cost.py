"""What the inspector costs the Gateway fan-out (not a test): the throughput and latency runs of
``bench_emulator_gateway.py`` against three emulators in the same run, alternating:

- ``before``: an earlier tree without the inspector (``--before DIR``, a ``python/`` folder extracted
  with ``git archive <commit> python/platformpp | tar -x -C DIR``);
- ``closed``: this tree, no inspector page open;
- ``open``: this tree, one inspector page connected to the live feed (``/_emulator/inspector/live``,
  read by a client in the load generator's loop, as a browser reads it) for the whole run.

Reported as ratios to ``before``: dispatches per emulator CPU-second (the steadier figure on a shared
machine), dispatches per second, and the p50 POST → dispatch latency.

Run: ``PYTHONPATH=python python benchmarks/bench_inspector_cost.py --before /tmp/before/python [--write]``;
``--write`` records the results and the machine in benchmarks/results/inspector_cost.md.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
from bench_emulator_gateway import emulator, latency, percentile, prepare, throughput
from machine import describe

RESULTS = Path(__file__).parent / "results" / "inspector_cost.md"
VARIANTS = ("before", "closed", "open")


@asynccontextmanager
async def page_connected(base_url: str, enabled: bool) -> AsyncIterator[dict[str, int]]:
    """An inspector page's live feed, read and counted until the block ends (nothing when disabled)."""
    seen = {"messages": 0}
    if not enabled:
        yield seen
        return
    connected = asyncio.Event()

    async def read() -> None:
        async with httpx.AsyncClient(base_url=base_url, timeout=None) as client, \
                client.stream("GET", "/_emulator/inspector/live") as response:
            connected.set()
            async for line in response.aiter_lines():
                if line.startswith("data: "):
                    seen["messages"] += 1

    reader = asyncio.create_task(read())
    await asyncio.wait_for(connected.wait(), 10)
    try:
        yield seen
    finally:
        reader.cancel()


async def one(variant: str, args: argparse.Namespace) -> dict[str, Any]:
    # Both trees start the same way (from a source folder), so only the code differs.
    source = args.before if variant == "before" else args.after
    with emulator(source) as (base_url, pid):
        gateway, lobby_id, tokens = prepare(base_url, args.sessions)
        async with page_connected(base_url, variant == "open") as seen:
            lat = await latency(base_url, gateway, lobby_id, tokens, args.messages, False, args.warmup)
            runs = [await throughput(base_url, gateway, lobby_id, tokens, args.burst, run, pid)
                    for run in range(args.repeat)]
        if variant == "open":
            assert seen["messages"] > args.burst, "the page did not follow the traffic"
    return {"p50_ms": percentile(lat, 0.5),
            "per_cpu": statistics.median(r["dispatches_per_cpu_s"] for r in runs),
            "per_s": statistics.median(r["dispatches_per_s"] for r in runs)}


async def main_async(args: argparse.Namespace) -> dict[str, list[dict[str, Any]]]:
    results: dict[str, list[dict[str, Any]]] = {variant: [] for variant in VARIANTS}
    for n in range(args.rounds):
        # Each round starts with another variant, so that none always runs first (or after another).
        for variant in VARIANTS[n % 3:] + VARIANTS[:n % 3]:
            results[variant].append(await one(variant, args))
    return results


def in_process(sessions: int, repeat: int = 2000) -> tuple[float, float]:
    """Microseconds per dispatch to ``sessions`` SDK sessions in one process: the Gateway's fan-out
    (frame and hand-off to every session, no socket) and what an open page adds (summarising it for
    the feed). Steadier than the end-to-end runs on a loaded machine."""
    from platformpp.emulator import Emulator
    from platformpp.emulator.events.audience import Viewer, to_users
    from platformpp.emulator.events.bus import Event
    from platformpp.emulator.gateway.hub import get_hub
    from platformpp.emulator.gateway.sessions import Session
    from platformpp.emulator.inspector.live import sse, summarise

    with Emulator() as emu:
        hub = get_hub(emu.state)
        ids = list(range(1, sessions + 1))
        for user_id in ids:
            session = Session(Viewer("bearer", user_id, 1, scopes=frozenset({"sdk.social_layer", "openid"})),
                              1000, None)
            session.attach(lambda dispatch: None, object())
            hub.store.add(session)
        audience = to_users(1, ids, {"id": "1576203042309668864", "lobby_id": "1576203042309668000",
                                     "content": "hello", "metadata": {}, "flags": 0,
                                     "author": {"id": "1100000000000000001", "username": "alice"}})
        event = Event("LOBBY_MESSAGE_CREATE", {}, audience=audience)
        started = time.perf_counter()
        for _ in range(repeat):
            hub.fan_out(event.name, audience)
        fan_out = (time.perf_counter() - started) / repeat
        started = time.perf_counter()
        for _ in range(repeat):
            sse(*summarise(hub, time.time(), event))
        page = (time.perf_counter() - started) / repeat
    return fan_out * 1e6, page * 1e6


def report(results: dict[str, list[dict[str, Any]]], args: argparse.Namespace) -> str:
    med = {v: {k: statistics.median(r[k] for r in results[v]) for k in ("p50_ms", "per_cpu", "per_s")}
           for v in VARIANTS}
    lines = ["# Inspector cost on the Gateway fan-out", "",
             f"Machine: {describe()}.", "",
             f"`benchmarks/bench_inspector_cost.py --sessions {args.sessions} --burst {args.burst} "
             f"--repeat {args.repeat} --messages {args.messages} --rounds {args.rounds}`: {args.rounds} rounds of "
             "the three emulators in turn (before / page closed / one page open; each round starts with the next "
             "one), a fresh emulator each time; "
             f"`before` is {args.before_label}, `closed` and `open` {args.after_label}. Medians over the rounds, as ratios to `before` (higher is better "
             "for the rates, lower for the latency).", "",
             "| emulator | dispatches per emulator CPU-s | dispatches/s | p50 POST → dispatch latency |",
             "|---|---|---|---|"]
    for variant in VARIANTS:
        m = med[variant]
        lines.append(f"| {variant} | {m['per_cpu'] / med['before']['per_cpu']:.3f} | "
                     f"{m['per_s'] / med['before']['per_s']:.3f} | {m['p50_ms'] / med['before']['p50_ms']:.3f} |")
    lines += ["", "Per round (dispatches per emulator CPU-s, ratio to that round's `before`): " + "; ".join(
        f"round {n + 1}: closed {results['closed'][n]['per_cpu'] / results['before'][n]['per_cpu']:.3f}, "
        f"open {results['open'][n]['per_cpu'] / results['before'][n]['per_cpu']:.3f}" for n in range(args.rounds)),
        ""]
    fan_out_us, page_us = in_process(args.sessions)
    lines += ["## In process", "",
              f"One lobby dispatch to {args.sessions} SDK sessions: the Gateway's fan-out (frame and hand-off to "
              f"every session, no socket) {fan_out_us:.0f} µs; summarising it for an open page {page_us:.0f} µs "
              f"(ratio {page_us / fan_out_us:.2f}), done on the page's stream every 100 ms, not on the publisher's "
              "path. With no page open the bus has no inspector subscriber: nothing is added.", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, metavar="DIR", help="python/ folder of the tree to compare with")
    parser.add_argument("--before-label", default="the tree given with --before", help="how the report names it")
    parser.add_argument("--after", default=str(Path(__file__).resolve().parent.parent / "python"), metavar="DIR",
                        help="python/ folder of the tree with the inspector (default: this one)")
    parser.add_argument("--after-label", default="this tree", help="how the report names it")
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--burst", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=2, help="throughput runs per emulator")
    parser.add_argument("--messages", type=int, default=50, help="latency samples per emulator")
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--write", action="store_true", help="write benchmarks/results/inspector_cost.md")
    args = parser.parse_args()
    try:
        import uvloop
        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    except ImportError:
        pass
    text = report(asyncio.run(main_async(args)), args)
    print(text)
    if args.write:
        RESULTS.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
