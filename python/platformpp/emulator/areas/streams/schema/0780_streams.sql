-- Live Go Live streams (Gateway opcodes 18-22). Like voice states they live as long as the Gateway
-- session and voice state that made them, so the tables are emptied when the emulator starts.
-- ``stream_key`` is "guild:{guild_id}:{channel_id}:{user_id}" in a guild voice channel, "call:{channel_id}:
-- {user_id}" in a DM or group DM call (``guild_id`` NULL); ``rtc_server_id`` names the stream's call on the
-- voice service (the server_id its clients identify with).
CREATE TABLE streams (
    stream_key     TEXT PRIMARY KEY,
    kind           TEXT NOT NULL,
    guild_id       INTEGER,
    channel_id     INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    application_id INTEGER NOT NULL,
    session_id     TEXT NOT NULL,
    rtc_server_id  INTEGER NOT NULL UNIQUE,
    region         TEXT NOT NULL,
    paused         INTEGER NOT NULL DEFAULT 0,
    created_at     TEXT NOT NULL
);
CREATE INDEX streams_user ON streams (user_id);

CREATE TABLE stream_viewers (
    stream_key     TEXT NOT NULL REFERENCES streams (stream_key) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL,
    application_id INTEGER NOT NULL,
    session_id     TEXT NOT NULL,
    watched_at     TEXT NOT NULL,
    PRIMARY KEY (stream_key, user_id)
);

-- The streamer's voice state says it streams (VOICE_STATE_UPDATE ``self_stream``).
ALTER TABLE voice_states ADD COLUMN self_stream INTEGER NOT NULL DEFAULT 0;
