"""Provisional accounts (all three creation methods), merge and unmerge, bans of linked accounts and
publisher-level linking, against the real server with a real signing identity provider."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from emulator_world import ALICE, BOB, authorize_params, bearer, pkce_pair, redirect_query
from identity_provider import AUDIENCE, ISSUER, IdentityProvider
from webhook_receiver import Receiver

GAME, GAME_BOT, PUBLIC_GAME = 8000, 8001, 8100
GAME_SECRET = "provisional-game-secret"
GAME_BOT_TOKEN = base64.b64encode(str(GAME_BOT).encode()).decode().rstrip("=") + ".AAAA.provisional-bot-token"
TICKET_TYPE = "EXAMPLE_TICKET"


@pytest.fixture
def idp() -> IdentityProvider:
    return IdentityProvider()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with Receiver() as running:
        yield running


@pytest.fixture
def game(http: httpx.Client, idp: IdentityProvider, receiver: Receiver) -> None:
    providers: list[dict[str, Any]] = [
        {"type": "OIDC", "issuer": ISSUER, "audience": AUDIENCE, "jwks": idp.jwks()},
        {"type": TICKET_TYPE, "tokens": {"ticket-of-gabe": {"id": "ext-gabe", "name": "Gabe"}}}]
    fixture = {"applications": [
        {"id": str(GAME), "name": "Provisional Game", "client_secret": GAME_SECRET, "social_sdk_terms_accepted": True,
         "redirect_uris": ["http://127.0.0.1/cb"], "event_webhooks_url": receiver.url, "identity_providers": providers,
         "bot": {"id": str(GAME_BOT), "username": "provisional-bot", "token": GAME_BOT_TOKEN}},
        {"id": str(PUBLIC_GAME), "name": "Public Game", "public_client": True, "social_sdk_terms_accepted": True,
         "identity_providers": providers}]}
    response = http.post("/_emulator/seed", json=fixture)
    assert response.status_code == 204, response.text


def _external(http: httpx.Client, auth_type: str, token: str, app: int = GAME, secret: str | None = GAME_SECRET,
              **extra: str) -> httpx.Response:
    body: dict[str, str] = {"client_id": str(app), "external_auth_type": auth_type, "external_auth_token": token,
                            **extra}
    if secret is not None:
        body["client_secret"] = secret
    return http.post("/api/v10/partner-sdk/token", json=body)


def _me(http: httpx.Client, token: str) -> httpx.Response:
    return http.get("/api/v10/users/@me", headers=bearer(token))


def _link_code(http: httpx.Client, user: str) -> tuple[str, str]:
    verifier, challenge = pkce_pair()
    params = authorize_params("sdk.social_layer", challenge, client_id=str(GAME), redirect_uri="http://127.0.0.1/cb",
                              emulator_user=user, emulator_consent="allow")
    response = http.get("/oauth2/authorize", params=params)
    return redirect_query(response.headers["location"])["code"], verifier


def _merge(http: httpx.Client, user: str, auth_type: str, token: str) -> httpx.Response:
    code, verifier = _link_code(http, user)
    return http.post("/api/v10/oauth2/token", data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": "http://127.0.0.1/cb",
        "code_verifier": verifier, "client_id": str(GAME), "client_secret": GAME_SECRET,
        "external_auth_type": auth_type, "external_auth_token": token})


# -- creation ----------------------------------------------------------------------------------------------

@pytest.mark.usefixtures("game")
def test_bot_endpoint_creates_one_provisional_account_per_external_id(http: httpx.Client) -> None:
    headers = {"Authorization": f"Bot {GAME_BOT_TOKEN}"}
    first = http.post("/api/v10/partner-sdk/token/bot", headers=headers,
                      json={"external_user_id": "player-1", "preferred_global_name": "Player One"})
    assert first.status_code == 200, first.text
    body = first.json()
    assert "sdk.social_layer" in body["scope"].split() and "refresh_token" not in body
    me = _me(http, body["access_token"]).json()
    assert me["global_name"] == "Player One" and me["is_provisional_account"] is True
    again = http.post("/api/v10/partner-sdk/token/bot", headers=headers, json={"external_user_id": "player-1"})
    assert _me(http, again.json()["access_token"]).json()["id"] == me["id"]
    other = http.post("/api/v10/partner-sdk/token/bot", headers=headers, json={"external_user_id": "player-2"})
    assert _me(http, other.json()["access_token"]).json()["id"] != me["id"]


@pytest.mark.usefixtures("game")
def test_bot_endpoint_validates_its_body(http: httpx.Client) -> None:
    headers = {"Authorization": f"Bot {GAME_BOT_TOKEN}"}
    missing = http.post("/api/v10/partner-sdk/token/bot", headers=headers, json={"preferred_global_name": 5})
    assert missing.status_code == 400 and missing.json()["code"] == 50035
    errors = missing.json()["errors"]
    assert errors["external_user_id"]["_errors"][0]["code"] == "BASE_TYPE_REQUIRED"
    assert errors["preferred_global_name"]["_errors"][0]["code"] == "BASE_TYPE_STRING"
    malformed = http.post("/api/v10/partner-sdk/token/bot", headers={**headers, "Content-Type": "application/json"},
                          content=b"{not json")
    assert malformed.status_code == 400 and malformed.json()["code"] == 50109


@pytest.mark.usefixtures("game")
def test_oidc_exchange_verifies_the_provider_token(http: httpx.Client, idp: IdentityProvider) -> None:
    response = _external(http, "OIDC", idp.id_token("ext-ann", name="Ann"))
    assert response.status_code == 200, response.text
    body = response.json()
    assert "refresh_token" in body      # OIDC provisional tokens come with one (seed)
    assert _me(http, body["access_token"]).json()["global_name"] == "Ann"


@pytest.mark.usefixtures("game")
@pytest.mark.parametrize("make_token", [
    lambda idp: IdentityProvider().id_token("ext-ann"),                  # signed by someone else
    lambda idp: idp.id_token("ext-ann", audience="another-game"),
    lambda idp: idp.id_token("ext-ann", issuer="https://evil.example"),
    lambda idp: idp.id_token("ext-ann", expires_at=1.0),
    lambda idp: "not.a.jwt",
])
def test_oidc_exchange_rejects_bad_tokens(http: httpx.Client, idp: IdentityProvider, make_token: Any) -> None:
    token = make_token(idp)
    response = _external(http, "OIDC", token)
    assert response.status_code == 401 and response.json()["code"] == 530001
    assert token not in response.text


@pytest.mark.usefixtures("game")
def test_oidc_expiry_follows_the_emulator_clock(http: httpx.Client, idp: IdentityProvider) -> None:
    token = idp.id_token("ext-ann")
    http.put("/_emulator/clock", json={"now": "2099-01-01T00:00:00Z"})
    assert _external(http, "OIDC", token).json()["code"] == 530001


@pytest.mark.usefixtures("game")
def test_opaque_provider_tokens(http: httpx.Client) -> None:
    ok = _external(http, TICKET_TYPE, "ticket-of-gabe")
    assert ok.status_code == 200 and "refresh_token" not in ok.json()
    assert _me(http, ok.json()["access_token"]).json()["global_name"] == "Gabe"
    assert _external(http, TICKET_TYPE, "forged-ticket").json()["code"] == 530001
    unknown = _external(http, "NO_SUCH_PROVIDER", "x")
    assert unknown.status_code == 400 and unknown.json()["code"] == 530002


@pytest.mark.usefixtures("game")
def test_client_authentication_and_public_clients(http: httpx.Client, idp: IdentityProvider) -> None:
    token = idp.id_token("ext-ann")
    assert _external(http, "OIDC", token, secret=None).status_code == 401           # confidential, no secret
    assert _external(http, "OIDC", token, secret="wrong-secret").status_code == 401
    public = _external(http, "OIDC", token, app=PUBLIC_GAME, secret=None)        # public-client integration
    assert public.status_code == 200, public.text


@pytest.mark.usefixtures("game")
def test_oidc_provisional_refresh_still_works_but_is_deprecated(http: httpx.Client, idp: IdentityProvider) -> None:
    body = _external(http, "OIDC", idp.id_token("ext-ann")).json()
    refreshed = http.post("/api/v10/oauth2/token", data={"grant_type": "refresh_token", "client_id": str(GAME),
                                                         "client_secret": GAME_SECRET,
                                                         "refresh_token": body["refresh_token"]})
    assert refreshed.status_code == 200
    assert refreshed.headers["deprecation"] == "true"
    assert _me(http, refreshed.json()["access_token"]).status_code == 200


# -- merge, unmerge ------------------------------------------------------------------------------------------

@pytest.mark.usefixtures("game")
def test_merge_then_unmerge(http: httpx.Client, idp: IdentityProvider, receiver: Receiver) -> None:
    provisional = _external(http, "OIDC", idp.id_token("ext-ann")).json()
    provisional_id = _me(http, provisional["access_token"]).json()["id"]
    merged = _merge(http, "alice", "OIDC", idp.id_token("ext-ann"))
    assert merged.status_code == 200, merged.text
    assert _me(http, merged.json()["access_token"]).json()["id"] == str(ALICE)
    assert _me(http, provisional["access_token"]).status_code == 401        # the provisional tokens ended
    assert http.get(f"/_emulator/users/{provisional_id}").json()["merged_into"] == str(ALICE)
    # The external identity now signs in to alice's account.
    relogin = _external(http, "OIDC", idp.id_token("ext-ann")).json()
    assert _me(http, relogin["access_token"]).json()["id"] == str(ALICE)

    unmerged = http.post("/api/v10/partner-sdk/provisional-accounts/unmerge", json={
        "client_id": str(GAME), "client_secret": GAME_SECRET, "external_auth_type": "OIDC",
        "external_auth_token": idp.id_token("ext-ann")})
    assert unmerged.status_code == 204, unmerged.text
    assert _me(http, merged.json()["access_token"]).status_code == 401
    [delivery] = receiver.wait_for(1)
    assert delivery.json["event"]["type"] == "APPLICATION_DEAUTHORIZED"
    assert delivery.json["event"]["data"]["user"]["id"] == str(ALICE)
    fresh = _me(http, _external(http, "OIDC", idp.id_token("ext-ann")).json()["access_token"]).json()
    assert fresh["id"] not in (str(ALICE), provisional_id) and fresh["is_provisional_account"] is True


@pytest.mark.usefixtures("game")
def test_bot_issued_account_merges_and_unmerges_by_bot(http: httpx.Client) -> None:
    headers = {"Authorization": f"Bot {GAME_BOT_TOKEN}"}
    issued = http.post("/api/v10/partner-sdk/token/bot", headers=headers, json={"external_user_id": "p-9"}).json()
    merged = _merge(http, "bob", "BOT_ISSUED_ACCESS_TOKEN", issued["access_token"])
    assert merged.status_code == 200, merged.text
    again = http.post("/api/v10/partner-sdk/token/bot", headers=headers, json={"external_user_id": "p-9"}).json()
    assert _me(http, again["access_token"]).json()["id"] == str(BOB)
    response = http.post("/api/v10/partner-sdk/provisional-accounts/unmerge/bot", headers=headers,
                         json={"external_user_id": "p-9"})
    assert response.status_code == 204
    not_merged = http.post("/api/v10/partner-sdk/provisional-accounts/unmerge/bot", headers=headers,
                           json={"external_user_id": "p-9"})
    assert not_merged.status_code == 400 and not_merged.json()["code"] == 530005


@pytest.mark.usefixtures("game")
def test_failed_merge_changes_nothing(http: httpx.Client, idp: IdentityProvider) -> None:
    provisional = _external(http, "OIDC", idp.id_token("ext-ann")).json()
    bad = _merge(http, "alice", "OIDC", IdentityProvider().id_token("ext-ann"))
    assert bad.status_code == 401 and bad.json()["code"] == 530001
    assert _me(http, provisional["access_token"]).status_code == 200
    assert http.get(f"/_emulator/users/{ALICE}").json()["authorizations"] == []


# -- bans ----------------------------------------------------------------------------------------------------

def _ban(http: httpx.Client, user: int, **body: Any) -> httpx.Response:
    return http.post(f"/_emulator/users/{user}/ban", json=body)


@pytest.mark.usefixtures("game")
def test_ban_of_a_linked_account(http: httpx.Client, idp: IdentityProvider, receiver: Receiver) -> None:
    http.put("/_emulator/clock", json={"now": "2026-05-01T00:00:00Z"})
    linked = _merge(http, "alice", "OIDC", idp.id_token("ext-ann")).json()
    response = _ban(http, ALICE, until="2026-05-08T00:00:00Z", reason="cheating")
    assert response.status_code == 200, response.text
    [restricted_id] = response.json()["provisional_accounts"]
    assert _me(http, linked["access_token"]).status_code == 401               # tokens deleted at once
    [delivery] = receiver.wait_for(1)
    assert delivery.json["event"]["type"] == "APPLICATION_DEAUTHORIZED"
    restricted = http.get(f"/_emulator/users/{restricted_id}").json()
    assert restricted["provisional"] and restricted["restricted"]
    assert restricted["external_identities"] == [{"application_id": str(GAME), "type": "OIDC", "id": "ext-ann"}]
    # The identity now signs in to the restricted provisional account.
    signin = _external(http, "OIDC", idp.id_token("ext-ann")).json()
    assert _me(http, signin["access_token"]).json()["id"] == restricted_id
    # Merging it anywhere answers 530017 while the ban is active, and nothing changes.
    blocked = _merge(http, "bob", "OIDC", idp.id_token("ext-ann"))
    assert blocked.status_code == 400 and blocked.json()["code"] == 530017
    assert _me(http, signin["access_token"]).status_code == 200
    # The banned user cannot authorize apps either.
    _, challenge = pkce_pair()
    denied = http.get("/oauth2/authorize", params=authorize_params("identify", challenge, emulator_user="alice",
                                                                   emulator_consent="allow"))
    assert redirect_query(denied.headers["location"])["error"] == "access_denied"
    # Once the ban lifts on the emulator clock, the merge goes through.
    http.put("/_emulator/clock", json={"now": "2026-05-08T00:00:01Z"})
    assert _merge(http, "bob", "OIDC", idp.id_token("ext-ann")).status_code == 200


@pytest.mark.usefixtures("game")
def test_permanent_ban_blocks_merges_forever(http: httpx.Client, idp: IdentityProvider) -> None:
    _merge(http, "alice", "OIDC", idp.id_token("ext-ann"))
    assert _ban(http, ALICE, permanent=True).status_code == 200
    http.put("/_emulator/clock", json={"now": "2999-01-01T00:00:00Z"})
    late_token = idp.id_token("ext-ann", expires_at=32503680000 + 600)
    assert _merge(http, "bob", "OIDC", late_token).json()["code"] == 530017
    lift = http.delete(f"/_emulator/users/{ALICE}/ban")
    assert lift.status_code == 400


def test_ban_validation(http: httpx.Client) -> None:
    both = _ban(http, ALICE, until="2030-01-01T00:00:00Z", permanent=True)
    assert both.status_code == 400 and "until" in both.json()["errors"]
    neither = _ban(http, ALICE)
    assert neither.status_code == 400
    bad_date = _ban(http, ALICE, until="next tuesday")
    assert bad_date.json()["errors"]["until"]["_errors"][0]["code"] == "DATE_TYPE_CONVERT"
    assert http.get(f"/_emulator/users/{ALICE}").json()["ban"] is None
    assert _ban(http, 999, permanent=True).status_code == 404


def test_temporary_ban_can_be_lifted(http: httpx.Client) -> None:
    assert _ban(http, BOB, until="2999-01-01T00:00:00Z").status_code == 200
    assert http.get(f"/_emulator/users/{BOB}").json()["ban"]["until"].startswith("2999-01-01")
    assert http.delete(f"/_emulator/users/{BOB}/ban").status_code == 204
    assert http.get(f"/_emulator/users/{BOB}").json()["ban"] is None


# -- publisher-level linking -------------------------------------------------------------------------------

@pytest.mark.parametrize("approved, expected", [(True, 200), (False, 400)])
def test_parent_token_exchanged_for_child_token(http: httpx.Client, approved: bool, expected: int) -> None:
    http.post("/_emulator/seed", json={"applications": [
        {"id": "9000", "name": "Publisher", "client_secret": "publisher-secret", "redirect_uris": ["http://127.0.0.1/p"],
         "publisher_linking_approved": approved},
        {"id": "9001", "name": "Child Game", "client_secret": "child-secret", "parent_application_id": "9000"},
        {"id": "9002", "name": "Stranger", "client_secret": "stranger-secret"}]})
    verifier, challenge = pkce_pair()
    response = http.get("/oauth2/authorize", params=authorize_params(
        "identify", challenge, client_id="9000", redirect_uri="http://127.0.0.1/p", emulator_user="carol",
        emulator_consent="allow"))
    code = redirect_query(response.headers["location"])["code"]
    parent = http.post("/api/v10/oauth2/token", data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": "http://127.0.0.1/p",
        "code_verifier": verifier, "client_id": "9000", "client_secret": "publisher-secret"}).json()

    def exchange(client: str, secret: str) -> httpx.Response:
        return http.post("/api/v10/oauth2/token", data={
            "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange", "client_id": client,
            "client_secret": secret, "subject_token": parent["access_token"],
            "subject_token_type": "urn:ietf:params:oauth:token-type:access_token"})

    child = exchange("9001", "child-secret")
    assert child.status_code == expected, child.text
    if approved:
        assert _me(http, child.json()["access_token"]).json()["username"] == "carol"
        assert http.get("/api/v10/oauth2/@me", headers=bearer(child.json()["access_token"])).json()[
            "application"]["id"] == "9001"
    else:
        assert child.json()["error"] == "unauthorized_client"
    stranger = exchange("9002", "stranger-secret")
    assert stranger.status_code == 400 and stranger.json()["error"] == "invalid_grant"


def test_code_issued_before_a_ban_gives_no_tokens(http: httpx.Client) -> None:
    verifier, challenge = pkce_pair()
    response = http.get("/oauth2/authorize", params=authorize_params("identify", challenge, emulator_user="alice",
                                                                     emulator_consent="allow"))
    code = redirect_query(response.headers["location"])["code"]
    assert _ban(http, ALICE, until="2999-01-01T00:00:00Z").status_code == 200
    exchange = http.post("/api/v10/oauth2/token", data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": response.headers["location"].split("?")[0],
        "code_verifier": verifier, "client_id": "1000000000000000000"})
    assert exchange.status_code == 400 and exchange.json()["error"] == "invalid_grant"


@pytest.mark.usefixtures("game")
def test_ending_provisional_tokens_sends_no_webhook(http: httpx.Client) -> None:
    headers = {"Authorization": f"Bot {GAME_BOT_TOKEN}"}
    issued = http.post("/api/v10/partner-sdk/token/bot", headers=headers, json={"external_user_id": "p-1"}).json()
    revoked = http.post("/api/v10/oauth2/token/revoke", data={"token": issued["access_token"], "client_id": str(GAME),
                                                              "client_secret": GAME_SECRET})
    assert revoked.status_code == 200 and _me(http, issued["access_token"]).status_code == 401
    # Deliveries are recorded in the revoking transaction, so none now means none at all.
    assert http.get("/_emulator/webhooks/deliveries", params={"application_id": GAME}).json() == []


def test_default_world_accepts_demo_provider_tokens_from_a_public_client(http: httpx.Client) -> None:
    first = http.post("/api/v10/partner-sdk/token", json={"client_id": "1000000000000000000",
                                                          "external_auth_type": "STEAM_SESSION_TICKET",
                                                          "external_auth_token": "demo-player-1"})
    assert first.status_code == 200, first.text
    assert _me(http, first.json()["access_token"]).json()["global_name"] == "Player One"
    forged = http.post("/api/v10/partner-sdk/token", json={"client_id": "1000000000000000000",
                                                           "external_auth_type": "STEAM_SESSION_TICKET",
                                                           "external_auth_token": "demo-player-3"})
    assert forged.status_code == 401 and forged.json()["code"] == 530001


# -- console and phone identity providers (ID tokens) --------------------------------------------------------

@pytest.mark.parametrize("auth_type", ["APPLE_ID_TOKEN", "PLAYSTATION_NETWORK_ID_TOKEN"])
def test_apple_and_playstation_id_tokens_sign_in(http: httpx.Client, idp: IdentityProvider, auth_type: str) -> None:
    other = IdentityProvider()
    fixture = {"applications": [{
        "id": "8200", "name": "Console Game", "client_secret": "console-secret", "social_sdk_terms_accepted": True,
        "identity_providers": [{"type": auth_type, "issuer": ISSUER, "audience": AUDIENCE, "jwks": idp.jwks()}]}]}
    assert http.post("/_emulator/seed", json=fixture).status_code == 204
    first = _external(http, auth_type, idp.id_token("console-player"), app=8200, secret="console-secret")
    assert first.status_code == 200, first.text
    again = _external(http, auth_type, idp.id_token("console-player"), app=8200, secret="console-secret")
    assert _me(http, again.json()["access_token"]).json()["id"] == _me(http, first.json()["access_token"]).json()["id"]
    forged = _external(http, auth_type, other.id_token("console-player"), app=8200, secret="console-secret")
    assert forged.status_code == 401 and auth_type in forged.json()["message"]
    # An opaque (non-JWT) token is refused: these providers only issue signed ID tokens.
    opaque = _external(http, auth_type, "console-player", app=8200, secret="console-secret")
    assert opaque.status_code == 401


def test_provisional_account_display_name(http: httpx.Client, game: None) -> None:
    token = _external(http, TICKET_TYPE, "ticket-of-gabe").json()["access_token"]
    path = "/api/v10/partner-sdk/provisional-accounts/@me"
    response = http.patch(path, json={"display_name": " Gabe the Great "}, headers=bearer(token))
    assert response.status_code == 200, response.text
    assert response.json()["global_name"] == "Gabe the Great"
    assert _me(http, token).json()["global_name"] == "Gabe the Great"
    too_long = http.patch(path, json={"display_name": "x" * 33}, headers=bearer(token))
    assert too_long.status_code == 400 and "display_name" in too_long.json()["errors"]
    blank = http.patch(path, json={"display_name": "   "}, headers=bearer(token))
    assert blank.status_code == 400 and _me(http, token).json()["global_name"] == "Gabe the Great"
    # A full account's name is its owner's: the game cannot set it.
    code, verifier = _link_code(http, "alice")
    full = http.post("/api/v10/oauth2/token", data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": "http://127.0.0.1/cb",
        "code_verifier": verifier, "client_id": str(GAME), "client_secret": GAME_SECRET}).json()["access_token"]
    refused = http.patch(path, json={"display_name": "Alice?"}, headers=bearer(full))
    assert refused.status_code == 400 and "NOT_PROVISIONAL" in refused.text
    assert http.patch(path, json={"display_name": "x"}).status_code == 401
