"""Event subscription for platformpp: any number of handlers per event, added by decorator, removable.

Every Client method ``set_<event>_callback(callback)`` makes an event ``<event>``:

    @client.on("status_changed")
    def show(status, error, detail): ...

    @client.on("message_created")
    async def on_message(message_id): ...      # a coroutine function: scheduled on the SDK's loop

    client.on("lobby_created", handler)         # the same, without the decorator
    client.off("status_changed", show)          # remove one handler

``set_<event>_callback(callback)`` keeps its meaning — the one callback of that setter, replaced by
the next call, removed by None — and runs beside the ``on()`` handlers: the setter's callback first,
then the handlers in the order they were added. Handlers run inside run_callbacks() (or the asyncio
pump); one raising is reported like any callback error and does not stop the others. A coroutine
function's call is scheduled as a task on the asyncio loop the SDK is pumped on (the loop of the
first ``*_async`` await, ``connect_async()``, or a FrameLoop); its failure is reported the same way.
The Client holds the handlers only while it lives and never keeps itself alive through them.
"""

from __future__ import annotations

import asyncio
import inspect
import re
import weakref
from collections.abc import Callable
from types import ModuleType
from typing import Any, Literal, TypeVar, overload

_SETTER_PREFIX, _SETTER_SUFFIX = "set_", "_callback"
_report: Callable[[BaseException, str], None] | None = None  # the extension's report of callback errors

# Every event of the Client, as type checkers see the `event` argument of on() and off(). The test of
# this module checks it against the Client's set_<event>_callback methods.
EventName = Literal[
    "activity_invite_created", "activity_invite_updated", "activity_join", "activity_join_with_application",
    "authorize_device_screen_closed", "device_change", "lobby_created", "lobby_deleted", "lobby_member_added",
    "lobby_member_removed", "lobby_member_updated", "lobby_updated", "message_created", "message_deleted",
    "message_updated", "no_audio_input", "relationship_created", "relationship_deleted",
    "relationship_groups_updated", "status_changed", "token_expiration", "user_updated",
    "voice_participant_changed", "voice_settings_updated",
]


class _Subscribers:
    """One event of one Client: the setter's callback and the on() handlers, dispatched by one function
    that the native setter holds. Holds no reference to the Client."""

    def __init__(self, event: str) -> None:
        self.callback: Callable[..., Any] | None = None
        self.handlers: list[Callable[..., Any]] = []
        self.installed = False
        self.what = f"{event!r} event"

    def empty(self) -> bool:
        return self.callback is None and not self.handlers

    def dispatch(self, *args: Any) -> None:
        # A copy: a handler may add or remove handlers.
        for handler in ([self.callback] if self.callback is not None else []) + list(self.handlers):
            try:
                if inspect.isawaitable(outcome := handler(*args)):  # an async def (or a partial of one)
                    _schedule(outcome, self.what)
            except Exception as error:  # reported like any callback error; the other handlers still run
                assert _report is not None
                _report(error, self.what)


_subscribers: weakref.WeakKeyDictionary[Any, dict[str, _Subscribers]] = weakref.WeakKeyDictionary()
_tasks: set[asyncio.Future[Any]] = set()  # running handler tasks, held until done (the loop keeps weak ones)


def _schedule(awaitable: Any, what: str) -> None:
    from . import aio

    loop = aio.sdk_loop()
    if loop is None:
        if inspect.iscoroutine(awaitable):
            awaitable.close()  # never run: no "was never awaited" warning on top of the report
        raise RuntimeError(f"{what}: a coroutine handler needs the asyncio loop that pumps the SDK; await "
                           "connect_async() or another *_async method first, or tick a FrameLoop")
    task = asyncio.ensure_future(awaitable, loop=loop)
    _tasks.add(task)

    def done(finished: asyncio.Future[Any]) -> None:
        _tasks.discard(finished)
        if not finished.cancelled() and (error := finished.exception()) is not None:
            assert _report is not None
            _report(error, what)

    task.add_done_callback(done)


def events_of(cls: type) -> list[str]:
    """The event names a class offers (from its set_<event>_callback methods)."""
    return sorted(name[len(_SETTER_PREFIX):-len(_SETTER_SUFFIX)] for name in dir(cls)
                  if name.startswith(_SETTER_PREFIX) and name.endswith(_SETTER_SUFFIX))


_native_setters: dict[str, Callable[..., None]] = {}  # the Client's own set_<event>_callback, by event


def _subscribers_of(client: Any, event: str) -> _Subscribers:
    per_event = _subscribers.setdefault(client, {})
    if event not in per_event:
        per_event[event] = _Subscribers(event)
    return per_event[event]


def _sync_native(client: Any, event: str, subscribers: _Subscribers) -> None:
    """The native setter holds the dispatcher while anything listens, and nothing otherwise (so that a
    setter with an effect, such as subscribing to the desktop client, sees the removal)."""
    native = _native_setters[event]
    if subscribers.empty():
        if subscribers.installed:
            native(client, None)
            subscribers.installed = False
    elif not subscribers.installed:
        native(client, subscribers.dispatch)
        subscribers.installed = True


_Handler = TypeVar("_Handler", bound=Callable[..., Any])


@overload
def on(self: Any, event: EventName, handler: None = None) -> Callable[[_Handler], _Handler]: ...
@overload
def on(self: Any, event: EventName, handler: _Handler) -> _Handler: ...
def on(self: Any, event: str, handler: Callable[..., Any] | None = None) -> Any:
    """Adds `handler` for `event`; without a handler, returns a decorator that adds the function.
    A coroutine function is scheduled on the asyncio loop that pumps the SDK."""
    if event not in _native_setters:
        raise ValueError(f"event: {event!r} is not an event of {type(self).__name__} "
                         f"(known: {', '.join(events_of(type(self)))})")
    if handler is None:
        return lambda function: on(self, event, function)
    if not callable(handler):
        raise TypeError(f"handler: expected a callable, got {type(handler).__name__}")
    subscribers = _subscribers_of(self, event)
    subscribers.handlers.append(handler)
    _sync_native(self, event, subscribers)
    return handler


def off(self: Any, event: str, handler: Callable[..., Any]) -> None:
    """Removes one `handler` of `event` (ValueError if it was not added)."""
    subscribers = _subscribers.get(self, {}).get(event)
    if subscribers is None or handler not in subscribers.handlers:
        raise ValueError(f"handler: {handler!r} is not subscribed to {event!r}")
    subscribers.handlers.remove(handler)
    _sync_native(self, event, subscribers)


_DOC_SIGNATURE = re.compile(r"^\w+\((self[^,]*), (\w+): (.*)\) -> None$")


def _composing_setter(cls: type, name: str, event: str) -> Callable[..., None]:
    native = getattr(cls, name)
    _native_setters[event] = native
    # pybind11's docstring starts with the signature: keep the parameter's name and annotation, so that
    # the method reads as before (help(), keyword calls, the generated stub).
    doc = inspect.getdoc(native) or ""
    first, _, rest = doc.partition("\n")
    match = _DOC_SIGNATURE.match(first)
    parameter, annotation = (match.group(2), match.group(3)) if match else ("callback", "Any")

    def setter(self: Any, *args: Any, **kwargs: Any) -> None:
        bound = signature.bind(self, *args, **kwargs)
        callback = bound.arguments[parameter]
        if callback is not None and not callable(callback):
            raise TypeError(f"{parameter}: expected a callable or None, got {type(callback).__name__}")
        subscribers = _subscribers_of(self, event)
        subscribers.callback = callback
        _sync_native(self, event, subscribers)

    signature = inspect.Signature([
        inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter(parameter, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=annotation),
    ], return_annotation=None)
    setter.__signature__ = signature  # type: ignore[attr-defined]
    setter.__name__ = name
    setter.__qualname__ = f"{cls.__name__}.{name}"
    setter.__doc__ = rest.strip() + "\nRuns beside the handlers added with on()."
    return setter


def install(extension: ModuleType, report_callback_error: Callable[[BaseException, str], None]) -> None:
    global _report
    _report = report_callback_error
    for cls in (extension.Client,):
        for event in events_of(cls):
            name = f"{_SETTER_PREFIX}{event}{_SETTER_SUFFIX}"
            setattr(cls, name, _composing_setter(cls, name, event))
        cls.on = on
        cls.off = off
