"""OpenID Connect: the emulator's RS256 signing key (made on first use and kept in the store, so
tokens stay verifiable across restarts), ``id_token`` issuing, discovery and the JWKS."""

from __future__ import annotations

import hashlib
import threading
from typing import TYPE_CHECKING, Any

from ...core.jwt import rsa_public_jwk, sign_rs256
from ...paths import API

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric import rsa

    from ...state import EmulatorState

ID_TOKEN_TTL_S = 3600
_KEY_SETTING = "oidc_signing_key"
_lock = threading.Lock()


def signing_key(state: EmulatorState) -> tuple[rsa.RSAPrivateKey, str]:
    # cryptography is imported on first use, not with the emulator (core/jwt.py)
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    with _lock:
        row = state.db.query_one("SELECT value FROM settings WHERE key = ?", (_KEY_SETTING,))
        if row is None:
            key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption()).decode("ascii")
            state.db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (_KEY_SETTING, pem))
        else:
            loaded = serialization.load_pem_private_key(row["value"].encode("ascii"), password=None)
            assert isinstance(loaded, rsa.RSAPrivateKey)
            key = loaded
    numbers = key.public_key().public_numbers()
    kid = hashlib.sha256(str(numbers.n).encode()).hexdigest()[:16]
    return key, kid


def issuer(base_url: str) -> str:
    return base_url.rstrip("/")


def id_token(state: EmulatorState, base_url: str, *, user_id: int, application_id: int, nonce: str | None,
             auth_time: int | None = None) -> str:
    key, kid = signing_key(state)
    now = int(state.clock.timestamp())
    claims: dict[str, Any] = {"iss": issuer(base_url), "sub": str(user_id), "aud": str(application_id),
                              "iat": now, "exp": now + ID_TOKEN_TTL_S, "auth_time": auth_time or now}
    if nonce is not None:
        claims["nonce"] = nonce
    return sign_rs256(claims, key, kid)


def jwks(state: EmulatorState) -> dict[str, Any]:
    key, kid = signing_key(state)
    return {"keys": [rsa_public_jwk(key, kid)]}


def discovery(base_url: str) -> dict[str, Any]:
    base = issuer(base_url)
    return {
        "issuer": base,
        "authorization_endpoint": f"{base}/oauth2/authorize",
        "token_endpoint": f"{base}{API}/oauth2/token",
        "revocation_endpoint": f"{base}{API}/oauth2/token/revoke",
        "userinfo_endpoint": f"{base}{API}/oauth2/userinfo",
        "jwks_uri": f"{base}{API}/oauth2/keys",
        "response_types_supported": ["code"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post", "none"],
        "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials",
                                  "urn:ietf:params:oauth:grant-type:token-exchange"],
    }
