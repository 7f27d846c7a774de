-- The bot integration of an application in a guild: made when its bot joins (or, for a bot a world
-- file put in a guild, when the guild's integrations are first read); removing it removes the bot.
CREATE TABLE guild_integrations (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    user_id        INTEGER REFERENCES users (id) ON DELETE SET NULL,   -- who added the bot
    scopes         TEXT NOT NULL DEFAULT '["bot","applications.commands"]',
    created_at     TEXT NOT NULL,
    UNIQUE (guild_id, application_id)
);
