-- Application commands (global: guild_id 0) and their per-guild permissions.
CREATE TABLE application_commands (
    id              INTEGER PRIMARY KEY,
    application_id  INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    guild_id        INTEGER NOT NULL DEFAULT 0,
    type            INTEGER NOT NULL,
    name            TEXT NOT NULL,
    body            TEXT NOT NULL,          -- the validated command (JSON), without ids and version
    version         INTEGER NOT NULL,
    UNIQUE (application_id, guild_id, type, name)
);
CREATE INDEX application_commands_scope ON application_commands (application_id, guild_id, type);

-- command_id = application_id: the permissions of every command of the app in the guild.
CREATE TABLE application_command_permissions (
    application_id  INTEGER NOT NULL,
    guild_id        INTEGER NOT NULL,
    command_id      INTEGER NOT NULL,
    permissions     TEXT NOT NULL,
    PRIMARY KEY (application_id, guild_id, command_id)
);
