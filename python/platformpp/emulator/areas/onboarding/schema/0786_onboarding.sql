-- A guild's pages for new members. Whether the welcome screen is shown is the guild's
-- WELCOME_SCREEN_ENABLED feature; onboarding prompts and their options are kept as one JSON document,
-- as the platform replaces them as a whole (PUT).
CREATE TABLE guild_welcome_screens (
    guild_id         INTEGER PRIMARY KEY REFERENCES guilds (id) ON DELETE CASCADE,
    description      TEXT,
    welcome_channels TEXT NOT NULL DEFAULT '[]'
);

CREATE TABLE guild_onboarding (
    guild_id            INTEGER PRIMARY KEY REFERENCES guilds (id) ON DELETE CASCADE,
    enabled             INTEGER NOT NULL DEFAULT 0,
    mode                INTEGER NOT NULL DEFAULT 0,
    default_channel_ids TEXT NOT NULL DEFAULT '[]',
    prompts             TEXT NOT NULL DEFAULT '[]'
);

CREATE TABLE guild_new_member_welcome (
    guild_id           INTEGER PRIMARY KEY REFERENCES guilds (id) ON DELETE CASCADE,
    enabled            INTEGER NOT NULL DEFAULT 0,
    welcome_message    TEXT,
    new_member_actions TEXT NOT NULL DEFAULT '[]',
    resource_channels  TEXT NOT NULL DEFAULT '[]'
);
