"""Setting threads up: the ``threads`` fixture section (strict, errors naming the field, nothing loaded on
a bad one) and the admin API acting as users (a user starts a thread or a forum post, joins, leaves)."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from channel_helpers import GENERAL, Permission, grant_bot
from platformpp.emulator import Emulator
from platformpp.emulator.core.fixtures import FixtureError, load_fixture_or_raise
from social_helpers import ALICE, BOB, BOT_ID, BOT_TOKEN, CAROL, GUILD_ID, GatewayClient, bot

GUILDS, GUILD_MEMBERS = 1 << 0, 1 << 1


def _admin(emu: Emulator, method: str, path: str, body: object = None) -> httpx.Response:
    return httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=10)


def _members_may_start_private_threads(emu: Emulator) -> None:
    everyone = emu.state.db.query_one("SELECT permissions FROM roles WHERE id = ?", (GUILD_ID,))
    emu.state.db.execute("UPDATE roles SET permissions = ? WHERE id = ?",
                         (str(int(everyone["permissions"]) | Permission.CREATE_PRIVATE_THREADS), GUILD_ID))


def test_threads_load_from_a_fixture(emu: Emulator) -> None:
    load_fixture_or_raise(emu.state, {"threads": [
        {"id": "9100", "parent_id": str(GENERAL), "name": "planning", "owner_id": str(ALICE),
         "members": [str(BOB), str(BOT_ID)], "auto_archive_duration": 1440},
        {"id": "9101", "parent_id": str(GENERAL), "name": "old", "type": 12, "owner_id": str(ALICE),
         "archived": True, "invitable": False}]})
    grant_bot(emu, Permission.MANAGE_THREADS)
    with bot(emu) as http:
        planning = http.get("/channels/9100").json()
        assert planning["member_count"] == 3 and planning["thread_metadata"]["auto_archive_duration"] == 1440
        assert [t["id"] for t in http.get(f"/guilds/{GUILD_ID}/threads/active").json()["threads"]] == ["9100"]
        private = http.get(f"/channels/{GENERAL}/threads/archived/private").json()["threads"]
        assert [(t["id"], t["thread_metadata"]["invitable"]) for t in private] == [("9101", False)]


def test_a_bad_thread_fixture_names_the_field_and_loads_nothing(emu: Emulator) -> None:
    with pytest.raises(FixtureError) as failure:
        load_fixture_or_raise(emu.state, {"threads": [
            {"id": "9200", "parent_id": str(GENERAL), "name": "fine", "owner_id": str(ALICE)},
            {"id": "9201", "parent_id": str(GENERAL), "name": "x", "owner_id": "42", "colour": 1}]})
    assert set(failure.value.errors["threads"]["1"]) == {"owner_id", "colour"}
    assert emu.state.db.query_one("SELECT 1 FROM channels WHERE id = 9200") is None


def test_users_start_join_and_leave_threads_through_the_admin_api(emu: Emulator) -> None:
    emu.state.db.execute("UPDATE applications SET flags = flags | ? WHERE id = 1000000000000000000",
                         (1 << 15,))
    _members_may_start_private_threads(emu)

    async def scenario() -> None:
        session = await GatewayClient.connect(emu)
        await session.identify(BOT_TOKEN, intents=GUILDS | GUILD_MEMBERS)
        await session.dispatch("GUILD_CREATE")
        started = await asyncio.to_thread(_admin, emu, "POST", f"/channels/{GENERAL}/threads",
                                          {"author_id": str(BOB), "name": "bob's", "type": 12})
        assert started.status_code == 201, started.text
        thread = started.json()
        assert thread["owner_id"] == str(BOB) and thread["member"]["user_id"] == str(BOB)
        await session.no_dispatch("THREAD_CREATE")   # private, the bot is not in it
        joined = await asyncio.to_thread(_admin, emu, "PUT",
                                         f"/channels/{thread['id']}/thread-members/{CAROL}")
        assert joined.status_code == 403   # Carol cannot see a private thread she is not in
        with bot(emu) as http:
            hidden = await asyncio.to_thread(http.get, f"/channels/{thread['id']}")
        assert hidden.status_code == 403
        refused = await asyncio.to_thread(_admin, emu, "POST", f"/channels/{GENERAL}/threads",
                                          {"author_id": "42", "name": "x"})
        assert refused.status_code == 400 and "author_id" in refused.json()["errors"]
        left = await asyncio.to_thread(_admin, emu, "DELETE",
                                       f"/channels/{thread['id']}/thread-members/{BOB}")
        assert left.status_code == 204
        public = (await asyncio.to_thread(_admin, emu, "POST", f"/channels/{GENERAL}/threads",
                                          {"author_id": str(ALICE), "name": "open", "type": 11})).json()
        assert (await session.dispatch("THREAD_CREATE"))["d"]["owner_id"] == str(ALICE)
        joined = await asyncio.to_thread(_admin, emu, "PUT",
                                         f"/channels/{public['id']}/thread-members/{CAROL}")
        assert joined.status_code == 204
        update = (await session.dispatch("THREAD_MEMBERS_UPDATE"))["d"]
        assert update["id"] == public["id"] and update["added_members"][0]["user_id"] == str(CAROL)
        await session.close()

    asyncio.run(scenario())


def test_a_member_who_leaves_the_guild_leaves_its_threads(emu: Emulator) -> None:
    load_fixture_or_raise(emu.state, {"threads": [
        {"id": "9300", "parent_id": str(GENERAL), "name": "crew", "owner_id": str(ALICE),
         "members": [str(CAROL), str(BOT_ID)]}]})
    grant_bot(emu, Permission.KICK_MEMBERS)
    with bot(emu) as http:
        assert http.delete(f"/guilds/{GUILD_ID}/members/{CAROL}").status_code == 204
        assert http.get("/channels/9300").json()["member_count"] == 2
        assert http.get(f"/channels/9300/thread-members/{CAROL}").status_code == 404


def test_a_bot_added_to_a_private_thread_gets_it(emu: Emulator) -> None:
    _members_may_start_private_threads(emu)
    grant_bot(emu, Permission.MANAGE_THREADS)

    async def scenario() -> None:
        session = await GatewayClient.connect(emu)
        await session.identify(BOT_TOKEN, intents=GUILDS)
        await session.dispatch("GUILD_CREATE")
        thread = (await asyncio.to_thread(_admin, emu, "POST", f"/channels/{GENERAL}/threads",
                                          {"author_id": str(BOB), "name": "bob's", "type": 12})).json()
        await session.dispatch("THREAD_CREATE")   # seen through MANAGE_THREADS
        with bot(emu) as http:
            assert (await asyncio.to_thread(http.put, f"/channels/{thread['id']}/thread-members/@me")
                    ).status_code == 204
        added = (await session.dispatch("THREAD_CREATE"))["d"]
        assert added["id"] == thread["id"] and added["member"]["user_id"] == str(BOT_ID)
        assert "newly_created" not in added and added["member_count"] == 2
        await session.dispatch("THREAD_MEMBER_UPDATE")
        await session.close()

    asyncio.run(scenario())
