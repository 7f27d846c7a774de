-- The vanity URL (set by world files and the admin API; shown only with the VANITY_URL feature) and the
-- incident actions: until when invites and DMs are paused (ISO-8601 on the emulator clock, NULL: not).
ALTER TABLE guilds ADD COLUMN vanity_url_code TEXT;
ALTER TABLE guilds ADD COLUMN vanity_url_uses INTEGER NOT NULL DEFAULT 0;
ALTER TABLE guilds ADD COLUMN invites_disabled_until TEXT;
ALTER TABLE guilds ADD COLUMN dms_disabled_until TEXT;
CREATE UNIQUE INDEX guilds_vanity_url_code ON guilds (vanity_url_code) WHERE vanity_url_code IS NOT NULL;

-- A user's request to join a guild behind member verification: the member is pending until it is
-- approved (rejected: removed). status: STARTED, SUBMITTED, APPROVED or REJECTED.
CREATE TABLE guild_join_requests (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    user_id          INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status           TEXT NOT NULL,
    form_responses   TEXT NOT NULL DEFAULT '[]',
    rejection_reason TEXT,
    actioned_by      INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at       TEXT NOT NULL,
    reviewed_at      TEXT
);
CREATE INDEX guild_join_requests_guild ON guild_join_requests (guild_id, id);
