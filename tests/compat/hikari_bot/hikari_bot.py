"""hikari's GatewayBot, unchanged, against a running emulator, configured only as its users configure it:
``rest_url`` (the API base), the Gateway URL it reads from GET /gateway/bot, and for TLS an SSL context in
its ``HTTPSettings``. The bot runs on an event loop of its own thread, so that a simulated user (whose calls
block until the app answers) and the admin API can be driven from the test's thread. Every wait has a
timeout."""

from __future__ import annotations

import asyncio
import ssl
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import hikari
import httpx
from emulator_world import APP_ID, BOT_ID, BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.default_world import BOT_ROLE_ID as BOT_ROLE
from platformpp.emulator.default_world import GENERAL_CHANNEL_ID as GENERAL
from platformpp.emulator.default_world import LOUNGE_CHANNEL_ID as LOUNGE
from platformpp.emulator.default_world import MODERATOR_ROLE_ID as MODERATOR_ROLE
from platformpp.emulator.default_world import MODERATORS_CHANNEL_ID as MODERATORS
from platformpp.emulator.default_world import TEXT_CATEGORY_ID as TEXT_CATEGORY
from platformpp.emulator.default_world import VOICE_CATEGORY_ID as VOICE_CATEGORY

__all__ = ["BOT_ROLE", "GENERAL", "LOUNGE", "MODERATOR_ROLE", "MODERATORS", "TEXT_CATEGORY", "VOICE_CATEGORY",
           "HikariBot", "admin", "enable_privileged_intents", "eventually", "make_bot_administrator"]

T = TypeVar("T")
E = TypeVar("E", bound=hikari.Event)
Listener = Callable[[Any], Coroutine[Any, Any, None]]

WAIT_S = 10.0
ADMINISTRATOR = int(hikari.Permissions.ADMINISTRATOR)


class HikariBot:
    """A started ``hikari.GatewayBot`` of the default world's application, on its own loop thread.

    ``events`` records every event hikari dispatched, in order; ``wait_event`` waits for one."""

    def __init__(self, emu: Emulator, *, intents: hikari.Intents = hikari.Intents.ALL_UNPRIVILEGED,
                 tls: ssl.SSLContext | None = None,
                 listeners: dict[type[hikari.Event], Listener] | None = None) -> None:
        self.emu = emu
        self.events: list[hikari.Event] = []
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="hikari-bot", daemon=True)
        self._thread.start()

        async def make() -> hikari.GatewayBot:
            settings = hikari.impl.HTTPSettings(ssl=tls) if tls is not None else None
            bot = hikari.GatewayBot(BOT_TOKEN, rest_url=emu.api_base, intents=intents, http_settings=settings,
                                    logs=None, banner=None, suppress_optimization_warning=True)
            bot.subscribe(hikari.Event, self._record)
            for event_type, listener in (listeners or {}).items():
                bot.subscribe(event_type, listener)
            await bot.start(check_for_updates=False)
            return bot

        try:
            self.bot = self.call(make())
        except BaseException:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(WAIT_S)
            raise

    async def _record(self, event: hikari.Event) -> None:
        self.events.append(event)

    @property
    def rest(self) -> hikari.api.RESTClient:
        return self.bot.rest

    def call(self, coro: Coroutine[Any, Any, T], timeout: float = WAIT_S) -> T:
        """Runs ``coro`` on the bot's loop and returns its result (raising what it raised)."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def wait_event(self, event_type: type[E], predicate: Callable[[E], bool] = lambda _: True,
                   timeout: float = WAIT_S) -> E:
        """The first recorded event of ``event_type`` matching ``predicate`` (already seen or to come)."""
        deadline = time.monotonic() + timeout
        while True:
            for event in list(self.events):
                if isinstance(event, event_type) and predicate(event):
                    return event
            if time.monotonic() > deadline:
                seen = sorted({type(e).__name__ for e in self.events})
                raise AssertionError(f"no {event_type.__name__} within {timeout} s; seen: {seen}")
            time.sleep(0.02)

    def close(self) -> None:
        try:
            self.call(self.bot.close())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(WAIT_S)
            self.loop.close()

    def __enter__(self) -> HikariBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def eventually(read: Callable[[], T], check: Callable[[T], bool], timeout: float = WAIT_S) -> T:
    """``read()`` once ``check`` holds for it (the bot answers on its own thread), else the last read
    in an AssertionError."""
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if check(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still {value!r} after {timeout} s")
        time.sleep(0.02)


def admin(emu: Emulator, method: str, path: str, body: Any = None) -> httpx.Response:
    """An admin API route (``/_emulator``) that ``emu.admin`` has no typed call for (the portal's toggles,
    guild set-up, scheduled-event interest)."""
    response = httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=WAIT_S,
                             verify=emu.client_tls_context() or True)
    assert response.status_code < 300, f"{method} {path}: {response.status_code} {response.text}"
    return response


def enable_privileged_intents(emu: Emulator) -> None:
    """The developer portal's toggles of the default world's app, as its developer sets them."""
    for name in ("GUILD_MEMBERS", "MESSAGE_CONTENT", "GUILD_PRESENCES"):
        admin(emu, "PUT", f"/applications/{APP_ID}/privileged-intents/{name}", {"enabled": True})


def make_bot_administrator(emu: Emulator) -> int:
    """As the guild's owner sets a bot up: a new top role with ADMINISTRATOR, given to the bot.
    Answers the role's id."""
    role = admin(emu, "POST", f"/guilds/{GUILD_ID}/roles",
                 {"name": "Bot Admin", "permissions": str(ADMINISTRATOR), "position": 3})
    role_id = int(role.json()["id"])
    admin(emu, "PUT", f"/guilds/{GUILD_ID}/members/{BOT_ID}/roles/{role_id}")
    return role_id
