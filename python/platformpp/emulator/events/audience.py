"""Who may see a Gateway dispatch. An audience is decided where the rule is known (the area that
publishes), and the Gateway only applies it: ``ToUsers`` names SDK users of one application (the
payload is rendered once and shared by all their sessions); any other audience is a function of
the session's ``Viewer`` that returns its payload, or None when that session may not see it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Union

Payload = dict[str, Any]


@dataclass(frozen=True)
class Viewer:
    """Who a Gateway session belongs to: what visibility is decided from."""

    kind: str  # "bot" or "bearer"
    user_id: int
    application_id: int
    intents: int = 0
    # Bots: the guilds of this session's shard. SDK users: not used (empty).
    guild_ids: frozenset[int] = field(default_factory=frozenset)
    # Identify's ``capabilities`` bits (1 << 15: channel obfuscation) and ``shard`` [id, count].
    capabilities: int = 0
    shard: tuple[int, int] | None = None
    # SDK users: the token's scopes, social SDK scopes expanded (what gateway/grants.py checks).
    scopes: frozenset[str] = field(default_factory=frozenset)


Render = Callable[[Viewer], "Payload | None"]


@dataclass(frozen=True)
class ToUsers:
    """The SDK-user sessions of ``user_ids`` in one application (lobbies, DMs): all see ``payload``."""

    application_id: int
    user_ids: frozenset[int]
    payload: Payload

    def __call__(self, viewer: Viewer) -> Payload | None:
        if viewer.kind == "bearer" and viewer.application_id == self.application_id \
                and viewer.user_id in self.user_ids:
            return self.payload
        return None


Audience = Union[ToUsers, Render]


def to_users(application_id: int, user_ids: Iterable[int], payload: Payload) -> ToUsers:
    return ToUsers(application_id, frozenset(user_ids), payload)
