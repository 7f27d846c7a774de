"""Guild templates: a code that stands for a snapshot of a guild's roles, channels and settings."""
