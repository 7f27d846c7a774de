-- Social layer: lobbies, their members, messages and invites; game direct messages; presence;
-- relationships; application identity profiles. Ids are snowflakes; JSON columns hold JSON text;
-- times are ISO-8601 UTC strings from the emulator clock.

CREATE TABLE lobbies (
    id                   INTEGER PRIMARY KEY,
    application_id       INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    -- SHA-256 digest of the join secret of PUT /lobbies; NULL for lobbies a bot created without one
    secret               TEXT,
    metadata             TEXT,
    idle_timeout_seconds INTEGER NOT NULL DEFAULT 300,
    linked_channel_id    INTEGER REFERENCES channels (id) ON DELETE SET NULL,
    -- emulator time since which no member has had a connected Gateway session; NULL while one has
    idle_since           TEXT,
    created_at           TEXT NOT NULL
);
CREATE UNIQUE INDEX lobbies_secret ON lobbies (application_id, secret) WHERE secret IS NOT NULL;

CREATE TABLE lobby_members (
    lobby_id        INTEGER NOT NULL REFERENCES lobbies (id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    metadata        TEXT,
    flags           INTEGER NOT NULL DEFAULT 0,
    -- set only with a bot token (PUT members/{id}, members/bulk); shown on the member's messages
    additional_name TEXT,
    joined_at       TEXT NOT NULL,
    PRIMARY KEY (lobby_id, user_id)
);
CREATE INDEX lobby_members_user ON lobby_members (user_id);

CREATE TABLE lobby_messages (
    id                  INTEGER PRIMARY KEY,
    lobby_id            INTEGER NOT NULL REFERENCES lobbies (id) ON DELETE CASCADE,
    author_id           INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    content             TEXT NOT NULL,
    metadata            TEXT,
    moderation_metadata TEXT NOT NULL DEFAULT '{}',
    created_at          TEXT NOT NULL,
    edited_at           TEXT
);
CREATE INDEX lobby_messages_lobby ON lobby_messages (lobby_id, id);

CREATE TABLE lobby_invites (
    code           TEXT PRIMARY KEY,
    lobby_id       INTEGER NOT NULL REFERENCES lobbies (id) ON DELETE CASCADE,
    channel_id     INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
    inviter_id     INTEGER REFERENCES users (id) ON DELETE CASCADE,
    -- the user the invite is for (the caller for "@me", the path's user otherwise)
    target_user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at     TEXT NOT NULL,
    expires_at     TEXT NOT NULL,
    used_at        TEXT
);

-- Game direct messages: between two users of one application. user_low < user_high names the pair.
CREATE TABLE dm_messages (
    id                  INTEGER PRIMARY KEY,
    application_id      INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    author_id           INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    recipient_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    user_low            INTEGER NOT NULL,
    user_high           INTEGER NOT NULL,
    content             TEXT NOT NULL,
    metadata            TEXT,
    moderation_metadata TEXT NOT NULL DEFAULT '{}',
    created_at          TEXT NOT NULL,
    edited_at           TEXT
);
CREATE INDEX dm_messages_pair ON dm_messages (application_id, user_low, user_high, id);

-- A user's online status; NULL row means offline.
CREATE TABLE presences (
    user_id    INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    status     TEXT NOT NULL DEFAULT 'online',
    updated_at TEXT NOT NULL
);

-- Rich presence: at most one current activity per user and application.
CREATE TABLE activities (
    user_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    activity       TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    PRIMARY KEY (user_id, application_id)
);

-- Platform relationships, one row per direction: 1 friend, 2 blocked, 3 pending incoming,
-- 4 pending outgoing.
CREATE TABLE relationships (
    user_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    other_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type     INTEGER NOT NULL CHECK (type IN (1, 2, 3, 4)),
    since    TEXT NOT NULL,
    PRIMARY KEY (user_id, other_id)
);

-- Game relationships: the same types, scoped to one application (game friends).
CREATE TABLE game_relationships (
    application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    other_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type           INTEGER NOT NULL CHECK (type IN (1, 2, 3, 4)),
    since          TEXT NOT NULL,
    PRIMARY KEY (application_id, user_id, other_id)
);

-- A user's application identity profile: game stats widget fields, written with a bot token.
CREATE TABLE application_identity_profiles (
    application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    fields         TEXT NOT NULL DEFAULT '{}',
    updated_at     TEXT NOT NULL,
    PRIMARY KEY (application_id, user_id)
);
