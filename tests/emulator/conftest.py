"""Fixtures shared by the emulator's tests (``platformpp_emulator`` itself comes from the plugin)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from platformpp.emulator import Emulator


@pytest.fixture
def emu(platformpp_emulator: Emulator) -> Emulator:
    return platformpp_emulator


@pytest.fixture
def http(emu: Emulator) -> Iterator[httpx.Client]:
    """A client on the emulator's base URL that does not follow redirects (tests look at them)."""
    with httpx.Client(base_url=emu.base_url, follow_redirects=False, timeout=10) as client:
        yield client

