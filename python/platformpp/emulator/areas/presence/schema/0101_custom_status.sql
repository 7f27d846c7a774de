-- A user's custom status (activity type 4) belongs to the user, not to one game: at most one.
CREATE TABLE custom_statuses (
    user_id    INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    activity   TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
