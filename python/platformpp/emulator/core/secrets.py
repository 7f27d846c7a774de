"""Making and checking secrets: tokens, codes and client secrets are stored only as SHA-256 digests and
compared in constant time, so neither the database nor a timing side channel gives them away."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from .snowflake import parse_snowflake


def digest(secret: str) -> str:
    """Tokens are looked up by this digest: an index lookup's timing can only reveal digest prefixes,
    which say nothing usable about the token itself."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def matches(secret: str, stored_digest: str | None) -> bool:
    return stored_digest is not None and hmac.compare_digest(digest(secret), stored_digest)


def new_token() -> str:
    """An opaque bearer credential (access/refresh token, authorization code)."""
    return secrets.token_urlsafe(24)


def bot_user_id_of(token: str) -> int | None:
    first = token.split(".", 1)[0]
    try:
        decoded = base64.b64decode(first + "=" * (-len(first) % 4), validate=True).decode("ascii")
    except (ValueError, UnicodeDecodeError):
        return None
    return parse_snowflake(decoded)
