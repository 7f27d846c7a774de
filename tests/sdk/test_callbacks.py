"""Python callbacks: identity, exceptions, wrong return types, lifetimes (MuJoCo's habits)."""

from __future__ import annotations

import gc
import logging
import os
import select
import sys
import weakref

import pytest

import platformpp
from platformpp import AuthorizationArgs, Client, ErrorType

from sdk_support import Outcome, pump_until


def _fail_authorize(client: Client, callback) -> None:
    """Queues callback(result, code, uri) with a ValidationError, without any network."""
    client.authorize(AuthorizationArgs(), callback)


@pytest.fixture
def offline_client() -> Client:
    return Client("http://127.0.0.1:9/api/v10", "http://127.0.0.1:9")


def test_the_callback_object_itself_is_called(offline_client: Client) -> None:
    seen = []

    class Recorder:
        def __call__(self, *args):
            seen.append(self)

    recorder = Recorder()
    _fail_authorize(offline_client, recorder)
    pump_until(lambda: bool(seen))
    assert seen == [recorder] and seen[0] is recorder


def test_an_exception_is_reported_and_does_not_stop_other_callbacks(offline_client: Client, caplog) -> None:
    after = Outcome()

    def explode(*args):
        raise RuntimeError("boom in a callback")

    _fail_authorize(offline_client, explode)
    _fail_authorize(offline_client, after)
    with caplog.at_level(logging.ERROR, logger="platformpp"):
        after.wait()
    assert any("boom in a callback" in (r.exc_text or "") or r.exc_info and "boom" in str(r.exc_info[1])
               for r in caplog.records)


def test_the_error_hook_gets_the_exception(offline_client: Client) -> None:
    caught: list[BaseException] = []
    platformpp.set_callback_error_hook(caught.append)
    try:
        _fail_authorize(offline_client, lambda *a: 1 / 0)
        pump_until(lambda: bool(caught))
        assert isinstance(caught[0], ZeroDivisionError)
    finally:
        platformpp.set_callback_error_hook(None)
    with pytest.raises(TypeError):
        platformpp.set_callback_error_hook(42)


def test_an_async_callback_is_reported_not_silently_dropped(offline_client: Client) -> None:
    caught: list[BaseException] = []
    platformpp.set_callback_error_hook(caught.append)

    async def coroutine_callback(*args):
        pass

    try:
        _fail_authorize(offline_client, coroutine_callback)
        pump_until(lambda: bool(caught))
        assert isinstance(caught[0], TypeError) and "awaitable" in str(caught[0])
    finally:
        platformpp.set_callback_error_hook(None)


def test_wrong_callback_types_are_refused(offline_client: Client) -> None:
    with pytest.raises(TypeError):
        offline_client.authorize(AuthorizationArgs(scopes="openid"), "not callable")
    with pytest.raises(TypeError):
        offline_client.authorize(AuthorizationArgs(scopes="openid"), None)
    with pytest.raises(TypeError):
        offline_client.add_log_callback(print, "Verbose")


def test_callbacks_are_released_after_they_ran(offline_client: Client) -> None:
    class Callback:
        def __call__(self, *args):
            pass

    callback = Callback()
    ref = weakref.ref(callback)
    before = sys.getrefcount(callback)
    _fail_authorize(offline_client, callback)
    assert sys.getrefcount(callback) == before + 1  # the SDK holds exactly one reference
    platformpp.run_callbacks()
    del callback
    gc.collect()
    assert ref() is None


def test_registered_callbacks_are_released_with_their_client() -> None:
    class Callback:
        def __call__(self, *args):
            pass

    client = Client("http://127.0.0.1:9/api/v10", "http://127.0.0.1:9")
    callback = Callback()
    ref = weakref.ref(callback)
    client.set_status_changed_callback(callback)
    client.add_log_callback(callback, platformpp.LoggingSeverity.Info)
    del callback
    gc.collect()
    assert ref() is not None  # the client keeps it
    del client
    platformpp.run_callbacks()
    gc.collect()
    assert ref() is None


def test_event_callbacks_stop_when_the_client_goes(offline_client: Client) -> None:
    seen = []
    offline_client.set_status_changed_callback(lambda *a: seen.append(a))
    offline_client.connect()  # no token: reports ConnectionFailed
    pump_until(lambda: bool(seen))
    status, error, _ = seen[0]
    assert status is Client.Status.Disconnected and error is Client.Error.ConnectionFailed


def test_pending_calls_complete_with_client_destroyed() -> None:
    outcome = Outcome()
    client = Client("http://127.0.0.1:9/api/v10", "http://127.0.0.1:9")
    client.set_authorize_url_opener(lambda url: None)
    client.authorize(AuthorizationArgs(scopes="openid", client_id=1), outcome)
    del client
    result = outcome.wait()[0]
    assert result.type is ErrorType.ClientDestroyed


def test_the_wakeup_fd_becomes_readable_when_callbacks_wait(offline_client: Client) -> None:
    platformpp.run_callbacks()
    fd = platformpp.callback_wakeup_fd()
    assert select.select([fd], [], [], 0)[0] == []
    outcome = Outcome()
    _fail_authorize(offline_client, outcome)
    assert select.select([fd], [], [], 2.0)[0] == [fd]
    platformpp.run_callbacks()
    assert outcome.calls == 1
    assert select.select([fd], [], [], 0)[0] == []
    assert fd == platformpp.callback_wakeup_fd() and os.get_inheritable(fd) is False
