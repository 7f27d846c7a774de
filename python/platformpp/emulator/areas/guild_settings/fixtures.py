"""The ``guild_settings`` fixture section: per guild, the vanity URL, paused invites and DMs, and join
requests, as they stand (no dispatches). A SUBMITTED request of a member makes that member pending.

```yaml
guild_settings:
  - guild_id: "7000"
    vanity_url_code: my-guild        # shown with the VANITY_URL feature
    vanity_url_uses: 12
    invites_disabled_until: "2026-07-10T12:00:00Z"
    dms_disabled_until: null
    join_requests: [{id: "7900", user_id: "5001", status: SUBMITTED}]
```"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import TYPE_CHECKING

from ...core.clock import format_instant, parse_instant
from ...core.fixtures import fixture_id, insert_checked
from ...core.validation import Form
from .join_requests import STATUSES

if TYPE_CHECKING:
    from ...state import EmulatorState

FIELDS = {"guild_id", "vanity_url_code", "vanity_url_uses", "invites_disabled_until", "dms_disabled_until",
          "join_requests"}
REQUEST_FIELDS = {"id", "user_id", "status", "form_responses", "rejection_reason"}
VANITY_CODE = re.compile(r"[a-z0-9-]{2,32}")


def read_vanity_code(form: Form, name: str = "vanity_url_code") -> str | None:
    """2–32 lower-case letters, digits and hyphens (null: none)."""
    code = form.string(name, required=False, nullable=True)
    if code is not None and not VANITY_CODE.fullmatch(code):
        form.fail(name, "VANITY_CODE_INVALID", "2 to 32 lower-case letters, digits and hyphens.")
        return None
    return code


def _instant(form: Form, name: str) -> str | None:
    raw = form.string(name, required=False, nullable=True)
    if raw is None:
        return None
    try:
        return format_instant(parse_instant(raw))
    except ValueError as exc:
        form.fail(name, "DATE_TYPE_CONVERT", str(exc))
        return None


def load_guild_settings(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    stamp = format_instant(state.clock.now())
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        item.refuse_unknown_keys(FIELDS)
        guild_id = item.snowflake("guild_id")
        if guild_id is not None and conn.execute("SELECT 1 FROM guilds WHERE id = ?", (guild_id,)).fetchone() is None:
            item.fail("guild_id", "UNKNOWN_GUILD", f"Guild {guild_id} is not in the world.")
        code = read_vanity_code(item)
        uses = item.integer("vanity_url_uses", required=False, minimum=0, maximum=1 << 31, default=0)
        invites_until, dms_until = _instant(item, "invites_disabled_until"), _instant(item, "dms_disabled_until")
        if not item.errors:
            try:
                conn.execute("UPDATE guilds SET vanity_url_code = ?, vanity_url_uses = ?, invites_disabled_until = ?,"
                             " dms_disabled_until = ? WHERE id = ?", (code, uses, invites_until, dms_until, guild_id))
            except sqlite3.IntegrityError:
                item.fail("vanity_url_code", "VANITY_CODE_TAKEN", "Another guild has this vanity code.")
        for request_index, request_raw in enumerate(item.array("join_requests", required=False) or []):
            entry = item.item("join_requests", request_index, request_raw)
            entry.refuse_unknown_keys(REQUEST_FIELDS)
            request_id = fixture_id(state, entry)
            user_id = entry.snowflake("user_id")
            if user_id is not None and conn.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is None:
                entry.fail("user_id", "UNKNOWN_USER", f"User {user_id} is not in the world.")
            status = entry.choice("status", STATUSES, required=False, default="SUBMITTED")
            responses = entry.array("form_responses", required=False) or []
            insert_checked(conn, entry, "INSERT INTO guild_join_requests (id, guild_id, user_id, status, form_responses,"
                           " rejection_reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           (request_id, guild_id, user_id, status, json.dumps(responses),
                            entry.string("rejection_reason", required=False, nullable=True, max_len=160), stamp))
            if status == "SUBMITTED" and not entry.errors:
                conn.execute("UPDATE members SET pending = 1 WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
