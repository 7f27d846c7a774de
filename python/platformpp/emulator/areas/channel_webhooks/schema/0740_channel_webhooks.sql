-- Webhooks of guild channels: incoming (type 1, with a token) and channel follower (type 2, fed by
-- crossposts of source_channel_id). The token is kept as given back to its creator: executing needs
-- the token itself in the path, which a digest could check but never show again on GET.
CREATE TABLE channel_webhooks (
    id                 INTEGER PRIMARY KEY,
    type               INTEGER NOT NULL,
    guild_id           INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    channel_id         INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
    user_id            INTEGER REFERENCES users (id),
    application_id     INTEGER,
    name               TEXT NOT NULL,
    avatar             TEXT,
    token              TEXT,
    source_channel_id  INTEGER REFERENCES channels (id) ON DELETE CASCADE,
    created_at         TEXT NOT NULL
);
CREATE INDEX channel_webhooks_channel ON channel_webhooks (channel_id);
CREATE INDEX channel_webhooks_guild ON channel_webhooks (guild_id);
CREATE INDEX channel_webhooks_source ON channel_webhooks (source_channel_id) WHERE source_channel_id IS NOT NULL;

-- A webhook's message: the webhook that wrote it (no reference: a message outlives its webhook) and
-- the author it shows (JSON user object: the webhook's name and avatar, or the execute's overrides).
-- author_id is then the webhook's creator, which the message's readers never see.
ALTER TABLE channel_messages ADD COLUMN webhook_id INTEGER;
ALTER TABLE channel_messages ADD COLUMN webhook_author TEXT;
