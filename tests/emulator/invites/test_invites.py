"""Guild invites: create with settings, target users (list or streamed CSV) and roles;
partial roles in lists; get with counts; expiry and max uses on the emulator clock; accepting (user
route and admin API) with the target restriction and roles granted; the target-users job and CSV;
INVITE_CREATE / INVITE_DELETE and GUILD_MEMBER_ADD on the Gateway; nothing created on bad input."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any

import httpx
import pytest
from invite_helpers import (
    GENERAL,
    GUILD_INVITES,
    GUILD_MEMBERS,
    PARTIAL_ROLE_FIELDS,
    admin,
    grantable_role,
    is_member,
    leave,
    make_manager,
)
from platformpp.emulator import Emulator
from social_helpers import (
    ALICE,
    APP_ID,
    BOB,
    BOT_ID,
    BOT_TOKEN,
    CAROL,
    DAVE,
    GUILD_ID,
    GatewayClient,
    api,
    bot,
    user_token,
)


def csv_upload(text: str, **fields: str) -> dict[str, Any]:
    return {"files": {"target_users_file": ("targets.csv", text.encode(), "text/csv")}, "data": fields}


def wait_job(http: httpx.Client, code: str) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        status = http.get(f"/invites/{code}/target-users/job-status").json()
        if status["status"] in (2, 3):
            return status
        time.sleep(0.02)
    raise AssertionError("the job did not finish")


def test_create_lists_and_partial_roles(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as http:
        assert http.get(f"/channels/{GENERAL}/invites").status_code == 403   # needs MANAGE_CHANNELS
        assert http.get(f"/guilds/{GUILD_ID}/invites").status_code == 403    # needs MANAGE_GUILD
        make_manager(emu)
        role = grantable_role(emu)
        made = http.post(f"/channels/{GENERAL}/invites",
                         json={"max_age": 600, "max_uses": 3, "temporary": True, "role_ids": [role]})
        assert made.status_code == 200, made.text
        invite = made.json()
        assert len(invite["code"]) == 10 and invite["max_age"] == 600 and invite["max_uses"] == 3
        assert invite["uses"] == 0 and invite["temporary"] is True and invite["inviter"]["id"] == str(BOT_ID)
        assert invite["expires_at"] is not None and invite["channel"]["id"] == str(GENERAL)
        for listed in (http.get(f"/channels/{GENERAL}/invites").json(), http.get(f"/guilds/{GUILD_ID}/invites").json()):
            assert [i["code"] for i in listed] == [invite["code"]]
            (shown,) = listed[0]["roles"]
            assert set(shown) == PARTIAL_ROLE_FIELDS and shown["id"] == role and shown["unicode_emoji"] == "🎟"
        forever = http.post(f"/channels/{GENERAL}/invites", json={"max_age": 0}).json()
        assert forever["expires_at"] is None and forever["max_uses"] == 0
        got = http.get(f"/invites/{invite['code']}", params={"with_counts": "true"}).json()
        assert got["approximate_member_count"] == 5 and "approximate_presence_count" in got
        assert "approximate_member_count" not in http.get(f"/invites/{invite['code']}").json()


def test_bad_input_creates_nothing(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_manager(emu)
    with bot(emu) as http:
        bad = http.post(f"/channels/{GENERAL}/invites", json={"max_age": -1, "max_uses": 101})
        assert bad.status_code == 400 and {"max_age", "max_uses"} <= set(bad.json()["errors"])
        unknown = http.post(f"/channels/{GENERAL}/invites", json={"target_user_ids": [str(BOB), "42"]})
        assert unknown.status_code == 400 and "1" in unknown.json()["errors"]["target_user_ids"]
        no_role = http.post(f"/channels/{GENERAL}/invites", json={"role_ids": ["7"]})
        assert no_role.status_code == 400 and "0" in no_role.json()["errors"]["role_ids"]
        high = admin(emu, "POST", f"/guilds/{GUILD_ID}/roles", {"name": "High", "position": 9}).json()["id"]
        above = http.post(f"/channels/{GENERAL}/invites", json={"role_ids": [high]})
        assert above.status_code == 403 and above.json()["code"] == 50013
        csv = http.post(f"/channels/{GENERAL}/invites", **csv_upload(f"user_id\n{BOB}\nnot-an-id\n"))
        assert csv.status_code == 400
        assert "line 3" in csv.json()["errors"]["target_users_file"]["_errors"][0]["message"]
        ghost = http.post(f"/channels/{GENERAL}/invites", **csv_upload(f"{BOB}\n\n99\n"))
        assert ghost.status_code == 400
        assert "line 3" in ghost.json()["errors"]["target_users_file"]["_errors"][0]["message"]
        assert http.get(f"/guilds/{GUILD_ID}/invites").json() == []
    assert emu.state.db.query_one("SELECT COUNT(*) AS n FROM invite_target_uploads")["n"] == 0


def test_accepting_follows_targets_uses_expiry_and_grants_roles(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_manager(emu)
    role = grantable_role(emu)
    for user in (BOB, CAROL, DAVE):
        leave(emu, user)
    with bot(emu) as http:
        code = http.post(f"/channels/{GENERAL}/invites",
                         json={"max_uses": 2, "max_age": 3600, "role_ids": [role],
                               "target_user_ids": [str(BOB), str(CAROL)]}).json()["code"]
    with api(emu, user_token(emu, DAVE)) as dave:
        refused = dave.post(f"/invites/{code}")
        assert refused.status_code == 403 and not is_member(emu, DAVE)
    with api(emu, user_token(emu, BOB)) as bob:
        joined = bob.post(f"/invites/{code}")
        assert joined.status_code == 200 and joined.json()["uses"] == 1
    member = emu.state.db.query_one("SELECT roles FROM members WHERE guild_id = ? AND user_id = ?", (GUILD_ID, BOB))
    assert role in member["roles"]
    accepted = httpx.post(f"{emu.base_url}/_emulator/invites/{code}/accept", json={"user_id": str(CAROL)})
    assert accepted.status_code == 200 and accepted.json()["uses"] == 2 and is_member(emu, CAROL)
    with bot(emu) as http:   # used up: gone
        assert http.get(f"/invites/{code}").json()["code"] == 10006
        timed = http.post(f"/channels/{GENERAL}/invites", json={"max_age": 60}).json()["code"]
    now = emu.state.clock.now()
    admin(emu, "PUT", "/clock", {"now": (now + timedelta(seconds=61)).isoformat()})
    with api(emu, user_token(emu, DAVE)) as dave:
        assert dave.get(f"/invites/{timed}").status_code == 404
        assert dave.post(f"/invites/{timed}").status_code == 404
    assert not is_member(emu, DAVE)


def test_target_users_job_csv_and_single_and_bulk_changes(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_manager(emu)
    with bot(emu) as http:
        code = http.post(f"/channels/{GENERAL}/invites",
                         **csv_upload(f"user_id\r\n{BOB}\r\n{CAROL}\r\n", max_uses="5")).json()["code"]
        status = wait_job(http, code)
        assert status["status"] == 2 and status["total_users"] == 2 and status["processed_users"] == 2
        assert status["completed_at"] is not None and status["error_message"] is None
        got = http.get(f"/invites/{code}/target-users")
        assert got.headers["content-type"].startswith("text/csv")
        assert got.text == f"user_id\n{BOB}\n{CAROL}\n"
        assert http.put(f"/invites/{code}/target-users",
                        files={"target_users_file": ("t.csv", f"{DAVE}\n".encode())}).status_code == 204
        assert wait_job(http, code)["status"] == 2
        assert http.get(f"/invites/{code}/target-users").text == f"user_id\n{DAVE}\n"
        # a failed job names the line and keeps the list
        assert http.put(f"/invites/{code}/target-users",
                        files={"target_users_file": ("t.csv", f"{BOB}\n123\n".encode())}).status_code == 204
        failed = wait_job(http, code)
        assert failed["status"] == 3 and "line 2" in failed["error_message"]
        assert http.get(f"/invites/{code}/target-users").text == f"user_id\n{DAVE}\n"
        bad = http.put(f"/invites/{code}/target-users", files={"target_users_file": ("t.csv", b"x\n")})
        assert bad.status_code == 400
        assert http.put(f"/invites/{code}/target-users/{ALICE}").status_code == 204
        assert http.delete(f"/invites/{code}/target-users/{DAVE}").status_code == 204
        assert http.post(f"/invites/{code}/target-users/bulk-add",
                         json={"user_ids": [str(BOB), str(CAROL)]}).status_code == 204
        assert http.post(f"/invites/{code}/target-users/bulk-delete",
                         json={"user_ids": [str(CAROL)]}).status_code == 204
        assert http.get(f"/invites/{code}/target-users").text == f"user_id\n{ALICE}\n{BOB}\n"
        assert http.post(f"/invites/{code}/target-users/bulk-add", json={"user_ids": "x"}).status_code == 400
        assert http.put(f"/invites/{code}/target-users/42").status_code == 404


def test_invite_and_member_dispatches(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_manager(emu)
    leave(emu, DAVE)
    emu.state.db.execute("UPDATE applications SET flags = flags | ? WHERE id = ?", (1 << 15, APP_ID))

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILD_INVITES | GUILD_MEMBERS | 1)
        await client.dispatch("GUILD_CREATE")
        with bot(emu) as http:
            invite = (await asyncio.to_thread(http.post, f"/channels/{GENERAL}/invites", json={})).json()
        created = (await client.dispatch("INVITE_CREATE"))["d"]
        assert created["code"] == invite["code"] and created["channel_id"] == str(GENERAL)
        await asyncio.to_thread(httpx.post, f"{emu.base_url}/_emulator/invites/{invite['code']}/accept",
                                json={"user_id": str(DAVE)})
        added = (await client.dispatch("GUILD_MEMBER_ADD"))["d"]
        assert added["user"]["id"] == str(DAVE)
        with bot(emu) as http:
            assert (await asyncio.to_thread(http.delete, f"/invites/{invite['code']}")).status_code == 200
        deleted = (await client.dispatch("INVITE_DELETE"))["d"]
        assert deleted == {"channel_id": str(GENERAL), "guild_id": str(GUILD_ID), "code": invite["code"]}
        await client.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("who", ["bob", "carol"])
def test_only_managers_read_target_users(platformpp_emulator: Emulator, who: str) -> None:
    emu = platformpp_emulator
    make_manager(emu)
    with bot(emu) as http:
        code = http.post(f"/channels/{GENERAL}/invites", json={"target_user_ids": [str(BOB)]}).json()["code"]
    admin(emu, "POST", f"/guilds/{GUILD_ID}/roles", {"name": "x"})   # the bot stays the inviter
    with api(emu, user_token(emu, BOB if who == "bob" else CAROL)) as user:
        assert user.get(f"/invites/{code}/target-users").status_code in (401, 403)
