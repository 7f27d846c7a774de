-- Guild invites (issue 11 §1). A lobby's single-use invites stay in lobby_invites (0100); both are
-- answered by GET/POST /invites/{code}.
CREATE TABLE guild_invites (
    code                  TEXT PRIMARY KEY,
    guild_id              INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    channel_id            INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
    inviter_id            INTEGER REFERENCES users (id) ON DELETE SET NULL,
    max_age               INTEGER NOT NULL,            -- seconds, 0 = never expires
    max_uses              INTEGER NOT NULL,            -- 0 = unlimited
    uses                  INTEGER NOT NULL DEFAULT 0,
    temporary             INTEGER NOT NULL DEFAULT 0,
    target_type           INTEGER,
    target_user_id        INTEGER REFERENCES users (id) ON DELETE SET NULL,
    target_application_id INTEGER,
    role_ids              TEXT NOT NULL DEFAULT '[]',  -- JSON array of role ids (strings) granted on accept
    restricted            INTEGER NOT NULL DEFAULT 0,  -- 1: only invite_target_users may accept
    created_at            TEXT NOT NULL,
    expires_at            TEXT
);
CREATE INDEX guild_invites_guild ON guild_invites (guild_id);
CREATE INDEX guild_invites_channel ON guild_invites (channel_id);

CREATE TABLE invite_target_users (
    code    TEXT NOT NULL REFERENCES guild_invites (code) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    PRIMARY KEY (code, user_id)
) WITHOUT ROWID;

-- The latest target-users job of an invite. status: 0 queued, 1 processing, 2 completed, 3 failed.
CREATE TABLE invite_target_jobs (
    code            TEXT PRIMARY KEY REFERENCES guild_invites (code) ON DELETE CASCADE,
    upload_id       INTEGER NOT NULL,
    status          INTEGER NOT NULL,
    total_users     INTEGER NOT NULL,
    processed_users INTEGER NOT NULL DEFAULT 0,
    created_at      TEXT NOT NULL,
    completed_at    TEXT,
    error_message   TEXT
);

-- User ids of an upload being read or waiting for its job, by CSV line (streamed in, never held whole).
CREATE TABLE invite_target_uploads (
    upload_id INTEGER NOT NULL,
    line      INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    PRIMARY KEY (upload_id, line)
) WITHOUT ROWID;
