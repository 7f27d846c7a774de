"""The CDN: images uploaded as data URIs (member avatars and banners, guild and role icons) stored
as uploaded and served back at the platform's CDN paths, in the format and size asked for."""
