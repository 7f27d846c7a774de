"""The guild features these pages switch (WELCOME_SCREEN_ENABLED, GUILD_ONBOARDING, ...): written to the
guild, announced as GUILD_UPDATE when the list changed, as the platform does."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from datetime import datetime

from ...events.outbox import Outbox
from ..guilds.dispatch import guild_bots, to_guild
from ..guilds.store import guild_object

WELCOME_SCREEN_ENABLED = "WELCOME_SCREEN_ENABLED"
GUILD_ONBOARDING = "GUILD_ONBOARDING"
GUILD_ONBOARDING_EVER_ENABLED = "GUILD_ONBOARDING_EVER_ENABLED"
GUILD_ONBOARDING_HAS_PROMPTS = "GUILD_ONBOARDING_HAS_PROMPTS"


def features_of(conn: sqlite3.Connection, guild_id: int) -> list[str]:
    row = conn.execute("SELECT features FROM guilds WHERE id = ?", (guild_id,)).fetchone()
    return list(json.loads(row["features"])) if row is not None else []


def switch(conn: sqlite3.Connection, outbox: Outbox | None, now: datetime, guild_id: int, *,
           add: Iterable[str] = (), remove: Iterable[str] = ()) -> bool:
    """Add and remove features; GUILD_UPDATE to the guild's bots when that changed the list (``outbox``
    None: a world file, which dispatches nothing). Returns whether it changed."""
    before = features_of(conn, guild_id)
    after = [f for f in before if f not in set(remove)]
    after += [f for f in add if f not in after]
    if after == before:
        return False
    conn.execute("UPDATE guilds SET features = ? WHERE id = ?", (json.dumps(after), guild_id))
    if outbox is not None:
        to_guild(outbox, guild_bots(conn, guild_id, now), "GUILD_UPDATE", guild_object(conn, guild_id))
    return True
