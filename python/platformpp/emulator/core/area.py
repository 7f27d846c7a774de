"""What an area of the platform contributes to the emulator. Each ``areas/<name>/__init__.py``
defines one ``AREA``; ``areas/__init__.py`` lists them all, and the app, the database and the
fixture loader take everything from that list (nothing is found by name)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from starlette.routing import BaseRoute

from .fixtures import FixtureSection

if TYPE_CHECKING:
    from importlib.abc import Traversable  # (importlib.resources.abc from 3.11 on)

    from ..state import EmulatorState


def no_routes() -> list[BaseRoute]:
    return []


class Area(NamedTuple):
    name: str
    # Starlette routes with full paths (``f"{API}/users/@me"``); matched in the order of AREAS.
    routes: Callable[[], list[BaseRoute]] = no_routes
    # A folder of ``NNNN_name.sql`` migrations (numbers are global: see core/migrations.py).
    schema: Traversable | None = None
    # The top-level fixture keys this area loads.
    fixtures: tuple[FixtureSection, ...] = ()
    # Run once before the first request: subscribe to the bus, start background work.
    startup: Callable[[EmulatorState], None] | None = None
