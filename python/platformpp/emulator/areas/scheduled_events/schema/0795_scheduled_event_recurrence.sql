-- Recurring scheduled events: the rule (JSON, as answered), the exceptions that move or cancel one
-- occurrence, and interest in one occurrence (1 interested, 0 not interested although subscribed to
-- the whole series). An occurrence is named by the snowflake of its original start time.
ALTER TABLE guild_scheduled_events ADD COLUMN recurrence_rule TEXT;

CREATE TABLE guild_scheduled_event_exceptions (
    event_id             INTEGER NOT NULL REFERENCES guild_scheduled_events (id) ON DELETE CASCADE,
    exception_id         INTEGER NOT NULL,
    scheduled_start_time TEXT,
    scheduled_end_time   TEXT,
    is_canceled          INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (event_id, exception_id)
);

CREATE TABLE guild_scheduled_event_occurrence_users (
    event_id     INTEGER NOT NULL REFERENCES guild_scheduled_events (id) ON DELETE CASCADE,
    exception_id INTEGER NOT NULL,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    response     INTEGER NOT NULL,
    PRIMARY KEY (event_id, exception_id, user_id)
);
