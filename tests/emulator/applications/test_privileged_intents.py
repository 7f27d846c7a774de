"""Privileged intents over real sockets (seed: Authentication 12): the toggle below 10,000 users, the
approval from 10,000, the one-year life of an approval on the emulator clock (both sides of its end), the
application flags in GET /applications/@me, 4014 on Identify, and MESSAGE_CONTENT emptying content."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from channel_helpers import set_clock, user_posts
from emulator_world import ALICE, APP_ID, BOT_TOKEN
from platformpp.emulator import Emulator
from social_helpers import GatewayClient, bot

GENERAL = 1200000000000000101
MESSAGE_CONTENT_INTENT = 1 << 15
GUILD_MEMBERS_INTENT = 1 << 1
MESSAGE_CONTENT, MESSAGE_CONTENT_LIMITED = 1 << 18, 1 << 19
GUILD_MEMBERS, GUILD_MEMBERS_LIMITED = 1 << 14, 1 << 15
PATH = f"/applications/{APP_ID}"


def admin(emu: Emulator, method: str, path: str, body: Any = None, status: int = 200) -> Any:
    response = httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=10)
    assert response.status_code == status, response.text
    return response.json()


def app_flags(emu: Emulator) -> int:
    with bot(emu) as client:
        body = client.get("/applications/@me").json()
    assert int(body["flags_new"]) & 0x7FFFFFFF == body["flags"]
    return body["flags"]


async def _identify(emu: Emulator, intents: int) -> int | None:
    """None when READY came, else the close code."""
    client = await GatewayClient.connect(emu)
    assert (await client.recv())["op"] == 10
    await client.send({"op": 2, "d": {"token": BOT_TOKEN, "intents": intents,
                                      "properties": {"os": "linux", "browser": "t", "device": "t"}}})
    try:
        await client.dispatch("READY")
    except Exception:   # the socket closed: its code
        return await client.close_code()
    await client.close()
    return None


def identify(emu: Emulator, intents: int) -> int | None:
    return asyncio.run(_identify(emu, intents))


def test_the_default_world_holds_no_privileged_intent(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    state = admin(emu, "GET", f"{PATH}/privileged-intents")
    assert state["reach"] == 4 and not state["needs_approval"]
    assert not any(i["enabled"] for i in state["intents"].values())
    assert identify(emu, 1) is None
    assert identify(emu, MESSAGE_CONTENT_INTENT) == 4014


def test_below_10000_users_the_toggle_sets_the_limited_flag(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    on = admin(emu, "PUT", f"{PATH}/privileged-intents/MESSAGE_CONTENT", {"enabled": True})
    assert on["intents"]["MESSAGE_CONTENT"] == {"enabled": True, "flag": "limited", "approval": None}
    assert app_flags(emu) & (MESSAGE_CONTENT | MESSAGE_CONTENT_LIMITED) == MESSAGE_CONTENT_LIMITED
    assert identify(emu, MESSAGE_CONTENT_INTENT) is None
    assert identify(emu, GUILD_MEMBERS_INTENT) == 4014   # only the intent toggled on
    # with the intent, a bot reads other users' content over REST; without it the content is empty
    posted = user_posts(emu, GENERAL, ALICE, content="hello there")
    assert posted.status_code == 200, posted.text
    with bot(emu) as client:
        assert client.get(f"/channels/{GENERAL}/messages/{posted.json()['id']}").json()["content"] == "hello there"
        admin(emu, "PUT", f"{PATH}/privileged-intents/MESSAGE_CONTENT", {"enabled": False})
        assert client.get(f"/channels/{GENERAL}/messages/{posted.json()['id']}").json()["content"] == ""
    assert app_flags(emu) & (MESSAGE_CONTENT | MESSAGE_CONTENT_LIMITED) == 0
    assert identify(emu, MESSAGE_CONTENT_INTENT) == 4014
    bad = httpx.put(f"{emu.base_url}/_emulator{PATH}/privileged-intents/TYPING", json={"enabled": True})
    assert bad.status_code == 400 and "intent" in bad.json()["errors"]


def test_from_10000_users_an_approval_is_needed_and_lasts_one_year(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    set_clock(emu, "2026-01-10T00:00:00Z")
    admin(emu, "PUT", f"{PATH}/privileged-intents/GUILD_MEMBERS", {"enabled": True})
    assert app_flags(emu) & GUILD_MEMBERS_LIMITED
    state = admin(emu, "PUT", f"{PATH}/reach", {"users": 10_000})
    assert state["needs_approval"] and not state["intents"]["GUILD_MEMBERS"]["enabled"]   # limited stops
    refused = httpx.put(f"{emu.base_url}/_emulator{PATH}/privileged-intents/GUILD_MEMBERS", json={"enabled": True})
    assert refused.status_code == 400 and refused.json()["errors"]["enabled"]["_errors"][0]["code"] == \
        "PRIVILEGED_INTENT_APPROVAL_REQUIRED"
    assert app_flags(emu) & (GUILD_MEMBERS | GUILD_MEMBERS_LIMITED) == 0   # nothing changed
    with bot(emu) as client:   # the bot's own PATCH of the limited flag is the same toggle
        patched = client.patch("/applications/@me", json={"flags": GUILD_MEMBERS_LIMITED})
        assert patched.status_code == 400 and "flags" in patched.json()["errors"]
    assert identify(emu, GUILD_MEMBERS_INTENT) == 4014

    # approving needs an application; an application is dated; approval turns the full flag on
    admin(emu, "POST", f"{PATH}/privileged-intents/GUILD_MEMBERS/approve", status=400)
    applied = admin(emu, "POST", f"{PATH}/privileged-intents/GUILD_MEMBERS/apply")
    assert applied["intents"]["GUILD_MEMBERS"]["approval"]["status"] == "pending"
    assert applied["intents"]["GUILD_MEMBERS"]["approval"]["applied_at"].startswith("2026-01-10T00:00:00")
    set_clock(emu, "2026-01-15T00:00:00Z")
    approved = admin(emu, "POST", f"{PATH}/privileged-intents/GUILD_MEMBERS/approve")["intents"]["GUILD_MEMBERS"]
    assert approved["flag"] == "full" and approved["approval"]["expires_at"].startswith("2027-01-15T00:00:00")
    assert app_flags(emu) & (GUILD_MEMBERS | GUILD_MEMBERS_LIMITED) == GUILD_MEMBERS
    assert identify(emu, GUILD_MEMBERS_INTENT) is None
    # the toggle works while the approval runs
    admin(emu, "PUT", f"{PATH}/privileged-intents/GUILD_MEMBERS", {"enabled": False})
    assert identify(emu, GUILD_MEMBERS_INTENT) == 4014
    admin(emu, "PUT", f"{PATH}/privileged-intents/GUILD_MEMBERS", {"enabled": True})

    set_clock(emu, "2027-01-14T23:59:59Z")   # one second before the year is up: still on
    assert app_flags(emu) & GUILD_MEMBERS
    assert identify(emu, GUILD_MEMBERS_INTENT) is None
    set_clock(emu, "2027-01-15T00:00:00Z")   # the year is up without a new approval: off
    assert app_flags(emu) & (GUILD_MEMBERS | GUILD_MEMBERS_LIMITED) == 0
    assert identify(emu, GUILD_MEMBERS_INTENT) == 4014
    state = admin(emu, "GET", f"{PATH}/privileged-intents")["intents"]["GUILD_MEMBERS"]
    assert state["approval"]["status"] == "expired" and not state["enabled"]
    admin(emu, "PUT", f"{PATH}/privileged-intents/GUILD_MEMBERS", {"enabled": True}, status=400)


def test_reapplying_within_the_year_keeps_the_intent(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    set_clock(emu, "2026-01-01T00:00:00Z")
    admin(emu, "PUT", f"{PATH}/reach", {"users": 50_000})
    admin(emu, "POST", f"{PATH}/privileged-intents/MESSAGE_CONTENT/apply")
    admin(emu, "POST", f"{PATH}/privileged-intents/MESSAGE_CONTENT/approve")
    set_clock(emu, "2026-12-01T00:00:00Z")
    admin(emu, "POST", f"{PATH}/privileged-intents/MESSAGE_CONTENT/apply")   # pending, the approval still runs
    assert app_flags(emu) & MESSAGE_CONTENT
    admin(emu, "POST", f"{PATH}/privileged-intents/MESSAGE_CONTENT/approve")
    set_clock(emu, "2027-06-01T00:00:00Z")   # past the first year, within the second
    assert app_flags(emu) & MESSAGE_CONTENT
    assert identify(emu, MESSAGE_CONTENT_INTENT) is None
    # a denied reapplication: the running approval ends at its date, then the intent is off
    admin(emu, "POST", f"{PATH}/privileged-intents/MESSAGE_CONTENT/apply")
    denied = admin(emu, "POST", f"{PATH}/privileged-intents/MESSAGE_CONTENT/deny")["intents"]["MESSAGE_CONTENT"]
    assert denied["approval"]["status"] == "denied" and denied["enabled"]
    set_clock(emu, "2027-12-01T00:00:00Z")
    assert app_flags(emu) & MESSAGE_CONTENT == 0


def test_fixture_section_records_an_approval(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    set_clock(emu, "2026-06-01T00:00:00Z")
    response = httpx.post(f"{emu.base_url}/_emulator/seed", json={"privileged_intents": [
        {"application_id": str(APP_ID), "intent": "GUILD_PRESENCES", "approved_at": "2026-03-01T00:00:00Z"}]})
    assert response.status_code == 204, response.text
    presence = admin(emu, "GET", f"{PATH}/privileged-intents")["intents"]["GUILD_PRESENCES"]
    assert presence["flag"] == "limited"   # reach 4: the toggle's flag; the approval is kept for later
    assert presence["approval"]["expires_at"].startswith("2027-03-01")
    bad = httpx.post(f"{emu.base_url}/_emulator/seed", json={"privileged_intents": [
        {"application_id": str(APP_ID), "intent": "TYPING"}]})
    assert bad.status_code == 400 and "intent" in bad.text
