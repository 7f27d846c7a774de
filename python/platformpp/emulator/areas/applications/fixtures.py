"""The ``applications`` fixture section: applications, their bots, redirect URIs and identity providers."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING

from ...core.fixtures import fixture_id, insert_checked, row_exists
from ...core.scopes import KNOWN_SCOPES
from ...core.secrets import bot_user_id_of, digest
from ...core.validation import Form
from ..users.fixtures import insert_user
from ..webhooks.store import new_private_key_hex

if TYPE_CHECKING:
    from ...state import EmulatorState


def load_applications(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        item.refuse_unknown_keys({"id", "name", "description", "client_secret", "public_client", "flags", "owner_id",
                           "bot", "redirect_uris", "custom_schemes", "approved_scopes",
                           "social_sdk_terms_accepted", "event_webhooks_url", "webhook_private_key",
                           "parent_application_id", "publisher_linking_approved", "approximate_user_count",
                           "sharding", "identity_providers", "channel_obfuscation"})
        app_id = fixture_id(state, item)
        if row_exists(conn, "applications", app_id):
            item.fail("id", "ALREADY_EXISTS", f"Application {app_id} already exists.")
            continue
        bot_user_id: int | None = None
        bot_token: str | None = None
        bot = item.obj("bot", required=False)
        if bot is not None:
            bot.refuse_unknown_keys({"id", "username", "global_name", "avatar", "token"})
            bot_user_id = fixture_id(state, bot)
            insert_user(conn, bot, bot_user_id, bot=True)
            bot_token = bot.string("token", required=False, min_len=10, max_len=200)
            if bot_token is not None and (len(bot_token.split(".")) != 3 or bot_user_id_of(bot_token) != bot_user_id):
                bot.fail("token", "BOT_TOKEN_FORMAT",
                         "A bot token has three dot-separated segments, the first base64 of the bot user id.")
        secret = item.string("client_secret", required=False, min_len=8, max_len=128)
        public_client = item.boolean("public_client")
        if secret is None and not public_client:
            item.fail("client_secret", "BASE_TYPE_REQUIRED", "A confidential client needs a client_secret.")
        approved = item.array("approved_scopes", required=False) or []
        for s_index, scope in enumerate(approved):
            if scope not in KNOWN_SCOPES:
                item.errors.add((*item.path, "approved_scopes", s_index), "SCOPE_UNKNOWN",
                                f"Unknown scope; known scopes are {sorted(KNOWN_SCOPES)}.")
        schemes = item.array("custom_schemes", required=False) or []
        for s_index, scheme in enumerate(schemes):
            if not isinstance(scheme, str) or not scheme.replace("-", "").replace(".", "").replace("+", "").isalnum():
                item.errors.add((*item.path, "custom_schemes", s_index), "URI_SCHEME_INVALID",
                                "A URI scheme is letters, digits, '+', '-' and '.'.")
        private_key = item.string("webhook_private_key", required=False, min_len=64, max_len=64)
        if private_key is not None:
            try:
                bytes.fromhex(private_key)
            except ValueError:
                item.fail("webhook_private_key", "HEX_TYPE_CONVERT", "Must be 32 bytes as 64 hex digits.")
        sharding = item.obj("sharding", required=False)
        large, shards, concurrency = False, 1, 1
        if sharding is not None:
            sharding.refuse_unknown_keys({"large", "shards", "max_concurrency"})
            large = sharding.boolean("large")
            concurrency = sharding.choice("max_concurrency", (1, 16, 32, 64, 128, 256, 512), required=False,
                                          default=16 if large else 1) or 1
            shards = sharding.integer("shards", required=False, minimum=1, maximum=4096,
                                      default=concurrency) or 1
            if large and shards % concurrency:
                sharding.fail("shards", "SHARD_COUNT_INVALID",
                              "With large bot sharding the shard count is a multiple of max_concurrency.")
        insert_checked(conn, item,
            "INSERT INTO applications (id, name, description, client_secret_hash, public_client, flags, owner_id,"
            " bot_user_id, parent_application_id, publisher_linking_approved, social_sdk_terms_accepted,"
            " approved_scopes, custom_schemes, event_webhooks_url, webhook_private_key, approximate_user_count,"
            " large_bot_sharding, shards, max_concurrency) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            " ?, ?, ?)",
            (app_id, item.string("name", min_len=2, max_len=32),
             item.string("description", required=False, default="", max_len=400),
             None if secret is None else digest(secret), int(public_client),
             # any bits, beyond bit 30 too: the API's 31-bit flags and its flags_new string come from them
             item.integer("flags", required=False, minimum=0, default=0),
             item.snowflake("owner_id", required=False) or bot_user_id, bot_user_id,
             item.snowflake("parent_application_id", required=False),
             int(item.boolean("publisher_linking_approved")), int(item.boolean("social_sdk_terms_accepted")),
             json.dumps(approved), json.dumps(schemes),
             item.string("event_webhooks_url", required=False, max_len=2048),
             private_key or new_private_key_hex(),
             item.integer("approximate_user_count", required=False, minimum=0, default=0),
             int(large), shards, concurrency))
        # The bot tab's private channel obfuscation toggle (column of the guilds area's migration 0200).
        if item.boolean("channel_obfuscation") and not item.errors:
            conn.execute("UPDATE applications SET channel_obfuscation = 1 WHERE id = ?", (app_id,))
        if bot_token is not None:
            insert_checked(conn, item, "INSERT INTO bot_tokens (token_hash, application_id) VALUES (?, ?)",
                         (digest(bot_token), app_id))
        for u_index, uri in enumerate(item.array("redirect_uris", required=False) or []):
            if not isinstance(uri, str) or ":" not in uri or len(uri) > 2048:
                item.errors.add((*item.path, "redirect_uris", u_index), "URL_TYPE_INVALID_URL",
                                "Not a well formed URL.")
                continue
            insert_checked(conn, item, "INSERT OR IGNORE INTO redirect_uris (application_id, uri) VALUES (?, ?)", (app_id, uri))
        for p_index, p_raw in enumerate(item.array("identity_providers", required=False) or []):
            provider = item.item("identity_providers", p_index, p_raw)
            auth_type = provider.string("type", min_len=1, max_len=64)
            config = {k: v for k, v in provider.data.items() if k != "type"}
            from ..accounts.providers import validate_provider_config  # providers imports crypto lazily

            validate_provider_config(provider, auth_type)
            insert_checked(conn, provider, "INSERT OR REPLACE INTO identity_providers (application_id, auth_type, config)"
                         " VALUES (?, ?, ?)", (app_id, auth_type, json.dumps(config)))
