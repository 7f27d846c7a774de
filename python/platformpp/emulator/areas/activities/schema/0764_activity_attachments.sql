-- Files an application uploads for its Activity to share (POST /applications/{id}/attachment),
-- served back at the ephemeral-attachments path.
CREATE TABLE activity_attachments (
    id              INTEGER PRIMARY KEY,
    application_id  INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    filename        TEXT NOT NULL,
    content_type    TEXT,
    data            BLOB NOT NULL,
    created_at      TEXT NOT NULL
);
