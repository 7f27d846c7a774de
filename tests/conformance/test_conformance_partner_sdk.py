"""Conformance of the partner-sdk operations (provisional accounts): success and error bodies."""

from __future__ import annotations

import httpx
import pytest
from emulator_world import ALICE, APP_ID, BOT_TOKEN, CALLBACK, authorize_params, pkce_pair, redirect_query
from platformpp.emulator import Emulator

from conformance_client import ClientFactory

BOT = f"Bot {BOT_TOKEN}"
TICKET = {"client_id": str(APP_ID), "external_auth_type": "STEAM_SESSION_TICKET", "external_auth_token": "demo-player-1"}


def _merge_into_alice(emu: Emulator, auth_type: str, token: str) -> None:
    """Alice links the provisional identity to her account (authorization code + external credentials)."""
    with httpx.Client(base_url=emu.base_url) as web:
        verifier, challenge = pkce_pair()
        consent = web.get("/oauth2/authorize", params=authorize_params(
            "openid sdk.social_layer", challenge, emulator_user=str(ALICE), emulator_consent="allow"))
        code = redirect_query(consent.headers["location"])["code"]
        merged = web.post("/api/v10/oauth2/token", data={
            "grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK, "code_verifier": verifier,
            "client_id": str(APP_ID), "external_auth_type": auth_type, "external_auth_token": token})
        assert merged.status_code == 200, merged.text


@pytest.mark.covers("POST /partner-sdk/token/bot", "POST /partner-sdk/provisional-accounts/unmerge/bot")
def test_bot_issued_accounts(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    issued = bot.post("/partner-sdk/token/bot", json={"external_user_id": "player-9"})
    assert issued.status_code == 200 and issued.json()["id_token"]
    assert bot.post("/partner-sdk/token/bot", json={"external_user_id": ""}).status_code == 400
    assert client().post("/partner-sdk/token/bot", json={"external_user_id": "p"}).status_code == 401
    _merge_into_alice(emu, "BOT_ISSUED_ACCESS_TOKEN", issued.json()["access_token"])
    assert bot.post("/partner-sdk/provisional-accounts/unmerge/bot", json={"external_user_id": "player-9"}
                    ).status_code == 204
    again = bot.post("/partner-sdk/provisional-accounts/unmerge/bot", json={"external_user_id": "player-9"})
    assert again.status_code == 400 and again.json()["code"] == 530005


@pytest.mark.covers("POST /partner-sdk/token", "POST /partner-sdk/provisional-accounts/unmerge")
def test_external_credentials(emu: Emulator, client: ClientFactory) -> None:
    anonymous = client()
    assert anonymous.post("/partner-sdk/token", json=TICKET).status_code == 200
    forged = anonymous.post("/partner-sdk/token", json={**TICKET, "external_auth_token": "demo-player-3"})
    assert forged.status_code == 401 and forged.json()["code"] == 530001
    _merge_into_alice(emu, TICKET["external_auth_type"], TICKET["external_auth_token"])
    assert anonymous.post("/partner-sdk/provisional-accounts/unmerge", json=TICKET).status_code == 204
    unknown = anonymous.post("/partner-sdk/provisional-accounts/unmerge", json={**TICKET, "external_auth_token": "x"})
    assert 400 <= unknown.status_code < 500
