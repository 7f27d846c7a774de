-- A role's tags: the bot whose managed role it is, the integration that manages it (null: none).
ALTER TABLE roles ADD COLUMN bot_id INTEGER;
ALTER TABLE roles ADD COLUMN integration_id INTEGER;
