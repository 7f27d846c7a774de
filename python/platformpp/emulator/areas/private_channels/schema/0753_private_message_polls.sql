-- Polls in DMs and group DMs: the message's type (46: a poll's result), its poll and its reference
-- (the poll a result message reports on), and the votes.
ALTER TABLE private_messages ADD COLUMN type INTEGER NOT NULL DEFAULT 0;
ALTER TABLE private_messages ADD COLUMN poll TEXT;
ALTER TABLE private_messages ADD COLUMN message_reference TEXT;

CREATE TABLE private_poll_votes (
    message_id  INTEGER NOT NULL REFERENCES private_messages (id) ON DELETE CASCADE,
    answer_id   INTEGER NOT NULL,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (message_id, answer_id, user_id)
);
CREATE INDEX private_poll_votes_user ON private_poll_votes (message_id, user_id);
CREATE INDEX private_messages_with_poll ON private_messages (id) WHERE poll IS NOT NULL;
