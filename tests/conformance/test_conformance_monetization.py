"""Conformance of the monetization operations (entitlements, test entitlements, consume, the user's
entitlements, SKU subscriptions): every success and error body checked against the published schema,
subscriptions in each of their statuses (ACTIVE 0, ENDING 2, INACTIVE 1)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from emulator_world import ALICE, APP_ID, BOB, BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from social_helpers import user_token

from conformance_client import ClientFactory

BOT = f"Bot {BOT_TOKEN}"


def admin(emu: Emulator, method: str, path: str, body: Any = None) -> Any:
    response = httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=10)
    assert response.status_code < 300, response.text
    return response.json() if response.content else None


def new_sku(emu: Emulator, sku_type: int, name: str) -> str:
    return admin(emu, "POST", f"/applications/{APP_ID}/skus", {"type": sku_type, "name": name})["id"]


@pytest.mark.covers("GET /applications/{application_id}/entitlements", "POST /applications/{application_id}/entitlements",
                    "GET /applications/{application_id}/entitlements/{entitlement_id}",
                    "DELETE /applications/{application_id}/entitlements/{entitlement_id}",
                    "POST /applications/{application_id}/entitlements/{entitlement_id}/consume",
                    "GET /users/@me/applications/{application_id}/entitlements")
def test_entitlements(emu: Emulator, client: ClientFactory) -> None:
    admin(emu, "PUT", "/clock", {"now": "2026-11-01T00:00:00Z", "frozen": True})
    coins, premium = new_sku(emu, 3, "Coins"), new_sku(emu, 5, "Premium")
    bought = admin(emu, "POST", f"/applications/{APP_ID}/entitlements",
                   {"sku_id": coins, "user_id": str(ALICE), "starts_at": "2026-10-01T00:00:00Z"})
    admin(emu, "POST", f"/applications/{APP_ID}/entitlements",
          {"sku_id": premium, "user_id": str(BOB), "type": 10, "starts_at": "2026-09-01T00:00:00Z",
           "ends_at": "2026-10-01T00:00:00Z"})
    bot = client(BOT)
    base = f"/applications/{APP_ID}/entitlements"
    assert len(bot.get(base).json()) == 2
    assert bot.get(base, params={"sku_ids": f"{coins},{premium}", "only_active": "true"}).status_code == 200
    assert bot.get(base, params={"guild_id": str(GUILD_ID), "exclude_ended": "true"}).json() == []
    assert bot.get(base, params={"limit": 101}).status_code == 400
    assert bot.get(base, params={"user_id": "x"}).status_code == 400
    assert bot.get("/applications/1/entitlements").status_code == 403
    assert client().get(base).status_code == 401

    user_made = bot.post(base, json={"sku_id": premium, "owner_id": str(BOB), "owner_type": 2})
    assert user_made.status_code == 200
    assert bot.post(base, json={"sku_id": premium, "owner_id": str(GUILD_ID), "owner_type": 1}).status_code == 200
    assert bot.post(base, json={"sku_id": premium, "owner_type": 2}).status_code == 400
    assert bot.post(base, json={"sku_id": "1", "owner_id": str(BOB), "owner_type": 2}).status_code == 404

    assert bot.get(f"{base}/{bought['id']}").status_code == 200
    assert bot.get(f"{base}/1").status_code == 404
    assert bot.post(f"{base}/{bought['id']}/consume").status_code == 204
    assert bot.post(f"{base}/{bought['id']}/consume").status_code == 400
    assert bot.post(f"{base}/1/consume").status_code == 404
    assert bot.delete(f"{base}/{user_made.json()['id']}").status_code == 204
    assert bot.delete(f"{base}/{bought['id']}").status_code == 404   # not a test entitlement

    alice = client(f"Bearer {user_token(emu, ALICE)}")
    mine = f"/users/@me/applications/{APP_ID}/entitlements"
    assert alice.get(mine, params={"exclude_consumed": "false"}).status_code == 200
    assert alice.get(mine, params={"sku_ids": "nope"}).status_code == 400
    assert alice.get("/users/@me/applications/1/entitlements").status_code == 403


@pytest.mark.covers("GET /skus/{sku_id}/subscriptions", "GET /skus/{sku_id}/subscriptions/{subscription_id}")
def test_subscriptions(emu: Emulator, client: ClientFactory) -> None:
    admin(emu, "PUT", "/clock", {"now": "2026-11-01T00:00:00Z", "frozen": True})
    premium = new_sku(emu, 5, "Premium")
    active = admin(emu, "POST", f"/applications/{APP_ID}/subscriptions", {"sku_id": premium, "user_id": str(ALICE),
                                                                          "country": "FR"})
    ending = admin(emu, "POST", f"/applications/{APP_ID}/subscriptions", {"sku_id": premium, "user_id": str(BOB)})
    admin(emu, "POST", f"/subscriptions/{ending['id']}/cancel")
    inactive = admin(emu, "POST", f"/applications/{APP_ID}/subscriptions", {"sku_id": premium, "user_id": str(BOB)})
    admin(emu, "POST", f"/subscriptions/{inactive['id']}/end")
    bot = client(BOT)
    listed = bot.get(f"/skus/{premium}/subscriptions")
    assert sorted(s["status"] for s in listed.json()) == [0, 1, 2]
    assert bot.get(f"/skus/{premium}/subscriptions", params={"limit": 0}).status_code == 400
    assert bot.get("/skus/1/subscriptions").status_code == 404
    for made in (active, ending, inactive):
        assert bot.get(f"/skus/{premium}/subscriptions/{made['id']}").status_code == 200
    assert bot.get(f"/skus/{premium}/subscriptions/1").status_code == 404
