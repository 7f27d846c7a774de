"""The emulator's admin API (``/_emulator``): reset, seed, snapshot, clock, faults, limits, logs."""

from __future__ import annotations

from ...core.area import Area
from . import routes

AREA = Area("admin", routes=routes.routes)
