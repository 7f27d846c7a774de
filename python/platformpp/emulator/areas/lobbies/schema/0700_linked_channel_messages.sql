-- Linked channels (issue 17): lobby messages that were written in the linked guild channel (from the
-- platform's client, not the game) keep what they carry besides their text, and the platform's
-- auto-generated disclosure messages say which disclosure they are.
ALTER TABLE lobby_messages ADD COLUMN from_channel INTEGER NOT NULL DEFAULT 0;
-- JSON object of the channel message's attachments, embeds, sticker_items, poll, thread and flags
ALTER TABLE lobby_messages ADD COLUMN extra TEXT;
ALTER TABLE lobby_messages ADD COLUMN disclosure_type INTEGER;
