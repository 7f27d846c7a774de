"""A test identity provider: an ES256 key, its JWKS, and OIDC ID tokens signed with it. Written with
``cryptography`` directly (not with the emulator's own JWT code) so the two check each other."""

from __future__ import annotations

import base64
import json
import time
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

ISSUER = "https://idp.example.test"
AUDIENCE = "provisional-game"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


class IdentityProvider:
    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())

    def jwks(self) -> dict[str, Any]:
        numbers = self.key.public_key().public_numbers()
        return {"keys": [{"kty": "EC", "crv": "P-256", "kid": "test-key", "alg": "ES256",
                          "x": _b64(numbers.x.to_bytes(32, "big")), "y": _b64(numbers.y.to_bytes(32, "big"))}]}

    def id_token(self, subject: str, *, name: str | None = None, issuer: str = ISSUER, audience: str = AUDIENCE,
                 expires_at: float | None = None) -> str:
        claims: dict[str, Any] = {"iss": issuer, "aud": audience, "sub": subject, "iat": int(time.time()),
                                  "exp": int(expires_at if expires_at is not None else time.time() + 600)}
        if name:
            claims["preferred_username"] = name
        header = {"alg": "ES256", "typ": "JWT", "kid": "test-key"}
        signing_input = f"{_b64(json.dumps(header).encode())}.{_b64(json.dumps(claims).encode())}"
        r, s = decode_dss_signature(self.key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
        return f"{signing_input}.{_b64(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"
