"""The SDK as a wheel installs on any Linux: the installed extension never links libpulse (it loads it at
run time, and without it calls use the null audio backend and say so in the log); and, where CI built
the repaired wheel (tools/build_wheel.sh; PLATFORMPP_WHEELHOUSE names its folder), that wheel has a
manylinux tag, stays within 10 MB, needs nothing of the system but glibc, and is what this suite runs."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest


def _extension_path() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("platformpp._platformpp")
    assert spec is not None and spec.origin is not None
    return Path(spec.origin)


def _needed(library: Path) -> list[str]:
    dynamic = subprocess.run(["readelf", "-d", str(library)], capture_output=True, text=True, check=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)


def test_the_extension_does_not_link_libpulse() -> None:
    needed = _needed(_extension_path())
    assert needed, "readelf found no NEEDED entry at all"
    assert not [n for n in needed if n.startswith("libpulse")], needed


PROBE = """
import json, time, platformpp
client = platformpp.Client("http://127.0.0.1:9/api/v10", "http://127.0.0.1:9")
lines = []
client.add_log_callback(lambda message, severity: lines.append(message), platformpp.LoggingSeverity.Info)
devices = []
client.get_input_devices(devices.append)
deadline = time.monotonic() + 20
while not devices and time.monotonic() < deadline:
    platformpp.run_callbacks()
    time.sleep(0.01)
print(json.dumps({"inputs": [d.name for d in devices[0]] if devices else None, "log": lines}))
"""


def test_without_libpulse_the_null_backend_is_used_and_logged() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PLATFORMPP_AUDIO_BACKEND"}
    env["PLATFORMPP_LIBPULSE"] = "/nonexistent/libpulse.so.0"  # as on a machine without PulseAudio
    result = subprocess.run([sys.executable, "-c", PROBE], check=False, capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.splitlines()[-1])
    assert seen["inputs"] == ["Null input (silence)"]
    assert [line for line in seen["log"]
            if "libpulse not loaded (/nonexistent/libpulse.so.0" in line and "null audio backend" in line], seen


WHEELHOUSE = os.environ.get("PLATFORMPP_WHEELHOUSE")
# Only glibc and libgcc's unwinder (every manylinux system has both) may be needed from the system; the
# rest is in the wheel or linked in.
SYSTEM = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "ld-linux-x86-64.so.2",
          "libgcc_s.so.1"}


@pytest.mark.skipif(not WHEELHOUSE, reason="no repaired wheel here: .ci/run builds one (tools/build_wheel.sh) "
                                           "and names its folder in PLATFORMPP_WHEELHOUSE")
def test_the_repaired_wheel_is_manylinux_small_and_self_contained(tmp_path: Path) -> None:
    assert WHEELHOUSE is not None
    (wheel_path,) = Path(WHEELHOUSE).glob("platformpp-*.whl")
    tags = wheel_path.name.removesuffix(".whl").split("-")[-1].split(".")
    # The README's manylinux_2_34 (or lower, built on an older glibc): nothing newer may creep in.
    assert all(tag.startswith("manylinux") and tag.endswith("_x86_64") for tag in tags), wheel_path.name
    glibc_minors = [int(m.group(1)) for tag in tags if (m := re.fullmatch(r"manylinux_2_(\d+)_x86_64", tag))]
    assert glibc_minors and min(glibc_minors) <= 34, wheel_path.name
    assert wheel_path.stat().st_size <= 10 * 1024 * 1024
    with zipfile.ZipFile(wheel_path) as wheel:
        names = wheel.namelist()
        (module,) = [n for n in names if re.fullmatch(r"platformpp/_platformpp\..*\.so", n)]
        wheel.extractall(tmp_path, [n for n in names if n.endswith(".so") or ".so." in n])
    bundled = sorted(n.split("/")[-1] for n in names if n.startswith("platformpp.libs/") and not n.endswith("/"))
    # libopus and libspeexdsp, copied by auditwheel; OpenSSL and libstdc++ are linked into the module.
    assert [re.sub(r"-[0-9a-f]{8}\.so.*", "", b) for b in bundled] == ["libopus", "libspeexdsp"], bundled
    needed = _needed(tmp_path / module)
    assert set(needed) - SYSTEM == set(bundled), needed
    for library in bundled:
        assert set(_needed(tmp_path / "platformpp.libs" / library)) <= SYSTEM
    # This suite ran against that very wheel.
    with zipfile.ZipFile(wheel_path) as wheel:
        assert hashlib.sha256(wheel.read(module)).digest() == hashlib.sha256(_extension_path().read_bytes()).digest()
