#!/usr/bin/env bash
# Every test: the C++ unit tests through ctest, then the Python suite through pytest.
# Run it where platformpp is installed with its extras:
#     pip install ./packaging/emulator '.[emulator,test]' && bash tests/run_all.sh
# Extra arguments go to pytest (e.g. `bash tests/run_all.sh -k lobby`). pytest runs the tests in
# PLATFORMPP_TEST_WORKERS processes (pytest-xdist; default 2, the CI machine's cores).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

bash "$root/tests/run_cpp.sh" "$root/build/tests"
cd "$root"
python3 -m pytest -n "${PLATFORMPP_TEST_WORKERS:-2}" "$@"
