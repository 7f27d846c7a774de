-- The OAuth2 device authorization grant (RFC 8628): one row per device authorization request.
-- The device code is stored as a digest (it is a bearer secret); the user code is short and shown.
CREATE TABLE oauth_device_codes (
    device_code_hash TEXT PRIMARY KEY,
    user_code        TEXT NOT NULL UNIQUE,
    application_id   INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    scopes           TEXT NOT NULL,
    expires_at       TEXT NOT NULL,
    interval_s       INTEGER NOT NULL,
    -- pending, approved, denied, used
    status           TEXT NOT NULL DEFAULT 'pending',
    user_id          INTEGER REFERENCES users (id) ON DELETE CASCADE,
    last_poll_at     TEXT
);

-- The polling interval new device authorizations ask for (PUT /_emulator/oauth/device-interval);
-- no row: the default of five seconds. A data table, so a reset returns to the default.
CREATE TABLE oauth_device_settings (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    interval_s INTEGER NOT NULL
);
