"""The ``guild_templates`` fixture section (and the admin route that adds one template): a guild's
template, its snapshot taken from the guild as the world file built it."""

from __future__ import annotations

import re
import sqlite3
from typing import TYPE_CHECKING, Any

from ...core.errors import ApiError
from ...core.validation import Form
from . import store
from .routes import read_fields

if TYPE_CHECKING:
    from ...state import EmulatorState

FIELDS = {"guild_id", "code", "name", "description", "creator_id", "usage_count"}
CODE = re.compile(r"[A-Za-z0-9_-]{1,64}")


def add_template(state: EmulatorState, conn: sqlite3.Connection, item: Form, guild_id: int | None) -> \
        dict[str, Any] | None:
    """One template from ``item`` (``guild_id`` read from it when None); None when a field was bad (the
    errors are in ``item``). The creator defaults to the guild's owner."""
    if guild_id is None:
        guild_id = item.snowflake("guild_id")
    values = read_fields(item, creating=True)
    code = item.string("code", required=False)
    if code is not None and not CODE.fullmatch(code):
        item.fail("code", "BASE_TYPE_BAD_FORMAT", "Must be 1-64 letters, digits, '-' or '_'.")
    usage_count = item.integer("usage_count", required=False, minimum=0, maximum=2**31 - 1, default=0)
    creator_id = item.snowflake("creator_id", required=False)
    guild = conn.execute("SELECT owner_id FROM guilds WHERE id = ?", (guild_id,)).fetchone()
    if guild_id is not None and guild is None:
        item.fail("guild_id", "GUILD_UNKNOWN", f"No guild {guild_id}.")
    if creator_id is not None and conn.execute("SELECT 1 FROM users WHERE id = ?", (creator_id,)).fetchone() is None:
        item.fail("creator_id", "USER_UNKNOWN", f"No user {creator_id}.")
    if code is not None and conn.execute("SELECT 1 FROM guild_templates WHERE code = ?", (code,)).fetchone():
        item.fail("code", "CODE_TAKEN", "Another template has this code.")
    if item.errors or guild_id is None or guild is None:
        return None
    try:
        return store.create(conn, guild_id=guild_id, creator_id=creator_id or guild["owner_id"],
                            name=values["name"], description=values.get("description"), now=state.clock.iso(),
                            code=code, usage_count=usage_count or 0)
    except ApiError as exc:   # the guild has one already
        item.fail("guild_id", "GUILD_HAS_TEMPLATE", exc.message)
        return None


def load_guild_templates(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        item.refuse_unknown_keys(FIELDS)
        add_template(state, conn, item, None)
