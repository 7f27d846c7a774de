"""The dated permission changes of 2026-02-23 on the emulator clock, each tested on both sides of the
instant: pinning (PIN_MESSAGES), skipping slowmode (BYPASS_SLOWMODE), creating emoji and stickers
(CREATE_GUILD_EXPRESSIONS) and scheduled events (CREATE_EVENTS); and what these rules govern."""

from __future__ import annotations

import base64

import httpx
import pytest
from channel_helpers import GENERAL, LOUNGE, Permission, grant_bot, set_clock, set_role_permissions, set_slowmode, user_posts
from platformpp.emulator import Emulator
from social_helpers import ALICE, BOB, GUILD_ID, bot

BEFORE, AFTER = "2026-02-22T23:59:59Z", "2026-02-23T00:00:00Z"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
GIF = b"GIF89a" + b"\x00" * 32


def _everyone(emu: Emulator) -> int:
    return int(emu.state.db.query_one("SELECT permissions FROM roles WHERE id = ?", (GUILD_ID,))[0])


# --- pins ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("instant", "bits", "allowed"), [
    (BEFORE, Permission.MANAGE_MESSAGES, True),
    (BEFORE, Permission.PIN_MESSAGES, True),
    (AFTER, Permission.MANAGE_MESSAGES, False),
    (AFTER, Permission.PIN_MESSAGES, True),
    (AFTER, 0, False),
])
def test_pinning_needs_pin_messages_from_the_instant(emu: Emulator, instant: str, bits: int, allowed: bool) -> None:
    set_clock(emu, instant)
    message = user_posts(emu, GENERAL, ALICE, content="pin me").json()
    grant_bot(emu, bits)
    with bot(emu) as http:
        pinned = http.put(f"/channels/{GENERAL}/messages/pins/{message['id']}")
        assert pinned.status_code == (204 if allowed else 403), pinned.text
        if not allowed:
            assert pinned.json()["code"] == 50013 and "PIN_MESSAGES" in pinned.json()["message"]
            assert http.put(f"/channels/{GENERAL}/pins/{message['id']}").status_code == 403   # the older path too
            return
        listed = http.get(f"/channels/{GENERAL}/messages/pins").json()
        assert [item["message"]["id"] for item in listed["items"]] == [message["id"]] and listed["has_more"] is False
        assert listed["items"][0]["message"]["pinned"] is True
        assert [m["id"] for m in http.get(f"/channels/{GENERAL}/pins").json()] == [message["id"]]
        assert http.delete(f"/channels/{GENERAL}/pins/{message['id']}").status_code == 204
        assert http.get(f"/channels/{GENERAL}/messages/pins").json() == {"items": [], "has_more": False}


def test_pins_paging_and_the_admin_pin_as_a_user(emu: Emulator) -> None:
    set_clock(emu, AFTER)
    ids = [user_posts(emu, GENERAL, ALICE, content=f"p{i}").json()["id"] for i in range(3)]
    for index, message_id in enumerate(ids):
        set_clock(emu, f"2026-03-01T00:00:0{index}Z")
        pinned = httpx.put(f"{emu.base_url}/_emulator/channels/{GENERAL}/pins/{message_id}", json={"user_id": str(ALICE)})
        assert pinned.status_code == 204, pinned.text   # alice owns the guild
    refused = httpx.put(f"{emu.base_url}/_emulator/channels/{GENERAL}/pins/{ids[0]}", json={"user_id": str(BOB)})
    assert refused.status_code == 403
    bad = httpx.put(f"{emu.base_url}/_emulator/channels/{GENERAL}/pins/{ids[0]}", json={"user_id": "nope"})
    assert bad.status_code == 400 and "user_id" in bad.json()["errors"]
    with bot(emu) as http:
        page = http.get(f"/channels/{GENERAL}/messages/pins", params={"limit": 2}).json()
        assert [i["message"]["id"] for i in page["items"]] == [ids[2], ids[1]] and page["has_more"] is True
        rest = http.get(f"/channels/{GENERAL}/messages/pins", params={"before": page["items"][-1]["pinned_at"]}).json()
        assert [i["message"]["id"] for i in rest["items"]] == [ids[0]] and rest["has_more"] is False


# --- slowmode ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("instant", "bits", "bypass"), [
    (BEFORE, Permission.MANAGE_MESSAGES, True),
    (BEFORE, Permission.MANAGE_CHANNELS, True),
    (BEFORE, 0, False),
    (AFTER, Permission.MANAGE_MESSAGES | Permission.MANAGE_CHANNELS, False),
    (AFTER, Permission.BYPASS_SLOWMODE, True),
])
def test_slowmode_bypass_follows_the_instant(emu: Emulator, instant: str, bits: int, bypass: bool) -> None:
    set_clock(emu, instant)
    set_slowmode(emu, GENERAL, 30)
    set_role_permissions(emu, GUILD_ID, _everyone(emu) | bits)   # bob holds only @everyone's
    assert user_posts(emu, GENERAL, BOB, content="first").status_code == 200
    second = user_posts(emu, GENERAL, BOB, content="second")
    if bypass:
        assert second.status_code == 200, second.text
        return
    assert second.status_code == 429
    body = second.json()
    assert body["code"] == 20016 and body["global"] is False and 0 < body["retry_after"] <= 30
    assert second.headers["retry-after"] == "30"


def test_slowmode_waits_out_and_bots_are_exempt(emu: Emulator) -> None:
    set_clock(emu, AFTER)
    set_slowmode(emu, GENERAL, 10)
    assert user_posts(emu, GENERAL, BOB, content="one").status_code == 200
    set_clock(emu, "2026-02-23T00:00:05Z")
    early = user_posts(emu, GENERAL, BOB, content="two")
    assert early.status_code == 429 and early.json()["retry_after"] == pytest.approx(5, abs=0.5)
    set_clock(emu, "2026-02-23T00:00:11Z")
    assert user_posts(emu, GENERAL, BOB, content="three").status_code == 200
    with bot(emu) as http:
        for text in ("a", "b"):
            assert http.post(f"/channels/{GENERAL}/messages", json={"content": text}).status_code == 200


# --- emoji and stickers ---------------------------------------------------------------------------------

def _png_uri(data: bytes = PNG) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode()


@pytest.mark.parametrize(("instant", "bits", "allowed"), [
    (BEFORE, Permission.MANAGE_GUILD_EXPRESSIONS, True),
    (BEFORE, Permission.CREATE_GUILD_EXPRESSIONS, True),
    (AFTER, Permission.MANAGE_GUILD_EXPRESSIONS, False),
    (AFTER, Permission.CREATE_GUILD_EXPRESSIONS, True),
])
def test_creating_emoji_and_stickers_follows_the_instant(emu: Emulator, instant: str, bits: int,
                                                          allowed: bool) -> None:
    set_clock(emu, instant)
    grant_bot(emu, bits)
    with bot(emu) as http:
        emoji = http.post(f"/guilds/{GUILD_ID}/emojis", json={"name": "party_blob", "image": _png_uri()})
        assert emoji.status_code == (201 if allowed else 403), emoji.text
        sticker = http.post(f"/guilds/{GUILD_ID}/stickers", data={"name": "wave", "tags": "wave"},
                            files={"file": ("wave.png", PNG, "image/png")})
        assert sticker.status_code == (201 if allowed else 403), sticker.text
        if not allowed:
            assert "CREATE_GUILD_EXPRESSIONS" in emoji.json()["message"]
            assert http.get(f"/guilds/{GUILD_ID}/emojis").json() == []
            return
        assert emoji.json()["name"] == "party_blob" and emoji.json()["animated"] is False
        assert sticker.json()["format_type"] == 1 and sticker.json()["guild_id"] == str(GUILD_ID)


def test_emoji_and_sticker_lifecycle_and_validation(emu: Emulator) -> None:
    set_clock(emu, AFTER)
    grant_bot(emu, Permission.CREATE_GUILD_EXPRESSIONS)
    with bot(emu) as http:
        bad = http.post(f"/guilds/{GUILD_ID}/emojis", json={"name": "x", "image": "not a data uri"})
        assert bad.status_code == 400 and set(bad.json()["errors"]) == {"name"}
        bad_image = http.post(f"/guilds/{GUILD_ID}/emojis", json={"name": "ok_name", "image": "data:image/png;base64,@@"})
        assert bad_image.status_code == 400 and "image" in bad_image.json()["errors"]
        animated = http.post(f"/guilds/{GUILD_ID}/emojis", json={
            "name": "dance", "image": "data:image/gif;base64," + base64.b64encode(GIF).decode()}).json()
        assert animated["animated"] is True
        renamed = http.patch(f"/guilds/{GUILD_ID}/emojis/{animated['id']}", json={"name": "dance2"})
        assert renamed.status_code == 200 and renamed.json()["name"] == "dance2"   # its creator may, from the instant
        assert http.get(f"/guilds/{GUILD_ID}/emojis/{animated['id']}").json()["name"] == "dance2"
        assert [e["id"] for e in http.get(f"/guilds/{GUILD_ID}/emojis").json()] == [animated["id"]]
        assert http.delete(f"/guilds/{GUILD_ID}/emojis/{animated['id']}").status_code == 204
        assert http.get(f"/guilds/{GUILD_ID}/emojis/{animated['id']}").json()["code"] == 10014
        no_file = http.post(f"/guilds/{GUILD_ID}/stickers", data={"name": "wave", "tags": "wave"},
                            files={"other": ("x.txt", b"x", "text/plain")})
        assert no_file.status_code == 400 and "file" in no_file.json()["errors"]
        sticker = http.post(f"/guilds/{GUILD_ID}/stickers", data={"name": "wave", "tags": "wave", "description": "hi!"},
                            files={"file": ("wave.gif", GIF, "image/gif")}).json()
        assert sticker["format_type"] == 4 and sticker["description"] == "hi!"
        changed = http.patch(f"/guilds/{GUILD_ID}/stickers/{sticker['id']}", json={"tags": "hello"}).json()
        assert changed["tags"] == "hello"
        assert [s["id"] for s in http.get(f"/guilds/{GUILD_ID}/stickers").json()] == [sticker["id"]]
        assert http.delete(f"/guilds/{GUILD_ID}/stickers/{sticker['id']}").status_code == 204
        assert http.get(f"/guilds/{GUILD_ID}/stickers/{sticker['id']}").status_code == 404


# --- scheduled events -------------------------------------------------------------------------------------

def _external(start: str = "2026-06-01T18:00:00Z") -> dict:
    return {"name": "Launch party", "privacy_level": 2, "entity_type": 3, "scheduled_start_time": start,
            "scheduled_end_time": "2026-06-01T20:00:00Z", "entity_metadata": {"location": "Town square"}}


@pytest.mark.parametrize(("instant", "bits", "allowed"), [
    (BEFORE, Permission.MANAGE_EVENTS, True),
    (BEFORE, Permission.CREATE_EVENTS, True),
    (AFTER, Permission.MANAGE_EVENTS, False),
    (AFTER, Permission.CREATE_EVENTS, True),
])
def test_creating_scheduled_events_follows_the_instant(emu: Emulator, instant: str, bits: int, allowed: bool) -> None:
    set_clock(emu, instant)
    grant_bot(emu, bits)
    with bot(emu) as http:
        created = http.post(f"/guilds/{GUILD_ID}/scheduled-events", json=_external())
        assert created.status_code == (200 if allowed else 403), created.text
        if allowed:
            assert created.json()["entity_metadata"] == {"location": "Town square"} and created.json()["status"] == 1
        else:
            assert "CREATE_EVENTS" in created.json()["message"]


def test_scheduled_event_lifecycle(emu: Emulator) -> None:
    set_clock(emu, AFTER)
    grant_bot(emu, Permission.CREATE_EVENTS)
    with bot(emu) as http:
        missing = http.post(f"/guilds/{GUILD_ID}/scheduled-events", json={**_external(), "entity_metadata": None})
        assert missing.status_code == 400 and "entity_metadata" in missing.json()["errors"]
        past = http.post(f"/guilds/{GUILD_ID}/scheduled-events", json=_external("2026-01-01T00:00:00Z"))
        assert past.status_code == 400 and "scheduled_start_time" in past.json()["errors"]
        wrong_channel = http.post(f"/guilds/{GUILD_ID}/scheduled-events", json={
            "name": "Voice hangout", "privacy_level": 2, "entity_type": 2, "channel_id": str(GENERAL),
            "scheduled_start_time": "2026-06-01T18:00:00Z"})
        assert wrong_channel.status_code == 400 and "channel_id" in wrong_channel.json()["errors"]
        voice = http.post(f"/guilds/{GUILD_ID}/scheduled-events", json={
            "name": "Voice hangout", "privacy_level": 2, "entity_type": 2, "channel_id": str(LOUNGE),
            "scheduled_start_time": "2026-06-01T18:00:00Z"}).json()
        assert voice["channel_id"] == str(LOUNGE) and voice["entity_metadata"] is None
        for user in (ALICE, BOB):
            assert httpx.put(f"{emu.base_url}/_emulator/guilds/{GUILD_ID}/scheduled-events/{voice['id']}/users/{user}"
                             ).status_code == 204
        users = http.get(f"/guilds/{GUILD_ID}/scheduled-events/{voice['id']}/users", params={"with_member": "true"})
        assert [u["user_id"] for u in users.json()] == [str(ALICE), str(BOB)] and "member" in users.json()[0]
        counted = http.get(f"/guilds/{GUILD_ID}/scheduled-events/{voice['id']}", params={"with_user_count": "true"})
        assert counted.json()["user_count"] == 2
        active = http.patch(f"/guilds/{GUILD_ID}/scheduled-events/{voice['id']}", json={"status": 2})
        assert active.status_code == 200 and active.json()["status"] == 2
        back = http.patch(f"/guilds/{GUILD_ID}/scheduled-events/{voice['id']}", json={"status": 1})
        assert back.status_code == 400 and "status" in back.json()["errors"]
        assert [e["id"] for e in http.get(f"/guilds/{GUILD_ID}/scheduled-events").json()] == [voice["id"]]
        assert http.delete(f"/guilds/{GUILD_ID}/scheduled-events/{voice['id']}").status_code == 204
        gone = http.get(f"/guilds/{GUILD_ID}/scheduled-events/{voice['id']}")
        assert gone.status_code == 404 and gone.json()["code"] == 10070
