-- The application settings a bot may read and change (GET/PATCH /applications/@me) beyond those of
-- 0001_core.sql. JSON columns hold what the API returns for them; NULL means unset.
ALTER TABLE applications ADD COLUMN icon TEXT;
ALTER TABLE applications ADD COLUMN cover_image TEXT;
ALTER TABLE applications ADD COLUMN type INTEGER;
ALTER TABLE applications ADD COLUMN interactions_endpoint_url TEXT;
ALTER TABLE applications ADD COLUMN role_connections_verification_url TEXT;
ALTER TABLE applications ADD COLUMN custom_install_url TEXT;
ALTER TABLE applications ADD COLUMN explicit_content_filter INTEGER NOT NULL DEFAULT 0;
ALTER TABLE applications ADD COLUMN max_participants INTEGER;
ALTER TABLE applications ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
ALTER TABLE applications ADD COLUMN install_params TEXT;
ALTER TABLE applications ADD COLUMN integration_types_config TEXT;
