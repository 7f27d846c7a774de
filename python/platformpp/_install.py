"""Completes the extension's classes with the pure-Python glue, once, while the extension loads.

Called from the extension's module initialisation with the module itself, the table of the Client's
calls (``[(name, ((parameter, annotation), ...), (value annotation, ...), has_result, callback name),
...]``, written by the bindings from the C++ signatures) and the extension's reporter of callback errors. Nothing here may
import ``platformpp._platformpp`` (it is not in sys.modules yet)."""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable
from types import ModuleType

from . import aio, events


def _enums_of(scope: object) -> list[type[enum.Enum]]:
    found: list[type[enum.Enum]] = []
    for value in vars(scope).values():
        if isinstance(value, type) and issubclass(value, enum.Enum):
            found.append(value)
        elif isinstance(value, type) and value.__module__ == getattr(scope, "__name__", None):
            found += [nested for nested in vars(value).values()
                      if isinstance(nested, type) and issubclass(nested, enum.Enum)]
    return found


def install(extension: ModuleType, calls: list[aio.CallEntry],
            report_callback_error: Callable[[BaseException, str], None]) -> None:
    aio.install(extension, calls)
    events.install(extension, report_callback_error)
    # print(status) says "Status.Ready", not "3": IntEnum's str() is the int's since Python 3.11, which
    # tells a reader nothing; format() and comparisons stay the int's.
    for cls in _enums_of(extension):
        cls.__str__ = enum.Enum.__str__  # type: ignore[method-assign]
    # The SDK's log lines go to the "platformpp" logger; as a library it adds only a NullHandler, so an
    # application that configures no logging does not get them on stderr (Python's last-resort handler)
    # beside the exception it is handling. logging.basicConfig() or a handler of its own shows them.
    logging.getLogger("platformpp").addHandler(logging.NullHandler())
