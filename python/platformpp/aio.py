"""asyncio for platformpp: awaitable counterparts of every callback method, and the pump that runs SDK
callbacks the moment they arrive.

Every Client call — a method whose last parameter is ``callback(result, *values)``, or
``callback(*values)`` for the few that cannot fail (``end_call``, the device getters), as the bindings
list them from the C++ signatures — gets ``<name>_async`` with the same parameters less the callback,
plus ``timeout``: it returns the values (None for none, the value for one, a tuple for several) or
raises the ``platformpp.ClientError`` subclass matching ``result.type`` (``platformpp.ValidationError``
for invalid arguments), with ``.result`` attached.

    code, redirect_uri = await client.authorize_async(args)

The first await on an event loop registers the SDK's wake-up file descriptor with that loop
(``loop.add_reader``), so callbacks run on the loop's thread as soon as they are queued: no polling.
Drive the SDK from one event loop. Cancelling the awaiting task (or its timeout) abandons the call:
its result is dropped when it arrives; a cancelled ``authorize_async`` also aborts the authorization.

``await client.connect_async()`` connects and returns once the Client is Ready;
``await client.wait_until_ready()`` waits for that state without connecting.
"""

from __future__ import annotations

import asyncio
import inspect
import weakref
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from ._errors import python_terms

_extension: ModuleType | None = None
_pumped_loops: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
_last_pumped: weakref.ReferenceType[asyncio.AbstractEventLoop] | None = None

# What to call when an awaiting task is cancelled, so that the platform side stops too.
_ON_CANCEL = {"authorize": "abort_authorize"}


def pump(loop: asyncio.AbstractEventLoop | None = None) -> None:
    """Runs SDK callbacks on `loop` (default: the running loop) whenever they are queued. Idempotent."""
    assert _extension is not None, "the extension installs this module"
    global _last_pumped
    loop = loop or asyncio.get_running_loop()
    if loop not in _pumped_loops:
        loop.add_reader(_extension.callback_wakeup_fd(), _extension.run_callbacks)
        _pumped_loops.add(loop)
    _last_pumped = weakref.ref(loop)


def sdk_loop() -> asyncio.AbstractEventLoop | None:
    """The loop coroutine event handlers run on: the running loop if it pumps the SDK, else the loop
    pumped last (a FrameLoop between ticks), or None when no loop pumps the SDK."""
    try:
        running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is not None and running in _pumped_loops:
        return running
    last = _last_pumped() if _last_pumped is not None else None
    return last if last is not None and not last.is_closed() else None


def error_for(result: Any) -> Exception:
    """The exception for an unsuccessful ClientResult, carrying it as `.result`."""
    assert _extension is not None
    type_name = result.type.name
    if type_name == "ValidationError":
        error = _extension.ValidationError(result.error)
        error.field = result.error.partition(":")[0]
    else:
        error_class = getattr(_extension, type_name, _extension.ClientError)
        if not (isinstance(error_class, type) and issubclass(error_class, _extension.ClientError)):
            error_class = _extension.ClientError
        # The class already says the type: the message starts after it ("404 (10003): Unknown Lobby").
        text = result.to_string()
        if text.startswith(type_name):
            text = text[len(type_name):].lstrip(": ") or type_name
        error = error_class(python_terms(text))
    error.result = result
    return error


async def connect_async(self: Any, *, timeout: float | None = None) -> None:
    """connect(), then waits until the Client is Ready (wait_until_ready). ClientNotReady without a
    token (call update_token() first); NetworkError when the connection fails."""
    assert _extension is not None
    if not self.is_authenticated():
        raise _extension.ClientNotReady("connect_async() needs a token: call update_token() first")
    if self.get_status() == type(self).Status.Ready:
        return
    ready = asyncio.ensure_future(wait_until_ready(self, timeout=timeout))
    try:
        await asyncio.sleep(0)  # subscribed before connect() reports anything
        self.connect()
        await ready
    finally:
        ready.cancel()


async def wait_until_ready(self: Any, *, timeout: float | None = None) -> None:
    """Returns once the Client's status is Ready (at once if it is); NetworkError if it becomes
    Disconnected first. It does not connect: see connect_async()."""
    assert _extension is not None
    loop = asyncio.get_running_loop()
    pump(loop)
    status_type, error_type = type(self).Status, type(self).Error
    if self.get_status() == status_type.Ready:
        return
    future: asyncio.Future[None] = loop.create_future()

    def changed(status: Any, error: Any, detail: int) -> None:
        if future.done():
            return
        if status == status_type.Ready:
            future.set_result(None)
        elif status == status_type.Disconnected:
            why = "disconnected" if error == error_type.None_ else f"{error.name} (detail {detail})"
            future.set_exception(_extension.NetworkError(f"the Client did not become Ready: {why}"))

    self.on("status_changed", changed)
    try:
        await asyncio.wait_for(future, timeout)
    finally:
        self.off("status_changed", changed)


def _settle(future: asyncio.Future[Any], result: Any, values: tuple[Any, ...]) -> None:
    if future.done():  # cancelled or timed out: nobody waits for it any more
        return
    if result is not None and not result.successful:
        future.set_exception(error_for(result))
    elif not values:
        future.set_result(None)
    else:
        future.set_result(values[0] if len(values) == 1 else values)


CallEntry = tuple[str, Sequence[tuple[str, str]], Sequence[str], bool, str]


def _make_async(name: str, parameters: Sequence[tuple[str, str]], value_types: Sequence[str], has_result: bool,
                callback_name: str) -> Callable[..., Any]:
    cancel_with = _ON_CANCEL.get(name)

    async def method(self: Any, *args: Any, timeout: float | None = None, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        pump(loop)
        future: asyncio.Future[Any] = loop.create_future()
        if has_result:
            kwargs[callback_name] = lambda result, *values: _settle(future, result, values)
        else:
            kwargs[callback_name] = lambda *values: _settle(future, None, values)
        getattr(self, name)(*args, **kwargs)
        try:
            return await asyncio.wait_for(future, timeout)
        except (asyncio.CancelledError, asyncio.TimeoutError):
            if cancel_with is not None:
                getattr(self, cancel_with)()
            raise

    returns = "None" if not value_types else value_types[0] if len(value_types) == 1 else (
        f"tuple[{', '.join(value_types)}]")
    signature = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    signature += [inspect.Parameter(parameter, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=annotation)
                  for parameter, annotation in parameters]
    signature.append(inspect.Parameter("timeout", inspect.Parameter.KEYWORD_ONLY, default=None,
                                       annotation="float | None"))
    method.__signature__ = inspect.Signature(signature, return_annotation=returns)  # type: ignore[attr-defined]
    method.__name__ = method.__qualname__ = f"{name}_async"
    method.__doc__ = (f"Awaitable {name}(): returns what its callback receives after the result "
                      f"({returns}), or raises the ClientError for a failed result. `timeout` in seconds."
                      if has_result else
                      f"Awaitable {name}(): returns what its callback receives ({returns}). `timeout` in seconds.")
    return method


def install(extension: ModuleType, calls: Sequence[CallEntry]) -> None:
    """Adds `<name>_async` to the Client for each of its calls: (name, ((parameter, annotation), ...),
    (annotation of each value the callback receives after the result, ...), whether the callback's first
    argument is the ClientResult, the callback parameter's name)."""
    global _extension
    _extension = extension
    for name, parameters, value_types, has_result, callback_name in calls:
        if not callable(getattr(extension.Client, name, None)):
            raise RuntimeError(f"the call table names {name!r}, which the Client does not have")
        setattr(extension.Client, f"{name}_async",
                _make_async(name, parameters, value_types, has_result, callback_name))
    extension.Client.connect_async = connect_async
    extension.Client.wait_until_ready = wait_until_ready
