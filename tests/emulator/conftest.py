"""Fixtures shared by the emulator's tests (``platformpp_emulator`` itself comes from the plugin)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import social_helpers
from interaction_bots import GatewayBot, Replies
from platformpp.emulator import Emulator
from platformpp.emulator.core.fixtures import default_world

# The schema hook lives with the conformance tests (tests/conformance), which own the published schema.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "conformance"))
from schema_hook import SchemaHook


@pytest.fixture(autouse=True)
def schema_hook() -> Iterator[SchemaHook]:
    """Every answer the shared clients (``http``, ``social_helpers.api``) receive for an operation of
    the published schema is validated against it; the test fails on any violation."""
    hook = SchemaHook()
    social_helpers.SCHEMA_HOOK = hook
    try:
        yield hook
    finally:
        social_helpers.SCHEMA_HOOK = None
    hook.assert_conforms()


@pytest.fixture
def emu(platformpp_emulator: Emulator) -> Emulator:
    return platformpp_emulator


@pytest.fixture
def group_dm_emulator() -> Iterator[Emulator]:
    """The default world and a group DM of Alice and Bob (``social_helpers.GROUP_DM``)."""
    world = default_world()
    world["group_dms"] = [{"id": str(social_helpers.GROUP_DM), "name": "squad",
                           "owner_id": str(social_helpers.ALICE),
                           "recipients": [str(social_helpers.ALICE), str(social_helpers.BOB)]}]
    with Emulator(seed=world) as emu:
        yield emu


@pytest.fixture
def http(emu: Emulator, schema_hook: SchemaHook) -> Iterator[httpx.Client]:
    """A client on the emulator's base URL that does not follow redirects (tests look at them)."""
    with schema_hook.install(httpx.Client(base_url=emu.base_url, follow_redirects=False, timeout=10)) as client:
        yield client


@pytest.fixture
def replies() -> Replies:
    """What ``gateway_bot`` answers: set ``replies.next`` in a test step."""
    return Replies()


@pytest.fixture
def gateway_bot(emu: Emulator, replies: Replies) -> Iterator[GatewayBot]:
    """A bot on the Gateway that answers each interaction with ``replies``."""
    with GatewayBot(emu.base_url, replies) as running:
        yield running
