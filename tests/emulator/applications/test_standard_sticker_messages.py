"""A standard sticker of the default world's pack is sent in a guild channel as a guild's own is."""

from __future__ import annotations

from platformpp.emulator import Emulator
from platformpp.emulator.default_world import GENERAL_CHANNEL_ID, WAVE_STICKER_ID
from social_helpers import bot


def test_a_message_carries_a_standard_sticker(emu: Emulator) -> None:
    with bot(emu) as http:
        messages = f"/channels/{GENERAL_CHANNEL_ID}/messages"
        sent = http.post(messages, json={"sticker_ids": [str(WAVE_STICKER_ID)]})
        assert sent.status_code == 200, sent.text
        wave = {"id": str(WAVE_STICKER_ID), "name": "Wave", "format_type": 1}
        assert sent.json()["sticker_items"] == [wave]
        unknown = http.post(messages, json={"sticker_ids": ["1"]})
        assert unknown.status_code == 400 and "sticker_ids" in unknown.json()["errors"]
