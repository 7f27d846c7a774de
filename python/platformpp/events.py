"""Event subscription for platformpp: any number of handlers per event, added by decorator, removable.

Every Client method ``set_<event>_callback(callback)`` makes an event ``<event>``:

    @client.on("status_changed")
    def show(status, error, detail): ...

    client.on("lobby_message_created", handler)   # the same, without the decorator
    client.off("status_changed", show)            # remove one handler

Handlers run inside run_callbacks() (or the asyncio pump), in the order they were added; one raising
is reported like any callback error and does not stop the others. The Client holds the handlers only
while it lives and never keeps itself alive through them.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from types import ModuleType
from typing import Any

_SETTER_PREFIX, _SETTER_SUFFIX = "set_", "_callback"
_handlers: weakref.WeakKeyDictionary[Any, dict[str, list[Callable[..., Any]]]] = weakref.WeakKeyDictionary()
_report: Callable[[BaseException, str], None] | None = None  # the extension's report of callback errors


def events_of(cls: type) -> list[str]:
    """The event names a class offers (from its set_<event>_callback methods)."""
    return sorted(name[len(_SETTER_PREFIX):-len(_SETTER_SUFFIX)] for name in dir(cls)
                  if name.startswith(_SETTER_PREFIX) and name.endswith(_SETTER_SUFFIX))


def _dispatcher(event: str, handlers: list[Callable[..., Any]]) -> Callable[..., None]:
    what = f"{event!r} event"
    def dispatch(*args: Any) -> None:
        for handler in list(handlers):  # a handler may remove itself
            try:
                handler(*args)
            except Exception as error:  # reported like any callback error; the other handlers still run
                assert _report is not None
                _report(error, what)
    return dispatch


def on(self: Any, event: str, handler: Callable[..., Any] | None = None) -> Any:
    """Adds `handler` for `event`; without a handler, returns a decorator that adds the function."""
    setter = getattr(type(self), f"{_SETTER_PREFIX}{event}{_SETTER_SUFFIX}", None)
    if setter is None:
        raise ValueError(f"event: {event!r} is not an event of {type(self).__name__} "
                         f"(known: {', '.join(events_of(type(self)))})")
    if handler is None:
        return lambda function: on(self, event, function)
    if not callable(handler):
        raise TypeError(f"handler: expected a callable, got {type(handler).__name__}")
    per_event = _handlers.setdefault(self, {})
    if event not in per_event:
        per_event[event] = []
        setter(self, _dispatcher(event, per_event[event]))
    per_event[event].append(handler)
    return handler


def off(self: Any, event: str, handler: Callable[..., Any]) -> None:
    """Removes one `handler` of `event` (ValueError if it was not added)."""
    handlers = _handlers.get(self, {}).get(event)
    if not handlers or handler not in handlers:
        raise ValueError(f"handler: {handler!r} is not subscribed to {event!r}")
    handlers.remove(handler)


def install(extension: ModuleType, report_callback_error: Callable[[BaseException, str], None]) -> None:
    global _report
    _report = report_callback_error
    for cls in (extension.Client,):
        cls.on = on
        cls.off = off
