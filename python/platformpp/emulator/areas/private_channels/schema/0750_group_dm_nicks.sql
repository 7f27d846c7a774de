-- The nickname an application gave a recipient of a group DM it created (``nicks`` of
-- POST /users/@me/channels, ``nick`` of PUT /channels/{id}/recipients/{user}); null when none.
ALTER TABLE channel_recipients ADD COLUMN nick TEXT;
