"""The ``scheduled_events`` fixture section: events with a recurrence rule, exceptions and interested
members, loaded as they stand; a bad item names its path and loads nothing."""

from __future__ import annotations

from typing import Any

import pytest
from channel_helpers import grant_bot
from platformpp.emulator import Emulator
from platformpp.emulator.core.fixtures import FixtureError, load_fixture_or_raise
from platformpp.emulator.core.permissions import Permission
from social_helpers import ALICE, GUILD_ID, bot

SECOND_ID = str((1780941600000 - 1420070400000) << 22)          # 2026-06-08T18:00:00Z


def event(**extra: Any) -> dict[str, Any]:
    return {"id": "5000", "guild_id": str(GUILD_ID), "name": "Raid night", "entity_type": 3, "privacy_level": 2,
            "entity_metadata": {"location": "The keep"}, "scheduled_start_time": "2026-06-01T18:00:00Z",
            "scheduled_end_time": "2026-06-01T20:00:00Z",
            "recurrence_rule": {"start": "2026-06-01T18:00:00Z", "frequency": 2, "by_weekday": [0]}, **extra}


def test_an_event_loads_with_its_exceptions_and_users(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, Permission.MANAGE_EVENTS)
    load_fixture_or_raise(emu.state, {"scheduled_events": [event(
        exceptions=[{"original_scheduled_start_time": "2026-06-08T18:00:00Z", "is_canceled": True}],
        users=[str(ALICE)])]})
    with bot(emu) as http:
        loaded = http.get(f"/guilds/{GUILD_ID}/scheduled-events/5000", params={"with_user_count": "true"}).json()
        assert loaded["recurrence_rule"]["by_weekday"] == [0] and loaded["user_count"] == 1
        assert loaded["guild_scheduled_event_exceptions"] == [{
            "event_id": "5000", "event_exception_id": SECOND_ID, "scheduled_start_time": None,
            "scheduled_end_time": None, "is_canceled": True}]


@pytest.mark.parametrize(("item", "path"), [
    (event(recurrence_rule={"start": "2026-06-01T18:00:00Z", "frequency": 2, "interval": 3}),
     "scheduled_events.0.recurrence_rule.interval"),
    (event(exceptions=[{"original_scheduled_start_time": "2026-06-09T18:00:00Z"}]),
     "scheduled_events.0.exceptions.0.original_scheduled_start_time"),
    (event(users=["1"]), "scheduled_events.0.users"),
    (event(entity_metadata=None), "scheduled_events.0.entity_metadata"),
    (event(colour=1), "scheduled_events.0.colour"),
])
def test_a_bad_item_names_its_path_and_loads_nothing(platformpp_emulator: Emulator, item: dict[str, Any],
                                                     path: str) -> None:
    emu = platformpp_emulator
    with pytest.raises(FixtureError) as bad:
        load_fixture_or_raise(emu.state, {"scheduled_events": [item]})
    assert path in str(bad.value)
    assert emu.state.db.query_one("SELECT 1 FROM guild_scheduled_events") is None
