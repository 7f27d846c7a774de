"""The areas of the platform, each one folder: ``routes.py`` (its HTTP routes), ``store.py`` (its SQL
and domain rules), ``fixtures.py`` (its sections of world files), ``schema/`` (its migrations).

To add an area: create the folder with an ``__init__.py`` defining ``AREA``, and list it below. The
order is the order in which routes are matched (a more specific path before a parametrised one)."""

from __future__ import annotations

from ..core.area import Area
from . import (
    accounts,
    admin,
    applications,
    audit_log,
    cdn,
    channel_messages,
    channels,
    commands,
    expressions,
    guilds,
    interactions,
    invites,
    lobbies,
    members,
    messages,
    monetization,
    oauth,
    presence,
    profiles,
    relationships,
    roles,
    scheduled_events,
    users,
    voice_states,
    webhooks,
)

AREAS: tuple[Area, ...] = (
    invites.AREA,  # before lobbies: /invites/{code} answers lobby invites too
    lobbies.AREA, messages.AREA, presence.AREA, relationships.AREA, guilds.AREA, channels.AREA, roles.AREA,
    members.AREA, profiles.AREA,
    channel_messages.AREA, expressions.AREA, scheduled_events.AREA,
    admin.AREA, oauth.AREA, users.AREA, accounts.AREA, applications.AREA, webhooks.AREA,
    commands.AREA, interactions.AREA,
    audit_log.AREA,
    monetization.AREA,
    voice_states.AREA,
    cdn.AREA,  # images at the platform's CDN paths (outside /api)
)
