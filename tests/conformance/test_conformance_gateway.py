"""Conformance of the Gateway's discovery operations."""

from __future__ import annotations

import pytest
from emulator_world import ALICE, BOT_TOKEN
from platformpp.emulator import Emulator
from social_helpers import user_token

from conformance_client import ClientFactory, force_429


@pytest.mark.covers("GET /gateway", "GET /gateway/bot")
def test_gateway_discovery(emu: Emulator, client: ClientFactory) -> None:
    bot = client(f"Bot {BOT_TOKEN}")
    assert bot.get("/gateway").status_code == 200
    assert bot.get("/gateway/bot").status_code == 200
    assert client(f"Bearer {user_token(emu, ALICE)}").get("/gateway/bot").status_code == 401
    force_429(emu, "/api/v10/gateway")
    assert client().get("/gateway").status_code == 429
