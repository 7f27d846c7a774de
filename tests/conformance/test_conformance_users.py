"""Conformance of the users, applications and OAuth2 operations: success and error bodies."""

from __future__ import annotations

import pytest
from emulator_world import ALICE, BOT_TOKEN
from platformpp.emulator import Emulator
from social_helpers import user_token

from conformance_client import ClientFactory, force_429

BOT = f"Bot {BOT_TOKEN}"


@pytest.mark.covers("GET /users/@me", "GET /users/{user_id}", "GET /users/@me/connections")
def test_users(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.get("/users/@me").status_code == 200
    assert bot.get(f"/users/{ALICE}").status_code == 200
    assert bot.get("/users/1").status_code == 404
    assert client().get("/users/@me").status_code == 401
    assert client("Bot not.a.token").get("/users/@me").status_code == 401
    alice = client(f"Bearer {user_token(emu, ALICE, 'identify email connections')}")
    assert alice.get("/users/@me").json()["email"] is not None
    assert alice.get("/users/@me/connections").status_code == 200
    assert bot.get("/users/@me/connections").status_code == 401
    assert client(f"Bearer {user_token(emu, ALICE, 'identify')}").get("/users/@me/connections").status_code == 403


@pytest.mark.covers("GET /applications/@me", "PATCH /applications/@me", "GET /oauth2/applications/@me")
def test_applications(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.get("/applications/@me").status_code == 200
    assert bot.get("/oauth2/applications/@me").status_code == 200
    changed = bot.patch("/applications/@me", json={
        "description": "changed", "tags": ["rpg"], "custom_install_url": "https://game.example/i",
        "install_params": {"scopes": ["bot"], "permissions": "2048"},
        "integration_types_config": {"0": {"oauth2_install_params": {"scopes": ["bot"], "permissions": 0}}, "1": {}},
        "icon": "data:image/png;base64,iVBORw0KGgo="})
    assert changed.status_code == 200, changed.text
    assert bot.patch("/applications/@me", json={"flags": "x"}).status_code == 400
    user = client(f"Bearer {user_token(emu, ALICE, 'identify')}")
    assert user.get("/applications/@me").status_code == 401
    assert user.get("/oauth2/applications/@me").status_code == 401


@pytest.mark.covers("GET /oauth2/@me", "GET /oauth2/userinfo", "GET /oauth2/keys")
def test_oauth2(emu: Emulator, client: ClientFactory) -> None:
    alice = client(f"Bearer {user_token(emu, ALICE, 'openid sdk.social_layer email')}")
    assert alice.get("/oauth2/@me").status_code == 200
    assert alice.get("/oauth2/userinfo").status_code == 200
    assert client().get("/oauth2/keys").status_code == 200
    assert client(BOT).get("/oauth2/@me").status_code == 401
    assert client(f"Bearer {user_token(emu, ALICE, 'identify')}").get("/oauth2/userinfo").status_code == 403
    # The key set needs no credentials: its error answer is a rate limit.
    force_429(emu, "/api/v10/oauth2/keys")
    assert client().get("/oauth2/keys").status_code == 429
