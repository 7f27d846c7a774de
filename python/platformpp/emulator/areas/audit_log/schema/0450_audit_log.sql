-- The guild audit log (issue 11 §3): one row per change made through the API, written in the
-- change's own transaction. changes: JSON [{key, old_value?, new_value?}]; options: JSON object of
-- strings (the platform's "optional audit entry info", e.g. {"status": ...} on entries 192/193).
CREATE TABLE audit_log_entries (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    user_id     INTEGER,
    action_type INTEGER NOT NULL,
    target_id   INTEGER,
    changes     TEXT,
    options     TEXT,
    reason      TEXT
);
CREATE INDEX audit_log_entries_guild ON audit_log_entries (guild_id, id);
