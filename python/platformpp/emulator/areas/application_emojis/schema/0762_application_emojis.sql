-- An application's own emoji: its bot may use them in any guild or DM. Kept as the image's type and
-- size only, as guild emoji are.
CREATE TABLE application_emojis (
    id              INTEGER PRIMARY KEY,
    application_id  INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    name            TEXT NOT NULL,
    animated        INTEGER NOT NULL DEFAULT 0,
    image_type      TEXT NOT NULL,
    image_size      INTEGER NOT NULL,
    user_id         INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at      TEXT NOT NULL
);
CREATE UNIQUE INDEX application_emojis_name ON application_emojis (application_id, name);
