"""Identity providers declared in fixtures, against which the external-credentials exchange checks a
provider token. ``OIDC`` providers and the ID-token providers of consoles and phones
(``APPLE_ID_TOKEN``, ``PLAYSTATION_NETWORK_ID_TOKEN``: both issue OpenID Connect ID tokens) verify a
signed ID token (issuer, audience, expiry on the emulator clock, signature against the declared JWKS);
any other auth type is an opaque-token provider whose
fixture lists the tokens it issued and the account each one stands for."""

from __future__ import annotations

import hmac
from typing import Any, NamedTuple

from ...core.jwt import JwtError, verify
from ...core.validation import Form

OIDC = "OIDC"
APPLE_ID_TOKEN = "APPLE_ID_TOKEN"
PLAYSTATION_NETWORK_ID_TOKEN = "PLAYSTATION_NETWORK_ID_TOKEN"
ID_TOKEN_TYPES = frozenset({OIDC, APPLE_ID_TOKEN, PLAYSTATION_NETWORK_ID_TOKEN})


class ExternalIdentity(NamedTuple):
    auth_type: str
    external_user_id: str
    display_name: str | None


class ProviderRejected(ValueError):
    """The provider token is not valid; the message says why without repeating the token."""


def validate_provider_config(form: Form, auth_type: str | None) -> None:
    if auth_type in ID_TOKEN_TYPES:
        form.string("issuer", min_len=1, max_len=2048)
        form.string("audience", min_len=1, max_len=2048)
        jwks = form.obj("jwks")
        if jwks is not None:
            jwks.array("keys", min_items=1)
    else:
        tokens = form.obj("tokens")
        if tokens is not None:
            for token, account in tokens.data.items():
                entry = Form(account, form.errors, (*tokens.path, "<token>"))
                entry.string("id", min_len=1, max_len=256)
                entry.string("name", required=False, max_len=32)
                if not token:
                    tokens.fail("<token>", "BASE_TYPE_REQUIRED", "Tokens are non-empty strings.")


def check_token(auth_type: str, config: dict[str, Any], token: str, now: float) -> ExternalIdentity:
    if auth_type in ID_TOKEN_TYPES:
        return _check_id_token(auth_type, config, token, now)
    found: dict[str, Any] | None = None
    for known, account in config.get("tokens", {}).items():
        # Visit every entry and compare in constant time, so timing says nothing about near misses.
        if hmac.compare_digest(known.encode(), token.encode()):
            found = account
    if found is None:
        raise ProviderRejected(f"the {auth_type} provider did not issue this token")
    return ExternalIdentity(auth_type, str(found["id"]), found.get("name"))


def _check_id_token(auth_type: str, config: dict[str, Any], token: str, now: float) -> ExternalIdentity:
    try:
        claims = verify(token, config["jwks"])
    except JwtError as exc:
        raise ProviderRejected(f"the {auth_type} token is invalid: {exc}") from None
    if claims.get("iss") != config["issuer"]:
        raise ProviderRejected("the OIDC token's issuer (iss) is not the declared provider's")
    audience = claims.get("aud")
    audiences = audience if isinstance(audience, list) else [audience]
    if config["audience"] not in audiences:
        raise ProviderRejected("the OIDC token's audience (aud) does not include this application's")
    exp = claims.get("exp")
    if not isinstance(exp, (int, float)) or exp <= now:
        raise ProviderRejected("the OIDC token has expired (exp)")
    nbf = claims.get("nbf")
    if isinstance(nbf, (int, float)) and nbf > now:
        raise ProviderRejected("the OIDC token is not valid yet (nbf)")
    subject = claims.get("sub")
    if not isinstance(subject, str) or not subject:
        raise ProviderRejected("the OIDC token has no subject (sub)")
    name = claims.get("preferred_username") or claims.get("name")
    return ExternalIdentity(auth_type, subject, name if isinstance(name, str) else None)
