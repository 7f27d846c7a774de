-- Messages of DMs and group DMs, written through the channel message routes. They live apart from
-- channel_messages, whose rows belong to a guild (guild_id NOT NULL, the search index, members).
CREATE TABLE private_messages (
    id          INTEGER PRIMARY KEY,
    channel_id  INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
    author_id   INTEGER NOT NULL REFERENCES users (id),
    content     TEXT NOT NULL DEFAULT '',
    tts         INTEGER NOT NULL DEFAULT 0,
    flags       INTEGER NOT NULL DEFAULT 0,
    -- JSON arrays as the client sent them (validated)
    embeds      TEXT NOT NULL DEFAULT '[]',
    components  TEXT NOT NULL DEFAULT '[]',
    nonce       TEXT,
    created_at  TEXT NOT NULL,
    edited_at   TEXT
);
CREATE INDEX private_messages_channel ON private_messages (channel_id, id);
