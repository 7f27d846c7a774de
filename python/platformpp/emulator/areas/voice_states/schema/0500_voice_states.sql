-- Who is in which call (Gateway opcode 4). A voice state lives as long as the Gateway session that
-- made it; the table is emptied when the emulator starts (no session survives a restart).
-- ``server_id`` is the guild id, or the channel (or lobby) id of a private call: as VOICE_SERVER_UPDATE
-- and the voice service name it. ``kind``: guild | private (DM, group DM) | lobby.
CREATE TABLE voice_states (
    user_id                    INTEGER NOT NULL,
    server_id                  INTEGER NOT NULL,
    kind                       TEXT NOT NULL,
    guild_id                   INTEGER,
    channel_id                 INTEGER NOT NULL,
    application_id             INTEGER NOT NULL,
    session_id                 TEXT NOT NULL,
    self_mute                  INTEGER NOT NULL DEFAULT 0,
    self_deaf                  INTEGER NOT NULL DEFAULT 0,
    self_video                 INTEGER NOT NULL DEFAULT 0,
    mute                       INTEGER NOT NULL DEFAULT 0,
    deaf                       INTEGER NOT NULL DEFAULT 0,
    suppress                   INTEGER NOT NULL DEFAULT 0,
    request_to_speak_timestamp TEXT,
    PRIMARY KEY (user_id, server_id)
);
CREATE INDEX voice_states_channel ON voice_states (channel_id);
CREATE INDEX voice_states_session ON voice_states (session_id);

-- The ephemeral fields of a voice or stage channel (never part of the channel object): its status
-- (PUT /channels/{id}/voice-status) and when its current call started.
CREATE TABLE voice_channel_info (
    channel_id       INTEGER PRIMARY KEY REFERENCES channels (id) ON DELETE CASCADE,
    status           TEXT,
    voice_start_time TEXT
);
