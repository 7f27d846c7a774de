-- A guild's auto moderation rules, as the platform stores them: the trigger's metadata, the actions
-- and the exemptions are JSON as they appear on the wire (ids as strings).
CREATE TABLE auto_moderation_rules (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    creator_id       INTEGER NOT NULL,
    name             TEXT NOT NULL,
    -- 1 MESSAGE_SEND, 2 MEMBER_UPDATE
    event_type       INTEGER NOT NULL,
    -- 1 KEYWORD, 3 SPAM, 4 KEYWORD_PRESET, 5 MENTION_SPAM, 6 MEMBER_PROFILE
    trigger_type     INTEGER NOT NULL,
    trigger_metadata TEXT NOT NULL DEFAULT '{}',
    actions          TEXT NOT NULL DEFAULT '[]',
    enabled          INTEGER NOT NULL DEFAULT 0,
    exempt_roles     TEXT NOT NULL DEFAULT '[]',
    exempt_channels  TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX auto_moderation_rules_guild ON auto_moderation_rules (guild_id, id);
