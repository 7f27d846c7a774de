-- A live stage: at most one instance per stage channel (the platform's "Stage already open").
-- ``channel_id`` has no foreign key: when the channel is deleted the area deletes the instance itself,
-- announcing it (STAGE_INSTANCE_DELETE), which a cascade would not.
CREATE TABLE stage_instances (
    id                       INTEGER PRIMARY KEY,
    guild_id                 INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    channel_id               INTEGER NOT NULL UNIQUE,
    topic                    TEXT NOT NULL,
    -- 2 GUILD_ONLY (1 PUBLIC is deprecated and refused)
    privacy_level            INTEGER NOT NULL DEFAULT 2,
    guild_scheduled_event_id INTEGER REFERENCES guild_scheduled_events (id) ON DELETE SET NULL,
    created_at               TEXT NOT NULL
);
CREATE INDEX stage_instances_guild ON stage_instances (guild_id);
