"""The game thread's cost of platformpp.run_callbacks(), from Python, against pure-Python baselines.

(a) run_callbacks() with nothing queued (what a game pays every frame), against `pure_run_callbacks()`:
    a Python function draining an empty collections.deque of callables.
(b) game-thread time per delivered event, the Python callback included: N results are queued without
    any network (client.authorize(AuthorizationArgs(), cb) delivers a ValidationError result at once),
    then one run_callbacks() is timed and divided by N. Baseline: N functools.partial(cb, result, "", "")
    in a deque drained by the same pure-Python loop (what a pure-Python SDK's queue would cost at best).

Both sides run in the same process, interleaved, with the garbage collector off while timing. Targets
(issue: SDK core): <= 200 ns for (a), <= 2 us per event for (b); measured and reported, not asserted.
Run: `python benchmarks/bench_callbacks.py [--record]` (--record writes benchmarks/results/callbacks.md).
"""

from __future__ import annotations

import argparse
import collections
import functools
import gc
import os
import statistics
import sys
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from machine import describe  # noqa: E402

import platformpp  # noqa: E402

_pure_queue: collections.deque = collections.deque()


def pure_run_callbacks() -> None:
    """The baseline: a pure-Python callback queue's run_callbacks()."""
    queue = _pure_queue
    while queue:
        queue.popleft()()


def _ns_per_call(function, number: int) -> float:
    return timeit.Timer(function).timeit(number) / number * 1e9


def bench_empty(number: int, repeat: int) -> dict[str, float]:
    platformpp.run_callbacks()  # nothing left over from start-up
    ours, base, loop = [], [], []
    for _ in range(repeat):  # interleaved so that drift in machine load hits both alike
        ours.append(_ns_per_call(platformpp.run_callbacks, number))
        base.append(_ns_per_call(pure_run_callbacks, number))
        loop.append(_ns_per_call(lambda: None, number))
    return {"platformpp": statistics.median(ours), "baseline": statistics.median(base),
            "empty call": statistics.median(loop)}


def bench_events(events: int, repeat: int) -> dict[str, float]:
    client = platformpp.Client("http://127.0.0.1:9/api/v10", "http://127.0.0.1:9")  # never reached
    args = platformpp.AuthorizationArgs()  # no scopes: a ValidationError result, queued at once
    delivered = 0

    def callback(result, code, redirect_uri):
        nonlocal delivered
        delivered += 1

    sample_result = []
    client.authorize(args, lambda result, code, uri: sample_result.append(result))
    platformpp.run_callbacks()
    result = sample_result[0]

    ours, base = [], []
    for _ in range(repeat):
        for _ in range(events):
            client.authorize(args, callback)
        gc.disable()
        started = time.perf_counter_ns()
        platformpp.run_callbacks()
        ours.append((time.perf_counter_ns() - started) / events)
        gc.enable()

        for _ in range(events):
            _pure_queue.append(functools.partial(callback, result, "", ""))
        gc.disable()
        started = time.perf_counter_ns()
        pure_run_callbacks()
        base.append((time.perf_counter_ns() - started) / events)
        gc.enable()
    expected = 2 * events * repeat
    if delivered != expected:
        raise RuntimeError(f"{delivered} callbacks ran, expected {expected}")
    return {"platformpp": statistics.median(ours), "baseline": statistics.median(base)}


def report(empty: dict[str, float], per_event: dict[str, float], options: argparse.Namespace) -> str:
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    return "\n".join([
        "# run_callbacks() from Python",
        "",
        f"Recorded by `benchmarks/bench_callbacks.py --number {options.number} --events {options.events} "
        f"--repeat {options.repeat}` (release build of the extension, as `pip install` makes it).",
        "",
        f"Machine: {describe()} · load average (1/5/15 min) {load}",
        "",
        "## (a) run_callbacks() with nothing queued — target ≤ 200 ns",
        "",
        "| call | ns per call (median) |",
        "|---|---:|",
        f"| `platformpp.run_callbacks()` | {empty['platformpp']:.0f} |",
        f"| `pure_run_callbacks()` (drains an empty `collections.deque`) | {empty['baseline']:.0f} |",
        f"| `lambda: None` (the cost of any Python-level call here) | {empty['empty call']:.0f} |",
        "",
        f"Ratio platformpp / baseline: {empty['platformpp'] / empty['baseline']:.2f}.",
        "",
        "## (b) game-thread time per delivered event, Python callback included — target ≤ 2 µs",
        "",
        f"{options.events} events queued, then one drain timed; median of {options.repeat} rounds.",
        "",
        "| drain | ns per event (median) |",
        "|---|---:|",
        f"| `platformpp.run_callbacks()`: ClientResult + 2 str to Python, callback(result, code, uri) | "
        f"{per_event['platformpp']:.0f} |",
        f"| pure Python: deque of `functools.partial(callback, result, '', '')` drained in a loop | "
        f"{per_event['baseline']:.0f} |",
        "",
        f"Ratio platformpp / baseline: {per_event['platformpp'] / per_event['baseline']:.2f}.",
        "",
    ])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true", help="write the report to benchmarks/results/callbacks.md")
    parser.add_argument("--number", type=int, default=1_000_000, help="calls per timing of (a)")
    parser.add_argument("--events", type=int, default=10_000, help="events queued per round of (b)")
    parser.add_argument("--repeat", type=int, default=15)
    options = parser.parse_args()
    text = report(bench_empty(options.number, options.repeat), bench_events(options.events, options.repeat), options)
    print(text)
    if options.record:
        (Path(__file__).parent / "results" / "callbacks.md").write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
