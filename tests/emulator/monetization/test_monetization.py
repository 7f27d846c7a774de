"""Monetization over real sockets: SKUs, entitlements (filters, consume, test entitlements), subscriptions
with their statuses (ACTIVE 0, INACTIVE 1, ENDING 2) and the ENDING → INACTIVE transition at the period end
on the emulator clock, each change dispatched to the bot's Gateway session."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx
from channel_helpers import GENERAL, set_clock
from emulator_world import ALICE, APP_ID, BOB, BOT_TOKEN, GUILD_ID
from interaction_bots import GatewayBot
from platformpp.emulator import Emulator
from platformpp.emulator.simulated_user import SimulatedUser
from social_helpers import GatewayClient, api, bot, user_token

ACTIVE, INACTIVE, ENDING = 0, 1, 2


def admin(emu: Emulator, method: str, path: str, body: Any = None, status: int = 200) -> Any:
    response = httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=10)
    assert response.status_code == status, response.text
    return response.json() if response.content else None


def sku(emu: Emulator, sku_type: int = 5, name: str = "Premium") -> str:
    return admin(emu, "POST", f"/applications/{APP_ID}/skus", {"type": sku_type, "name": name})["id"]


def test_skus_are_listed_for_the_own_application_only(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    premium = sku(emu)
    coins = sku(emu, 3, "Coins")
    with bot(emu) as client:
        listed = client.get(f"/applications/{APP_ID}/skus").json()
        assert [(s["id"], s["type"], s["slug"]) for s in listed] == [(premium, 5, "premium"), (coins, 3, "coins")]
        assert client.get("/applications/1/skus").status_code == 403
    bad = httpx.post(f"{emu.base_url}/_emulator/applications/{APP_ID}/skus", json={"type": 4, "name": "x"})
    assert bad.status_code == 400 and "type" in bad.json()["errors"]


def test_entitlements_filters_consume_and_test_entitlements(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    set_clock(emu, "2026-11-01T00:00:00Z")
    coins, premium = sku(emu, 3, "Coins"), sku(emu)
    bought = admin(emu, "POST", f"/applications/{APP_ID}/entitlements",
                   {"sku_id": coins, "user_id": str(ALICE), "starts_at": "2026-10-01T00:00:00Z"})
    ended = admin(emu, "POST", f"/applications/{APP_ID}/entitlements",
                  {"sku_id": premium, "user_id": str(BOB), "starts_at": "2026-09-01T00:00:00Z",
                   "ends_at": "2026-10-01T00:00:00Z"})
    with bot(emu) as client:
        base = f"/applications/{APP_ID}/entitlements"
        assert {e["id"] for e in client.get(base).json()} == {bought["id"], ended["id"]}
        assert [e["id"] for e in client.get(base, params={"user_id": str(ALICE)}).json()] == [bought["id"]]
        assert [e["id"] for e in client.get(base, params={"sku_ids": premium}).json()] == [ended["id"]]
        assert [e["id"] for e in client.get(base, params={"exclude_ended": "true"}).json()] == [bought["id"]]
        assert [e["id"] for e in client.get(base, params={"limit": 1}).json()] == [ended["id"]]   # newest first
        assert [e["id"] for e in client.get(base, params={"after": bought["id"]}).json()] == [ended["id"]]
        assert client.get(base, params={"limit": 0}).json()["errors"]["limit"]
        # consume: once, and only a consumable SKU's
        assert client.post(f"{base}/{bought['id']}/consume").status_code == 204
        assert client.get(f"{base}/{bought['id']}").json()["consumed"] is True
        assert client.post(f"{base}/{bought['id']}/consume").status_code == 400
        assert client.post(f"{base}/{ended['id']}/consume").status_code == 400
        # test entitlements: created for a user or a guild, deleted, then listed only with exclude_deleted=false
        made = client.post(base, json={"sku_id": premium, "owner_id": str(BOB), "owner_type": 2})
        assert made.status_code == 200 and made.json()["starts_at"] is None and made.json()["user_id"] == str(BOB)
        for_guild = client.post(base, json={"sku_id": premium, "owner_id": str(GUILD_ID), "owner_type": 1}).json()
        assert for_guild["guild_id"] == str(GUILD_ID)
        refused = client.post(base, json={"sku_id": premium, "owner_id": str(BOB), "owner_type": 3})
        assert refused.status_code == 400 and "owner_type" in refused.json()["errors"]
        assert client.post(base, json={"sku_id": "1", "owner_id": str(BOB), "owner_type": 2}).status_code == 404
        test_id = made.json()["id"]
        assert client.delete(f"{base}/{test_id}").status_code == 204
        assert client.delete(f"{base}/{test_id}").status_code == 404
        assert client.delete(f"{base}/{bought['id']}").status_code == 404   # not a test entitlement
        assert test_id not in {e["id"] for e in client.get(base).json()}
        listed = {e["id"]: e for e in client.get(base, params={"exclude_deleted": "false"}).json()}
        assert listed[test_id]["deleted"] is True
    # the user's own list, with a bearer token of the application
    with api(emu, user_token(emu, ALICE)) as alice:
        mine = alice.get(f"/users/@me/applications/{APP_ID}/entitlements")
        assert mine.status_code == 200 and mine.json() == []   # exclude_consumed defaults to true
        mine = alice.get(f"/users/@me/applications/{APP_ID}/entitlements", params={"exclude_consumed": "false"})
        assert [e["id"] for e in mine.json()] == [bought["id"]]


async def _subscription_lifecycle(emu: Emulator) -> None:
    set_clock(emu, "2026-11-01T00:00:00Z")
    premium = sku(emu)
    gateway = await GatewayClient.connect(emu)
    await gateway.identify(BOT_TOKEN)
    made = admin(emu, "POST", f"/applications/{APP_ID}/subscriptions",
                 {"sku_id": premium, "user_id": str(ALICE), "period_days": 30})
    assert made["status"] == ACTIVE and made["current_period_end"].startswith("2026-12-01T00:00:00")
    created = (await gateway.dispatch("ENTITLEMENT_CREATE"))["d"]
    assert created["sku_id"] == premium and created["ends_at"] is None
    assert (await gateway.dispatch("SUBSCRIPTION_CREATE"))["d"]["id"] == made["id"]
    assert made["entitlement_ids"] == [created["id"]]

    canceled = admin(emu, "POST", f"/subscriptions/{made['id']}/cancel")
    assert canceled["status"] == ENDING and canceled["canceled_at"].startswith("2026-11-01")
    assert canceled["renewal_sku_ids"] is None
    assert (await gateway.dispatch("ENTITLEMENT_UPDATE"))["d"]["ends_at"].startswith("2026-12-01T00:00:00")
    assert (await gateway.dispatch("SUBSCRIPTION_UPDATE"))["d"]["status"] == ENDING

    with bot(emu) as client:
        one = f"/skus/{premium}/subscriptions/{made['id']}"
        set_clock(emu, "2026-11-30T23:59:59Z")   # one second before the period end: still ENDING
        assert client.get(one).json()["status"] == ENDING
        await gateway.no_dispatch("SUBSCRIPTION_UPDATE")
        set_clock(emu, "2026-12-01T00:00:00Z")   # at the period end: INACTIVE, dispatched by the clock move
        update = await gateway.dispatch("SUBSCRIPTION_UPDATE")
        assert update["d"]["status"] == INACTIVE
        assert client.get(one).json()["status"] == INACTIVE
        listed = client.get(f"/skus/{premium}/subscriptions", params={"user_id": str(ALICE)}).json()
        assert [(s["id"], s["status"]) for s in listed] == [(made["id"], INACTIVE)]
        assert client.get(f"/skus/{premium}/subscriptions", params={"user_id": str(BOB)}).json() == []
        assert client.get(f"/skus/{premium}/subscriptions/1").status_code == 404
        assert client.get("/skus/1/subscriptions").status_code == 404
        await gateway.no_dispatch("SUBSCRIPTION_UPDATE")   # the transition is dispatched once only

        # an ACTIVE one renews at its period end; ending it makes it INACTIVE at once; deleting it is dispatched
        other = admin(emu, "POST", f"/applications/{APP_ID}/subscriptions", {"sku_id": premium, "user_id": str(BOB),
                                                                             "period_days": 7})
        set_clock(emu, "2026-12-15T00:00:00Z")
        renewed = client.get(f"/skus/{premium}/subscriptions/{other['id']}").json()
        assert renewed["status"] == ACTIVE and renewed["current_period_start"].startswith("2026-12-15")
        ended = admin(emu, "POST", f"/subscriptions/{other['id']}/end")
        assert ended["status"] == INACTIVE
        admin(emu, "DELETE", f"/subscriptions/{other['id']}", status=204)
        assert (await gateway.dispatch("SUBSCRIPTION_DELETE"))["d"]["id"] == other["id"]
        assert client.get(f"/skus/{premium}/subscriptions/{other['id']}").status_code == 404
    await gateway.close()


def test_subscription_ends_at_its_period_end_on_the_clock(platformpp_emulator: Emulator) -> None:
    asyncio.run(_subscription_lifecycle(platformpp_emulator))


def test_fixture_sections_create_records(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    world = {"skus": [{"id": "1900000000000000001", "application_id": str(APP_ID), "type": 5, "name": "Gold"}],
             "subscriptions": [{"id": "1900000000000000002", "application_id": str(APP_ID),
                                "sku_id": "1900000000000000001", "user_id": str(ALICE),
                                "current_period_start": "2026-01-01T00:00:00Z"}],
             "entitlements": [{"application_id": str(APP_ID), "sku_id": "1900000000000000001",
                               "user_id": str(BOB), "type": 10}]}
    admin(emu, "POST", "/seed", world, status=204)
    with bot(emu) as client:
        types = sorted(e["type"] for e in client.get(f"/applications/{APP_ID}/entitlements").json())
        assert types == [8, 10]
    bad = httpx.post(f"{emu.base_url}/_emulator/seed", json={"skus": [{"application_id": "1", "type": 5,
                                                                       "name": "x"}]})
    assert bad.status_code == 400 and "application_id" in bad.text


def test_interactions_carry_the_users_active_entitlements(
        emu: Emulator, platformpp_user: Callable[..., SimulatedUser]) -> None:
    premium = sku(emu)
    active = admin(emu, "POST", f"/applications/{APP_ID}/entitlements", {"sku_id": premium, "user_id": str(ALICE)})
    admin(emu, "POST", f"/applications/{APP_ID}/entitlements", {"sku_id": premium, "user_id": str(BOB)})
    admin(emu, "POST", f"/applications/{APP_ID}/entitlements", {"sku_id": premium, "user_id": str(ALICE),
                                                                "ends_at": "2020-01-02T00:00:00Z",
                                                                "starts_at": "2020-01-01T00:00:00Z"})
    with bot(emu) as http:
        made = http.post(f"/applications/{APP_ID}/commands", json={"name": "shop", "description": "d"})
        assert made.status_code == 201, made.text
    with GatewayBot(emu.base_url, lambda payload: {"type": 4, "data": {"content": "ok"}}) as running:
        answer = platformpp_user(ALICE, channel_id=GENERAL).command("shop", [])
        assert answer.error is None
        entitlements = running.received[0]["entitlements"]
    assert [e["id"] for e in entitlements] == [active["id"]]   # Alice's, active now: not Bob's, not the ended one
