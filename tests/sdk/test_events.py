"""Event subscription: decorators, several handlers, removal, errors, lifetimes."""

from __future__ import annotations

import gc
import weakref

import pytest
from sdk_support import pump_until

import platformpp
from platformpp import Client


def _offline() -> Client:
    return Client("http://127.0.0.1:9/api/v10", "http://127.0.0.1:9")


def test_several_handlers_by_decorator_in_order() -> None:
    client = _offline()
    seen: list[tuple[str, object]] = []

    @client.on("status_changed")
    def first(status, error, detail):
        seen.append(("first", error))

    client.on("status_changed", lambda status, error, detail: seen.append(("second", error)))
    client.connect()  # no token: Disconnected / ConnectionFailed
    pump_until(lambda: len(seen) == 2)
    assert seen == [("first", Client.Error.ConnectionFailed), ("second", Client.Error.ConnectionFailed)]
    assert first.__name__ == "first"  # the decorator returns the function itself


def test_a_removed_handler_is_not_called_and_a_raising_one_does_not_stop_others() -> None:
    client = _offline()
    seen: list[str] = []
    caught: list[BaseException] = []

    def removed(*args):
        seen.append("removed")

    def raising(*args):
        raise RuntimeError("handler failure")

    client.on("status_changed", removed)
    client.on("status_changed", raising)
    client.on("status_changed", lambda *args: seen.append("kept"))
    client.off("status_changed", removed)
    platformpp.set_callback_error_hook(caught.append)
    try:
        client.connect()
        pump_until(lambda: bool(seen))
    finally:
        platformpp.set_callback_error_hook(None)
    assert seen == ["kept"]
    assert isinstance(caught[0], RuntimeError)


def test_bad_subscriptions_are_refused() -> None:
    client = _offline()
    with pytest.raises(ValueError, match="event: 'no_such_event'"):
        client.on("no_such_event", print)
    with pytest.raises(TypeError, match="handler"):
        client.on("status_changed", 42)
    with pytest.raises(ValueError, match="handler"):
        client.off("status_changed", print)


def test_handlers_do_not_keep_the_client_alive() -> None:
    client = _offline()
    client.on("status_changed", lambda *args: None)
    ref = weakref.ref(client)
    del client
    gc.collect()
    assert ref() is None


def test_client_log_lines_reach_the_platformpp_logger(caplog) -> None:
    import logging

    with caplog.at_level(logging.INFO, logger="platformpp"):
        client = _offline()
        client.connect()  # logs an error: no token
        pump_until(lambda: any("UpdateToken" in r.getMessage() for r in caplog.records))
    record = next(r for r in caplog.records if "UpdateToken" in r.getMessage())
    assert record.name == "platformpp" and record.levelno == logging.ERROR
