"""Guild invites and their target users (issue 11 §1): create (with target users from a list or a
streamed CSV, and roles granted on accepting), list, get, delete, accept; INVITE_CREATE / DELETE;
the target-users job; expiry on the emulator clock (INVITE_DELETE). Lobby invites are answered by the same ``/invites/{code}`` routes."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from . import expiry, routes

AREA = Area("invites", routes=routes.routes, schema=resources.files(__name__) / "schema", startup=expiry.start)
