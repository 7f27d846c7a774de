"""Guild members: list, get, modify (nick, roles, timeout, mute, deafen), the bot's own member, role
grants, kicks."""

from __future__ import annotations

from ...core.area import Area
from . import routes

AREA = Area("members", routes=routes.routes)
