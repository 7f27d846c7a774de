-- The guild model of issue 10: the member, role, channel and guild fields bots read and write, and
-- the application's private "channel obfuscation" toggle (the bot tab's setting).
ALTER TABLE members ADD COLUMN avatar TEXT;
ALTER TABLE members ADD COLUMN banner TEXT;
ALTER TABLE members ADD COLUMN bio TEXT;
ALTER TABLE members ADD COLUMN communication_disabled_until TEXT;
ALTER TABLE members ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN deaf INTEGER NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN mute INTEGER NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN flags INTEGER NOT NULL DEFAULT 0;

ALTER TABLE roles ADD COLUMN secondary_color INTEGER;
ALTER TABLE roles ADD COLUMN tertiary_color INTEGER;

ALTER TABLE channels ADD COLUMN rate_limit_per_user INTEGER NOT NULL DEFAULT 0;
ALTER TABLE channels ADD COLUMN rtc_region TEXT;
ALTER TABLE channels ADD COLUMN last_message_id INTEGER;

ALTER TABLE guilds ADD COLUMN afk_channel_id INTEGER;
ALTER TABLE guilds ADD COLUMN afk_timeout INTEGER NOT NULL DEFAULT 300;
ALTER TABLE guilds ADD COLUMN system_channel_id INTEGER;
ALTER TABLE guilds ADD COLUMN verification_level INTEGER NOT NULL DEFAULT 0;
ALTER TABLE guilds ADD COLUMN preferred_locale TEXT NOT NULL DEFAULT 'en-US';

ALTER TABLE applications ADD COLUMN channel_obfuscation INTEGER NOT NULL DEFAULT 0;
