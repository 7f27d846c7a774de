-- An interaction's answer in a guild channel (not ephemeral) is also a message of the channel's
-- history, with the same id: this column holds what such a message adds to the message object
-- (JSON {webhook_id, application_id, interaction_metadata}); null for every other message.
ALTER TABLE channel_messages ADD COLUMN interaction TEXT;
