#!/usr/bin/env bash
# The Debian/Ubuntu packages platformpp needs, installed only when missing (apt-get; sudo when not root).
#     bash tools/install_system_packages.sh          # to build: compiler, OpenSSL 3, libopus, libpulse, libspeexdsp
#     bash tools/install_system_packages.sh --test   # also what the tests use: clang (fuzzing), PulseAudio, chromium
set -euo pipefail
packages=(g++ libssl-dev libopus-dev libpulse-dev libspeexdsp-dev pkg-config)
if [ "${1:-}" = "--test" ]; then
  packages+=(clang libclang-rt-dev pulseaudio chromium)   # libclang-rt-dev: the libFuzzer and sanitizer runtimes; chromium: the inspector page tests (Playwright drives it)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get > /dev/null; then
  echo "install_system_packages.sh: please install ${missing[*]} with your package manager" >&2
  exit 1
fi
run_as_root=()
[ "$(id -u)" = 0 ] || run_as_root=(sudo)
echo "installing ${missing[*]}"
"${run_as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${run_as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
