"""Guilds: the guild object, its bots' dispatches and the permission checks of every guild-model area
(roles, members and channels build on access.py, dispatch.py and mutations.py here)."""
