-- Images uploaded as data URIs (member avatars and banners, guild and role icons), stored as uploaded
-- and served back by the CDN routes. `path` is the CDN path without its extension, e.g.
-- guilds/{guild_id}/users/{user_id}/avatars/{hash}.
CREATE TABLE cdn_images (
    path         TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    animated     INTEGER NOT NULL DEFAULT 0,
    data         BLOB NOT NULL,
    created_at   TEXT NOT NULL
);
