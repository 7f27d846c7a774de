"""The Python audio callbacks' overhead per 20 ms frame: what the SDK's audio thread pays to
call a Python captured callback (take the GIL, wrap the SDK's buffer as a numpy int16 (960, 2) view,
call, release), against a no-op C++ callback through the same std::function in the same run.

Both are called from a C++ thread of their own, as the audio thread calls them, with the garbage
collector off. The Python callback is a no-op that touches the array (`samples[0, 0]`), so the cost is
the binding's, not the callback's work. Target: <= 5 us per frame (median), measured and reported,
not asserted.
Run: `python benchmarks/bench_voice_callbacks.py [--record]` (--record writes
benchmarks/results/voice_callbacks.md).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from machine import describe  # noqa: E402

from platformpp import _platformpp  # noqa: E402

TARGET_US = 5.0


def touch(samples, sample_rate: int) -> None:
    samples[0, 0]


def percentile(sorted_ns: list[float], q: float) -> float:
    return sorted_ns[min(len(sorted_ns) - 1, int(q * len(sorted_ns)))]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--record", action="store_true")
    options = parser.parse_args(argv)
    gc.disable()
    medians_py, medians_cpp, p99_py = [], [], []
    try:
        _platformpp._audio_callback_cost(touch, 1000)  # warm up
        for _ in range(options.rounds):
            python_ns, native_ns, _ = _platformpp._audio_callback_cost(touch, options.frames)
            medians_py.append(percentile(python_ns, 0.5))
            p99_py.append(percentile(python_ns, 0.99))
            medians_cpp.append(percentile(native_ns, 0.5))
    finally:
        gc.enable()
    best = min(range(options.rounds), key=lambda i: medians_py[i])
    overhead_us = (medians_py[best] - medians_cpp[best]) / 1000
    lines = [
        "# Python audio-callback overhead per 20 ms frame",
        "",
        f"Machine: {describe()} · load average (1/5/15 min) "
        + " / ".join(f"{v:.2f}" for v in os.getloadavg()),
        "",
        f"{options.rounds} rounds of {options.frames} calls from a C++ thread; best round by median.",
        "",
        "| callback | median | p99 |",
        "|---|---|---|",
        f"| Python (GIL + numpy view + call) | {medians_py[best] / 1000:.2f} us | {p99_py[best] / 1000:.2f} us |",
        f"| C++ no-op (baseline) | {medians_cpp[best] / 1000:.3f} us | |",
        "",
        f"Overhead: {overhead_us:.2f} us per frame (target <= {TARGET_US} us: "
        f"{'met' if overhead_us <= TARGET_US else 'NOT met'}). All rounds' Python medians (us): "
        + ", ".join(f"{m / 1000:.2f}" for m in medians_py) + ".",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if options.record:
        (Path(__file__).parent / "results" / "voice_callbacks.md").write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
