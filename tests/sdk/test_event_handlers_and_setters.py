"""client.on() handlers and set_<event>_callback together; coroutine handlers on the SDK's loop."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from sdk_support import pump_until

import platformpp
from platformpp import Client, events


def _offline() -> Client:
    return Client("http://127.0.0.1:9/api/v10", "http://127.0.0.1:9")


def test_the_setter_callback_and_on_handlers_all_run_and_setting_another_keeps_the_handlers() -> None:
    client = _offline()
    seen: list[str] = []
    client.on("status_changed", lambda *args: seen.append("added before"))
    client.set_status_changed_callback(lambda *args: seen.append("first setter"))
    client.set_status_changed_callback(lambda *args: seen.append("setter"))  # replaces the first
    client.on("status_changed", lambda *args: seen.append("added after"))
    client.connect()  # no token: Disconnected / ConnectionFailed
    pump_until(lambda: len(seen) == 3)
    assert seen == ["setter", "added before", "added after"]

    client.set_status_changed_callback(None)  # removes the setter's callback only
    seen.clear()
    client.connect()
    pump_until(lambda: len(seen) == 2)
    assert seen == ["added before", "added after"]


def test_the_setter_keeps_its_parameter_name_and_refuses_what_is_not_callable() -> None:
    client = _offline()
    seen: list[object] = []
    client.set_status_changed_callback(callback=lambda status, error, detail: seen.append(error))
    with pytest.raises(TypeError, match="callback"):
        client.set_status_changed_callback(42)
    client.connect()
    pump_until(lambda: bool(seen))
    assert seen == [Client.Error.ConnectionFailed]


def test_every_event_is_named_in_the_typed_event_names() -> None:
    assert set(events.events_of(Client)) == set(events.EventName.__args__)


def test_a_coroutine_handler_runs_on_the_frame_loop_and_its_failure_is_reported() -> None:
    client = _offline()
    seen: list[object] = []
    caught: list[BaseException] = []

    @client.on("status_changed")
    async def record(status: Client.Status, error: Client.Error, detail: int) -> None:
        await asyncio.sleep(0)
        seen.append(error)

    @client.on("status_changed")
    async def failing(*args: Any) -> None:
        raise RuntimeError("handler failure")

    platformpp.set_callback_error_hook(caught.append)
    try:
        with platformpp.FrameLoop() as frames:
            frames.tick()
            client.connect()
            deadline = time.monotonic() + 10
            while not (seen and caught) and time.monotonic() < deadline:
                frames.tick()
                time.sleep(0.002)
    finally:
        platformpp.set_callback_error_hook(None)
    assert seen == [Client.Error.ConnectionFailed]
    assert isinstance(caught[0], RuntimeError)


def test_a_coroutine_handler_with_no_loop_pumping_the_sdk_is_reported() -> None:
    client = _offline()
    caught: list[BaseException] = []

    async def handler(*args: Any) -> None:
        pass

    client.on("status_changed", handler)
    platformpp.set_callback_error_hook(caught.append)
    try:
        # A loop pumped before and closed since no longer counts.
        with platformpp.FrameLoop() as frames:
            frames.tick()
        client.connect()
        pump_until(lambda: bool(caught))
    finally:
        platformpp.set_callback_error_hook(None)
    assert "connect_async()" in str(caught[0])
