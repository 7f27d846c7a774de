"""The ``role_connections`` fixture section: per application, its metadata records, users'
connections and linked roles, as they stand::

    "role_connections": [{"application_id": "...", "metadata": [{"type": 2, "key": "level", ...}],
                          "users": [{"user_id": "...", "platform_name": "...", "metadata": {"level": 12}}],
                          "linked_roles": [{"role_id": "...", "requirements": {"level": 10}}]}]
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ...core.fixtures import row_exists
from ...core.validation import Form
from . import store

if TYPE_CHECKING:
    from ...state import EmulatorState

FIELDS = {"application_id", "metadata", "users", "linked_roles"}
USER_FIELDS = {"user_id", "platform_name", "platform_username", "metadata"}
ROLE_FIELDS = {"role_id", "requirements"}


def load_role_connections(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        item.refuse_unknown_keys(FIELDS)
        application_id = item.snowflake("application_id")
        if application_id is not None and not row_exists(conn, "applications", application_id):
            item.fail("application_id", "UNKNOWN_APPLICATION", "No application has this id.")
        records = store.read_records(item.data.get("metadata"), item.errors, (*item.path, "metadata"))
        if item.errors or application_id is None:
            continue
        store.replace_records(conn, application_id, records)
        for user_index, user_raw in enumerate(item.array("users", required=False) or []):
            user = item.item("users", user_index, user_raw)
            user.refuse_unknown_keys(USER_FIELDS)
            user_id = user.snowflake("user_id")
            if user_id is not None and not row_exists(conn, "users", user_id):
                user.fail("user_id", "UNKNOWN_USER", "No user has this id.")
            update = store.read_connection(user)
            if not user.errors and user_id is not None:
                store.put_connection(conn, application_id, user_id, update, user)
        for role_index, role_raw in enumerate(item.array("linked_roles", required=False) or []):
            role = item.item("linked_roles", role_index, role_raw)
            role.refuse_unknown_keys(ROLE_FIELDS)
            role_id = role.snowflake("role_id")
            if role_id is not None and not row_exists(conn, "roles", role_id):
                role.fail("role_id", "UNKNOWN_ROLE", "No role has this id.")
            requirements = role.data.get("requirements") or {}
            if not isinstance(requirements, dict):
                role.fail("requirements", "DICT_TYPE_CONVERT", "Must be an object of integers.")
            if not role.errors and role_id is not None:
                store.link_role(conn, role, role_id, application_id, requirements)
