"""Standard stickers and their packs (``/sticker-packs``), and any sticker by id (``/stickers/{id}``)."""
