-- Reactions on DM and group DM messages (one row per user and emoji, as message_reactions for guild
-- messages), and when a private message was pinned (NULL: not pinned).
CREATE TABLE private_message_reactions (
    message_id  INTEGER NOT NULL REFERENCES private_messages (id) ON DELETE CASCADE,
    emoji_key   TEXT NOT NULL,
    emoji_id    INTEGER,
    emoji_name  TEXT,
    animated    INTEGER NOT NULL DEFAULT 0,
    user_id     INTEGER NOT NULL REFERENCES users (id),
    created_at  TEXT NOT NULL,
    PRIMARY KEY (message_id, emoji_key, user_id)
);
ALTER TABLE private_messages ADD COLUMN pinned_at TEXT;
CREATE INDEX private_messages_pinned ON private_messages (channel_id, pinned_at) WHERE pinned_at IS NOT NULL;
