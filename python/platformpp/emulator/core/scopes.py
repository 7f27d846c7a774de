"""OAuth2 scopes: which exist, what the social SDK scopes expand to, and which need the app to be
approved or to have accepted the social SDK terms."""

from __future__ import annotations

# What each social SDK scope stands for (seed: "expand automatically to every scope the integration needs").
SOCIAL_LAYER_PRESENCE = frozenset({
    "sdk.social_layer_presence", "identify", "relationships.read", "activities.read", "activities.write",
    "presences.read", "presences.write"})
SOCIAL_LAYER = SOCIAL_LAYER_PRESENCE | frozenset({
    "sdk.social_layer", "relationships.write", "lobbies.write", "dm_channels.read", "dm_channels.messages.read",
    "dm_channels.messages.write", "gdm.join", "voice"})
EXPANSIONS: dict[str, frozenset[str]] = {
    "sdk.social_layer": SOCIAL_LAYER,
    "sdk.social_layer_presence": SOCIAL_LAYER_PRESENCE,
}

KNOWN_SCOPES = frozenset({
    "identify", "identify.premium", "email", "connections", "guilds", "guilds.join", "guilds.members.read",
    "openid", "bot", "applications.commands", "applications.commands.permissions.update",
    "role_connections.write", "messages.read", "webhook.incoming",
    *SOCIAL_LAYER})

# Granted only to applications a fixture lists as approved for them (seed: approved partners only).
APPROVAL_REQUIRED = frozenset({"identify.premium"})
# Open to any application that accepted the social SDK terms (seed: Authentication 4).
TERMS_REQUIRED = frozenset({"relationships.read", "sdk.social_layer", "sdk.social_layer_presence"})


def parse_scope_list(text: str) -> list[str]:
    """Scopes as sent in ``scope=``: space-separated (``+`` already decoded), order kept, no duplicates."""
    seen: list[str] = []
    for scope in text.split():
        if scope not in seen:
            seen.append(scope)
    return seen


def expand(scopes: list[str] | frozenset[str]) -> frozenset[str]:
    result = set(scopes)
    for scope in scopes:
        result |= EXPANSIONS.get(scope, frozenset())
    return frozenset(result)


def check_allowed(scopes: list[str], *, approved: frozenset[str], terms_accepted: bool) -> str | None:
    """Why the app may not request these scopes (an ``invalid_scope`` description), or None."""
    unknown = [s for s in scopes if s not in KNOWN_SCOPES]
    if unknown:
        return f"unknown scope(s): {' '.join(unknown)}"
    unapproved = [s for s in scopes if s in APPROVAL_REQUIRED and s not in approved]
    if unapproved:
        return f"the application is not approved for scope(s): {' '.join(unapproved)}"
    needs_terms = [s for s in scopes if s in TERMS_REQUIRED]
    if needs_terms and not terms_accepted:
        return f"scope(s) {' '.join(needs_terms)} need the application to accept the social SDK terms"
    return None

