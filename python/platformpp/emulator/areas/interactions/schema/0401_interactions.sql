-- Interactions a simulated user started, what the app answered, and the messages of the answer.
CREATE TABLE interactions (
    id                  INTEGER PRIMARY KEY,
    application_id      INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    token_hash          TEXT NOT NULL UNIQUE,    -- SHA-256 of the interaction token
    type                INTEGER NOT NULL,
    user_id             INTEGER NOT NULL,
    guild_id            INTEGER,
    channel_id          INTEGER,
    message_id          INTEGER,                 -- the message of a component interaction
    payload             TEXT NOT NULL,           -- the interaction as delivered (without the token)
    created_at          REAL NOT NULL,           -- emulator clock, seconds
    response_type       INTEGER,
    response            TEXT,                    -- the callback's data (JSON), e.g. the modal
    responded_at        REAL,
    delivery            TEXT NOT NULL,           -- 'gateway' or 'http'
    error               TEXT                     -- why the interaction failed, for the simulated user
);

CREATE TABLE interaction_messages (
    id                  INTEGER PRIMARY KEY,
    interaction_id      INTEGER NOT NULL REFERENCES interactions (id) ON DELETE CASCADE,
    is_original         INTEGER NOT NULL,
    flags               INTEGER NOT NULL DEFAULT 0,
    loading             INTEGER NOT NULL DEFAULT 0,   -- a deferred response not yet edited
    body                TEXT NOT NULL,                -- content, embeds, components, tts, poll (JSON)
    attachments         TEXT NOT NULL DEFAULT '[]',
    created_at          TEXT NOT NULL,
    edited_at           TEXT
);
CREATE INDEX interaction_messages_of ON interaction_messages (interaction_id);

-- Files a simulated user uploaded with an interaction, and files of the app's responses. The user's
-- files are stored while the interaction is built, before its row: the reference is checked at commit.
CREATE TABLE interaction_files (
    id                  INTEGER PRIMARY KEY,
    interaction_id      INTEGER NOT NULL REFERENCES interactions (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    filename            TEXT NOT NULL,
    content_type        TEXT,
    size                INTEGER NOT NULL,
    data_base64         TEXT NOT NULL         -- base64: snapshots are JSON
);
