"""The fixture format (JSON or YAML) and its loader. A fixture describes users, applications and
guilds; other modules may register further top-level sections (``register_section``). Loading is one
transaction: a fixture with any bad field raises a 50035 naming every bad path, and loads nothing."""

from __future__ import annotations

import importlib
import json
import sqlite3
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .clock import format_instant, parse_instant
from .errors import ApiError, Form
from .permissions import DEFAULT_EVERYONE_PERMISSIONS
from .scopes import KNOWN_SCOPES
from .secrets_util import bot_user_id_of, digest
from .snowflake import snowflake_time
from .webhooks import new_private_key_hex

if TYPE_CHECKING:
    from .state import EmulatorState

SectionLoader = Callable[["EmulatorState", sqlite3.Connection, Form, str], None]
_SECTIONS: dict[str, tuple[int, SectionLoader]] = {}
# Modules that register a section; imported before a fixture's keys are checked.
SECTION_MODULES = ("relationships",)
PRIVACY_LEVELS = ("everyone", "friends_only", "friends_and_small_servers")
CHANNEL_TYPES = (0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 15, 16)


class FixtureError(ValueError):
    """A fixture that cannot be loaded; ``errors`` is the 50035 error tree."""

    def __init__(self, errors: dict[str, Any]) -> None:
        super().__init__("invalid fixture: " + "; ".join(_flatten(errors)))
        self.errors = errors


def _flatten(tree: dict[str, Any], prefix: str = "") -> list[str]:
    lines: list[str] = []
    for key, value in tree.items():
        if key == "_errors":
            lines += [f"{prefix or '<root>'}: {e['message']}" for e in value]
        else:
            lines += _flatten(value, f"{prefix}.{key}" if prefix else key)
    return lines


def register_section(name: str, loader: SectionLoader, order: int = 100) -> None:
    """Let a module load its own top-level fixture key. ``loader(state, conn, form, name)`` reads
    ``form`` (the whole fixture) and records field errors on it; lower ``order`` loads first
    (users/applications/guilds are 10/20/30)."""
    _SECTIONS[name] = (order, loader)


def read_fixture_file(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() in (".yaml", ".yml"):
        import yaml  # only paid for when a YAML fixture is used

        data = yaml.safe_load(text)
    else:
        data = json.loads(text)
    if not isinstance(data, dict):
        raise FixtureError({"_errors": [{"code": "DICT_TYPE_CONVERT", "message": "A fixture is an object."}]})
    return data


def default_world() -> dict[str, Any]:
    text = resources.files("platformpp.emulator").joinpath("world", "default.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def load_fixture(state: EmulatorState, data: Any) -> None:
    """Add the fixture's contents to the world (ids must be new). Raises ApiError 50035 on bad input."""
    for module in SECTION_MODULES:
        importlib.import_module(f".{module}", __package__)
    form = Form(data)
    form.done()
    form.unknown_keys({"users", "applications", "guilds", *_SECTIONS})
    with state.db.transaction() as conn:
        # References may point forwards (a channel's parent listed after it): check them at the end.
        conn.execute("PRAGMA defer_foreign_keys=ON")
        loaders = sorted([(10, _load_users, "users"), (20, _load_applications, "applications"),
                          (30, _load_guilds, "guilds")] + [(o, f, n) for n, (o, f) in _SECTIONS.items()],
                         key=lambda entry: entry[0])
        for _, loader, name in loaders:
            if name in form.data:
                loader(state, conn, form, name)
        # Check references once everything is in; a dangling id is a field error, not a crash.
        if not form.errors:
            for problem in conn.execute("PRAGMA foreign_key_check"):
                form.errors.add((problem[0],), "REFERENCE_UNKNOWN",
                                f"A {problem[0]} row refers to a missing {problem[2]} row.")
        form.done()
        conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES ('world_loaded', ?)",
                     (format_instant(state.clock.now()),))
        state.observe_stored_ids()


def load_fixture_or_raise(state: EmulatorState, data: Any) -> None:
    """``load_fixture`` for Python callers: a ``FixtureError`` instead of an HTTP error."""
    try:
        load_fixture(state, data)
    except ApiError as exc:
        raise FixtureError(exc.errors or {"_errors": [{"code": str(exc.code), "message": exc.message}]}) from None


# -- sections ---------------------------------------------------------------------------------------------

def _id(state: EmulatorState, item: Form, name: str = "id") -> int:
    value = item.snowflake(name, required=False)
    return value if value is not None else state.ids.next()


def _run(conn: sqlite3.Connection, where: Form, sql: str, params: tuple[Any, ...]) -> None:
    """Insert unless the fixture already failed (its reads ran while building ``params``, so every field
    error is still reported); a constraint violation becomes a field error at ``where``."""
    if where.errors:
        return
    try:
        conn.execute(sql, params)
    except (sqlite3.IntegrityError, OverflowError) as exc:
        where.errors.add(where.path, "CONSTRAINT_VIOLATED", f"Conflicts with existing data or limits ({exc}).")


def _exists(conn: sqlite3.Connection, table: str, key: int) -> bool:
    return conn.execute(f"SELECT 1 FROM {table} WHERE id = ?", (key,)).fetchone() is not None


def _insert_user(conn: sqlite3.Connection, item: Form, user_id: int, *, bot: bool) -> None:
    if _exists(conn, "users", user_id):
        item.fail("id", "ALREADY_EXISTS", f"User {user_id} already exists.")
        return
    username = item.string("username", min_len=2, max_len=32)
    if username and conn.execute("SELECT 1 FROM users WHERE username = ? AND provisional = 0",
                                 (username,)).fetchone():
        item.fail("username", "USERNAME_TAKEN", "Username is already taken.")
    privacy = item.choice("privacy", PRIVACY_LEVELS, required=False, default="everyone")
    _run(conn, item, 
        "INSERT INTO users (id, username, global_name, avatar, bot, premium_type, flags, email, locale,"
        " mfa_enabled, profile_privacy, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (user_id, username or "", item.string("global_name", required=False, min_len=1, max_len=32),
         item.string("avatar", required=False, max_len=64), int(bot),
         item.integer("premium_type", required=False, minimum=0, maximum=3, default=0) or 0,
         item.integer("flags", required=False, minimum=0, default=0) or 0,
         item.string("email", required=False, max_len=320),
         item.string("locale", required=False, default="en-US", max_len=10),
         int(item.boolean("mfa_enabled")), privacy or "everyone", format_instant(snowflake_time(user_id))))


def _load_users(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        item.unknown_keys({"id", "username", "global_name", "avatar", "premium_type", "flags", "email",
                           "locale", "mfa_enabled", "privacy", "connections", "external_identities"})
        user_id = _id(state, item)
        _insert_user(conn, item, user_id, bot=False)
        for c_index, c_raw in enumerate(item.array("connections", required=False) or []):
            conn_form = item.item("connections", c_index, c_raw)
            conn_form.unknown_keys({"type", "id", "name", "verified", "revoked", "visibility", "friend_sync",
                                    "show_activity", "two_way_link", "legacy", "created_at"})
            created = conn_form.string("created_at", required=False)
            try:
                created_at = format_instant(parse_instant(created)) if created else state.clock.iso()
            except ValueError as exc:
                conn_form.fail("created_at", "DATE_TYPE_CONVERT", str(exc))
                created_at = ""
            _run(conn, conn_form, 
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
            ext.unknown_keys({"application_id", "type", "id"})
            _run(conn, ext, 
                "INSERT INTO external_identities (application_id, auth_type, external_user_id, user_id,"
                " created_at) VALUES (?, ?, ?, ?, ?)",
                (ext.snowflake("application_id"), ext.string("type", min_len=1, max_len=64),
                 ext.string("id", min_len=1, max_len=256), user_id, state.clock.iso()))


def _load_applications(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        item.unknown_keys({"id", "name", "description", "client_secret", "public_client", "flags", "owner_id",
                           "bot", "redirect_uris", "custom_schemes", "approved_scopes",
                           "social_sdk_terms_accepted", "event_webhooks_url", "webhook_private_key",
                           "parent_application_id", "publisher_linking_approved", "approximate_user_count",
                           "sharding", "identity_providers"})
        app_id = _id(state, item)
        if _exists(conn, "applications", app_id):
            item.fail("id", "ALREADY_EXISTS", f"Application {app_id} already exists.")
            continue
        bot_user_id: int | None = None
        bot_token: str | None = None
        bot = item.obj("bot", required=False)
        if bot is not None:
            bot.unknown_keys({"id", "username", "global_name", "avatar", "token"})
            bot_user_id = _id(state, bot)
            _insert_user(conn, bot, bot_user_id, bot=True)
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
            sharding.unknown_keys({"large", "shards", "max_concurrency"})
            large = sharding.boolean("large")
            concurrency = sharding.choice("max_concurrency", (1, 16, 32, 64, 128, 256, 512), required=False,
                                          default=16 if large else 1) or 1
            shards = sharding.integer("shards", required=False, minimum=1, maximum=4096,
                                      default=concurrency) or 1
            if large and shards % concurrency:
                sharding.fail("shards", "SHARD_COUNT_INVALID",
                              "With large bot sharding the shard count is a multiple of max_concurrency.")
        _run(conn, item, 
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
        if bot_token is not None:
            _run(conn, item, "INSERT INTO bot_tokens (token_hash, application_id) VALUES (?, ?)",
                         (digest(bot_token), app_id))
        for u_index, uri in enumerate(item.array("redirect_uris", required=False) or []):
            if not isinstance(uri, str) or ":" not in uri or len(uri) > 2048:
                item.errors.add((*item.path, "redirect_uris", u_index), "URL_TYPE_INVALID_URL",
                                "Not a well formed URL.")
                continue
            _run(conn, item, "INSERT OR IGNORE INTO redirect_uris (application_id, uri) VALUES (?, ?)", (app_id, uri))
        for p_index, p_raw in enumerate(item.array("identity_providers", required=False) or []):
            provider = item.item("identity_providers", p_index, p_raw)
            auth_type = provider.string("type", min_len=1, max_len=64)
            config = {k: v for k, v in provider.data.items() if k != "type"}
            from .providers import validate_provider_config  # providers imports crypto lazily

            validate_provider_config(provider, auth_type)
            _run(conn, provider, "INSERT OR REPLACE INTO identity_providers (application_id, auth_type, config)"
                         " VALUES (?, ?, ?)", (app_id, auth_type, json.dumps(config)))


def _load_guilds(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        item.unknown_keys({"id", "name", "owner_id", "icon", "description", "features", "roles", "channels",
                           "members"})
        guild_id = _id(state, item)
        if _exists(conn, "guilds", guild_id):
            item.fail("id", "ALREADY_EXISTS", f"Guild {guild_id} already exists.")
            continue
        _run(conn, item, 
            "INSERT INTO guilds (id, name, owner_id, icon, description, features, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (guild_id, item.string("name", min_len=2, max_len=100), item.snowflake("owner_id"),
             item.string("icon", required=False), item.string("description", required=False, max_len=300),
             json.dumps(item.array("features", required=False) or []),
             format_instant(snowflake_time(guild_id))))
        roles = item.array("roles", required=False) or []
        if not any(isinstance(r, dict) and str(r.get("id")) == str(guild_id) for r in roles):
            _run(conn, item, "INSERT INTO roles (id, guild_id, name, permissions) VALUES (?, ?, '@everyone', ?)",
                         (guild_id, guild_id, str(DEFAULT_EVERYONE_PERMISSIONS)))
        for r_index, r_raw in enumerate(roles):
            role = item.item("roles", r_index, r_raw)
            role.unknown_keys({"id", "name", "color", "hoist", "icon", "unicode_emoji", "position",
                               "permissions", "managed", "mentionable", "flags"})
            permissions = role.string("permissions", required=False, default="0", max_len=20) or "0"
            if not permissions.isdigit():
                role.fail("permissions", "PERMISSIONS_TYPE_CONVERT", "Permissions are a decimal string.")
            _run(conn, role, 
                "INSERT INTO roles (id, guild_id, name, color, hoist, icon, unicode_emoji, position, permissions,"
                " managed, mentionable, flags) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (_id(state, role), guild_id, role.string("name", min_len=1, max_len=100),
                 role.integer("color", required=False, minimum=0, maximum=0xFFFFFF, default=0),
                 int(role.boolean("hoist")), role.string("icon", required=False),
                 role.string("unicode_emoji", required=False), role.integer("position", required=False, default=0),
                 permissions, int(role.boolean("managed")), int(role.boolean("mentionable")),
                 role.integer("flags", required=False, minimum=0, default=0)))
        for c_index, c_raw in enumerate(item.array("channels", required=False) or []):
            channel = item.item("channels", c_index, c_raw)
            channel.unknown_keys({"id", "type", "name", "position", "parent_id", "topic", "nsfw", "bitrate",
                                  "user_limit", "flags", "application_id", "permission_overwrites"})
            overwrites = []
            for o_index, o_raw in enumerate(channel.array("permission_overwrites", required=False) or []):
                overwrite = channel.item("permission_overwrites", o_index, o_raw)
                overwrite.unknown_keys({"id", "type", "allow", "deny"})
                allow = overwrite.string("allow", required=False, default="0", max_len=20) or "0"
                deny = overwrite.string("deny", required=False, default="0", max_len=20) or "0"
                for field_name, value in (("allow", allow), ("deny", deny)):
                    if not value.isdigit():
                        overwrite.fail(field_name, "PERMISSIONS_TYPE_CONVERT", "Permissions are a decimal string.")
                overwrites.append({"id": str(overwrite.snowflake("id")),
                                   "type": overwrite.choice("type", (0, 1)), "allow": allow, "deny": deny})
            _run(conn, channel, 
                "INSERT INTO channels (id, guild_id, type, name, position, parent_id, topic, nsfw, bitrate,"
                " user_limit, flags, application_id, permission_overwrites)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (_id(state, channel), guild_id, channel.choice("type", CHANNEL_TYPES),
                 channel.string("name", min_len=1, max_len=100),
                 channel.integer("position", required=False, minimum=0, default=0),
                 channel.snowflake("parent_id", required=False), channel.string("topic", required=False,
                                                                                max_len=1024),
                 int(channel.boolean("nsfw")), channel.integer("bitrate", required=False, minimum=8000),
                 channel.integer("user_limit", required=False, minimum=0, maximum=99),
                 channel.integer("flags", required=False, minimum=0, default=0),
                 channel.snowflake("application_id", required=False), json.dumps(overwrites)))
        for m_index, m_raw in enumerate(item.array("members", required=False) or []):
            member = item.item("members", m_index, m_raw)
            member.unknown_keys({"user_id", "nick", "roles", "joined_at"})
            role_ids = [str(member.coerce_snowflake("roles", r)) for r in member.array("roles", required=False) or []]
            joined = member.string("joined_at", required=False)
            try:
                joined_at = format_instant(parse_instant(joined)) if joined else state.clock.iso()
            except ValueError as exc:
                member.fail("joined_at", "DATE_TYPE_CONVERT", str(exc))
                joined_at = ""
            _run(conn, member, "INSERT INTO members (guild_id, user_id, nick, roles, joined_at) VALUES (?, ?, ?, ?, ?)",
                         (guild_id, member.snowflake("user_id"), member.string("nick", required=False, max_len=32),
                          json.dumps(role_ids), joined_at))
