"""The application object (docs/wire.md; the published schema's ApplicationResponse and, for its own bot,
PrivateApplicationResponse). Used by ``/applications/@me``, ``/oauth2/applications/@me``,
``/oauth2/@me`` and the admin view.

``flags`` is the 32-bit integer the platform has always sent (bits 0–30); ``flags_new`` carries every
bit as a string (seed)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import Any

from .user import public_user_json

FLAGS_31_BITS = 0x7FFFFFFF


def image_hash(data_uri: str) -> str:
    """The hash an uploaded image (a ``data:`` URI) is served under, as the platform names images."""
    return hashlib.md5(data_uri.encode("utf-8"), usedforsecurity=False).hexdigest()


def application_json(row: sqlite3.Row, verify_key: str) -> dict[str, Any]:
    """The public application object (anyone holding a token of the app may see it). ``verify_key``:
    the hex Ed25519 public key of the app's webhook signing key."""
    return {
        "id": str(row["id"]), "name": row["name"], "icon": row["icon"], "description": row["description"],
        # deprecated and not in the published schema, but still sent (empty) in v10; clients read it
        "summary": "",
        "type": row["type"], "bot_public": True,
        "bot_require_code_grant": False, "verify_key": verify_key,
        "flags": row["flags"] & FLAGS_31_BITS, "flags_new": str(row["flags"]),
        "tags": json.loads(row["tags"]),
        **({} if row["install_params"] is None else {"install_params": json.loads(row["install_params"])}),
        **({} if row["custom_install_url"] is None else {"custom_install_url": row["custom_install_url"]}),
        **({} if row["integration_types_config"] is None
           else {"integration_types_config": json.loads(row["integration_types_config"])}),
        "max_participants": row["max_participants"],
        # a string when set; the schema has no null for it
        **({} if row["cover_image"] is None else {"cover_image": row["cover_image"]}),
    }


def private_application_json(row: sqlite3.Row, verify_key: str, *, bot: sqlite3.Row | None, owner: sqlite3.Row | None,
                             redirect_uris: list[str], guild_count: int, authorization_count: int,
                             eligible_scopes: list[str]) -> dict[str, Any]:
    """The application as its own bot sees it (``GET /applications/@me``): settings, counts, owner."""
    body = application_json(row, verify_key)
    body.update({
        "redirect_uris": redirect_uris,
        "interactions_endpoint_url": row["interactions_endpoint_url"],
        "role_connections_verification_url": row["role_connections_verification_url"],
        "event_webhooks_url": row["event_webhooks_url"],
        # 2 ENABLED when a URL is set, 1 DISABLED otherwise
        "event_webhooks_status": 2 if row["event_webhooks_url"] else 1,
        "explicit_content_filter": row["explicit_content_filter"],
        "approximate_guild_count": guild_count,
        "approximate_user_install_count": row["approximate_user_count"],
        "approximate_user_authorization_count": authorization_count,
        "eligible_oauth2_scopes": eligible_scopes,
        "team": None,
        "owner": None if owner is None else public_user_json(owner),
    })
    if owner is None:
        del body["owner"]
    if bot is not None:
        body["bot"] = public_user_json(bot)
    return body
