-- Guild scheduled events (issue 10 §3) and the users interested in each.
CREATE TABLE guild_scheduled_events (
    id                   INTEGER PRIMARY KEY,
    guild_id             INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    channel_id           INTEGER REFERENCES channels (id) ON DELETE SET NULL,
    creator_id           INTEGER REFERENCES users (id) ON DELETE SET NULL,
    name                 TEXT NOT NULL,
    description          TEXT,
    image                TEXT,
    scheduled_start_time TEXT NOT NULL,
    scheduled_end_time   TEXT,
    privacy_level        INTEGER NOT NULL DEFAULT 2,
    -- 1 scheduled, 2 active, 3 completed, 4 canceled
    status               INTEGER NOT NULL DEFAULT 1,
    -- 1 stage instance, 2 voice, 3 external
    entity_type          INTEGER NOT NULL,
    entity_metadata      TEXT,
    created_at           TEXT NOT NULL
);
CREATE INDEX guild_scheduled_events_guild ON guild_scheduled_events (guild_id);

CREATE TABLE guild_scheduled_event_users (
    event_id   INTEGER NOT NULL REFERENCES guild_scheduled_events (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (event_id, user_id)
);
