#!/usr/bin/env bash
# The C++ unit tests: configure, build and run them with ctest.
#     bash tests/run_cpp.sh [BUILD_DIR] [extra CMake arguments...]
# Boost headers come from the active Python's boost-headers package (or a system Boost >= 1.81).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/tests}"
shift || true

mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPLATFORMPP_BUILD_TESTS=ON -DPLATFORMPP_REQUIRE_INTEGRATION_TESTS=ON \
  -DPython_EXECUTABLE="$(command -v python3)" "$@" > "$build/configure.log" 2>&1 \
  || { cat "$build/configure.log"; exit 1; }
cmake --build "$build" --parallel 2
ctest --test-dir "$build" --output-on-failure
