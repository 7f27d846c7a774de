"""``Emulator.admin``: the admin API as typed calls, against a real emulator; and the default world's
ids importable from ``platformpp.emulator`` as the docs' examples use them."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import httpx
import platformpp.emulator as emulator_package
import pytest
from interaction_bots import GatewayBot, Replies
from platformpp.emulator import (
    ALICE_ID,
    DEFAULT_BOT_TOKEN,
    DEFAULT_GUILD_ID,
    GENERAL_CHANNEL_ID,
    AdminError,
    Emulator,
    FaultRule,
)

BOT = {"Authorization": f"Bot {DEFAULT_BOT_TOKEN}"}


def test_the_default_world_constants_are_the_default_world() -> None:
    world = json.loads((Path(emulator_package.__file__).parent / "world" / "default.json").read_text())
    application = world["applications"][0]
    assert int(application["id"]) == emulator_package.DEFAULT_APPLICATION_ID
    assert application["bot"]["token"] == DEFAULT_BOT_TOKEN
    assert int(application["bot"]["id"]) == emulator_package.DEFAULT_BOT_ID
    assert application["client_secret"] == emulator_package.DEFAULT_CLIENT_SECRET
    users = {user["username"]: int(user["id"]) for user in world["users"]}
    assert [users["alice"], users["bob"], users["carol"], users["dave"]] == [
        ALICE_ID, emulator_package.BOB_ID, emulator_package.CAROL_ID, emulator_package.DAVE_ID]
    guild = world["guilds"][0]
    channels = {channel["name"]: int(channel["id"]) for channel in guild["channels"]}
    assert int(guild["id"]) == DEFAULT_GUILD_ID
    assert (channels["general"], channels["Lounge"]) == (GENERAL_CHANNEL_ID, emulator_package.LOUNGE_CHANNEL_ID)


def test_seed_snapshot_restore_and_reset(emu: Emulator) -> None:
    admin = emu.admin
    assert admin.health()["status"] == "ok"
    admin.seed({"users": [{"id": "5151", "username": "seeded"}]})
    assert httpx.get(f"{emu.api_base}/users/5151", headers=BOT).json()["username"] == "seeded"
    saved = admin.snapshot()
    admin.reset()
    assert httpx.get(f"{emu.api_base}/users/5151", headers=BOT).status_code == 404
    admin.restore(saved)
    assert httpx.get(f"{emu.api_base}/users/5151", headers=BOT).status_code == 200
    admin.reset(empty=True)
    assert httpx.get(f"{emu.api_base}/users/@me", headers=BOT).status_code == 401
    with pytest.raises(AdminError) as refused:
        admin.seed({"users": [{"username": 5}]})
    assert refused.value.status == 400 and "users" in refused.value.body["errors"]
    assert "secret" not in repr(admin)


def test_clock_set_and_advance(emu: Emulator) -> None:
    admin = emu.admin
    start = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
    state = admin.set_clock(start, frozen=True)
    assert state.now == start and state.frozen and not state.real_time
    moved = admin.advance_clock(timedelta(hours=2))
    assert moved.now == start + timedelta(hours=2) and moved.frozen
    assert admin.advance_clock(30).now == start + timedelta(hours=2, seconds=30)
    with pytest.raises(ValueError, match="aware"):
        admin.set_clock(datetime(2026, 3, 1))
    assert admin.set_clock(None).real_time


def test_a_fault_makes_the_next_matching_request_fail_until_cleared(emu: Emulator) -> None:
    admin = emu.admin
    admin.add_fault(FaultRule("/api/v10/users/*", method="GET", error_rate=1.0, error_status=503))
    assert [rule.error_status for rule in admin.faults()] == [503]
    assert httpx.get(f"{emu.api_base}/users/@me", headers=BOT).status_code == 503
    assert httpx.get(f"{emu.api_base}/gateway").status_code == 200          # another path: unaffected
    admin.clear_faults()
    assert admin.faults() == []
    assert httpx.get(f"{emu.api_base}/users/@me", headers=BOT).status_code == 200


def test_the_request_log_is_queried_by_method_path_and_status(emu: Emulator) -> None:
    admin = emu.admin
    admin.clear_requests()
    httpx.get(f"{emu.api_base}/users/@me", headers=BOT)
    httpx.get(f"{emu.api_base}/users/1", headers=BOT)
    found = admin.requests(method="get", path="/api/v10/users/*", status=200)
    assert [entry["path"] for entry in found] == ["/api/v10/users/@me"]
    assert found[0]["authorization"] == "Bot [REDACTED]"
    assert [entry["status"] for entry in admin.requests(path="/api/v10/users/1")] == [404]


def test_acting_as_users_post_react_and_run_a_command(emu: Emulator) -> None:
    admin = emu.admin
    message = admin.post_message(GENERAL_CHANNEL_ID, ALICE_ID, "hello from alice")
    assert message["author"]["id"] == str(ALICE_ID) and message["content"] == "hello from alice"
    admin.react(GENERAL_CHANNEL_ID, message["id"], ALICE_ID, "👍")
    read = httpx.get(f"{emu.api_base}/channels/{GENERAL_CHANNEL_ID}/messages/{message['id']}", headers=BOT).json()
    assert read["reactions"][0]["emoji"]["name"] == "👍" and read["reactions"][0]["count"] == 1
    with pytest.raises(AdminError) as refused:
        admin.post_message(GENERAL_CHANNEL_ID, 42, "nobody")
    assert refused.value.status == 400 and "author_id" in refused.value.body["errors"]

    created = httpx.post(f"{emu.api_base}/applications/{emulator_package.DEFAULT_APPLICATION_ID}/commands",
                         headers=BOT, json={"name": "ping", "description": "answers pong"})
    assert created.status_code in (200, 201)
    replies = Replies()
    replies.next = lambda payload: {"type": 4, "data": {"content": f"pong to {payload['member']['user']['id']}"}}
    with GatewayBot(emu.base_url, replies):
        alice = admin.as_user(ALICE_ID, channel_id=GENERAL_CHANNEL_ID)
        try:
            answer = alice.command("ping")
        finally:
            alice.close()
    assert answer.message is not None and answer.message["content"] == f"pong to {ALICE_ID}"
