"""Recurrence exceptions (an occurrence moved or canceled) and interest in one occurrence: the event
object's ``guild_scheduled_event_exceptions``, GUILD_SCHEDULED_EVENT_UPDATE, audit log entries 200–202,
user counts per occurrence and the users of one occurrence."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from channel_helpers import grant_bot, set_clock
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission
from social_helpers import ALICE, BOB, BOT_TOKEN, CAROL, GUILD_ID, GatewayClient, bot

EVENTS = f"/guilds/{GUILD_ID}/scheduled-events"
START = "2026-06-01T18:00:00Z"               # a Monday; the event recurs every Monday
SECOND = "2026-06-08T18:00:00+00:00"         # the second occurrence
SECOND_ID = str((1780941600000 - 1420070400000) << 22)
THIRD_ID = str((1781546400000 - 1420070400000) << 22)
GUILD_SCHEDULED_EVENTS = 1 << 16


@pytest.fixture
def emu(platformpp_emulator: Emulator) -> Emulator:
    set_clock(platformpp_emulator, "2026-03-01T00:00:00Z")
    grant_bot(platformpp_emulator, Permission.CREATE_EVENTS | Permission.MANAGE_EVENTS | Permission.VIEW_AUDIT_LOG)
    return platformpp_emulator


def weekly(http: httpx.Client) -> dict[str, Any]:
    created = http.post(EVENTS, json={
        "name": "Raid night", "privacy_level": 2, "entity_type": 3, "scheduled_start_time": START,
        "scheduled_end_time": "2026-06-01T20:00:00Z", "entity_metadata": {"location": "The keep"},
        "recurrence_rule": {"start": START, "frequency": 2, "by_weekday": [0]}})
    assert created.status_code == 200, created.text
    return created.json()


def interest(emu: Emulator, event_id: str, user_id: int, occurrence: str | None = None, **body: Any) -> None:
    path = f"{event_id}/{occurrence}/users/{user_id}" if occurrence else f"{event_id}/users/{user_id}"
    response = httpx.put(f"{emu.base_url}/_emulator/guilds/{GUILD_ID}/scheduled-events/{path}", json=body)
    assert response.status_code == 204, response.text


def test_exceptions_move_and_cancel_occurrences(emu: Emulator) -> None:
    with bot(emu) as http:
        event = weekly(http)
        url = f"{EVENTS}/{event['id']}/exceptions"
        moved = http.post(url, json={"original_scheduled_start_time": SECOND,
                                     "scheduled_start_time": "2026-06-09T18:00:00Z"})
        assert moved.status_code == 200, moved.text
        assert moved.json() == {"event_id": event["id"], "event_exception_id": SECOND_ID,
                                "scheduled_start_time": "2026-06-09T18:00:00.000000+00:00",
                                "scheduled_end_time": None, "is_canceled": False}
        canceled = http.patch(f"{url}/{SECOND_ID}", json={"is_canceled": True}).json()
        assert canceled["is_canceled"] is True and canceled["scheduled_start_time"] == moved.json()["scheduled_start_time"]
        assert http.get(f"{EVENTS}/{event['id']}").json()["guild_scheduled_event_exceptions"] == [canceled]
        assert http.delete(f"{url}/{SECOND_ID}").status_code == 204
        assert http.get(f"{EVENTS}/{event['id']}").json()["guild_scheduled_event_exceptions"] == []
        gone = http.delete(f"{url}/{SECOND_ID}")
        assert gone.status_code == 404 and gone.json()["code"] == 10070


def test_bad_exceptions_are_refused_and_change_nothing(emu: Emulator) -> None:
    with bot(emu) as http:
        event = weekly(http)
        url = f"{EVENTS}/{event['id']}/exceptions"
        for body, field in [({}, "original_scheduled_start_time"),
                            ({"original_scheduled_start_time": "2026-06-09T18:00:00Z"}, "original_scheduled_start_time"),
                            ({"original_scheduled_start_time": "2026-06-08T19:00:00Z"}, "original_scheduled_start_time"),
                            ({"original_scheduled_start_time": "2026-05-25T18:00:00Z"}, "original_scheduled_start_time"),
                            ({"original_scheduled_start_time": "soon"}, "original_scheduled_start_time"),
                            ({"original_scheduled_start_time": SECOND, "is_canceled": "yes"}, "is_canceled"),
                            ({"original_scheduled_start_time": SECOND, "scheduled_start_time": "2026-06-09T18:00:00Z",
                              "scheduled_end_time": "2026-06-09T17:00:00Z"}, "scheduled_end_time")]:
            refused = http.post(url, json=body)
            assert refused.status_code == 400 and field in refused.json()["errors"], (body, refused.text)
        once = http.post(EVENTS, json={"name": "Once", "privacy_level": 2, "entity_type": 3,
                                       "scheduled_start_time": START, "scheduled_end_time": "2026-06-01T20:00:00Z",
                                       "entity_metadata": {"location": "x"}}).json()
        not_recurring = http.post(f"{EVENTS}/{once['id']}/exceptions", json={"original_scheduled_start_time": START})
        assert not_recurring.status_code == 400 and "recurrence_rule" in not_recurring.json()["errors"]
        assert http.get(f"{EVENTS}/{event['id']}").json()["guild_scheduled_event_exceptions"] == []
        assert http.patch(f"{url}/{SECOND_ID}", json={"is_canceled": True}).json()["code"] == 10070


def test_exceptions_need_manage_events(emu: Emulator) -> None:
    with bot(emu) as http:
        event = weekly(http)
        grant_bot(emu, 0)
        refused = http.post(f"{EVENTS}/{event['id']}/exceptions", json={"original_scheduled_start_time": SECOND,
                                                                        "is_canceled": True})
        assert refused.status_code == 403 and refused.json()["code"] == 50013


def test_exception_changes_are_dispatched_and_audited(emu: Emulator) -> None:
    with bot(emu) as http:
        event = weekly(http)

    async def scenario() -> dict[str, Any]:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILD_SCHEDULED_EVENTS)
        with bot(emu) as http:
            http.post(f"{EVENTS}/{event['id']}/exceptions", json={"original_scheduled_start_time": SECOND,
                                                                  "is_canceled": True})
        update = (await client.dispatch("GUILD_SCHEDULED_EVENT_UPDATE"))["d"]
        await client.close()
        return update

    update = asyncio.run(scenario())
    assert update["id"] == event["id"]
    assert [e["event_exception_id"] for e in update["guild_scheduled_event_exceptions"]] == [SECOND_ID]
    with bot(emu) as http:
        http.patch(f"{EVENTS}/{event['id']}/exceptions/{SECOND_ID}", json={"is_canceled": False})
        http.delete(f"{EVENTS}/{event['id']}/exceptions/{SECOND_ID}")
        log = http.get(f"/guilds/{GUILD_ID}/audit-logs").json()["audit_log_entries"]
    entries = [entry for entry in log if entry["action_type"] in (200, 201, 202)]
    assert [entry["action_type"] for entry in entries] == [202, 201, 200]
    assert all(entry["target_id"] == event["id"] for entry in entries)
    assert {"key": "is_canceled", "old_value": True, "new_value": False} in entries[1]["changes"]


def test_counts_and_users_of_one_occurrence(emu: Emulator) -> None:
    with bot(emu) as http:
        event = weekly(http)
    interest(emu, event["id"], ALICE)                         # the whole series
    interest(emu, event["id"], BOB)                           # the whole series, but not the second one
    interest(emu, event["id"], BOB, SECOND_ID, response=0)
    interest(emu, event["id"], CAROL, SECOND_ID)              # the second one only
    with bot(emu) as http:
        counts = http.get(f"{EVENTS}/{event['id']}/users/counts",
                          params=[("guild_scheduled_event_exception_ids", SECOND_ID),
                                  ("guild_scheduled_event_exception_ids", THIRD_ID)]).json()
        assert counts == {"guild_scheduled_event_count": 2,
                          "guild_scheduled_event_exception_counts": {SECOND_ID: 2, THIRD_ID: 2}}
        assert http.get(f"{EVENTS}/{event['id']}/users/counts").json() == {
            "guild_scheduled_event_count": 2, "guild_scheduled_event_exception_counts": {}}
        users = http.get(f"{EVENTS}/{event['id']}/{SECOND_ID}/users", params={"with_member": "1"}).json()
        assert [u["user_id"] for u in users] == [str(ALICE), str(CAROL)]
        assert all(u["guild_scheduled_event_exception_id"] == SECOND_ID and u["member"] for u in users)
        page = http.get(f"{EVENTS}/{event['id']}/{SECOND_ID}/users", params={"limit": 1, "after": str(ALICE)}).json()
        assert [u["user_id"] for u in page] == [str(CAROL)]
        third = http.get(f"{EVENTS}/{event['id']}/{THIRD_ID}/users").json()
        assert [u["user_id"] for u in third] == [str(ALICE), str(BOB)]
        not_an_occurrence = http.get(f"{EVENTS}/{event['id']}/{int(SECOND_ID) + (3600000 << 22)}/users")
        assert not_an_occurrence.status_code == 400
        too_many = http.get(f"{EVENTS}/{event['id']}/users/counts",
                            params={"guild_scheduled_event_exception_ids": ",".join([SECOND_ID] * 11)})
        assert too_many.status_code == 400 and "guild_scheduled_event_exception_ids" in too_many.json()["errors"]
        junk = http.get(f"{EVENTS}/{event['id']}/users/counts", params={"guild_scheduled_event_exception_ids": "x"})
        assert junk.status_code == 400


def test_occurrence_interest_dispatches_carry_the_occurrence(emu: Emulator) -> None:
    with bot(emu) as http:
        event = weekly(http)
    interest(emu, event["id"], ALICE)

    async def scenario() -> list[dict[str, Any]]:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILD_SCHEDULED_EVENTS)
        interest(emu, event["id"], ALICE, SECOND_ID, response=0)
        removed = (await client.dispatch("GUILD_SCHEDULED_EVENT_USER_REMOVE"))["d"]
        interest(emu, event["id"], BOB, SECOND_ID)
        added = (await client.dispatch("GUILD_SCHEDULED_EVENT_USER_ADD"))["d"]
        interest(emu, event["id"], ALICE, THIRD_ID)             # already interested through the series
        await client.no_dispatch("GUILD_SCHEDULED_EVENT_USER_ADD")
        await client.close()
        return [removed, added]

    removed, added = asyncio.run(scenario())
    assert removed == {"guild_scheduled_event_id": event["id"], "user_id": str(ALICE), "guild_id": str(GUILD_ID),
                       "guild_scheduled_event_exception_id": SECOND_ID}
    assert added["user_id"] == str(BOB) and added["guild_scheduled_event_exception_id"] == SECOND_ID


def test_a_new_rule_drops_the_exceptions_of_occurrences_it_no_longer_has(emu: Emulator) -> None:
    with bot(emu) as http:
        event = weekly(http)
        url = f"{EVENTS}/{event['id']}"
        http.post(f"{url}/exceptions", json={"original_scheduled_start_time": SECOND, "is_canceled": True})
        daily = http.patch(url, json={"recurrence_rule": {"start": START, "frequency": 3}}).json()
        assert [e["event_exception_id"] for e in daily["guild_scheduled_event_exceptions"]] == [SECOND_ID]
        tuesdays = http.patch(url, json={"recurrence_rule": {"start": "2026-06-02T18:00:00Z", "frequency": 2}})
        assert tuesdays.json()["guild_scheduled_event_exceptions"] == []
