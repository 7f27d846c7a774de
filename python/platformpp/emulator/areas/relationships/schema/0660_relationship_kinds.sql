-- Platform relationships gain the SDK 1.10 types implicit (5: related by the platform without a
-- request) and suggestion (6: a suggested friend), one row each and one-directional, and the spam flag
-- of an incoming request (is_spam_request). SQLite cannot change a CHECK: the table is rebuilt.
CREATE TABLE relationships_0660 (
    user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    other_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type            INTEGER NOT NULL CHECK (type IN (1, 2, 3, 4, 5, 6)),
    since           TEXT NOT NULL,
    is_spam_request INTEGER NOT NULL DEFAULT 0 CHECK (is_spam_request IN (0, 1)),
    PRIMARY KEY (user_id, other_id)
);
INSERT INTO relationships_0660 (user_id, other_id, type, since) SELECT user_id, other_id, type, since FROM relationships;
DROP TABLE relationships;
ALTER TABLE relationships_0660 RENAME TO relationships;
