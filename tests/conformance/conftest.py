"""Conformance tests: every answer of the emulator is checked against the published schema.

A test declares the operations it exercises with ``@pytest.mark.covers("GET /users/@me", ...)`` (keys
as the schema writes them) and talks to the emulator through ``client(...)``; every answer of a
published operation is validated (success and error bodies). When the test ends it fails on any
violation, and on any declared operation that was not answered at least once with a success and
once with an error (so both kinds of body are checked). ``test_operation_coverage.py`` requires every
operation the emulator implements to be declared by some ``test_conformance_*.py``. Tests import
``ClientFactory`` and helpers from ``conformance_client`` (never from ``conftest``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from platformpp.emulator import Emulator
from conformance_client import ClientFactory
from schema_hook import SchemaHook

# The default world's ids and credentials (tests/emulator/emulator_world.py).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "emulator"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "covers(*operations): published operations a conformance test checks")


@pytest.fixture
def emu(platformpp_emulator: Emulator) -> Emulator:
    return platformpp_emulator


@pytest.fixture
def schema_hook(request: pytest.FixtureRequest) -> Iterator[SchemaHook]:
    hook = SchemaHook()
    yield hook
    hook.assert_conforms()
    marker = request.node.get_closest_marker("covers")
    for key in marker.args if marker else ():
        statuses = hook.seen.get(key, set())
        assert any(200 <= s < 300 for s in statuses) and any(400 <= s < 500 for s in statuses), (
            f"{key} must be answered with a success and an error in this test (saw {sorted(statuses)})")


@pytest.fixture
def client(emu: Emulator, schema_hook: SchemaHook) -> Iterator[ClientFactory]:
    """``client(authorization=None)``: an httpx client on ``/api/v10`` whose answers are validated."""
    opened: list[httpx.Client] = []

    def make(authorization: str | None = None) -> httpx.Client:
        headers = {} if authorization is None else {"Authorization": authorization}
        http = schema_hook.install(httpx.Client(base_url=emu.api_base, headers=headers, timeout=10))
        opened.append(http)
        return http

    yield make
    for http in opened:
        http.close()

