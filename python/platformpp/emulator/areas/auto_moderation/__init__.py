"""Auto moderation: a guild's rules (keyword, spam, keyword preset, mention spam, member profile) and
their enforcement on guild messages and thread titles (block, alert, timeout)."""
