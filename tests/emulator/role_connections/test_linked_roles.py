"""Linked roles: a role linked to an application's connection with required values; whether a
member qualifies (integer ≤ ≥ = ≠, datetime at or before / at or after N days ago, boolean = ≠);
a member takes the role only when they qualify; the role's ``tags.guild_connections``; the
``role_connections`` fixture section."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from channel_helpers import set_clock
from platformpp.emulator import Emulator
from platformpp.emulator.core.fixtures import FixtureError, load_fixture_or_raise
from social_helpers import ALICE, APP_ID, BOB, BOT_TOKEN, GUILD_ID, GatewayClient, bot

ROLE = 1200000000000000010   # the default world's Moderator role
RECORDS = [{"type": 2, "key": "level", "name": "Level", "description": "At least this level"},
           {"type": 1, "key": "deaths", "name": "Deaths", "description": "At most this many deaths"},
           {"type": 3, "key": "class", "name": "Class", "description": "This class"},
           {"type": 6, "key": "joined", "name": "Joined", "description": "Joined within N days"},
           {"type": 8, "key": "banned", "name": "Not banned", "description": "Not banned"}]
GUILD_MEMBERS = 1 << 1
GUILD_MEMBERS_LIMITED = 1 << 15   # the application flag that allows the GUILD_MEMBERS intent


def admin(emu: Emulator, method: str, path: str, **kwargs: Any) -> httpx.Response:
    return httpx.request(method, f"{emu.base_url}/_emulator{path}", timeout=10, **kwargs)


def connect(emu: Emulator, user_id: int, metadata: dict[str, Any]) -> None:
    response = admin(emu, "PUT", f"/users/{user_id}/applications/{APP_ID}/role-connection",
                     json={"platform_name": "Game", "metadata": metadata})
    assert response.status_code == 200, response.text


@pytest.fixture
def emu(platformpp_emulator: Emulator) -> Emulator:
    set_clock(platformpp_emulator, "2026-03-01T00:00:00Z")
    with bot(platformpp_emulator) as http:
        assert http.put(f"/applications/{APP_ID}/role-connections/metadata", json=RECORDS).status_code == 200
    return platformpp_emulator


def link(emu: Emulator, requirements: dict[str, int]) -> None:
    response = admin(emu, "PUT", f"/guilds/{GUILD_ID}/roles/{ROLE}/connection",
                     json={"application_id": str(APP_ID), "requirements": requirements})
    assert response.status_code == 200, response.text
    assert response.json()["requirements"] == requirements


def qualifies(emu: Emulator, user_id: int) -> bool:
    roles = admin(emu, "GET", f"/guilds/{GUILD_ID}/members/{user_id}/linked-roles").json()
    return {r["role_id"]: r["qualifies"] for r in roles}[str(ROLE)]


@pytest.mark.parametrize(("requirements", "metadata", "expected"), [
    ({"level": 10}, {"level": 10}, True),
    ({"level": 10}, {"level": 9}, False),
    ({"deaths": 5}, {"deaths": 5}, True),
    ({"deaths": 5}, {"deaths": 6}, False),
    ({"class": 3}, {"class": 3}, True),
    ({"class": 3}, {"class": 4}, False),
    ({"joined": 30}, {"joined": "2026-02-15T00:00:00Z"}, True),     # within the last 30 days
    ({"joined": 30}, {"joined": "2026-01-15T00:00:00Z"}, False),
    ({"banned": 1}, {"banned": 0}, True),
    ({"banned": 1}, {"banned": 1}, False),
    ({"level": 10}, {}, False),                                     # no value for a required key
    ({}, {}, True),                                                 # any connection to the application
])
def test_requirements_compare_as_the_record_type_says(emu: Emulator, requirements: dict[str, int],
                                                      metadata: dict[str, Any], expected: bool) -> None:
    link(emu, requirements)
    assert qualifies(emu, BOB) is False   # no connection at all
    connect(emu, BOB, metadata)
    assert qualifies(emu, BOB) is expected


def test_a_member_takes_a_linked_role_only_when_they_qualify(emu: Emulator) -> None:
    link(emu, {"level": 10})
    connect(emu, BOB, {"level": 3})
    refused = admin(emu, "PUT", f"/guilds/{GUILD_ID}/members/{BOB}/linked-roles/{ROLE}")
    assert refused.status_code == 403 and refused.json()["code"] == 50013
    with bot(emu) as http:
        assert str(ROLE) not in http.get(f"/guilds/{GUILD_ID}/members/{BOB}").json()["roles"]
    emu.state.db.execute("UPDATE applications SET flags = flags | ? WHERE id = ?", (GUILD_MEMBERS_LIMITED, APP_ID))

    async def scenario() -> dict[str, Any]:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILD_MEMBERS)   # enabled for the app (limited) below
        connect(emu, BOB, {"level": 12})
        taken = admin(emu, "PUT", f"/guilds/{GUILD_ID}/members/{BOB}/linked-roles/{ROLE}")
        assert taken.status_code == 200 and str(ROLE) in taken.json()["roles"]
        update = (await client.dispatch("GUILD_MEMBER_UPDATE"))["d"]
        await client.close()
        return update

    update = asyncio.run(scenario())
    assert update["user"]["id"] == str(BOB) and str(ROLE) in update["roles"]


def test_a_linked_role_is_tagged_and_unlinking_removes_the_tag(emu: Emulator) -> None:
    link(emu, {"level": 1})
    with bot(emu) as http:
        role = next(r for r in http.get(f"/guilds/{GUILD_ID}/roles").json() if r["id"] == str(ROLE))
        assert "guild_connections" in role["tags"] and role["tags"]["guild_connections"] is None
        assert admin(emu, "DELETE", f"/guilds/{GUILD_ID}/roles/{ROLE}/connection").status_code == 204
        role = next(r for r in http.get(f"/guilds/{GUILD_ID}/roles").json() if r["id"] == str(ROLE))
        assert "guild_connections" not in role.get("tags", {})
    assert admin(emu, "DELETE", f"/guilds/{GUILD_ID}/roles/{ROLE}/connection").status_code == 404
    not_linked = admin(emu, "PUT", f"/guilds/{GUILD_ID}/members/{ALICE}/linked-roles/{ROLE}")
    assert not_linked.status_code == 404


def test_requirements_must_name_the_applications_records(emu: Emulator) -> None:
    refused = admin(emu, "PUT", f"/guilds/{GUILD_ID}/roles/{ROLE}/connection",
                    json={"application_id": str(APP_ID), "requirements": {"nope": 1, "level": "ten"}})
    assert refused.status_code == 400
    assert set(refused.json()["errors"]["requirements"]) == {"nope", "level"}
    assert admin(emu, "GET", f"/guilds/{GUILD_ID}/members/{ALICE}/linked-roles").json() == []


def test_the_fixture_section_sets_records_connections_and_linked_roles(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    load_fixture_or_raise(emu.state, {"role_connections": [{
        "application_id": str(APP_ID), "metadata": RECORDS[:1],
        "users": [{"user_id": str(BOB), "platform_name": "Game", "metadata": {"level": 20}}],
        "linked_roles": [{"role_id": str(ROLE), "requirements": {"level": 15}}]}]})
    with bot(emu) as http:
        assert [r["key"] for r in http.get(f"/applications/{APP_ID}/role-connections/metadata").json()] == ["level"]
    assert qualifies(emu, BOB) is True and qualifies(emu, ALICE) is False
    with pytest.raises(FixtureError) as bad:
        load_fixture_or_raise(emu.state, {"role_connections": [{
            "application_id": str(APP_ID), "metadata": [{"type": 9, "key": "x", "name": "n", "description": "d"}],
            "colour": 1}]})
    assert "role_connections.0.metadata.0.type" in str(bad.value) and "role_connections.0.colour" in str(bad.value)
