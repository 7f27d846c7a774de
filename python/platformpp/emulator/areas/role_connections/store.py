"""Role connection metadata, users' role connections and linked roles: reading and writing them with
the platform's rules, and whether a member meets a linked role's requirements.

A metadata record's type says how a user's value compares with a linked role's required value:
integers ≤ ≥ = ≠ (types 1–4); datetimes (5: at or before, 6: at or after the instant that many
days ago); booleans = ≠ (7, 8; values 1 and 0). A user's values are stored as the strings the
platform answers with."""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from ...core import errors
from ...core.clock import format_instant, parse_instant
from ...core.validation import FieldErrors, Form
from ...events.audience import Payload
from ..commands.validation import LOCALES

MAX_RECORDS = 5
KEY = re.compile(r"^[a-z0-9_]{1,50}$")
INTEGER_TYPES = (1, 2, 3, 4)
DATETIME_TYPES = (5, 6)
BOOLEAN_TYPES = (7, 8)
RECORD_TYPES = (*INTEGER_TYPES, *DATETIME_TYPES, *BOOLEAN_TYPES)
# true and false are 1 and 0 as dictionary keys.
_BOOLEANS = {1: "1", 0: "0", "1": "1", "0": "0", "true": "1", "false": "0"}


@dataclass
class Connection:
    """The validated fields of a role connection update (only the given ones)."""

    values: dict[str, Any]
    raw_metadata: dict[str, Any] | None = None


# -- metadata records --------------------------------------------------------------------------------

def _localizations(form: Form, name: str, max_len: int) -> dict[str, str] | None:
    sub = form.obj(name, required=False, nullable=True)
    if sub is None:
        return None
    result = {}
    for locale in sub.data:
        if locale not in LOCALES:
            sub.fail(locale, "BASE_TYPE_CHOICES", f"Locale must be one of {sorted(LOCALES)}.")
            continue
        text = sub.string(locale, min_len=1, max_len=max_len)
        if text is not None:
            result[locale] = text
    return result


def read_records(data: Any, found: FieldErrors | None = None, path: tuple[str | int, ...] = ()) -> list[dict[str, Any]]:
    """A PUT body of metadata records: an array (null: none) of at most 5 ``{type 1–8, key (a-z 0-9 _,
    1–50, unique), name (1–100), description (1–200), name_localizations?, description_localizations?}``.
    Errors are raised as one 50035, or added to ``found`` at ``path`` when given (fixtures)."""
    raise_here = found is None
    found = FieldErrors() if found is None else found
    items = [] if data is None else data
    if not isinstance(items, list):
        found.add(path, "LIST_TYPE_CONVERT", "Must be an array.")
        items = []
    elif len(items) > MAX_RECORDS:
        found.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_RECORDS} or fewer in length.")
        items = []
    records, seen = [], set()
    for index, raw in enumerate(items):
        item = Form(raw, found, (*path, index))
        record = {"type": item.choice("type", RECORD_TYPES), "key": item.string("key", min_len=1, max_len=50),
                  "name": item.string("name", min_len=1, max_len=100),
                  "description": item.string("description", min_len=1, max_len=200),
                  "name_localizations": _localizations(item, "name_localizations", 100),
                  "description_localizations": _localizations(item, "description_localizations", 200)}
        key = record["key"]
        if key is not None and not KEY.match(key):
            item.fail("key", "APPLICATION_ROLE_CONNECTION_METADATA_KEY_INVALID",
                      "Must be 1 to 50 characters of a-z, 0-9 and _.")
        elif key is not None and key in seen:
            item.fail("key", "APPLICATION_ROLE_CONNECTION_METADATA_KEY_DUPLICATE", "Keys must be unique.")
        seen.add(key)
        records.append(record)
    if raise_here:
        found.raise_if_any()
    return records


def record_json(row: sqlite3.Row) -> Payload:
    return {"type": row["type"], "key": row["key"], "name": row["name"], "description": row["description"],
            "name_localizations": json.loads(row["name_localizations"]) if row["name_localizations"] else None,
            "description_localizations": (json.loads(row["description_localizations"])
                                          if row["description_localizations"] else None)}


def record_rows(conn: sqlite3.Connection, application_id: int) -> list[sqlite3.Row]:
    return conn.execute("SELECT * FROM application_role_connection_metadata WHERE application_id = ?"
                        " ORDER BY position", (application_id,)).fetchall()


def records(conn: sqlite3.Connection, application_id: int) -> list[Payload]:
    return [record_json(row) for row in record_rows(conn, application_id)]


def replace_records(conn: sqlite3.Connection, application_id: int, new: list[dict[str, Any]]) -> list[Payload]:
    conn.execute("DELETE FROM application_role_connection_metadata WHERE application_id = ?", (application_id,))
    for position, record in enumerate(new):
        conn.execute("INSERT INTO application_role_connection_metadata (application_id, position, key, type, name,"
                     " description, name_localizations, description_localizations) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     (application_id, position, record["key"], record["type"], record["name"], record["description"],
                      json.dumps(record["name_localizations"]) if record["name_localizations"] else None,
                      json.dumps(record["description_localizations"]) if record["description_localizations"] else None))
    return records(conn, application_id)


# -- users' connections ------------------------------------------------------------------------------

def read_connection(form: Form) -> Connection:
    """``{platform_name? (≤ 50), platform_username? (≤ 100), metadata? (≤ 5 keys)}``; the metadata
    values are checked against the application's records by ``put_connection``. Field errors are
    recorded on ``form``; the caller calls ``form.done()``."""
    connection = Connection({})
    for name, limit in (("platform_name", 50), ("platform_username", 100)):
        if name in form.data:
            connection.values[name] = form.string(name, required=False, max_len=limit, nullable=True)
    if form.data.get("metadata") is not None:
        metadata = form.data["metadata"]
        if not isinstance(metadata, dict):
            form.fail("metadata", "DICT_TYPE_CONVERT", "Must be an object.")
        elif len(metadata) > MAX_RECORDS:
            form.fail("metadata", "BASE_TYPE_MAX_LENGTH", f"Must have {MAX_RECORDS} or fewer keys.")
        else:
            connection.raw_metadata = metadata
    elif "metadata" in form.data:
        connection.raw_metadata = {}
    return connection


def _stringify(kind: int, value: Any) -> str | None:
    """The value as the platform keeps it for a record of type ``kind``, or None if it is not one."""
    if kind in INTEGER_TYPES:
        if isinstance(value, bool):
            return None
        if isinstance(value, int):
            return str(value)
        if isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,19}", value.strip()):
            return str(int(value))
        return None
    if kind in DATETIME_TYPES:
        if not isinstance(value, str):
            return None
        try:
            return format_instant(parse_instant(value))
        except ValueError:
            return None
    key = value.lower() if isinstance(value, str) else value
    return _BOOLEANS.get(key) if isinstance(key, (bool, int, str)) else None


def _checked_metadata(conn: sqlite3.Connection, application_id: int, raw: dict[str, Any],
                      form: Form) -> dict[str, str]:
    kinds = {row["key"]: row["type"] for row in record_rows(conn, application_id)}
    result = {}
    for key, value in raw.items():
        if key not in kinds:
            form.errors.add((*form.path, "metadata", key), "APPLICATION_ROLE_CONNECTION_METADATA_KEY_UNKNOWN",
                            "The application has no metadata record with this key.")
            continue
        text = _stringify(kinds[key], value)
        if text is None:
            expected = ("an integer" if kinds[key] in INTEGER_TYPES else
                        "an ISO-8601 date-time" if kinds[key] in DATETIME_TYPES else "1 or 0")
            form.errors.add((*form.path, "metadata", key), "APPLICATION_ROLE_CONNECTION_METADATA_VALUE_INVALID",
                            f"Must be {expected}.")
        elif not 1 <= len(text) <= 100:
            form.errors.add((*form.path, "metadata", key), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        else:
            result[key] = text
    return result


def connection_json(row: sqlite3.Row | None) -> Payload:
    """A user's role connection; an absent one is empty (no platform name, no metadata)."""
    if row is None:
        return {"platform_username": None, "metadata": {}}
    body: Payload = {"platform_username": row["platform_username"], "metadata": json.loads(row["metadata"])}
    if row["platform_name"] is not None:
        body["platform_name"] = row["platform_name"]
    return body


def connection_row(conn: sqlite3.Connection, application_id: int, user_id: int) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM user_role_connections WHERE application_id = ? AND user_id = ?",
                        (application_id, user_id)).fetchone()


def put_connection(conn: sqlite3.Connection, application_id: int, user_id: int, update: Connection,
                   form: Form | None = None) -> Payload:
    """Sets the given fields of the user's connection (created when absent); metadata is replaced whole.
    Metadata errors are raised as one 50035, or recorded on ``form`` when given (fixtures)."""
    values = dict(update.values)
    if update.raw_metadata is not None:
        where = form if form is not None else Form({})
        values["metadata"] = json.dumps(_checked_metadata(conn, application_id, update.raw_metadata, where))
        if form is None:
            where.done()
        elif form.errors:
            return {}
    conn.execute("INSERT OR IGNORE INTO user_role_connections (application_id, user_id) VALUES (?, ?)",
                 (application_id, user_id))
    if values:
        assignments = ", ".join(f"{column} = ?" for column in values)   # columns read by read_connection
        conn.execute(f"UPDATE user_role_connections SET {assignments} WHERE application_id = ? AND user_id = ?",
                     (*values.values(), application_id, user_id))
    return connection_json(connection_row(conn, application_id, user_id))


def delete_connection(conn: sqlite3.Connection, application_id: int, user_id: int) -> None:
    conn.execute("DELETE FROM user_role_connections WHERE application_id = ? AND user_id = ?",
                 (application_id, user_id))


# -- linked roles ------------------------------------------------------------------------------------

def link_role(conn: sqlite3.Connection, form: Form, role_id: int, application_id: int,
              requirements: dict[str, Any]) -> None:
    """Links the role to the application's connection with ``{key: required integer}``; a key the
    application has no record for, or a value that is not an integer, is a field error of ``form``."""
    kinds = {row["key"] for row in record_rows(conn, application_id)}
    checked = {}
    for key, value in requirements.items():
        if key not in kinds:
            form.errors.add((*form.path, "requirements", key), "APPLICATION_ROLE_CONNECTION_METADATA_KEY_UNKNOWN",
                            "The application has no metadata record with this key.")
        elif isinstance(value, bool) or not isinstance(value, int):
            form.errors.add((*form.path, "requirements", key), "NUMBER_TYPE_COERCE", "Value is not an integer.")
        else:
            checked[key] = value
    if form.errors:
        return
    conn.execute("INSERT INTO linked_role_requirements (role_id, application_id, requirements) VALUES (?, ?, ?)"
                 " ON CONFLICT (role_id) DO UPDATE SET application_id = excluded.application_id,"
                 " requirements = excluded.requirements", (role_id, application_id, json.dumps(checked)))
    conn.execute("UPDATE roles SET guild_connections = 1 WHERE id = ?", (role_id,))


def requirements_of(conn: sqlite3.Connection, role_id: int) -> dict[str, int]:
    row = conn.execute("SELECT requirements FROM linked_role_requirements WHERE role_id = ?", (role_id,)).fetchone()
    return json.loads(row[0]) if row else {}


def unlink_role(conn: sqlite3.Connection, role_id: int) -> None:
    conn.execute("DELETE FROM linked_role_requirements WHERE role_id = ?", (role_id,))
    conn.execute("UPDATE roles SET guild_connections = 0 WHERE id = ?", (role_id,))


def _meets(kind: int, have: str, required: int, now: datetime) -> bool:
    if kind in DATETIME_TYPES:
        instant, limit = parse_instant(have), now - timedelta(days=required)
        return instant <= limit if kind == 5 else instant >= limit
    value = int(have)
    return {1: value <= required, 2: value >= required, 3: value == required, 4: value != required,
            7: value == required, 8: value != required}[kind]


def qualifies(conn: sqlite3.Connection, role_id: int, user_id: int, now: datetime) -> bool:
    """Whether the user meets the linked role's requirements: a connection to its application whose
    metadata meets every required value."""
    link = conn.execute("SELECT * FROM linked_role_requirements WHERE role_id = ?", (role_id,)).fetchone()
    if link is None:
        return False
    connection = connection_row(conn, link["application_id"], user_id)
    if connection is None:
        return False
    have = json.loads(connection["metadata"])
    kinds = {row["key"]: row["type"] for row in record_rows(conn, link["application_id"])}
    for key, required in json.loads(link["requirements"]).items():
        if key not in have or key not in kinds or not _meets(kinds[key], have[key], required, now):
            return False
    return True


def linked_roles(conn: sqlite3.Connection, guild_id: int, user_id: int, now: datetime) -> list[Payload]:
    """The guild's linked roles and whether the user qualifies for each."""
    rows = conn.execute("SELECT l.* FROM linked_role_requirements l JOIN roles r ON r.id = l.role_id"
                        " WHERE r.guild_id = ? ORDER BY l.role_id", (guild_id,)).fetchall()
    return [{"role_id": str(row["role_id"]), "application_id": str(row["application_id"]),
             "requirements": json.loads(row["requirements"]),
             "qualifies": qualifies(conn, row["role_id"], user_id, now)} for row in rows]


UNKNOWN_ROLE = 10011


def require_linked(conn: sqlite3.Connection, role_id: int) -> None:
    if conn.execute("SELECT 1 FROM linked_role_requirements WHERE role_id = ?", (role_id,)).fetchone() is None:
        raise errors.not_found(UNKNOWN_ROLE, "Role (not a linked role)")
