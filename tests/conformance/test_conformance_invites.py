"""Conformance of the invite operations: create (JSON and multipart with a CSV of
target users), channel and guild lists (partial roles), get, delete, and the target users (CSV,
update job, job status): every success and error body checked against the published schema."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from emulator_world import BOB, BOT_ID, BOT_TOKEN, CAROL, GUILD_ID
from platformpp.emulator import Emulator

from conformance_client import ClientFactory

BOT = f"Bot {BOT_TOKEN}"
GENERAL = 1200000000000000101
# CREATE_INSTANT_INVITE, MANAGE_CHANNELS, MANAGE_GUILD, VIEW_CHANNEL, MANAGE_ROLES
MANAGER = 1 | 16 | 32 | 1024 | (1 << 28)


def admin(emu: Emulator, method: str, path: str, body: Any = None) -> httpx.Response:
    response = httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=10)
    assert response.status_code < 300, response.text
    return response


def make_bot_a_manager(emu: Emulator) -> None:
    role = admin(emu, "POST", f"/guilds/{GUILD_ID}/roles", {"name": "Manager", "position": 5,
                                                            "permissions": str(MANAGER)}).json()
    admin(emu, "PUT", f"/guilds/{GUILD_ID}/members/{BOT_ID}/roles/{role['id']}")


@pytest.mark.covers("POST /channels/{channel_id}/invites", "GET /channels/{channel_id}/invites",
                    "GET /guilds/{guild_id}/invites", "GET /invites/{code}", "DELETE /invites/{code}")
def test_invites(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.get(f"/channels/{GENERAL}/invites").status_code == 403
    assert bot.get(f"/guilds/{GUILD_ID}/invites").status_code == 403
    make_bot_a_manager(emu)
    role = admin(emu, "POST", f"/guilds/{GUILD_ID}/roles", {"name": "Guest", "position": 1}).json()["id"]
    made = bot.post(f"/channels/{GENERAL}/invites", json={"max_age": 600, "max_uses": 2, "role_ids": [role],
                                                          "target_user_ids": [str(BOB)]})
    assert made.status_code == 200
    code = made.json()["code"]
    assert bot.post(f"/channels/{GENERAL}/invites", json={"max_uses": 1000}).status_code == 400
    assert bot.post("/channels/1/invites", json={}).status_code == 404
    assert bot.get(f"/channels/{GENERAL}/invites").status_code == 200
    assert bot.get("/channels/1/invites").status_code == 404
    assert bot.get(f"/guilds/{GUILD_ID}/invites").status_code == 200
    assert bot.get("/guilds/1/invites").status_code == 404
    assert bot.get(f"/invites/{code}", params={"with_counts": "true"}).status_code == 200
    assert bot.get("/invites/unknown").status_code == 404
    assert bot.delete(f"/invites/{code}").status_code == 200
    assert bot.delete(f"/invites/{code}").status_code == 404


@pytest.mark.covers("GET /invites/{code}/target-users", "PUT /invites/{code}/target-users",
                    "GET /invites/{code}/target-users/job-status")
def test_target_users(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    make_bot_a_manager(emu)
    csv = f"user_id\n{BOB}\n".encode()
    made = bot.post(f"/channels/{GENERAL}/invites", files={"target_users_file": ("t.csv", csv, "text/csv")},
                    data={"max_age": "0"})
    assert made.status_code == 200
    code = made.json()["code"]
    assert bot.post(f"/channels/{GENERAL}/invites",
                    files={"target_users_file": ("t.csv", b"nope\n", "text/csv")}).status_code == 400
    deadline = time.monotonic() + 10
    while bot.get(f"/invites/{code}/target-users/job-status").json()["status"] != 2:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert bot.get("/invites/unknown/target-users/job-status").status_code == 404
    listed = bot.get(f"/invites/{code}/target-users")
    assert listed.status_code == 200 and listed.text == f"user_id\n{BOB}\n"
    assert bot.get("/invites/unknown/target-users").status_code == 404
    assert bot.put(f"/invites/{code}/target-users",
                   files={"target_users_file": ("t.csv", f"{CAROL}\n".encode(), "text/csv")}).status_code == 204
    assert bot.put(f"/invites/{code}/target-users",
                   files={"target_users_file": ("t.csv", b"1,2\n", "text/csv")}).status_code == 400
