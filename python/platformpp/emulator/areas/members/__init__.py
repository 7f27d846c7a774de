"""Guild members: list, get, modify (nick, roles, timeout, mute, deafen), the bot's own member, role
grants, kicks; bans and prune (moderation_routes.py), with each member's last activity (activity.py);
temporary members removed when they disconnect (temporary.py)."""
