"""Rich presence round trip: a game sets its activity, and a friend's SDK session (a Gateway connection
of bob, alice's friend) receives the PRESENCE_UPDATE carrying it. Two paths, alternated in blocks in
one run against one emulator process:

- IPC: SET_ACTIVITY over the desktop client's socket (platformpp.ipc; alice is the desktop user, the
  game needs no OAuth), as rich-presence tools and unlinked games do;
- HTTP: PUT /api/v10/users/@me/activity with alice's Bearer token (httpx), as the SDK does when linked.

Each sample runs from the moment the set starts until bob's Gateway has the update with that state.
Both clients are pure Python (no C++ extension), so the comparison is of the two paths through the
emulator, not of client libraries. The emulator runs in a separate process on loopback.

    python benchmarks/bench_ipc_presence.py [--samples 300] [--record]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from bench_lobby_messages import GAME_ID, baseline_gateway, baseline_sign_in, percentiles  # noqa: E402
from machine import describe  # noqa: E402

from platformpp import ipc  # noqa: E402

BLOCK = 25   # samples per path before switching, so that both see the same machine load
# The desktop client closes a connection sending more than 60 commands a second (RATE_LIMITED): both
# paths start a sample at most every 25 ms (pacing does not enter the measured time).
PACE_S = 0.025


def start_emulator(ipc_prefix: str) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen([sys.executable, "-m", "platformpp", "emulator", "--port", "0", "--db", ":memory:",
                                "--desktop-user", "alice", "--ipc-path", ipc_prefix],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    return process, line.rsplit(" ", 1)[-1].strip()


async def friend_update(friend, state: str) -> None:  # type: ignore[no-untyped-def]
    """Until bob's Gateway shows alice's activity with ``state``."""
    while True:
        event = json.loads(await friend.recv())
        if event.get("t") == "PRESENCE_UPDATE":
            if any(a.get("state") == state for a in event["d"].get("activities", [])):
                return


async def run(base: str, ipc_path: str, samples: int) -> dict[str, list[float]]:
    async with httpx.AsyncClient() as http:
        alice_token = await baseline_sign_in(http, base, "alice")
        bob_token = await baseline_sign_in(http, base, "bob")
        alice_id = (await http.get(f"{base}/api/v10/users/@me",
                                   headers={"Authorization": f"Bearer {alice_token}"})).json()["id"]
        bob_id = (await http.get(f"{base}/api/v10/users/@me",
                                 headers={"Authorization": f"Bearer {bob_token}"})).json()["id"]
        alice_headers = {"Authorization": f"Bearer {alice_token}"}
        await http.put(f"{base}/api/v10/users/@me/relationships/{bob_id}", headers=alice_headers)
        await http.put(f"{base}/api/v10/users/@me/relationships/{alice_id}",
                       headers={"Authorization": f"Bearer {bob_token}"})
        friend = await baseline_gateway(base, bob_token)
        desktop = await ipc.connect(GAME_ID, path=ipc_path)
        times: dict[str, list[float]] = {"ipc": [], "http": []}
        try:
            async def over_ipc(state: str) -> None:
                await desktop.set_activity({"state": state, "details": "bench"})

            async def over_http(state: str) -> None:
                answer = await http.put(f"{base}/api/v10/users/@me/activity", headers=alice_headers,
                                        json={"name": "Demo Game", "type": 0, "state": state, "details": "bench"})
                answer.raise_for_status()

            paths = {"ipc": over_ipc, "http": over_http}
            for warm in range(5):                          # connections and caches warm, not measured
                for name, set_it in paths.items():
                    await asyncio.gather(set_it(f"warm-{name}-{warm}"), friend_update(friend, f"warm-{name}-{warm}"))
                    await asyncio.sleep(PACE_S)
            index = 0
            while min(len(v) for v in times.values()) < samples:
                for name, set_it in paths.items():
                    for _ in range(BLOCK):
                        index += 1
                        state = f"{name}-{index}"
                        started = time.perf_counter()
                        await asyncio.gather(set_it(state), friend_update(friend, state))
                        elapsed = time.perf_counter() - started
                        times[name].append(elapsed)
                        await asyncio.sleep(max(0.0, PACE_S - elapsed))
        finally:
            await desktop.close()
            friend.heartbeat.cancel()
            await friend.close()
    return {name: values[:samples] for name, values in times.items()}


def report(samples: int, times: dict[str, list[float]]) -> str:
    (i50, i99), (h50, h99) = percentiles(times["ipc"]), percentiles(times["http"])
    lines = [f"Machine: {describe()}",
             f"Samples: {samples} per path, alternated in blocks of {BLOCK}, one every {PACE_S * 1e3:g} ms at most; "
             "emulator in a separate process", "",
             "| set → friend's PRESENCE_UPDATE | IPC SET_ACTIVITY | HTTP PUT /users/@me/activity | ratio |",
             "|---|---:|---:|---:|",
             f"| p50 (ms) | {i50 * 1e3:.2f} | {h50 * 1e3:.2f} | {i50 / h50:.2f} |",
             f"| p99 (ms) | {i99 * 1e3:.2f} | {h99 * 1e3:.2f} | {i99 / h99:.2f} |"]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--record", action="store_true", help="append to benchmarks/results/ipc_presence.md")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ppbench", dir="/tmp") as folder:
        prefix = str(Path(folder) / "pp-ipc")
        emulator, base = start_emulator(prefix)
        try:
            # The emulator's default rate limit (50/s per route) would throttle the HTTP path only.
            httpx.put(f"{base}/_emulator/rate-limits", json={"limit": 100000, "window_s": 1}).raise_for_status()
            times = asyncio.run(run(base, f"{prefix}-0", options.samples))
        finally:
            emulator.terminate()
            emulator.wait()
    text = report(options.samples, times)
    print(text)
    if options.record:
        with (Path(__file__).parent / "results" / "ipc_presence.md").open("a") as out:
            out.write("\n" + text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
