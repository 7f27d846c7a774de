-- A modal submit names the interaction whose MODAL answer it fills in: its messages' interaction_metadata
-- carries that interaction's metadata (triggering_interaction_metadata).
ALTER TABLE interactions ADD COLUMN triggering_interaction_id INTEGER;

-- Modal submits stored before: the latest earlier interaction of the same user and app answered with a
-- MODAL (the simulated user submits the modal it was shown).
UPDATE interactions SET triggering_interaction_id = (
    SELECT o.id FROM interactions o
    WHERE o.response_type = 9 AND o.application_id = interactions.application_id
      AND o.user_id = interactions.user_id AND o.id < interactions.id
    ORDER BY o.id DESC LIMIT 1)
WHERE type = 5;

-- Answers already in the channel history get their variant's fields. A component's: the message the
-- component is on.
UPDATE channel_messages SET interaction = json_set(interaction, '$.interaction_metadata.interacted_message_id', (
    SELECT CAST(i.message_id AS TEXT) FROM interactions i
    WHERE i.id = CAST(json_extract(channel_messages.interaction, '$.interaction_metadata.id') AS INTEGER)))
WHERE json_extract(interaction, '$.interaction_metadata.type') = 3 AND EXISTS (
    SELECT 1 FROM interactions i
    WHERE i.id = CAST(json_extract(channel_messages.interaction, '$.interaction_metadata.id') AS INTEGER)
      AND i.message_id IS NOT NULL);

-- A user command's: its target user, as the interaction resolved it.
UPDATE channel_messages SET interaction = json_set(interaction, '$.interaction_metadata.target_user', json((
    SELECT json_extract(i.payload, '$.data.resolved.users."' || json_extract(i.payload, '$.data.target_id') || '"')
    FROM interactions i
    WHERE i.id = CAST(json_extract(channel_messages.interaction, '$.interaction_metadata.id') AS INTEGER))))
WHERE json_extract(interaction, '$.interaction_metadata.type') = 2 AND EXISTS (
    SELECT 1 FROM interactions i
    WHERE i.id = CAST(json_extract(channel_messages.interaction, '$.interaction_metadata.id') AS INTEGER)
      AND json_extract(i.payload, '$.data.type') = 2
      AND json_extract(i.payload, '$.data.resolved.users."' || json_extract(i.payload, '$.data.target_id') || '"')
          IS NOT NULL);

-- A message command's: its target message.
UPDATE channel_messages SET interaction = json_set(interaction, '$.interaction_metadata.target_message_id', (
    SELECT json_extract(i.payload, '$.data.target_id') FROM interactions i
    WHERE i.id = CAST(json_extract(channel_messages.interaction, '$.interaction_metadata.id') AS INTEGER)))
WHERE json_extract(interaction, '$.interaction_metadata.type') = 2 AND EXISTS (
    SELECT 1 FROM interactions i
    WHERE i.id = CAST(json_extract(channel_messages.interaction, '$.interaction_metadata.id') AS INTEGER)
      AND json_extract(i.payload, '$.data.type') = 3 AND json_extract(i.payload, '$.data.target_id') IS NOT NULL);

-- A modal submit's: the metadata of the interaction the modal answered (a command's or a component's;
-- the same user).
UPDATE channel_messages SET interaction = json_set(interaction, '$.interaction_metadata.triggering_interaction_metadata', json((
    SELECT json_patch(json_object(
        'id', CAST(o.id AS TEXT), 'type', o.type,
        'user', json(json_extract(channel_messages.interaction, '$.interaction_metadata.user')),
        'authorizing_integration_owners', json(json_extract(o.payload, '$.authorizing_integration_owners'))),
        CASE
            WHEN o.type = 3 THEN json_object('interacted_message_id', CAST(o.message_id AS TEXT))
            WHEN json_extract(o.payload, '$.data.type') = 3
                THEN json_object('target_message_id', json_extract(o.payload, '$.data.target_id'))
            WHEN json_extract(o.payload, '$.data.type') = 2 THEN json_object('target_user', json(json_extract(
                o.payload, '$.data.resolved.users."' || json_extract(o.payload, '$.data.target_id') || '"')))
            ELSE '{}'
        END)
    FROM interactions s JOIN interactions o ON o.id = s.triggering_interaction_id
    WHERE s.id = CAST(json_extract(channel_messages.interaction, '$.interaction_metadata.id') AS INTEGER))))
WHERE json_extract(interaction, '$.interaction_metadata.type') = 5 AND EXISTS (
    SELECT 1 FROM interactions s JOIN interactions o ON o.id = s.triggering_interaction_id
    WHERE s.id = CAST(json_extract(channel_messages.interaction, '$.interaction_metadata.id') AS INTEGER));
