"""Options of the E2EE interop tests: where the dave_peer driver is (ctest passes it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--dave-peer", default=None,
                     help="path of the dave_peer driver (cpp/tests/e2ee/dave_peer.cpp); or set DAVE_PEER")


@pytest.fixture(scope="session")
def dave_peer_path(request: pytest.FixtureRequest) -> Path:
    path = request.config.getoption("--dave-peer", default=None) or os.environ.get("DAVE_PEER")
    if not path:
        pytest.skip("dave_peer not given: build it and pass --dave-peer PATH (ctest does) or set DAVE_PEER")
    resolved = Path(path)
    if not resolved.is_file():
        pytest.fail(f"--dave-peer {path}: no such file")
    return resolved
