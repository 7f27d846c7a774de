"""Completes the extension's classes with the pure-Python glue, once, while the extension loads.

Called from the extension's module initialisation with the module itself, the table of the Client's
calls (``[(name, ((parameter, annotation), ...), (value annotation, ...), has_result, callback name),
...]``, written by the bindings from the C++ signatures) and the extension's reporter of callback errors. Nothing here may
import ``platformpp._platformpp`` (it is not in sys.modules yet)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from . import aio, events


def install(extension: ModuleType, calls: list[aio.CallEntry],
            report_callback_error: Callable[[BaseException, str], None]) -> None:
    aio.install(extension, calls)
    events.install(extension, report_callback_error)
