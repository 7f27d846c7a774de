"""nextcord, unchanged, as a bot against a running emulator: the library is configured only as its users
configure it (its API base ``Route.BASE``, an aiohttp connector trusting the emulator's authority when the
emulator serves TLS); the Gateway URL it gets from the HTTP API.

The bot runs on an event loop of its own thread, so a test can block on a simulated user while the bot
answers. ``bot.run(coro)`` runs a coroutine on that loop and waits for it with a timeout; nothing waits
without one."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import aiohttp
import httpx
import nextcord
import nextcord.http
from emulator_world import APP_ID, BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator

T = TypeVar("T")

WAIT_S = 10.0
BOT_ROLE = 1200000000000000011   # the bot's managed role in the default guild


def admin(emu: Emulator) -> httpx.Client:
    """A client of the emulator's admin API (``/_emulator``), to act as users and set things up."""
    return httpx.Client(base_url=emu.base_url + "/_emulator", timeout=WAIT_S,
                        verify=emu.client_tls_context() if emu.base_url.startswith("https") else True)


def enable_privileged_intents(emu: Emulator, *names: str) -> None:
    """The developer portal's toggles of the default world's app (it holds no privileged intent)."""
    with admin(emu) as http:
        for name in names:
            response = http.put(f"/applications/{APP_ID}/privileged-intents/{name}", json={"enabled": True})
            assert response.status_code < 300, response.text


def grant_bot_permissions(emu: Emulator, permissions: nextcord.Permissions) -> None:
    """What the guild's owner grants the bot's role (in the default world it holds no moderation rights)."""
    with admin(emu) as http:
        response = http.patch(f"/guilds/{GUILD_ID}/roles/{BOT_ROLE}",
                              json={"permissions": str(permissions.value)})
        assert response.status_code < 300, response.text


class NextcordBot:
    """``with NextcordBot(emu, intents=..., setup=fn) as bot:`` a logged-in ``nextcord.Client``
    (``bot.client``) whose READY has arrived. ``setup(client)`` runs on the bot's loop before login: it
    adds commands and event handlers as a bot's own code does."""

    def __init__(self, emu: Emulator, *, intents: nextcord.Intents | None = None,
                 setup: Callable[[nextcord.Client], None] | None = None,
                 client_class: type[nextcord.Client] = nextcord.Client, **client_options: Any) -> None:
        self.emu = emu
        self.intents = intents if intents is not None else nextcord.Intents.default()
        self.setup = setup
        self.client_class = client_class
        # After the last GUILD_CREATE the library waits this long for more before READY: on loopback every
        # guild has arrived long before its 2 s default.
        self.client_options = {"guild_ready_timeout": 0.5, **client_options}
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="nextcord-bot", daemon=True)
        self.client: nextcord.Client = None  # type: ignore[assignment]
        self._runner: asyncio.Task[None] | None = None

    def __enter__(self) -> NextcordBot:
        # The library's API base: a class setting its users change to reach another API host.
        nextcord.http.Route.BASE = self.emu.api_base
        self._thread.start()
        try:
            self.run(self._start(), timeout=WAIT_S)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    async def _start(self) -> None:
        tls = self.emu.client_tls_context() if self.emu.base_url.startswith("https") else None
        connector = aiohttp.TCPConnector(ssl=tls) if tls is not None else None
        self.client = self.client_class(intents=self.intents, connector=connector, loop=self.loop,
                                        **self.client_options)
        if self.setup is not None:
            self.setup(self.client)
        self._runner = self.loop.create_task(self.client.start(BOT_TOKEN))
        ready = self.loop.create_task(self.client.wait_until_ready())
        done, _ = await asyncio.wait({ready, self._runner}, timeout=WAIT_S,
                                     return_when=asyncio.FIRST_COMPLETED)
        if self._runner in done:
            ready.cancel()
            self._runner.result()   # the library's own exception (a refused login, a closed Gateway)
            raise AssertionError("the bot stopped before READY")
        if ready not in done:
            ready.cancel()
            raise TimeoutError("no READY within the wait")

    def run(self, coro: Coroutine[Any, Any, T] | Awaitable[T], timeout: float = WAIT_S) -> T:
        """Runs ``coro`` on the bot's loop; its result, or its exception, here."""
        async def bounded() -> T:
            return await asyncio.wait_for(coro, timeout)

        return asyncio.run_coroutine_threadsafe(bounded(), self.loop).result(timeout + 5)

    def wait_for(self, event: str, check: Callable[..., bool] | None = None, timeout: float = WAIT_S) -> Any:
        """The next ``event`` the library dispatches (its own ``Client.wait_for``)."""
        return self.run(self.client.wait_for(event, check=check, timeout=timeout), timeout + 1)

    def expect(self, event: str, check: Callable[..., bool] | None = None,
               timeout: float = WAIT_S) -> Callable[[], Any]:
        """Starts waiting for ``event`` now (before the action that causes it); call the result to get it."""
        future = asyncio.run_coroutine_threadsafe(
            self.client.wait_for(event, check=check, timeout=timeout), self.loop)
        self.run(asyncio.sleep(0))   # the loop has started the wait (its listener is registered) after this
        return lambda: future.result(timeout + 1)

    @staticmethod
    async def _cancel_rest() -> None:
        """Ends what the library left running (a view's timeout, a waiter), as ``asyncio.run`` does."""
        rest = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in rest:
            task.cancel()
        await asyncio.gather(*rest, return_exceptions=True)

    def __exit__(self, *exc: object) -> None:
        try:
            if self.client is not None and not self.client.is_closed():
                self.run(self.client.close(), timeout=WAIT_S)
            if self._runner is not None:
                self.run(asyncio.wait({self._runner}, timeout=WAIT_S), timeout=WAIT_S)
            asyncio.run_coroutine_threadsafe(self._cancel_rest(), self.loop).result(WAIT_S)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(WAIT_S)
            if not self._thread.is_alive():
                self.loop.close()
