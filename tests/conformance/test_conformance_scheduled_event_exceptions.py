"""Conformance of recurring scheduled events' operations: recurrence exceptions, user counts per
occurrence and the users of one occurrence; success and error bodies."""

from __future__ import annotations

import httpx
import pytest
from conformance_client import ClientFactory
from emulator_world import ALICE, BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator

BOT = f"Bot {BOT_TOKEN}"
BOT_ROLE = 1200000000000000011
MANAGE_EVENTS, CREATE_EVENTS = 1 << 33, 1 << 44
EVENTS = f"/guilds/{GUILD_ID}/scheduled-events"
START = "2026-06-01T18:00:00Z"                                  # a Monday
SECOND_ID = str((1780941600000 - 1420070400000) << 22)          # 2026-06-08T18:00:00Z
UNKNOWN = 1


def _weekly_event(emu: Emulator, bot: httpx.Client) -> str:
    httpx.put(f"{emu.base_url}/_emulator/clock", json={"now": "2026-03-01T00:00:00Z", "frozen": True})
    emu.state.db.execute("UPDATE roles SET permissions = ? WHERE id = ?", (str(MANAGE_EVENTS | CREATE_EVENTS), BOT_ROLE))
    created = bot.post(EVENTS, json={
        "name": "Raid night", "privacy_level": 2, "entity_type": 3, "scheduled_start_time": START,
        "scheduled_end_time": "2026-06-01T20:00:00Z", "entity_metadata": {"location": "The keep"},
        "recurrence_rule": {"start": START, "frequency": 2, "by_weekday": [0]}})
    assert created.status_code == 200, created.text
    return str(created.json()["id"])


@pytest.mark.covers("POST /guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}/exceptions",
                    "PATCH /guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}/exceptions/{exception_id}",
                    "DELETE /guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}/exceptions/{exception_id}")
def test_recurrence_exceptions(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    event = _weekly_event(emu, bot)
    url = f"{EVENTS}/{event}/exceptions"
    assert bot.post(url, json={"original_scheduled_start_time": "2026-06-08T18:00:00Z",
                               "is_canceled": True}).status_code == 200
    assert bot.post(url, json={"original_scheduled_start_time": "2026-06-09T18:00:00Z"}).status_code == 400
    assert bot.get(f"{EVENTS}/{event}").json()["guild_scheduled_event_exceptions"][0]["is_canceled"] is True
    assert bot.patch(f"{url}/{SECOND_ID}", json={"scheduled_start_time": "2026-06-08T19:00:00Z"}).status_code == 200
    assert bot.patch(f"{url}/{SECOND_ID}", json={"scheduled_end_time": "2026-06-08T18:30:00Z"}).status_code == 400
    assert bot.delete(f"{url}/{SECOND_ID}").status_code == 204
    assert bot.delete(f"{url}/{SECOND_ID}").status_code == 404


@pytest.mark.covers("GET /guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}/users/counts",
                    "GET /guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}"
                    "/{guild_scheduled_event_exception_id}/users")
def test_occurrence_counts_and_users(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    event = _weekly_event(emu, bot)
    httpx.put(f"{emu.base_url}/_emulator/guilds/{GUILD_ID}/scheduled-events/{event}/users/{ALICE}")
    counts = bot.get(f"{EVENTS}/{event}/users/counts", params={"guild_scheduled_event_exception_ids": SECOND_ID})
    assert counts.status_code == 200 and counts.json()["guild_scheduled_event_exception_counts"] == {SECOND_ID: 1}
    assert bot.get(f"{EVENTS}/{UNKNOWN}/users/counts").status_code == 404
    users = bot.get(f"{EVENTS}/{event}/{SECOND_ID}/users", params={"with_member": "true"})
    assert users.status_code == 200 and [u["user_id"] for u in users.json()] == [str(ALICE)]
    assert bot.get(f"{EVENTS}/{event}/{SECOND_ID}/users", params={"limit": 101}).status_code == 400
