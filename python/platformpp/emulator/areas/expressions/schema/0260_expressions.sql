-- Guild emoji and stickers (issue 10 §3). Images are kept as their bytes' size and type only: the
-- emulator serves no CDN.
CREATE TABLE guild_emojis (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    -- JSON array of role ids (strings) allowed to use it; empty: everyone
    roles       TEXT NOT NULL DEFAULT '[]',
    animated    INTEGER NOT NULL DEFAULT 0,
    image_type  TEXT NOT NULL,
    image_size  INTEGER NOT NULL,
    user_id     INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at  TEXT NOT NULL
);
CREATE INDEX guild_emojis_guild ON guild_emojis (guild_id);

CREATE TABLE guild_stickers (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    tags        TEXT NOT NULL,
    description TEXT,
    format_type INTEGER NOT NULL,
    file_size   INTEGER NOT NULL,
    user_id     INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at  TEXT NOT NULL
);
CREATE INDEX guild_stickers_guild ON guild_stickers (guild_id);
