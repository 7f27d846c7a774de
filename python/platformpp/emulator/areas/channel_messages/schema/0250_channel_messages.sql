-- Guild channel messages (issue 10 §5): the message, its attachments (bytes on disk beside the
-- database, see attachments.py), reactions, pins, the slowmode clock of each author, and the
-- full-text search index of each guild.

CREATE TABLE channel_messages (
    id                INTEGER PRIMARY KEY,
    channel_id        INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
    guild_id          INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    author_id         INTEGER NOT NULL REFERENCES users (id),
    type              INTEGER NOT NULL DEFAULT 0,
    content           TEXT NOT NULL DEFAULT '',
    tts               INTEGER NOT NULL DEFAULT 0,
    flags             INTEGER NOT NULL DEFAULT 0,
    mention_everyone  INTEGER NOT NULL DEFAULT 0,
    -- JSON arrays of ids (strings), as parsed from the content when the message was written
    mentions          TEXT NOT NULL DEFAULT '[]',
    mention_roles     TEXT NOT NULL DEFAULT '[]',
    -- JSON arrays of objects as the client sent them (validated)
    embeds            TEXT NOT NULL DEFAULT '[]',
    components        TEXT NOT NULL DEFAULT '[]',
    sticker_items     TEXT NOT NULL DEFAULT '[]',
    poll              TEXT,
    -- JSON {type, message_id, channel_id, guild_id} and, for forwards, [{message: {...}}]
    message_reference TEXT,
    message_snapshots TEXT,
    nonce             TEXT,
    pinned_at         TEXT,
    created_at        TEXT NOT NULL,
    edited_at         TEXT
);
CREATE INDEX channel_messages_channel ON channel_messages (channel_id, id);
CREATE INDEX channel_messages_guild ON channel_messages (guild_id, id);
CREATE INDEX channel_messages_pinned ON channel_messages (channel_id, pinned_at) WHERE pinned_at IS NOT NULL;

CREATE TABLE message_attachments (
    id            INTEGER PRIMARY KEY,
    message_id    INTEGER NOT NULL REFERENCES channel_messages (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,
    filename      TEXT NOT NULL,
    title         TEXT,
    description   TEXT,
    content_type  TEXT,
    size          INTEGER NOT NULL,
    flags         INTEGER NOT NULL DEFAULT 0,
    -- where the emulator serves it (absolute, from the base URL the upload came in on)
    url           TEXT NOT NULL
);
CREATE INDEX message_attachments_message ON message_attachments (message_id, position);

CREATE TABLE message_reactions (
    message_id  INTEGER NOT NULL REFERENCES channel_messages (id) ON DELETE CASCADE,
    -- "name:id" for a custom emoji, the unicode emoji itself otherwise
    emoji_key   TEXT NOT NULL,
    emoji_id    INTEGER,
    emoji_name  TEXT,
    animated    INTEGER NOT NULL DEFAULT 0,
    user_id     INTEGER NOT NULL REFERENCES users (id),
    created_at  TEXT NOT NULL,
    PRIMARY KEY (message_id, emoji_key, user_id)
);

-- When each author last posted in a channel (slowmode counts from here, even if it was deleted).
CREATE TABLE slowmode_last_post (
    channel_id  INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    posted_at   REAL NOT NULL,
    PRIMARY KEY (channel_id, user_id)
);

-- A guild whose row says ready = 1 can be searched; any other guild answers 110000 until the
-- indexing job (search.py) has (re)built its part of the index.
CREATE TABLE search_index_state (
    guild_id    INTEGER PRIMARY KEY REFERENCES guilds (id) ON DELETE CASCADE,
    ready       INTEGER NOT NULL DEFAULT 0
);

-- The full-text index: rowid = message id. Derived data, rebuilt by the indexing job; the storage
-- layer leaves virtual tables and their shadow tables out of snapshots and resets.
CREATE VIRTUAL TABLE message_search USING fts5 (
    content, guild_id UNINDEXED, tokenize = 'unicode61 remove_diacritics 2'
);
