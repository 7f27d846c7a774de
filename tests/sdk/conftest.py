"""Fixtures of the SDK's tests."""

from __future__ import annotations

from typing import Any

import pytest
from sdk_support import GAME_ID

import platformpp


@pytest.fixture
def client(platformpp_emulator: Any) -> platformpp.Client:
    """A Client of a fresh emulator, with the default world's game as its application."""
    game_client = platformpp.Client(platformpp_emulator.api_base, platformpp_emulator.web_base)
    game_client.set_application_id(GAME_ID)
    return game_client
