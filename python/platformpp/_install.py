"""Completes the extension's classes with the pure-Python glue, once, while the extension loads.

Called from the extension's module initialisation with the module itself: nothing here may import
``platformpp._platformpp`` (it is not in sys.modules yet)."""

from __future__ import annotations

from types import ModuleType


def install(extension: ModuleType) -> None:
    from . import aio, events

    aio.install(extension)
    events.install(extension)
