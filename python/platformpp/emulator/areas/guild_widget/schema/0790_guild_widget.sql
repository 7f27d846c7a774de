-- The guild widget's settings (GET/PATCH /guilds/{id}/widget); the channel its instant invite leads to.
ALTER TABLE guilds ADD COLUMN widget_enabled INTEGER NOT NULL DEFAULT 0;
ALTER TABLE guilds ADD COLUMN widget_channel_id INTEGER;
