-- Group DMs (channel type 3) set up from fixtures: their owner and recipients. ``application_id`` of
-- the channel row says which application created the group DM (null for a user-made one).
ALTER TABLE channels ADD COLUMN owner_id INTEGER REFERENCES users (id);

CREATE TABLE channel_recipients (
    channel_id INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (channel_id, user_id)
);
CREATE INDEX channel_recipients_user ON channel_recipients (user_id);
