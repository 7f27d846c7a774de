"""What a benchmark ran on, recorded beside its numbers (absolute times on shared machines are noisy)."""

from __future__ import annotations

import os
import platform
import sys
from datetime import datetime, timezone


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def describe() -> str:
    return (f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC · {platform.platform()} · {_cpu_model()} · "
            f"{os.cpu_count()} cores · Python {sys.version.split()[0]}")
