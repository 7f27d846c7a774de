#!/usr/bin/env bash
# The media engine's threads (network, audio, device watcher, PulseAudio main loop) under
# ThreadSanitizer: builds the voice tests with -fsanitize=thread and runs them (the PulseAudio cases
# against a private daemon when pulseaudio is installed). Any race report fails the run.
#     bash tests/run_voice_tsan.sh [BUILD_DIR]      (default build/voice-tsan)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/voice-tsan}"
mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPLATFORMPP_BUILD_TESTS=ON \
  -DPLATFORMPP_REQUIRE_INTEGRATION_TESTS=ON -DPLATFORMPP_SANITIZERS=thread \
  -DPython_EXECUTABLE="$(command -v python3)" > "$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
cmake --build "$build" --parallel 2 --target voice_unit_tests voice_integration_tests
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$root/tests/voice_tsan.supp ${TSAN_OPTIONS:-}" \
  ctest --test-dir "$build" -R '^voice_(unit|integration)_tests$' --output-on-failure --timeout 900
