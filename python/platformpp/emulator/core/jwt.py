"""Compact JWS (JWT) signing and verification with ``cryptography``: RS256 for the emulator's own
``id_token``s, and RS256 / ES256 / EdDSA for verifying identity providers' OIDC tokens."""

from __future__ import annotations

import base64
import json
from typing import TYPE_CHECKING, Any

from .json_text import InvalidJson, decode_untrusted

# cryptography is imported where a token is signed or verified, not with the emulator (a tenth of
# its time to serve).
if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric import rsa


class JwtError(ValueError):
    """The token is malformed, badly signed, or its claims do not hold."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, TypeError) as exc:
        raise JwtError("not base64url") from exc


def _int(text: str) -> int:
    return int.from_bytes(_unb64(text), "big")


def sign_rs256(claims: dict[str, Any], key: rsa.RSAPrivateKey, kid: str) -> str:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding

    header = {"alg": "RS256", "typ": "JWT", "kid": kid}
    signing_input = f"{_b64(json.dumps(header, separators=(',', ':')).encode())}." \
                    f"{_b64(json.dumps(claims, separators=(',', ':')).encode())}"
    signature = key.sign(signing_input.encode("ascii"), padding.PKCS1v15(), hashes.SHA256())
    return f"{signing_input}.{_b64(signature)}"


def rsa_public_jwk(key: rsa.RSAPrivateKey, kid: str) -> dict[str, str]:
    numbers = key.public_key().public_numbers()
    length = (numbers.n.bit_length() + 7) // 8
    return {"kty": "RSA", "use": "sig", "alg": "RS256", "kid": kid,
            "n": _b64(numbers.n.to_bytes(length, "big")), "e": _b64(numbers.e.to_bytes(3, "big").lstrip(b"\0"))}


def _verify_with(jwk: dict[str, Any], alg: str, signing_input: bytes, signature: bytes) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

    try:
        if alg == "RS256" and jwk.get("kty") == "RSA":
            rsa.RSAPublicNumbers(_int(jwk["e"]), _int(jwk["n"])).public_key().verify(
                signature, signing_input, padding.PKCS1v15(), hashes.SHA256())
        elif alg == "ES256" and jwk.get("kty") == "EC" and jwk.get("crv") == "P-256" and len(signature) == 64:
            public = ec.EllipticCurvePublicNumbers(_int(jwk["x"]), _int(jwk["y"]), ec.SECP256R1()).public_key()
            der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
            public.verify(der, signing_input, ec.ECDSA(hashes.SHA256()))
        elif alg == "EdDSA" and jwk.get("kty") == "OKP" and jwk.get("crv") == "Ed25519":
            ed25519.Ed25519PublicKey.from_public_bytes(_unb64(jwk["x"])).verify(signature, signing_input)
        else:
            return False
    except (InvalidSignature, KeyError, ValueError, TypeError):
        return False
    return True


def verify(token: str, jwks: dict[str, Any]) -> dict[str, Any]:
    """The claims of ``token`` if one of ``jwks["keys"]`` signed it; the caller checks the claims."""
    parts = token.split(".")
    if len(parts) != 3:
        raise JwtError("a JWT has three dot-separated parts")
    try:
        header = decode_untrusted(_unb64(parts[0]))
        claims = decode_untrusted(_unb64(parts[1]))
    except InvalidJson as exc:
        raise JwtError("the JWT header or claims are not JSON") from exc
    if not isinstance(header, dict) or not isinstance(claims, dict):
        raise JwtError("the JWT header and claims must be objects")
    alg = header.get("alg")
    keys = [k for k in jwks.get("keys", []) if isinstance(k, dict)
            and ("kid" not in header or k.get("kid") == header["kid"])]
    signing_input = f"{parts[0]}.{parts[1]}".encode("ascii")
    signature = _unb64(parts[2])
    if not any(_verify_with(key, str(alg), signing_input, signature) for key in keys):
        raise JwtError("the JWT signature does not verify with the provider's keys")
    return claims
