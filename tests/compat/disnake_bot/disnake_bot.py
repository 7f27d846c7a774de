"""disnake, unchanged, against the emulator: a bot on its own event loop thread, configured only as
disnake's users configure it (``disnake.http.Route.BASE`` for the API base, an aiohttp connector for TLS
trust; the Gateway URL comes from GET /gateway/bot), and the admin calls the tests use to act as users
and to set the world up."""

from __future__ import annotations

import asyncio
import sys
import threading
import traceback
import warnings
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import aiohttp
import disnake
import httpx
from disnake.custom_warnings import DiscordWarning
from disnake.ext import commands
from emulator_world import APP_ID, BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.default_world import BOT_ROLE_ID as BOT_ROLE
from platformpp.emulator.default_world import GENERAL_CHANNEL_ID as GENERAL
from platformpp.emulator.default_world import LOUNGE_CHANNEL_ID as LOUNGE
from platformpp.emulator.default_world import MODERATOR_ROLE_ID as MODERATOR_ROLE
from platformpp.emulator.default_world import MODERATORS_CHANNEL_ID as MODERATORS

T = TypeVar("T")

ADMINISTRATOR = 1 << 3
WAIT_S = 10.0


def admin(emu: Emulator, method: str, path: str, body: Any = None) -> httpx.Response:
    """An admin API route (``/_emulator``) that ``emu.admin`` has no typed call for (the portal's toggles,
    guild set-up, the voice service)."""
    response = httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=WAIT_S,
                             verify=emu.client_tls_context() or True)
    assert response.status_code < 300, f"{method} {path}: {response.status_code} {response.text}"
    return response


def enable_privileged(emu: Emulator, *names: str) -> None:
    """The developer portal's toggles of the default app (GUILD_MEMBERS, MESSAGE_CONTENT, ...)."""
    for name in names:
        admin(emu, "PUT", f"/applications/{APP_ID}/privileged-intents/{name}", {"enabled": True})


def make_bot_admin(emu: Emulator) -> None:
    """The bot's managed role gets ADMINISTRATOR, as a server owner would give it for admin commands."""
    admin(emu, "PATCH", f"/guilds/{GUILD_ID}/roles/{BOT_ROLE}", {"permissions": str(ADMINISTRATOR)})


class RunningBot:
    """A disnake client, built by ``make(**client_kwargs)`` on its own event loop and thread (aiohttp binds
    its connector to the running loop), started with the default bot token. ``call`` runs a coroutine on
    that loop, ``expect`` waits for one of the client's events; every wait has a timeout."""

    def __init__(self, emu: Emulator, make: Callable[..., Any], client_kwargs: dict[str, Any],
                 token: str = BOT_TOKEN) -> None:
        self.emu, self._make, self._kwargs, self._token = emu, make, client_kwargs, token
        self.client: Any = None
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="disnake-bot", daemon=True)
        self._runner: asyncio.Task[None] | None = None
        self.errors: list[str] = []

    async def _start(self) -> None:
        tls = self.emu.client_tls_context()
        self.client = self._make(**({} if tls is None else {"connector": aiohttp.TCPConnector(ssl=tls)}),
                                 **self._kwargs)
        self._record_handler_errors()
        self._runner = asyncio.create_task(self.client.start(self._token))
        ready = asyncio.create_task(self.client.wait_until_ready())
        await asyncio.wait({ready, self._runner}, return_when=asyncio.FIRST_COMPLETED)
        if self._runner.done():
            ready.cancel()
            self._runner.result()   # the library's own exception (a refused login, a closed Gateway)
            raise AssertionError("the bot stopped before READY")

    def _record_handler_errors(self) -> None:
        """disnake prints an exception raised in an event or command handler to stderr and goes on; a bot
        records them (its own ``on_error`` and command error events) so that the test fails on them."""
        def record(event: str) -> Callable[..., Coroutine[Any, Any, None]]:
            async def handler(*args: Any, **kwargs: Any) -> None:
                error = sys.exc_info()[1] or next((a for a in args if isinstance(a, BaseException)), None)
                trace = "".join(traceback.format_exception(error)) if error is not None else ""
                self.errors.append(f"{event}: {error!r}\n{trace}")
            handler.__name__ = event
            return handler

        names = ["on_error"]
        if isinstance(self.client, commands.InteractionBot):
            names += ["on_slash_command_error", "on_user_command_error", "on_message_command_error"]
        for name in names:
            self.client.event(record(name))

    def start(self) -> RunningBot:
        self._thread.start()
        self.call(self._start())
        return self

    def call(self, coro: Coroutine[Any, Any, T], timeout: float = WAIT_S) -> T:
        """Runs ``coro`` on the bot's loop, bounded by ``timeout``: its result, or its exception, here."""
        bounded = asyncio.wait_for(coro, timeout)
        return asyncio.run_coroutine_threadsafe(bounded, self.loop).result(timeout + 2)

    def expect(self, event: str, action: Callable[[], Any] | None = None,
               check: Callable[..., bool] | None = None, timeout: float = WAIT_S) -> Any:
        """Waits for the client's ``event`` (the wait starts before ``action`` runs on this thread)."""
        waiting = asyncio.run_coroutine_threadsafe(self.client.wait_for(event, check=check, timeout=timeout),
                                                   self.loop)
        self.call(asyncio.sleep(0))   # the loop runs tasks in order: the wait's listener is registered now
        if action is not None:
            action()
        return waiting.result(timeout + 1)

    def stop(self) -> None:
        try:
            if self.client is not None and not self.client.is_closed():
                self.call(self.client.close())
            if self._runner is not None:
                self.call(asyncio.wait({self._runner}))
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(WAIT_S)
            if not self._thread.is_alive():
                self.loop.close()
        assert not self.errors, "the bot's handlers raised:\n" + "\n".join(self.errors)


@contextmanager
def running(emu: Emulator, make: Callable[..., Any], *, token: str = BOT_TOKEN,
            **client_kwargs: Any) -> Iterator[RunningBot]:
    """The bot (the default world's unless ``token`` names another) for the ``with`` block, with disnake's
    API base set to the emulator's the way its users set it (``disnake.http.Route.BASE``), restored after."""
    previous = disnake.http.Route.BASE
    disnake.http.Route.BASE = emu.api_base
    # disnake waits this long after the last GUILD_CREATE before READY (2 s by default); one guild here
    client_kwargs.setdefault("guild_ready_timeout", 0.2)
    bot = RunningBot(emu, make, client_kwargs, token)
    # the library warns (warnings, not logging) when a command sync fails
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DiscordWarning)
        try:
            yield bot.start()
        finally:
            try:
                bot.stop()
            finally:
                disnake.http.Route.BASE = previous
    problems = [str(w.message) for w in caught if issubclass(w.category, DiscordWarning)]
    assert not problems, "disnake warned:\n" + "\n".join(problems)


__all__ = ["BOT_ROLE", "GENERAL", "LOUNGE", "MODERATOR_ROLE", "MODERATORS", "WAIT_S", "RunningBot", "admin",
           "enable_privileged", "make_bot_admin", "running"]
