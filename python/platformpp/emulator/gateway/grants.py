"""What an SDK user's Gateway session is sent, by the scopes of its access token: the same scopes
the REST routes of the same data require (a route that answers 403 / 50001 without a scope has its
dispatches and READY fields withheld without it too). Bot sessions have no scopes: intents decide.

| data | scope |
|---|---|
| RELATIONSHIP_*, READY ``relationships`` | ``relationships.read`` |
| PRESENCE_UPDATE, READY ``presences`` | ``presences.read`` |
| ACTIVITY_INVITE_* | ``activities.read`` |
| DM_MESSAGE_* | ``dm_channels.messages.read`` |
| LOBBY_*, VOICE_STATE_UPDATE, READY ``lobbies`` and ``voice_states`` | ``sdk.social_layer`` |

``scopes`` here are a grant's scopes with the social SDK scopes expanded (``core.scopes.expand``)."""

from __future__ import annotations

from functools import lru_cache

from ..events.audience import Viewer

# By dispatch name prefix; a name matching none is sent whatever the scopes (READY, RESUMED, answers
# to the session's own commands such as VOICE_SERVER_UPDATE).
_SCOPE_BY_PREFIX = (
    ("RELATIONSHIP_", "relationships.read"),
    ("PRESENCE_UPDATE", "presences.read"),
    ("ACTIVITY_INVITE_", "activities.read"),
    ("DM_MESSAGE_", "dm_channels.messages.read"),
    ("LOBBY_", "sdk.social_layer"),
    ("VOICE_STATE_UPDATE", "sdk.social_layer"),
)

# READY's fields for SDK users, each with the scope it needs (empty lists without it).
READY_FIELD_SCOPES = {
    "relationships": "relationships.read",
    "presences": "presences.read",
    "lobbies": "sdk.social_layer",
    "voice_states": "sdk.social_layer",
}


@lru_cache(maxsize=None)   # one per dispatch name, a few dozen
def scope_for(event: str) -> str | None:
    """The scope an SDK user's session needs to be sent dispatch ``event``, or None."""
    return next((scope for prefix, scope in _SCOPE_BY_PREFIX if event.startswith(prefix)), None)


def admits(viewer: Viewer, event: str) -> bool:
    """Whether ``viewer``'s session may be sent ``event`` (always, for bots)."""
    if viewer.kind != "bearer":
        return True
    scope = scope_for(event)
    return scope is None or scope in viewer.scopes
