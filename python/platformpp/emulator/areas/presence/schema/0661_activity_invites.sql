-- Activity invites (SDK SendActivityInvite, SendActivityJoinRequest): type 1 asks the recipient to join
-- the sender's party, type 5 asks the recipient to let the sender in. party_id is the party owner's at
-- the time; an invite stays valid while that owner's activity shows the same party (checked on accept).
CREATE TABLE activity_invites (
    message_id     INTEGER PRIMARY KEY,
    channel_id     INTEGER NOT NULL,
    application_id INTEGER NOT NULL,
    sender_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    recipient_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type           INTEGER NOT NULL CHECK (type IN (1, 5)),
    party_id       TEXT NOT NULL,
    session_id     TEXT NOT NULL,
    content        TEXT NOT NULL DEFAULT '',
    valid          INTEGER NOT NULL DEFAULT 1 CHECK (valid IN (0, 1)),
    created_at     TEXT NOT NULL
);
CREATE INDEX activity_invites_recipient ON activity_invites (recipient_id, application_id);
