"""A game-loop helper for frame-based engines (pygame, pyglet, Panda3D tasks...).

Call ``tick()`` once per frame. It runs the SDK callbacks queued since the last frame and, if you
use the async API, advances platformpp's asyncio loop by one step, so coroutines such as
``await client.authorize_async(args)`` make progress between frames without a thread:

    frames = platformpp.FrameLoop()
    frames.spawn(sign_in(client))          # a coroutine; runs a little every frame
    client.on("lobby_created", on_lobby)   # an async def handler runs on the same loop
    while running:
        frames.tick()
        ...draw...
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class FrameLoop:
    """Runs SDK callbacks and an asyncio loop one step per frame. Not thread-safe: tick on one thread."""

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._pumped = False

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The asyncio loop the spawned coroutines run on."""
        return self._loop

    def spawn(self, coroutine: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """Schedules `coroutine` to run a step at a time in tick(); returns its task."""
        return self._loop.create_task(coroutine)

    def tick(self) -> None:
        """Runs queued SDK callbacks, then one pass of the asyncio loop (never blocks)."""
        from . import _platformpp, aio

        if not self._pumped:  # this loop also runs the coroutine handlers of client.on()
            aio.pump(self._loop)
            self._pumped = True
        _platformpp.run_callbacks()
        # One iteration: everything ready now runs, then the loop stops without waiting.
        self._loop.call_soon(self._loop.stop)
        self._loop.run_forever()

    def close(self) -> None:
        """Cancels what is still pending and closes the loop."""
        pending = asyncio.all_tasks(self._loop)
        for task in pending:
            task.cancel()
        if pending:
            self._loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        self._loop.close()

    def __enter__(self) -> FrameLoop:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
