"""Forwarding a message (message_reference type 1 FORWARD with message_snapshots): the app must be
able to read the forwarded message's content, else 160014. The answer's message_reference type 1 is
the seed's rule; the published schema lists only type 0, so these answers are read with a client
outside the schema hook (tests/conformance/test_conformance_messages.py records the deviation)."""

from __future__ import annotations

import httpx
from channel_helpers import GENERAL, MODERATORS, set_message_content, user_posts
from platformpp.emulator import Emulator
from social_helpers import ALICE, APP_ID, BOT_ID, BOT_TOKEN

HAS_SNAPSHOT = 1 << 14


def _client(emu: Emulator) -> httpx.Client:
    return httpx.Client(base_url=emu.api_base, headers={"Authorization": f"Bot {BOT_TOKEN}"}, timeout=10)


def _forward(http: httpx.Client, message_id: str, channel_id: int = GENERAL) -> httpx.Response:
    return http.post(f"/channels/{GENERAL}/messages", json={
        "message_reference": {"type": 1, "message_id": message_id, "channel_id": str(channel_id)}})


def test_forward_carries_a_snapshot(emu: Emulator) -> None:
    set_message_content(emu, APP_ID, True)
    source = user_posts(emu, GENERAL, ALICE, content="worth sharing").json()
    with _client(emu) as http:
        forwarded = _forward(http, source["id"])
        assert forwarded.status_code == 200, forwarded.text
        body = forwarded.json()
        assert body["message_reference"] == {"type": 1, "channel_id": str(GENERAL), "message_id": source["id"],
                                             "guild_id": source["guild_id"]}
        assert body["flags"] & HAS_SNAPSHOT and body["content"] == ""
        assert body["message_snapshots"][0]["message"]["content"] == "worth sharing"


def test_forward_needs_readable_content(emu: Emulator) -> None:
    set_message_content(emu, APP_ID, False)
    unreadable = user_posts(emu, GENERAL, ALICE, content="not for bots").json()
    mentioning = user_posts(emu, GENERAL, ALICE, content=f"<@{BOT_ID}> share this").json()
    with _client(emu) as http:
        refused = _forward(http, unreadable["id"])
        assert refused.status_code == 403 and refused.json()["code"] == 160014
        assert "cannot read" in refused.json()["message"]
        assert _forward(http, mentioning["id"]).status_code == 200   # a message that mentions the bot is readable
        hidden = user_posts(emu, MODERATORS, ALICE, content="mods").json()
        assert _forward(http, hidden["id"], MODERATORS).status_code == 403
        assert _forward(http, "1234").status_code == 404
    assert emu.state.db.query_one("SELECT COUNT(*) FROM channel_messages WHERE message_snapshots IS NOT NULL")[0] == 1
