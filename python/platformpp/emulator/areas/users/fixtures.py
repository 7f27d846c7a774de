"""The ``users`` fixture section (with connections and external identities), and the user row that
bot users of the ``applications`` section share."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ...core.clock import format_instant, parse_instant
from ...core.fixtures import fixture_id, insert_checked, row_exists
from ...core.snowflake import snowflake_time
from ...core.validation import Form

if TYPE_CHECKING:
    from ...state import EmulatorState


PRIVACY_LEVELS = ("everyone", "friends_only", "friends_and_small_servers")


def insert_user(conn: sqlite3.Connection, item: Form, user_id: int, *, bot: bool) -> None:
    if row_exists(conn, "users", user_id):
        item.fail("id", "ALREADY_EXISTS", f"User {user_id} already exists.")
        return
    username = item.string("username", min_len=2, max_len=32)
    if username and conn.execute("SELECT 1 FROM users WHERE username = ? AND provisional = 0",
                                 (username,)).fetchone():
        item.fail("username", "USERNAME_TAKEN", "Username is already taken.")
    privacy = item.choice("privacy", PRIVACY_LEVELS, required=False, default="everyone")
    insert_checked(conn, item,
        "INSERT INTO users (id, username, global_name, avatar, bot, premium_type, flags, email, locale,"
        " mfa_enabled, profile_privacy, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (user_id, username or "", item.string("global_name", required=False, min_len=1, max_len=32),
         item.string("avatar", required=False, max_len=64), int(bot),
         item.integer("premium_type", required=False, minimum=0, maximum=3, default=0) or 0,
         item.integer("flags", required=False, minimum=0, default=0) or 0,
         item.string("email", required=False, max_len=320),
         item.string("locale", required=False, default="en-US", max_len=10),
         int(item.boolean("mfa_enabled")), privacy or "everyone", format_instant(snowflake_time(user_id))))


def load_users(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        item.refuse_unknown_keys({"id", "username", "global_name", "avatar", "premium_type", "flags", "email",
                           "locale", "mfa_enabled", "privacy", "connections", "external_identities"})
        user_id = fixture_id(state, item)
        insert_user(conn, item, user_id, bot=False)
        for c_index, c_raw in enumerate(item.array("connections", required=False) or []):
            conn_form = item.item("connections", c_index, c_raw)
            conn_form.refuse_unknown_keys({"type", "id", "name", "verified", "revoked", "visibility", "friend_sync",
                                    "show_activity", "two_way_link", "legacy", "created_at"})
            created = conn_form.string("created_at", required=False)
            try:
                created_at = format_instant(parse_instant(created)) if created else state.clock.iso()
            except ValueError as exc:
                conn_form.fail("created_at", "DATE_TYPE_CONVERT", str(exc))
                created_at = ""
            insert_checked(conn, conn_form,
                "INSERT OR REPLACE INTO connections (user_id, type, id, name, verified, revoked, visibility,"
                " friend_sync, show_activity, two_way_link, legacy, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (user_id, conn_form.string("type", min_len=1, max_len=64), conn_form.string("id", min_len=1,
                 max_len=128), conn_form.string("name", min_len=1, max_len=128),
                 int(conn_form.boolean("verified", default=True)), int(conn_form.boolean("revoked")),
                 conn_form.choice("visibility", (0, 1), required=False, default=1),
                 int(conn_form.boolean("friend_sync")), int(conn_form.boolean("show_activity", default=True)),
                 int(conn_form.boolean("two_way_link")), int(conn_form.boolean("legacy")), created_at))
        for e_index, e_raw in enumerate(item.array("external_identities", required=False) or []):
            ext = item.item("external_identities", e_index, e_raw)
            ext.refuse_unknown_keys({"application_id", "type", "id"})
            insert_checked(conn, ext,
                "INSERT INTO external_identities (application_id, auth_type, external_user_id, user_id,"
                " created_at) VALUES (?, ?, ?, ?, ?)",
                (ext.snowflake("application_id"), ext.string("type", min_len=1, max_len=64),
                 ext.string("id", min_len=1, max_len=256), user_id, state.clock.iso()))
