-- Monetization records of an application: its SKUs, the entitlements granted to users or guilds, and the
-- subscriptions that grant them. Instants are ISO-8601 UTC strings of one fixed form (core/clock.py
-- format_instant), so that comparing them as text compares the instants.
CREATE TABLE skus (
    id             INTEGER PRIMARY KEY,
    application_id INTEGER NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
    type           INTEGER NOT NULL,            -- DURABLE 2, CONSUMABLE 3, SUBSCRIPTION 5, SUBSCRIPTION_GROUP 6
    name           TEXT NOT NULL,
    slug           TEXT NOT NULL,
    flags          INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX skus_by_application ON skus (application_id, id);

CREATE TABLE subscriptions (
    id                   INTEGER PRIMARY KEY,
    application_id       INTEGER NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
    sku_id               INTEGER NOT NULL REFERENCES skus(id) ON DELETE CASCADE,
    user_id              INTEGER NOT NULL,
    status               INTEGER NOT NULL,      -- ACTIVE 0, INACTIVE 1, ENDING 2 (the platform's values)
    current_period_start TEXT NOT NULL,
    current_period_end   TEXT NOT NULL,
    period_seconds       INTEGER NOT NULL,      -- an ACTIVE subscription renews by this much at its period end
    canceled_at          TEXT,
    country              TEXT
);
CREATE INDEX subscriptions_by_sku ON subscriptions (sku_id, id);
CREATE INDEX subscriptions_ending ON subscriptions (status, current_period_end);

CREATE TABLE entitlements (
    id              INTEGER PRIMARY KEY,
    application_id  INTEGER NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
    sku_id          INTEGER NOT NULL REFERENCES skus(id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL,           -- for a guild's entitlement: the guild owner (the schema requires a user)
    guild_id        INTEGER,
    type            INTEGER NOT NULL,
    starts_at       TEXT,
    ends_at         TEXT,
    consumed        INTEGER NOT NULL DEFAULT 0,
    deleted         INTEGER NOT NULL DEFAULT 0,
    test            INTEGER NOT NULL DEFAULT 0, -- created by Create Test Entitlement: the only ones it may delete
    subscription_id INTEGER REFERENCES subscriptions(id) ON DELETE SET NULL
);
CREATE INDEX entitlements_by_application ON entitlements (application_id, id);
CREATE INDEX entitlements_by_subscription ON entitlements (subscription_id);
