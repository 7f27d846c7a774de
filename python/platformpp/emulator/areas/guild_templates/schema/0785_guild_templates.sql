-- Guild templates: one per guild (the platform's limit), with the snapshot taken when it was created or
-- last synced. is_dirty is set when the guild changes after the snapshot (areas/guild_templates/dirty.py).
CREATE TABLE guild_templates (
    code        TEXT PRIMARY KEY,
    guild_id    INTEGER NOT NULL UNIQUE REFERENCES guilds (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    description TEXT,
    usage_count INTEGER NOT NULL DEFAULT 0,
    creator_id  INTEGER NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    snapshot    TEXT NOT NULL,
    is_dirty    INTEGER NOT NULL DEFAULT 0
);
