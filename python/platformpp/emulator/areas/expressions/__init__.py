"""Guild expressions: emoji and stickers (create with image data, list, get, modify, delete), under
the dated creation rule of 2026-02-23."""
