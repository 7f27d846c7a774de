-- Guild administration (issue 11 §2): bans, and each member's last activity on the emulator clock
-- (messages sent, Gateway activity), which prune reads; NULL means "not active since joining".
CREATE TABLE guild_bans (
    guild_id  INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
    user_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reason    TEXT,
    banned_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
ALTER TABLE members ADD COLUMN last_active_at TEXT;
