#!/usr/bin/env bash
# Installs the core, builds this example with find_package(platformpp CONFIG), starts an emulator
# and runs the example against it. Needs python3 with platformpp[emulator] on PATH.
#     bash cpp/examples/native_game/run_against_emulator.sh [WORK_DIR]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
work="${1:-$root/build/native_game}"
mkdir -p "$work"
work="$(cd "$work" && pwd)"  # absolute: CMAKE_PREFIX_PATH must not depend on where cmake runs

cmake -S "$root" -B "$work/core" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPLATFORMPP_BUILD_TESTS=OFF \
  -DPython_EXECUTABLE="$(command -v python3)" > "$work/core-configure.log" 2>&1 || { cat "$work/core-configure.log"; exit 1; }
cmake --build "$work/core" --parallel 2
cmake --install "$work/core" --prefix "$work/prefix" > /dev/null
cmake -S "$here" -B "$work/example" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/example-configure.log" 2>&1 \
  || { cat "$work/example-configure.log"; exit 1; }
cmake --build "$work/example"

python3 -m platformpp emulator --host 127.0.0.1 --port 0 --db :memory: > "$work/emulator.out" 2> "$work/emulator.err" &
emulator=$!
trap 'kill $emulator 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  grep -q "listening on" "$work/emulator.out" 2>/dev/null && break
  sleep 0.1
done
base="$(sed -n 's/^platformpp emulator listening on //p' "$work/emulator.out")"
[ -n "$base" ] || { echo "the emulator did not start"; cat "$work/emulator.err"; exit 1; }
"$work/example/native_game" "$base" alice
