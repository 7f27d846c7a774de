"""Guild members: list, get, modify (nick, roles, timeout, mute, deafen), the bot's own member, role
grants, kicks; bans and prune (moderation_routes.py), with each member's last activity (activity.py);
temporary members removed when they disconnect (temporary.py)."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from . import moderation_routes, routes, temporary

AREA = Area("members", routes=lambda: [*routes.routes(), *moderation_routes.routes()],
            schema=resources.files(__name__) / "schema", startup=temporary.start)
