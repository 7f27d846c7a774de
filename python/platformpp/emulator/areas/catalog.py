"""Every area of the platform, in the order in which their routes are matched (a more specific path
before a parametrised one). The app, the database and the fixture loader take everything from this
list (nothing is found by name).

To add an area: create its folder (an ``__init__.py`` with a docstring only, and ``area.py`` defining
``AREA``), and list it below."""

from __future__ import annotations

from ..core.area import Area
from .accounts.area import AREA as ACCOUNTS
from .activities.area import AREA as ACTIVITIES
from .admin.area import AREA as ADMIN
from .application_emojis.area import AREA as APPLICATION_EMOJIS
from .applications.area import AREA as APPLICATIONS
from .audit_log.area import AREA as AUDIT_LOG
from .auto_moderation.area import AREA as AUTO_MODERATION
from .cdn.area import AREA as CDN
from .channel_messages.area import AREA as CHANNEL_MESSAGES
from .channel_webhooks.area import AREA as CHANNEL_WEBHOOKS
from .channels.area import AREA as CHANNELS
from .commands.area import AREA as COMMANDS
from .expressions.area import AREA as EXPRESSIONS
from .guild_settings.area import AREA as GUILD_SETTINGS
from .guild_templates.area import AREA as GUILD_TEMPLATES
from .guild_widget.area import AREA as GUILD_WIDGET
from .guilds.area import AREA as GUILDS
from .integrations.area import AREA as INTEGRATIONS
from .interactions.area import AREA as INTERACTIONS
from .invites.area import AREA as INVITES
from .lobbies.area import AREA as LOBBIES
from .members.area import AREA as MEMBERS
from .messages.area import AREA as MESSAGES
from .monetization.area import AREA as MONETIZATION
from .oauth.area import AREA as OAUTH
from .onboarding.area import AREA as ONBOARDING
from .polls.area import AREA as POLLS
from .presence.area import AREA as PRESENCE
from .private_channels.area import AREA as PRIVATE_CHANNELS
from .profiles.area import AREA as PROFILES
from .relationships.area import AREA as RELATIONSHIPS
from .role_connections.area import AREA as ROLE_CONNECTIONS
from .roles.area import AREA as ROLES
from .scheduled_events.area import AREA as SCHEDULED_EVENTS
from .soundboard.area import AREA as SOUNDBOARD
from .stage_instances.area import AREA as STAGE_INSTANCES
from .sticker_packs.area import AREA as STICKER_PACKS
from .streams.area import AREA as STREAMS
from .threads.area import AREA as THREADS
from .users.area import AREA as USERS
from .voice_states.area import AREA as VOICE_STATES
from .webhooks.area import AREA as WEBHOOKS

AREAS: tuple[Area, ...] = (
    INVITES,  # before lobbies: /invites/{code} answers lobby invites too
    LOBBIES, MESSAGES, PRESENCE, RELATIONSHIPS, GUILDS, CHANNELS, ROLES,
    MEMBERS, PROFILES,
    CHANNEL_MESSAGES, THREADS, PRIVATE_CHANNELS, POLLS, EXPRESSIONS, SCHEDULED_EVENTS,
    ROLE_CONNECTIONS,
    ADMIN, OAUTH, USERS, ACCOUNTS, APPLICATION_EMOJIS, ACTIVITIES, APPLICATIONS, STICKER_PACKS, WEBHOOKS,
    CHANNEL_WEBHOOKS,  # before interactions: it routes /webhooks/{id}/{token} for both
    COMMANDS, INTERACTIONS,
    AUDIT_LOG,
    MONETIZATION,
    VOICE_STATES,
    STREAMS,  # after voice states: its migration adds self_stream to their table
    STAGE_INSTANCES, SOUNDBOARD,
    GUILD_WIDGET, GUILD_SETTINGS, INTEGRATIONS,
    AUTO_MODERATION,
    GUILD_TEMPLATES, ONBOARDING,
    CDN,  # images at the platform's CDN paths (outside /api)
)
