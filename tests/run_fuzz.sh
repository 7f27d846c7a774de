#!/usr/bin/env bash
# Bounded libFuzzer runs of every target in cpp/fuzz, under ASan + UBSan, from their committed seed
# corpora. New inputs go to a scratch directory so the committed seeds stay as they are.
#     bash tests/run_fuzz.sh [SECONDS_PER_TARGET] [BUILD_DIR]
# Needs clang and its fuzzer runtime (installed with apt-get when missing and running as root).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-30}"
build="${2:-$root/build/fuzz}"

if ! command -v clang++ > /dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-dev > /dev/null
  else
    echo "run_fuzz.sh: clang++ is needed (apt-get install clang)" >&2; exit 1
  fi
fi

mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DPLATFORMPP_FUZZ=ON -DPLATFORMPP_BUILD_TESTS=OFF -DPLATFORMPP_SANITIZERS=address,undefined \
  -DPython_EXECUTABLE="$(command -v python3)" > "$build/configure.log" 2>&1 \
  || { cat "$build/configure.log"; exit 1; }
targets=$(cd "$root/cpp/fuzz" && ls *_fuzz.cpp | sed "s/_fuzz\.cpp$//")
cmake --build "$build" --parallel 2 --target $(for t in $targets; do printf 'fuzz_%s ' "$t"; done) \
  > "$build/build.log" 2>&1 || { tail -60 "$build/build.log"; exit 1; }

failed=0
for target in $targets; do
  scratch="$(mktemp -d)"
  binary="$(find "$build" -type f -name "fuzz_$target" | head -1)"
  if "$binary" -max_total_time="$seconds" -print_final_stats=1 "$scratch" "$root/cpp/fuzz/${target}_corpus" \
      > "$build/fuzz_$target.log" 2>&1; then
    echo "fuzz_$target: $(grep -m1 'stat::number_of_executed_units' "$build/fuzz_$target.log" | awk '{print $2}') runs, no finding"
  else
    echo "fuzz_$target: FINDING (log: $build/fuzz_$target.log)"; tail -40 "$build/fuzz_$target.log"; failed=1
  fi
  rm -rf "$scratch"
done
exit $failed
