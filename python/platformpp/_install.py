"""Completes the extension's classes with the pure-Python glue, once, while the extension loads.

Called from the extension's module initialisation with the module itself, the table of the Client's
calls (``[(name, ((parameter, annotation), ...), (value annotation, ...)), ...]``, written by the
bindings from the C++ signatures) and the extension's reporter of callback errors. Nothing here may
import ``platformpp._platformpp`` (it is not in sys.modules yet)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from . import aio, events


def install(extension: ModuleType, calls: list[tuple[str, tuple[tuple[str, str], ...], tuple[str, ...]]],
            report_callback_error: Callable[[BaseException, str], None]) -> None:
    aio.install(extension, calls)
    events.install(extension, report_callback_error)
