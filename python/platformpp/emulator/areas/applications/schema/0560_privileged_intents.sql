-- Applications for the privileged intents (seed: Authentication 12): from 10,000 users an intent needs an
-- approval, which lasts one year. One row per application and intent: the latest application and its decision.
-- Instants are ISO-8601 UTC strings of one fixed form (core/clock.py format_instant): text order is time order.
CREATE TABLE privileged_intent_approvals (
    application_id INTEGER NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
    intent         TEXT NOT NULL,          -- GUILD_PRESENCES, GUILD_MEMBERS, MESSAGE_CONTENT
    status         TEXT NOT NULL,          -- pending, approved, denied, expired
    applied_at     TEXT,
    decided_at     TEXT,
    expires_at     TEXT,                   -- approved: one year after the decision
    PRIMARY KEY (application_id, intent)
);
CREATE INDEX privileged_intent_approvals_expiring ON privileged_intent_approvals (status, expires_at);
