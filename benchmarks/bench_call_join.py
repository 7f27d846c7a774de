"""How long a lobby call takes to come up, from the SDK in Python against the embedded emulator: the first
player's StartCall until its call is Connected, then the second player's StartCall until both are Connected
and agree on one DAVE epoch (the end-to-end encryption is up). Voice gateway, UDP, the MLS handshake and
the transition, all on loopback.

    python benchmarks/bench_call_join.py [--runs 20] [--baseline-python PYTHON] [--write]

``--baseline-python``: an interpreter with another build of platformpp installed (an older release, a
clean checkout's CI venv). Both measure in turns, each in its own process, in the same run; the table gives
the median, 90th percentile and maximum of each. ``--write`` records it in results/call_join.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).parent / "results" / "call_join.md"


def measure(runs: int) -> dict[str, list[float]]:
    """In this process: ``runs`` calls, each with two fresh players in a fresh lobby."""
    os.environ["PLATFORMPP_AUDIO_BACKEND"] = "null"
    sys.path.insert(0, str(ROOT / "tests" / "sdk"))
    import platformpp
    from call_helpers import shared_lobby
    from platformpp.emulator import Emulator
    from sdk_support import pump_until, ready_player

    connected = platformpp.Call.Status.Connected
    first, both = [], []
    with Emulator() as emu:
        for run in range(runs):
            alice, bob = ready_player(emu, "alice"), ready_player(emu, "bob")
            lobby = shared_lobby(alice, bob, f"join-{run}")
            t0 = time.perf_counter()
            alice_call = alice.start_call(lobby)
            pump_until(lambda: alice_call.get_status() == connected)
            t1 = time.perf_counter()
            bob_call = bob.start_call(lobby)

            def agreed() -> bool:
                code = alice_call.get_e2ee_epoch_authenticator()
                return bob_call.get_status() == connected and bool(code) and \
                    code == bob_call.get_e2ee_epoch_authenticator()
            pump_until(agreed)
            t2 = time.perf_counter()
            first.append((t1 - t0) * 1000)
            both.append((t2 - t1) * 1000)
            for player in (alice, bob):
                player.end_calls(lambda *_: None)
            pump_until(lambda: not alice.get_calls() and not bob.get_calls())
    return {"first_connected_ms": first, "second_joined_e2ee_ms": both}


def run_in(python: str, runs: int) -> dict[str, list[float]]:
    out = subprocess.run([python, __file__, "--child", str(runs)], capture_output=True, text=True, timeout=600)
    for line in out.stdout.splitlines():
        if line.startswith("BENCH "):
            return dict(json.loads(line[6:]))
    raise RuntimeError(f"no BENCH line from {python}:\n{out.stdout}\n{out.stderr}")


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{statistics.median(ordered):.1f} / {p90:.1f} / {ordered[-1]:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20, help="calls per build, in turns of 5")
    parser.add_argument("--baseline-python", default=None)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print("BENCH " + json.dumps(measure(args.child)), flush=True)
        return
    sys.path.insert(0, str(Path(__file__).parent))
    from machine import describe

    builds = [("this build", sys.executable)] + ([("baseline", args.baseline_python)] if args.baseline_python else [])
    results: dict[str, dict[str, list[float]]] = {label: {} for label, _ in builds}
    for _ in range(max(1, args.runs // 5)):
        for label, python in builds:
            for key, values in run_in(python, 5).items():
                results[label].setdefault(key, []).extend(values)
    lines = ["| build | calls | first player: StartCall to Connected, ms (median / p90 / max) | "
             "second player: StartCall to both Connected and one DAVE epoch, ms (median / p90 / max) |",
             "|---|---|---|---|"]
    for label, python in builds:
        r = results[label]
        lines.append(f"| {label} (`{python}`) | {len(r['first_connected_ms'])} | {summary(r['first_connected_ms'])} | "
                     f"{summary(r['second_joined_e2ee_ms'])} |")
    print("\n".join(lines))
    if args.write:
        RESULTS.write_text("\n".join(["# Call set-up time", "", "Measured by `benchmarks/bench_call_join.py` "
                                      f"(`--runs {args.runs}`; builds measured in turns of 5 calls).", "",
                                      *lines, "", "Machine:", "", f"- {describe()}", ""]))


if __name__ == "__main__":
    main()
