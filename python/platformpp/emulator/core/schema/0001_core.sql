-- Core world: users, applications and their credentials, guilds. Ids are snowflakes (INTEGER);
-- JSON-valued columns are TEXT holding JSON; times are ISO-8601 UTC strings from the emulator clock.

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE users (
    id                INTEGER PRIMARY KEY,
    username          TEXT NOT NULL,
    global_name       TEXT,
    discriminator     TEXT NOT NULL DEFAULT '0',
    avatar            TEXT,
    bot               INTEGER NOT NULL DEFAULT 0,
    premium_type      INTEGER NOT NULL DEFAULT 0,
    flags             INTEGER NOT NULL DEFAULT 0,
    email             TEXT,
    verified          INTEGER NOT NULL DEFAULT 1,
    locale            TEXT NOT NULL DEFAULT 'en-US',
    mfa_enabled       INTEGER NOT NULL DEFAULT 0,
    profile_privacy   TEXT NOT NULL DEFAULT 'everyone',
    -- provisional accounts belong to one application and have no credentials of their own
    provisional       INTEGER NOT NULL DEFAULT 0,
    provisional_application_id INTEGER,
    -- set on the provisional account created when the linked full account is banned
    restricted_by_ban_of INTEGER,
    merged_into       INTEGER,
    created_at        TEXT NOT NULL
);
CREATE UNIQUE INDEX users_username ON users (username) WHERE provisional = 0 AND merged_into IS NULL;

CREATE TABLE applications (
    id                         INTEGER PRIMARY KEY,
    name                       TEXT NOT NULL,
    description                TEXT NOT NULL DEFAULT '',
    client_secret_hash         TEXT,
    public_client              INTEGER NOT NULL DEFAULT 0,
    flags                      INTEGER NOT NULL DEFAULT 0,
    owner_id                   INTEGER REFERENCES users (id),
    bot_user_id                INTEGER REFERENCES users (id),
    parent_application_id      INTEGER REFERENCES applications (id),
    publisher_linking_approved INTEGER NOT NULL DEFAULT 0,
    social_sdk_terms_accepted  INTEGER NOT NULL DEFAULT 0,
    approved_scopes            TEXT NOT NULL DEFAULT '[]',
    custom_schemes             TEXT NOT NULL DEFAULT '[]',
    event_webhooks_url         TEXT,
    webhook_private_key        TEXT NOT NULL,
    approximate_user_count     INTEGER NOT NULL DEFAULT 0,
    large_bot_sharding         INTEGER NOT NULL DEFAULT 0,
    shards                     INTEGER NOT NULL DEFAULT 1,
    max_concurrency            INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE redirect_uris (
    application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    uri            TEXT NOT NULL,
    PRIMARY KEY (application_id, uri)
);

CREATE TABLE bot_tokens (
    token_hash     TEXT PRIMARY KEY,
    application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE
);

-- Identity providers an application accepts for provisional accounts (external credentials exchange).
CREATE TABLE identity_providers (
    application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    auth_type      TEXT NOT NULL,
    config         TEXT NOT NULL,
    PRIMARY KEY (application_id, auth_type)
);

-- An external identity (provider account) linked to a platform user, per application.
CREATE TABLE external_identities (
    application_id   INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    auth_type        TEXT NOT NULL,
    external_user_id TEXT NOT NULL,
    user_id          INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at       TEXT NOT NULL,
    PRIMARY KEY (application_id, auth_type, external_user_id)
);

CREATE TABLE connections (
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type          TEXT NOT NULL,
    id            TEXT NOT NULL,
    name          TEXT NOT NULL,
    verified      INTEGER NOT NULL DEFAULT 1,
    revoked       INTEGER NOT NULL DEFAULT 0,
    visibility    INTEGER NOT NULL DEFAULT 1,
    friend_sync   INTEGER NOT NULL DEFAULT 0,
    show_activity INTEGER NOT NULL DEFAULT 1,
    two_way_link  INTEGER NOT NULL DEFAULT 0,
    legacy        INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL,
    PRIMARY KEY (user_id, type, id)
);

-- One grant of an application by a user; tokens hang off it, so revoking one revokes all.
CREATE TABLE authorizations (
    id             INTEGER PRIMARY KEY,
    application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    scopes         TEXT NOT NULL,
    grant_kind     TEXT NOT NULL,
    created_at     TEXT NOT NULL
);
CREATE INDEX authorizations_user ON authorizations (user_id, application_id);

CREATE TABLE oauth_tokens (
    token_hash       TEXT PRIMARY KEY,
    authorization_id INTEGER NOT NULL REFERENCES authorizations (id) ON DELETE CASCADE,
    kind             TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
    expires_at       TEXT NOT NULL
);
CREATE INDEX oauth_tokens_authorization ON oauth_tokens (authorization_id);

CREATE TABLE oauth_codes (
    code_hash        TEXT PRIMARY KEY,
    application_id   INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    user_id          INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    redirect_uri     TEXT NOT NULL,
    scopes           TEXT NOT NULL,
    code_challenge   TEXT,
    nonce            TEXT,
    expires_at       TEXT NOT NULL,
    -- after first use the code stays, pointing at what it issued, so a replay can revoke that grant
    authorization_id INTEGER
);

CREATE TABLE bans (
    user_id    INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    reason     TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    until      TEXT,
    permanent  INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE webhook_deliveries (
    id             INTEGER PRIMARY KEY,
    application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    url            TEXT NOT NULL,
    event_type     TEXT NOT NULL,
    body           TEXT NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts       INTEGER NOT NULL DEFAULT 0,
    last_status    INTEGER,
    last_error     TEXT,
    created_at     TEXT NOT NULL,
    delivered_at   TEXT
);

CREATE TABLE guilds (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    owner_id    INTEGER NOT NULL REFERENCES users (id),
    icon        TEXT,
    description TEXT,
    features    TEXT NOT NULL DEFAULT '[]',
    created_at  TEXT NOT NULL
);

CREATE TABLE roles (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    color         INTEGER NOT NULL DEFAULT 0,
    hoist         INTEGER NOT NULL DEFAULT 0,
    icon          TEXT,
    unicode_emoji TEXT,
    position      INTEGER NOT NULL DEFAULT 0,
    permissions   TEXT NOT NULL DEFAULT '0',
    managed       INTEGER NOT NULL DEFAULT 0,
    mentionable   INTEGER NOT NULL DEFAULT 0,
    flags         INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX roles_guild ON roles (guild_id);

CREATE TABLE channels (
    id                    INTEGER PRIMARY KEY,
    guild_id              INTEGER REFERENCES guilds (id) ON DELETE CASCADE,
    type                  INTEGER NOT NULL,
    name                  TEXT,
    position              INTEGER NOT NULL DEFAULT 0,
    parent_id             INTEGER REFERENCES channels (id) ON DELETE SET NULL,
    topic                 TEXT,
    nsfw                  INTEGER NOT NULL DEFAULT 0,
    bitrate               INTEGER,
    user_limit            INTEGER,
    flags                 INTEGER NOT NULL DEFAULT 0,
    application_id        INTEGER,
    -- JSON array of {id, type, allow, deny} (allow/deny are decimal strings)
    permission_overwrites TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX channels_guild ON channels (guild_id);

CREATE TABLE members (
    guild_id  INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    user_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    nick      TEXT,
    roles     TEXT NOT NULL DEFAULT '[]',
    joined_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX members_user ON members (user_id);
