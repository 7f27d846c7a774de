-- Role connections: an application's metadata records (at most 5), each user's connection to the
-- application (platform name and username, metadata values as strings), and linked roles: a role
-- linked to an application's connection, with a required value for some of its records.
CREATE TABLE application_role_connection_metadata (
    application_id            INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    position                  INTEGER NOT NULL,
    key                       TEXT NOT NULL,
    type                      INTEGER NOT NULL,
    name                      TEXT NOT NULL,
    description               TEXT NOT NULL,
    name_localizations        TEXT,
    description_localizations TEXT,
    PRIMARY KEY (application_id, key)
);

CREATE TABLE user_role_connections (
    application_id    INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    user_id           INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    platform_name     TEXT,
    platform_username TEXT,
    metadata          TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (application_id, user_id)
);

CREATE TABLE linked_role_requirements (
    role_id        INTEGER PRIMARY KEY REFERENCES roles (id) ON DELETE CASCADE,
    application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    -- {metadata key: required integer}, compared as the record's type says
    requirements   TEXT NOT NULL DEFAULT '{}'
);

-- tags.guild_connections of a role (a flag: the role is linked).
ALTER TABLE roles ADD COLUMN guild_connections INTEGER NOT NULL DEFAULT 0;
