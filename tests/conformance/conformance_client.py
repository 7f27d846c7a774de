"""What conformance tests import (a module of its own: ``conftest`` names several modules once the
whole tests/ tree is collected, so tests never import from it)."""

from __future__ import annotations

from collections.abc import Callable

import httpx
from platformpp.emulator import Emulator

# The ``client`` fixture: ``client(authorization=None)`` -> an httpx client on /api/v10 whose answers
# are validated against the published schema.
ClientFactory = Callable[..., httpx.Client]


def force_429(emu: Emulator, path: str) -> None:
    """The next request to ``path`` answers 429 (the admin API's fault injection)."""
    response = httpx.put(f"{emu.base_url}/_emulator/faults", json={"rules": [{"path": path, "force_429": 1}]})
    assert response.status_code in (200, 204), response.text
