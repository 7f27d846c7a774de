"""The default world's well-known ids and credentials (python/platformpp/emulator/world/default.json),
and small request helpers shared by the emulator tests. Test data, not secrets."""

from __future__ import annotations

import httpx

# Credentials of the default world (python/platformpp/emulator/world/default.json); test data, not secrets.
APP_ID = 1000000000000000000
BOT_ID = 1000000000000000001
BOT_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.ZW11bGF0b3I.ZGVmYXVsdC13b3JsZC1ib3QtdG9rZW4tbm90LXNlY3JldA"
CLIENT_SECRET = "default-world-client-secret"
ALICE, BOB, CAROL, DAVE = 1100000000000000001, 1100000000000000002, 1100000000000000003, 1100000000000000004
GUILD_ID = 1200000000000000000


def bot_headers(token: str = BOT_TOKEN) -> dict[str, str]:
    return {"Authorization": f"Bot {token}"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# -- OAuth2 helpers ----------------------------------------------------------------------------------------

CALLBACK = f"platform-{APP_ID}:/authorize/callback"


def pkce_pair() -> tuple[str, str]:
    """A fresh (verifier, S256 challenge) pair, built here independently of the emulator's code."""
    import base64
    import hashlib
    import secrets

    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    return verifier, challenge


def authorize_params(scope: str, challenge: str | None, **extra: str) -> dict[str, str]:
    params = {"response_type": "code", "client_id": str(APP_ID), "scope": scope, "state": "st-42",
              "redirect_uri": CALLBACK}
    if challenge is not None:
        params.update(code_challenge=challenge, code_challenge_method="S256")
    params.update(extra)
    return params


def redirect_query(location: str) -> dict[str, str]:
    from urllib.parse import parse_qs, urlsplit

    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


def login(http: httpx.Client, user: str = "alice", scope: str = "openid sdk.social_layer",
          **extra: str) -> dict[str, str]:
    """The full headless flow as a public client: authorize (consent as ``user``), then exchange the
    code with the PKCE verifier. Returns the token response."""
    verifier, challenge = pkce_pair()
    params = authorize_params(scope, challenge, emulator_user=user, emulator_consent="allow", **extra)
    response = http.get("/oauth2/authorize", params=params)
    assert response.status_code == 302, response.text
    code = redirect_query(response.headers["location"])["code"]
    token = http.post("/api/v10/oauth2/token", data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK, "code_verifier": verifier,
        "client_id": str(APP_ID)})
    assert token.status_code == 200, token.text
    body: dict[str, str] = token.json()
    return body
