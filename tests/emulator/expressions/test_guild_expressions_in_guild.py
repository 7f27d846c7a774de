"""The guild object and GUILD_CREATE carry the guild's emoji, stickers and scheduled events,
read from the expressions and scheduled-events stores; and the guild
model reads them without an import cycle at run time (areas/*/listing.py)."""

from __future__ import annotations

import asyncio
import base64
import subprocess
import sys

from channel_helpers import grant_bot, set_clock
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission
from social_helpers import BOT_TOKEN, GUILD_ID, GatewayClient, bot

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
EVENT = {"name": "Launch party", "privacy_level": 2, "entity_type": 3,
         "scheduled_start_time": "2026-06-01T18:00:00Z", "scheduled_end_time": "2026-06-01T20:00:00Z",
         "entity_metadata": {"location": "Town square"}}


def _populate(emu: Emulator) -> tuple[dict, dict, dict]:
    set_clock(emu, "2026-03-01T00:00:00Z")
    grant_bot(emu, Permission.CREATE_GUILD_EXPRESSIONS | Permission.CREATE_EVENTS)
    with bot(emu) as http:
        emoji = http.post(f"/guilds/{GUILD_ID}/emojis", json={
            "name": "party_blob", "image": "data:image/png;base64," + base64.b64encode(PNG).decode()})
        sticker = http.post(f"/guilds/{GUILD_ID}/stickers", data={"name": "wave", "tags": "wave"},
                            files={"file": ("wave.png", PNG, "image/png")})
        event = http.post(f"/guilds/{GUILD_ID}/scheduled-events", json=EVENT)
        assert (emoji.status_code, sticker.status_code, event.status_code) == (201, 201, 200), event.text
        return emoji.json(), sticker.json(), event.json()


def test_get_guild_lists_emoji_and_stickers_without_their_creator(platformpp_emulator: Emulator) -> None:
    emoji, sticker, _ = _populate(platformpp_emulator)
    with bot(platformpp_emulator) as http:
        guild = http.get(f"/guilds/{GUILD_ID}").json()
    assert [e["id"] for e in guild["emojis"]] == [emoji["id"]]
    assert guild["emojis"][0]["name"] == "party_blob" and "user" not in guild["emojis"][0]
    assert [s["id"] for s in guild["stickers"]] == [sticker["id"]]
    assert guild["stickers"][0]["format_type"] == 1 and "user" not in guild["stickers"][0]


def test_guild_create_carries_emoji_stickers_and_scheduled_events(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    emoji, sticker, event = _populate(emu)

    async def scenario() -> dict:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=1)
        created = (await client.dispatch("GUILD_CREATE"))["d"]
        await client.close()
        return created

    guild = asyncio.run(scenario())
    assert [e["id"] for e in guild["emojis"]] == [emoji["id"]]
    assert [s["id"] for s in guild["stickers"]] == [sticker["id"]]
    events = guild["guild_scheduled_events"]
    assert [e["id"] for e in events] == [event["id"]]
    assert events[0]["entity_metadata"] == {"location": "Town square"} and events[0]["creator_id"]


def test_the_guild_model_loads_first_without_a_cycle() -> None:
    # Each in a fresh interpreter, first of all: a run-time import cycle shows up only in some orders.
    for module in ("areas.guilds.store", "areas.expressions.listing", "areas.scheduled_events.listing",
                   "gateway.ready", "areas.expressions.store", "areas.scheduled_events.store"):
        done = subprocess.run([sys.executable, "-c", f"import platformpp.emulator.{module}"],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, f"{module}: {done.stderr[-2000:]}"


def test_listing_modules_load_no_routes_of_their_area() -> None:
    code = ("import sys; import platformpp.emulator.areas.expressions.listing as e, "
            "platformpp.emulator.areas.scheduled_events.listing as s; "
            "print(sorted(m for m in sys.modules"
            " if m.endswith(('expressions.routes', 'scheduled_events.routes'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"
