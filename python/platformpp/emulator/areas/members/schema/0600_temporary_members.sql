-- Temporary membership (issue 11 §1, an invite's `temporary`): 1 for a member who joined through a
-- temporary invite and has not been given a role since; removed when their last Gateway connection ends.
ALTER TABLE members ADD COLUMN temporary INTEGER NOT NULL DEFAULT 0;
