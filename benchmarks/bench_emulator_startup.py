"""How long until the emulator is ready to serve (target: 0.3 s for the CLI).

Three measurements, each from a cold start to the first successful HTTP answer over loopback:
- in-process, warm imports: ``Emulator().start()`` then one request (what each test pays);
- in-process, cold: a fresh interpreter importing ``platformpp.emulator`` then the same;
- the CLI: spawning ``python -m platformpp emulator --db :memory:`` until it answers;
and the baseline the CLI is compared with in the same run: the smallest server of the same stack, a
fresh interpreter serving a one-route Starlette app with uvicorn (what any emulator on this stack pays
at least). The measurements take turns, round after round, so that the shared machine's slow and fast
spells fall on all of them alike; the ratio is the median of each round's CLI / baseline.

Run: ``PYTHONPATH=python python benchmarks/bench_emulator_startup.py [--runs 20] [--write]``;
``--write`` records the table and the machine in benchmarks/results/emulator_startup.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

RESULTS = Path(__file__).parent / "results" / "emulator_startup.md"
TARGET_S = 0.3

_COLD_IN_PROCESS = """
import time, urllib.request
started = time.perf_counter()
from platformpp.emulator import Emulator
emulator = Emulator().start()
urllib.request.urlopen(emulator.base_url + "/_emulator/clock").read()
print(time.perf_counter() - started)
emulator.stop(wait=False)
"""


_BASELINE_SERVER = """
import socket, uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

async def clock(request):
    return JSONResponse({"now": 0})

sock = socket.create_server(("127.0.0.1", 0))
print(f"listening on http://127.0.0.1:{sock.getsockname()[1]}", flush=True)
config = uvicorn.Config(Starlette(routes=[Route("/_emulator/clock", clock)]), log_config=None, log_level="warning")
uvicorn.Server(config).run(sockets=[sock])
"""


def _get(url: str) -> None:
    with urllib.request.urlopen(url, timeout=5) as response:
        response.read()


def warm_in_process() -> float:
    from platformpp.emulator import Emulator

    started = time.perf_counter()
    emulator = Emulator().start()
    _get(emulator.base_url + "/_emulator/clock")
    elapsed = time.perf_counter() - started
    emulator.stop()
    return elapsed


def cold_in_process() -> float:
    output = subprocess.run([sys.executable, "-c", _COLD_IN_PROCESS], capture_output=True, text=True, check=True,
                            env=os.environ.copy())
    return float(output.stdout.strip())


def cli() -> float:
    return _served_by([sys.executable, "-m", "platformpp", "emulator", "--db", ":memory:", "--port", "0"])


def baseline_server() -> float:
    return _served_by([sys.executable, "-c", _BASELINE_SERVER])


def _served_by(command: list[str]) -> float:
    """Spawn ``command`` (which prints a line ending with its URL once listening) until it answers."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert process.stdout is not None
        url = process.stdout.readline().split()[-1]
        _get(url + "/_emulator/clock")
        return time.perf_counter() - started
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine() -> list[str]:
    uname = subprocess.run(["uname", "-a"], capture_output=True, text=True, check=False).stdout.strip()
    nproc = subprocess.run(["nproc"], capture_output=True, text=True, check=False).stdout.strip()
    return [f"- `uname -a`: `{uname}`", f"- `nproc`: {nproc}", f"- CPU: {_cpu_model()}",
            f"- Python: {sys.version.split()[0]} ({platform.python_implementation()})",
            # The machine is shared with other builds; the load says how quiet it was.
            "- load average before the run (1/5/15 min): " + " / ".join(f"{x:.2f}" for x in os.getloadavg())]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--write", action="store_true", help=f"record the results in {RESULTS}")
    args = parser.parse_args()
    environment = machine()
    measures = {"in-process, imports warm": warm_in_process,
                "in-process, fresh interpreter (imports included)": cold_in_process,
                "CLI process (interpreter start included)": cli,
                "baseline: one-route Starlette app on uvicorn, fresh interpreter": baseline_server}
    for measure in measures.values():
        measure()   # one unrecorded run each: file-system caches, the schema cache
    samples: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(args.runs):
        for name, measure in measures.items():
            samples[name].append(measure())
    rows = []
    for name, values in samples.items():
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        rows.append(f"| {name} | {ordered[0]*1000:.0f} | {statistics.median(ordered)*1000:.0f} | "
                    f"{p95*1000:.0f} | {ordered[-1]*1000:.0f} |")
    ratio = statistics.median(c / b for c, b in zip(samples["CLI process (interpreter start included)"],
                                                    samples["baseline: one-route Starlette app on uvicorn, "
                                                            "fresh interpreter"]))
    table = ["| start to first answer | min ms | median ms | p95 ms | max ms |", "|---|---|---|---|---|", *rows,
             "", f"CLI / baseline, median of the rounds' ratios: {ratio:.2f}×"]
    print("\n".join(table))
    if args.write:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text("\n".join([
            "# Emulator ready-to-serve time",
            "",
            (f"Target: ready to serve in ≤ {TARGET_S} s. Measured by `benchmarks/bench_emulator_startup.py`"
             f" ({args.runs} rounds, each measurement once per round in turn, after one warm-up run of each),"
             " from the start call (or process spawn) to the first successful HTTP answer over loopback,"
             " default world, `:memory:` store; the baseline is the smallest server of the same stack."),
            "",
            *table,
            "",
            "Machine:",
            "",
            *environment,
            "",
        ]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
