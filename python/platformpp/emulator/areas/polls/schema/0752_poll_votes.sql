-- Votes on the polls of channel messages (the poll itself is the message's ``poll`` JSON: question,
-- answers, expiry, results.is_finalized). One row per user and answer chosen.
CREATE TABLE poll_votes (
    message_id  INTEGER NOT NULL REFERENCES channel_messages (id) ON DELETE CASCADE,
    answer_id   INTEGER NOT NULL,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (message_id, answer_id, user_id)
);
CREATE INDEX poll_votes_user ON poll_votes (message_id, user_id);
-- The polls still open, found without reading every message.
CREATE INDEX channel_messages_with_poll ON channel_messages (id) WHERE poll IS NOT NULL;
