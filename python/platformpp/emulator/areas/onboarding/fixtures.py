"""The fixture sections of a guild's pages for new members: ``welcome_screens``, ``guild_onboarding`` and
``new_member_welcome``, each a list of entries naming their ``guild_id`` (loaded as they stand: no
dispatches, no audit entries). The admin routes read the same entries, without ``guild_id``."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING

from ...core.errors import ApiError
from ...core.validation import Form
from . import new_member_welcome, onboarding, welcome_screen

if TYPE_CHECKING:
    from ...state import EmulatorState

WELCOME_SCREEN_FIELDS = {"enabled", "description", "welcome_channels"}
ONBOARDING_FIELDS = {"enabled", "mode", "default_channel_ids", "prompts"}
NEW_MEMBER_WELCOME_FIELDS = {"enabled", "welcome_message", "new_member_actions", "resource_channels"}

Setter = Callable[["EmulatorState", sqlite3.Connection, Form, int], None]


def set_welcome_screen(state: EmulatorState, conn: sqlite3.Connection, item: Form, guild_id: int) -> None:
    changes = welcome_screen.read_changes(item, conn, guild_id)
    if not item.errors:
        welcome_screen.apply(conn, None, state.clock.now(), guild_id, None, changes)


def set_onboarding(state: EmulatorState, conn: sqlite3.Connection, item: Form, guild_id: int) -> None:
    changes = onboarding.read_changes(item, conn, guild_id, state.ids.next)
    if item.errors:
        return
    try:
        onboarding.apply(conn, None, state.clock.now(), guild_id, None, changes)
    except ApiError as exc:   # the requirements of an enabled onboarding
        item.fail("enabled", "ONBOARDING_REQUIREMENTS", f"{exc.message} ({exc.code}).")


def set_new_member_welcome(state: EmulatorState, conn: sqlite3.Connection, item: Form, guild_id: int) -> None:
    settings = new_member_welcome.read_settings(item, conn, guild_id)
    if not item.errors:
        new_member_welcome.save(conn, guild_id, settings)


def _section(fields: set[str], setter: Setter) -> Callable[[EmulatorState, sqlite3.Connection, Form, str], None]:
    def load(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
        for index, raw in enumerate(form.array(name) or []):
            item = form.item(name, index, raw)
            item.refuse_unknown_keys(fields | {"guild_id"})
            guild_id = item.snowflake("guild_id")
            if guild_id is not None and conn.execute("SELECT 1 FROM guilds WHERE id = ?", (guild_id,)).fetchone() \
                    is None:
                item.fail("guild_id", "GUILD_UNKNOWN", f"No guild {guild_id}.")
            if guild_id is not None and not item.errors:
                setter(state, conn, item, guild_id)
    return load


load_welcome_screens = _section(WELCOME_SCREEN_FIELDS, set_welcome_screen)
load_guild_onboarding = _section(ONBOARDING_FIELDS, set_onboarding)
load_new_member_welcome = _section(NEW_MEMBER_WELCOME_FIELDS, set_new_member_welcome)
