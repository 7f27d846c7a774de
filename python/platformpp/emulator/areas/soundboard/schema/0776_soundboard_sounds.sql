-- A guild's soundboard sounds. The file itself is kept by the CDN area (cdn_images, at
-- soundboard-sounds/{id}); here what the API shows and what the upload was.
CREATE TABLE soundboard_sounds (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    volume       REAL NOT NULL DEFAULT 1.0,
    emoji_id     INTEGER,
    emoji_name   TEXT,
    user_id      INTEGER REFERENCES users (id) ON DELETE SET NULL,
    content_type TEXT NOT NULL,
    duration_ms  INTEGER NOT NULL,
    created_at   TEXT NOT NULL
);
CREATE INDEX soundboard_sounds_guild ON soundboard_sounds (guild_id);
