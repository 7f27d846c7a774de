"""The application object built from its row (``GET /applications/@me``, ``/oauth2/applications/@me``),
and the changes a bot may make to it (``PATCH /applications/@me``)."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from ...core.validation import Form
from ...wire.application import FLAGS_31_BITS, image_hash, private_application_json
from ..webhooks.store import public_key_hex

if TYPE_CHECKING:
    from ...state import EmulatorState

# The only flags an application may change through the API: the "limited" privileged-intent flags
# (GATEWAY_PRESENCE_LIMITED 1 << 13, GATEWAY_GUILD_MEMBERS_LIMITED 1 << 15,
# GATEWAY_MESSAGE_CONTENT_LIMITED 1 << 19). Others are set by the platform.
EDITABLE_FLAGS = (1 << 13) | (1 << 15) | (1 << 19)
APPLICATION_TYPES = (4,)   # GUILD_ROLE_SUBSCRIPTIONS, the one type the schema names
EXPLICIT_CONTENT_FILTERS = (0, 1)
INSTALL_SCOPES = ("applications.commands", "bot")
INTEGRATION_TYPES = ("0", "1")   # GUILD_INSTALL, USER_INSTALL
MAX_PERMISSIONS = (1 << 54) - 1
URL_MAX = 2048


def application_row(state: EmulatorState, application_id: int) -> sqlite3.Row | None:
    return state.db.query_one("SELECT * FROM applications WHERE id = ?", (application_id,))


def private_application(state: EmulatorState, row: sqlite3.Row) -> dict[str, Any]:
    db = state.db
    app_id = row["id"]
    uris = [r["uri"] for r in db.query("SELECT uri FROM redirect_uris WHERE application_id = ? ORDER BY uri", (app_id,))]
    bot = None if row["bot_user_id"] is None else db.query_one("SELECT * FROM users WHERE id = ?", (row["bot_user_id"],))
    owner = None if row["owner_id"] is None else db.query_one("SELECT * FROM users WHERE id = ?", (row["owner_id"],))
    guilds = 0 if row["bot_user_id"] is None else db.query_one(
        "SELECT COUNT(*) AS n FROM members WHERE user_id = ?", (row["bot_user_id"],))["n"]
    authorizations = db.query_one("SELECT COUNT(DISTINCT user_id) AS n FROM authorizations WHERE application_id = ?",
                                  (app_id,))["n"]
    return private_application_json(
        row, public_key_hex(row["webhook_private_key"]), bot=bot, owner=owner, redirect_uris=uris,
        guild_count=guilds, authorization_count=authorizations, eligible_scopes=json.loads(row["approved_scopes"]))


def _url(form: Form, name: str, updates: dict[str, Any]) -> None:
    if name not in form.data:
        return
    value = form.string(name, required=False, nullable=True, max_len=URL_MAX)
    if value is not None and not value.startswith(("https://", "http://")):
        form.fail(name, "URL_TYPE_INVALID_URL", "Not a well formed URL.")
        return
    updates[name] = value


def _image(form: Form, name: str, updates: dict[str, Any]) -> None:
    if name not in form.data:
        return
    value = form.string(name, required=False, nullable=True, max_len=10 << 20)
    if value is not None and not (value.startswith("data:image/") and ";base64," in value):
        form.fail(name, "IMAGE_INVALID", "Must be an image as a data URI (data:image/...;base64,...).")
        return
    updates[name] = None if value is None else image_hash(value)


def _install_params(params: Form | None) -> dict[str, Any] | None:
    """``{scopes, permissions}`` as the API returns it (permissions as a string), or None."""
    if params is None:
        return None
    scopes = params.array("scopes", required=False, min_items=1) or []
    for index, scope in enumerate(scopes):
        if scope not in INSTALL_SCOPES:
            params.errors.add((*params.path, "scopes", index), "BASE_TYPE_CHOICES",
                              f"Value must be one of {list(INSTALL_SCOPES)}.")
    # a permission bit set, as an integer or (as the platform sends it back) a string of one
    raw = params.data.get("permissions")
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= 20:
        params.data["permissions"] = int(raw)
    permissions = params.integer("permissions", required=False, minimum=0, maximum=MAX_PERMISSIONS, default=0)
    return {"scopes": list(dict.fromkeys(scopes)), "permissions": str(permissions or 0)}


def _integration_types_config(form: Form) -> dict[str, Any] | None:
    """``{"0"|"1": {oauth2_install_params?}}``: install settings per integration type."""
    config = form.obj("integration_types_config", required=False, nullable=True)
    if config is None:
        return None
    if not 1 <= len(config.data) <= 2:
        form.fail("integration_types_config", "BASE_TYPE_BAD_LENGTH", "Must have 1 or 2 integration types.")
        return None
    result: dict[str, Any] = {}
    for key in sorted(set(config.data) & set(INTEGRATION_TYPES)):
        entry = config.obj(key, required=False, nullable=True)
        result[key] = {}
        if entry is not None:
            params = _install_params(entry.obj("oauth2_install_params", required=False, nullable=True))
            if params is not None:
                result[key]["oauth2_install_params"] = params
    return result


def _json_or_null(value: Any) -> str | None:
    return None if value is None else json.dumps(value)


def application_updates(form: Form, current_flags: int) -> dict[str, Any]:
    """The column changes a ``PATCH /applications/@me`` body asks for; field errors go to ``form``.
    ``flags`` is the 32-bit integer of requests (seed); only the limited intent flags may change."""
    updates: dict[str, Any] = {}
    if "description" in form.data:
        updates["description"] = form.string("description", required=False, nullable=True, max_len=400) or ""
    _image(form, "icon", updates)
    _image(form, "cover_image", updates)
    for name in ("interactions_endpoint_url", "role_connections_verification_url", "custom_install_url",
                 "event_webhooks_url"):
        _url(form, name, updates)
    if form.data.get("flags") is not None:
        flags = form.integer("flags", minimum=0, maximum=FLAGS_31_BITS)
        if flags is not None:
            if (flags ^ current_flags) & FLAGS_31_BITS & ~EDITABLE_FLAGS:
                form.fail("flags", "APPLICATION_FLAGS_INVALID",
                          "Only the limited intent flags (1 << 13, 1 << 15, 1 << 19) can be changed.")
            else:
                updates["flags"] = (current_flags & ~EDITABLE_FLAGS) | (flags & EDITABLE_FLAGS)
    if "explicit_content_filter" in form.data and form.data["explicit_content_filter"] is not None:
        updates["explicit_content_filter"] = form.choice("explicit_content_filter", EXPLICIT_CONTENT_FILTERS)
    if "type" in form.data:
        updates["type"] = None if form.data["type"] is None else form.choice("type", APPLICATION_TYPES)
    if "max_participants" in form.data:
        updates["max_participants"] = (None if form.data["max_participants"] is None
                                       else form.integer("max_participants", minimum=-1, maximum=FLAGS_31_BITS))
    if "tags" in form.data:
        tags = form.array("tags", required=False, max_items=5) or []
        for index, tag in enumerate(tags):
            if not isinstance(tag, str) or not 1 <= len(tag) <= 20:
                form.errors.add((*form.path, "tags", index), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 20 in length.")
        if len(set(map(str, tags))) != len(tags):
            form.fail("tags", "BASE_TYPE_UNIQUE", "Tags must be unique.")
        updates["tags"] = json.dumps(tags)
    if "install_params" in form.data:
        updates["install_params"] = _json_or_null(
            _install_params(form.obj("install_params", required=False, nullable=True)))
    if "integration_types_config" in form.data:
        updates["integration_types_config"] = _json_or_null(_integration_types_config(form))
    return updates


def update_application(conn: sqlite3.Connection, application_id: int, updates: dict[str, Any]) -> None:
    if not updates:
        return
    assignments = ", ".join(f"{column} = ?" for column in updates)   # column names come from the code above
    conn.execute(f"UPDATE applications SET {assignments} WHERE id = ?", (*updates.values(), application_id))
