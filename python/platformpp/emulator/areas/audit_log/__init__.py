"""The guild audit log: ``store.record`` (called by every area after a change, in the change's own
transaction), ``GET /guilds/{guild_id}/audit-logs``, and GUILD_AUDIT_LOG_ENTRY_CREATE to bots with
VIEW_AUDIT_LOG and the GUILD_MODERATION intent."""
