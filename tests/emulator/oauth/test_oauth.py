"""OAuth2 against the real server: the headless authorize flow, PKCE, code and token lifetimes,
refresh rotation, revocation, scope rules and OpenID Connect id_tokens."""

from __future__ import annotations

import base64
import json
from datetime import datetime, timedelta, timezone

import httpx
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from emulator_world import (
    ALICE,
    APP_ID,
    CALLBACK,
    CLIENT_SECRET,
    authorize_params,
    bearer,
    login,
    pkce_pair,
    redirect_query,
)
from platformpp.emulator import Emulator


def _exchange(http: httpx.Client, code: str, verifier: str | None, **extra: str) -> httpx.Response:
    data = {"grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK, "client_id": str(APP_ID)}
    if verifier is not None:
        data["code_verifier"] = verifier
    data.update(extra)
    return http.post("/api/v10/oauth2/token", data=data)


def _code(http: httpx.Client, challenge: str | None, scope: str = "openid sdk.social_layer", **extra: str) -> str:
    params = authorize_params(scope, challenge, emulator_user="alice", emulator_consent="allow", **extra)
    response = http.get("/oauth2/authorize", params=params)
    assert response.status_code == 302, response.text
    return redirect_query(response.headers["location"])["code"]


def test_headless_consent_redirects_with_code_and_unchanged_state(http: httpx.Client) -> None:
    _, challenge = pkce_pair()
    state = "a b+c/d=é"
    params = authorize_params("identify", challenge, state=state, emulator_user=str(ALICE),
                              emulator_consent="allow")
    response = http.get("/oauth2/authorize", params=params)
    assert response.status_code == 302
    location = response.headers["location"]
    assert location.startswith(CALLBACK + "?")
    query = redirect_query(location)
    assert query["state"] == state
    assert len(query["code"]) >= 20


def test_browser_gets_a_consent_page_with_a_user_picker(http: httpx.Client) -> None:
    _, challenge = pkce_pair()
    response = http.get("/oauth2/authorize", params=authorize_params("identify", challenge))
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "Demo Game" in response.text and "<select name='emulator_user'>" in response.text
    assert "@alice" in response.text and "demo-game-bot" not in response.text


def test_consent_form_post_authorizes(http: httpx.Client) -> None:
    _, challenge = pkce_pair()
    form = {**authorize_params("identify", challenge), "emulator_user": str(ALICE), "emulator_consent": "allow"}
    response = http.post("/oauth2/authorize", data=form)
    assert response.status_code == 302
    assert "code" in redirect_query(response.headers["location"])


def test_full_flow_gives_a_working_bearer_token(http: httpx.Client) -> None:
    tokens = login(http)
    assert tokens["token_type"] == "Bearer" and tokens["expires_in"] == 604800
    assert {"sdk.social_layer", "identify", "relationships.read", "openid"} <= set(tokens["scope"].split())
    me = http.get("/api/v10/users/@me", headers=bearer(tokens["access_token"]))
    assert me.status_code == 200 and me.json()["id"] == str(ALICE)


@pytest.mark.parametrize("params, error", [
    ({"response_type": "token"}, "unsupported_response_type"),
    ({"scope": "identify not.a.scope"}, "invalid_scope"),
    ({"scope": ""}, "invalid_scope"),
    ({"code_challenge_method": "plain"}, "invalid_request"),
    ({"code_challenge": "short"}, "invalid_request"),
    ({"emulator_consent": "deny"}, "access_denied"),
])
def test_authorize_errors_redirect_per_rfc6749(http: httpx.Client, params: dict[str, str], error: str) -> None:
    _, challenge = pkce_pair()
    base = authorize_params("identify", challenge, emulator_user="alice", emulator_consent="allow")
    response = http.get("/oauth2/authorize", params={**base, **params})
    assert response.status_code == 302
    query = redirect_query(response.headers["location"])
    assert query["error"] == error and query["state"] == "st-42" and "code" not in query


def test_public_client_must_use_pkce(emu: Emulator, http: httpx.Client) -> None:
    http.post("/_emulator/seed", json={"applications": [{"id": "7000", "name": "Pub", "public_client": True,
                                                          "redirect_uris": ["http://127.0.0.1/cb"]}]})
    response = http.get("/oauth2/authorize", params={"response_type": "code", "client_id": "7000", "scope": "identify",
                                                      "redirect_uri": "http://127.0.0.1/cb", "emulator_user": "bob",
                                                      "emulator_consent": "allow"})
    assert response.status_code == 302
    assert redirect_query(response.headers["location"])["error"] == "invalid_request"


@pytest.mark.parametrize("params", [
    {"client_id": "424242"},
    {"client_id": "abc"},
    {"redirect_uri": "https://evil.example/callback"},
    {"redirect_uri": "platform-1:/authorize/callback"},
    {"emulator_user": "nobody-like-this"},
    {"emulator_user": "demo-game-bot"},
])
def test_authorize_refuses_without_redirecting(http: httpx.Client, params: dict[str, str]) -> None:
    _, challenge = pkce_pair()
    base = authorize_params("identify", challenge, emulator_user="alice", emulator_consent="allow")
    response = http.get("/oauth2/authorize", params={**base, **params})
    assert response.status_code == 400
    assert "location" not in response.headers


@pytest.mark.parametrize("redirect_uri", [
    f"platform-{APP_ID}:/authorize/callback",
    "demogame:/authorize/callback",
    "http://127.0.0.1:53127/callback",     # registered loopback URI on another port (RFC 8252)
    "http://localhost/callback",
])
def test_registered_and_native_redirect_uris(http: httpx.Client, redirect_uri: str) -> None:
    _, challenge = pkce_pair()
    params = authorize_params("identify", challenge, redirect_uri=redirect_uri, emulator_user="alice",
                              emulator_consent="allow")
    response = http.get("/oauth2/authorize", params=params)
    assert response.status_code == 302
    assert response.headers["location"].startswith(redirect_uri + "?code=")


def test_code_is_single_use_and_replay_revokes_its_tokens(emu: Emulator, http: httpx.Client) -> None:
    heard: list[str] = []
    emu.state.bus.subscribe(lambda event: heard.append(event.name))
    verifier, challenge = pkce_pair()
    code = _code(http, challenge)
    first = _exchange(http, code, verifier)
    assert first.status_code == 200
    again = _exchange(http, code, verifier)
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
    assert http.get("/api/v10/users/@me", headers=bearer(first.json()["access_token"])).status_code == 401
    assert heard == ["authorization.revoked"]     # so open Gateway sessions of that grant end too


def test_wrong_verifier_and_wrong_redirect_uri_are_rejected(http: httpx.Client) -> None:
    verifier, challenge = pkce_pair()
    code = _code(http, challenge)
    other_verifier, _ = pkce_pair()
    assert _exchange(http, code, other_verifier).json()["error"] == "invalid_grant"
    assert _exchange(http, code, None).json()["error"] == "invalid_request"
    assert _exchange(http, code, "x" * 10).json()["error"] == "invalid_request"
    wrong_uri = _exchange(http, code, verifier, redirect_uri="demogame:/authorize/callback")
    assert wrong_uri.json()["error"] == "invalid_grant"
    # None of the failures used the code up.
    assert _exchange(http, code, verifier).status_code == 200


def test_code_expires_after_ten_minutes_on_the_emulator_clock(http: httpx.Client) -> None:
    start = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
    http.put("/_emulator/clock", json={"now": start.isoformat(), "frozen": True})
    verifier, challenge = pkce_pair()
    code = _code(http, challenge)
    http.put("/_emulator/clock", json={"now": (start + timedelta(minutes=10, seconds=1)).isoformat(), "frozen": True})
    response = _exchange(http, code, verifier)
    assert response.status_code == 400 and response.json()["error"] == "invalid_grant"
    http.put("/_emulator/clock", json={"now": (start + timedelta(minutes=9)).isoformat(), "frozen": True})
    assert _exchange(http, code, verifier).status_code == 200


def test_access_token_expires_after_a_week(http: httpx.Client) -> None:
    start = datetime(2026, 3, 1, tzinfo=timezone.utc)
    http.put("/_emulator/clock", json={"now": start.isoformat(), "frozen": True})
    tokens = login(http, scope="identify")
    http.put("/_emulator/clock", json={"now": (start + timedelta(seconds=604801)).isoformat(), "frozen": True})
    expired = http.get("/api/v10/users/@me", headers=bearer(tokens["access_token"]))
    assert expired.status_code == 401 and expired.json()["code"] == 50025
    refreshed = http.post("/api/v10/oauth2/token", data={"grant_type": "refresh_token", "client_id": str(APP_ID),
                                                         "refresh_token": tokens["refresh_token"]})
    assert refreshed.status_code == 200


def test_confidential_client_authentication(http: httpx.Client) -> None:
    verifier, challenge = pkce_pair()
    code = _code(http, challenge)
    wrong = _exchange(http, code, verifier, client_secret="not-the-secret")
    assert wrong.status_code == 401 and wrong.json()["error"] == "invalid_client"
    assert "not-the-secret" not in wrong.text
    basic = base64.b64encode(f"{APP_ID}:{CLIENT_SECRET}".encode()).decode()
    response = http.post("/api/v10/oauth2/token", headers={"Authorization": f"Basic {basic}"}, data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK, "code_verifier": verifier})
    assert response.status_code == 200


def test_token_endpoint_is_form_encoded_only(http: httpx.Client) -> None:
    response = http.post("/api/v10/oauth2/token", json={"grant_type": "client_credentials"})
    assert response.status_code == 400 and response.json()["error"] == "invalid_request"
    unknown = http.post("/api/v10/oauth2/token", data={"grant_type": "password", "client_id": str(APP_ID)})
    assert unknown.json()["error"] == "unsupported_grant_type"


def test_refresh_rotates_the_pair(http: httpx.Client) -> None:
    tokens = login(http)
    refreshed = http.post("/api/v10/oauth2/token", data={"grant_type": "refresh_token", "client_id": str(APP_ID),
                                                         "refresh_token": tokens["refresh_token"]}).json()
    assert refreshed["access_token"] != tokens["access_token"]
    assert refreshed["refresh_token"] != tokens["refresh_token"]
    assert http.get("/api/v10/users/@me", headers=bearer(tokens["access_token"])).status_code == 401
    assert http.get("/api/v10/users/@me", headers=bearer(refreshed["access_token"])).status_code == 200
    reuse = http.post("/api/v10/oauth2/token", data={"grant_type": "refresh_token", "client_id": str(APP_ID),
                                                     "refresh_token": tokens["refresh_token"]})
    assert reuse.status_code == 400 and reuse.json()["error"] == "invalid_grant"


@pytest.mark.parametrize("which", ["access_token", "refresh_token"])
def test_revoking_either_token_revokes_the_authorization(http: httpx.Client, which: str) -> None:
    tokens = login(http)
    revoked = http.post("/api/v10/oauth2/token/revoke", data={"token": tokens[which], "token_type_hint": which,
                                                              "client_id": str(APP_ID)})
    assert revoked.status_code == 200
    assert http.get("/api/v10/users/@me", headers=bearer(tokens["access_token"])).status_code == 401
    refresh = http.post("/api/v10/oauth2/token", data={"grant_type": "refresh_token", "client_id": str(APP_ID),
                                                       "refresh_token": tokens["refresh_token"]})
    assert refresh.status_code == 400
    assert refresh.json()["error"] == "invalid_grant" and "error_description" in refresh.json()


def test_revoking_an_unknown_token_answers_200(http: httpx.Client) -> None:
    response = http.post("/api/v10/oauth2/token/revoke", data={"token": "no-such-token", "client_id": str(APP_ID)})
    assert response.status_code == 200


def test_client_credentials(http: httpx.Client) -> None:
    response = http.post("/api/v10/oauth2/token", data={"grant_type": "client_credentials", "scope": "identify",
                                                        "client_id": str(APP_ID), "client_secret": CLIENT_SECRET})
    assert response.status_code == 200
    body = response.json()
    assert "refresh_token" not in body
    me = http.get("/api/v10/users/@me", headers=bearer(body["access_token"]))
    assert me.json()["id"] == str(ALICE)   # the application's owner
    no_secret = http.post("/api/v10/oauth2/token", data={"grant_type": "client_credentials",
                                                         "client_id": str(APP_ID)})
    assert no_secret.status_code == 400 and no_secret.json()["error"] == "unauthorized_client"


def test_identify_premium_drives_premium_type(http: httpx.Client) -> None:
    plain = login(http, scope="identify")
    assert http.get("/api/v10/users/@me", headers=bearer(plain["access_token"])).json()["premium_type"] == 0
    premium = login(http, scope="identify identify.premium")
    assert http.get("/api/v10/users/@me", headers=bearer(premium["access_token"])).json()["premium_type"] == 2


def test_scope_rules_follow_the_application(http: httpx.Client) -> None:
    http.post("/_emulator/seed", json={"applications": [{
        "id": "7100", "name": "Unapproved", "client_secret": "secret-7100", "redirect_uris": ["http://127.0.0.1/cb"]}]})

    def error_for(scope: str) -> str | None:
        response = http.get("/oauth2/authorize", params={
            "response_type": "code", "client_id": "7100", "scope": scope, "redirect_uri": "http://127.0.0.1/cb",
            "emulator_user": "alice", "emulator_consent": "allow"})
        return redirect_query(response.headers["location"]).get("error")

    assert error_for("identify") is None
    assert error_for("identify identify.premium") == "invalid_scope"     # not an approved partner
    assert error_for("relationships.read") == "invalid_scope"            # social SDK terms not accepted
    assert error_for("sdk.social_layer") == "invalid_scope"


def test_openid_id_token_is_signed_and_echoes_the_nonce(http: httpx.Client) -> None:
    tokens = login(http, scope="openid identify", nonce="nonce-123")
    header_b64, claims_b64, signature_b64 = tokens["id_token"].split(".")

    def unb64(text: str) -> bytes:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

    header, claims = json.loads(unb64(header_b64)), json.loads(unb64(claims_b64))
    assert header["alg"] == "RS256"
    assert claims["nonce"] == "nonce-123" and claims["sub"] == str(ALICE) and claims["aud"] == str(APP_ID)
    discovery = http.get("/.well-known/openid-configuration").json()
    assert claims["iss"] == discovery["issuer"]
    jwk = next(k for k in http.get("/api/v10/oauth2/keys").json()["keys"] if k["kid"] == header["kid"])
    public = rsa.RSAPublicNumbers(int.from_bytes(unb64(jwk["e"]), "big"),
                                  int.from_bytes(unb64(jwk["n"]), "big")).public_key()
    public.verify(unb64(signature_b64), f"{header_b64}.{claims_b64}".encode(), padding.PKCS1v15(), hashes.SHA256())
    assert "id_token" not in login(http, scope="identify")


def test_oauth2_me_describes_the_grant(http: httpx.Client) -> None:
    tokens = login(http, scope="identify")
    body = http.get("/api/v10/oauth2/@me", headers=bearer(tokens["access_token"])).json()
    assert body["application"]["id"] == str(APP_ID)
    assert body["scopes"] == ["identify"] and body["user"]["id"] == str(ALICE)


def test_userinfo_needs_openid(http: httpx.Client) -> None:
    tokens = login(http, scope="openid email")
    claims = http.get("/api/v10/oauth2/userinfo", headers=bearer(tokens["access_token"])).json()
    assert claims == {"sub": str(ALICE), "preferred_username": "alice", "name": "Alice",
                      "email": "alice@example.test", "email_verified": True}
    without = login(http, scope="identify")
    assert http.get("/api/v10/oauth2/userinfo", headers=bearer(without["access_token"])).status_code == 403
    discovery = http.get("/.well-known/openid-configuration").json()
    for endpoint in ("authorization_endpoint", "token_endpoint", "revocation_endpoint", "userinfo_endpoint",
                     "jwks_uri"):
        path = discovery[endpoint].removeprefix(discovery["issuer"])
        assert http.request("OPTIONS", path).status_code != 404, endpoint


def test_consent_page_escapes_what_it_shows(http: httpx.Client) -> None:
    http.post("/_emulator/seed", json={
        "users": [{"id": "7400", "username": "mallory", "global_name": "<img src=x onerror=alert(1)>"}],
        "applications": [{"id": "7401", "name": "<script>x</script>", "client_secret": "escape-secret",
                          "redirect_uris": ["http://127.0.0.1/cb"]}]})
    page = http.get("/oauth2/authorize", params={"response_type": "code", "client_id": "7401", "scope": "identify",
                                                 "redirect_uri": "http://127.0.0.1/cb", "state": "'><b>"}).text
    assert "<script>x</script>" not in page and "&lt;script&gt;" in page
    assert "<img src=x" not in page and "'><b>" not in page


def test_the_documented_headless_recipe_verbatim(http: httpx.Client) -> None:
    """docs/emulator.md's example URL, byte for byte (only the challenge filled in)."""
    _, challenge = pkce_pair()
    url = ("/oauth2/authorize?response_type=code&client_id=1000000000000000000&scope=openid%20sdk.social_layer"
           "&state=s1&redirect_uri=platform-1000000000000000000%3A%2Fauthorize%2Fcallback"
           f"&code_challenge={challenge}&code_challenge_method=S256&emulator_user=alice&emulator_consent=allow")
    response = http.get(url)
    assert response.status_code == 302
    location = response.headers["location"]
    assert location.startswith("platform-1000000000000000000:/authorize/callback?code=")
    assert location.endswith("&state=s1")
