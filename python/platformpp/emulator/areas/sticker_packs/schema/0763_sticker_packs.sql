-- The platform's standard sticker packs (every user may send their stickers), set up by the
-- sticker_packs fixture section.
CREATE TABLE sticker_packs (
    id               INTEGER PRIMARY KEY,
    sku_id           INTEGER NOT NULL,
    name             TEXT NOT NULL,
    description      TEXT NOT NULL,
    cover_sticker_id INTEGER,
    banner_asset_id  INTEGER
);

CREATE TABLE standard_stickers (
    id          INTEGER PRIMARY KEY,
    pack_id     INTEGER NOT NULL REFERENCES sticker_packs (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    tags        TEXT NOT NULL,
    description TEXT,
    format_type INTEGER NOT NULL,
    sort_value  INTEGER NOT NULL
);
CREATE INDEX standard_stickers_pack ON standard_stickers (pack_id, sort_value);
