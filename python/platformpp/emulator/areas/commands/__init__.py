"""Application commands: global and guild commands (chat input, user, message, entry point) with the
platform's validation and per-scope limits, and their per-guild permissions."""
