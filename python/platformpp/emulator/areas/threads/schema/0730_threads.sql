-- Threads are channel rows with a parent (types 10, 11, 12); forum and media channels gain their
-- settings. member_count is kept with thread_members so a thread renders from its row alone.
ALTER TABLE channels ADD COLUMN thread_archived INTEGER NOT NULL DEFAULT 0;
ALTER TABLE channels ADD COLUMN thread_auto_archive_duration INTEGER;
ALTER TABLE channels ADD COLUMN thread_archive_timestamp TEXT;
ALTER TABLE channels ADD COLUMN thread_locked INTEGER NOT NULL DEFAULT 0;
ALTER TABLE channels ADD COLUMN thread_invitable INTEGER NOT NULL DEFAULT 1;
ALTER TABLE channels ADD COLUMN thread_create_timestamp TEXT;
ALTER TABLE channels ADD COLUMN thread_last_activity TEXT;
ALTER TABLE channels ADD COLUMN message_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE channels ADD COLUMN total_message_sent INTEGER NOT NULL DEFAULT 0;
ALTER TABLE channels ADD COLUMN member_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE channels ADD COLUMN applied_tags TEXT NOT NULL DEFAULT '[]';
ALTER TABLE channels ADD COLUMN available_tags TEXT NOT NULL DEFAULT '[]';
ALTER TABLE channels ADD COLUMN default_reaction_emoji TEXT;
ALTER TABLE channels ADD COLUMN default_sort_order INTEGER;
ALTER TABLE channels ADD COLUMN default_forum_layout INTEGER NOT NULL DEFAULT 0;
ALTER TABLE channels ADD COLUMN default_auto_archive_duration INTEGER;
ALTER TABLE channels ADD COLUMN default_thread_rate_limit_per_user INTEGER NOT NULL DEFAULT 0;
CREATE INDEX channels_parent ON channels (parent_id);

CREATE TABLE thread_members (
    thread_id      INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    join_timestamp TEXT NOT NULL,
    flags          INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (thread_id, user_id)
);
