"""The ``auto_moderation_rules`` fixture section: a guild's rules as they stand (no dispatches, no audit
entries), read with the same rules as the API (field limits, per-guild limits, the guild's channels and
roles). ``[{id?, guild_id, creator_id, name, event_type, trigger_type, trigger_metadata?, actions?,
enabled? (false), exempt_roles?, exempt_channels?}]``."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from ...core.fixtures import fixture_id
from ...core.validation import Form
from . import store
from .rules import read_rule

if TYPE_CHECKING:
    from ...state import EmulatorState

FIELDS = {"id", "guild_id", "creator_id", "name", "event_type", "trigger_type", "trigger_metadata", "actions",
          "enabled", "exempt_roles", "exempt_channels"}


def _copy_errors(item: Form, tree: dict[str, Any], path: tuple[str, ...] = ()) -> None:
    for key, value in tree.items():
        if key == "_errors":
            for error in value:
                item.errors.add((*item.path, *path), error["code"], error["message"])
        else:
            _copy_errors(item, value, (*path, key))


def load_rules(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        item.refuse_unknown_keys(FIELDS)
        rule_id = fixture_id(state, item)
        guild_id = item.snowflake("guild_id")
        creator_id = item.snowflake("creator_id")
        fields = read_rule(item, partial=False)
        if guild_id is not None and conn.execute("SELECT 1 FROM guilds WHERE id = ?", (guild_id,)).fetchone() is None:
            item.fail("guild_id", "GUILD_UNKNOWN", "No guild with this id.")
        if item.errors or guild_id is None or creator_id is None:
            continue
        problems = store.reference_problems(conn, guild_id, fields, None, None)
        if problems:
            _copy_errors(item, problems.tree)
            continue
        store.insert(state, conn, guild_id=guild_id, creator_id=creator_id, fields=fields, rule_id=rule_id)
