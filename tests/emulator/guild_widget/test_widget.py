"""The guild widget over real HTTP and the Gateway: its settings need MANAGE_GUILD and write a
GUILD_UPDATE audit entry naming what changed (and GUILD_UPDATE to bots); widget.json is public, off
(50004) until enabled, lists the voice channels anyone may join and the members online, anonymised,
with an instant invite the platform makes once and reuses (INVITE_CREATE once, no audit entry);
widget.png draws each style at its size, its pixels following the online count; world files set the
widget up."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import httpx
from channel_helpers import BOT_ROLE, GENERAL, LOUNGE, set_role_permissions
from PIL import Image
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission
from social_helpers import ALICE, BOB, BOT_TOKEN, GUILD_ID, GatewayClient, api, bot

GUILDS, GUILD_INVITES = 1 << 0, 1 << 6
SIZES = {"shield": (80, 20), "banner1": (320, 76), "banner2": (320, 82), "banner3": (320, 100),
         "banner4": (320, 164)}


def online(emu: Emulator, user_id: int, status: str = "online") -> None:
    emu.state.db.execute("INSERT OR REPLACE INTO presences (user_id, status, updated_at) VALUES (?, ?, '2026-01-01')",
                         (user_id, status))


def public(emu: Emulator, path: str, **params: Any) -> httpx.Response:
    with api(emu, None) as http:
        return http.get(f"/guilds/{GUILD_ID}/{path}", params=params)


def enable(emu: Emulator, body: dict[str, Any]) -> httpx.Response:
    with bot(emu) as http:
        return http.patch(f"/guilds/{GUILD_ID}/widget", json=body)


def test_settings_need_manage_guild_and_are_audited(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILDS)
        await client.dispatch("GUILD_CREATE")
        refused = await asyncio.to_thread(enable, emu, {"enabled": True})
        assert refused.status_code == 403 and refused.json()["code"] == 50013
        set_role_permissions(emu, BOT_ROLE, int(Permission.MANAGE_GUILD | Permission.VIEW_AUDIT_LOG))
        # an integer snowflake and an unknown field are accepted
        changed = await asyncio.to_thread(enable, emu, {"enabled": True, "channel_id": GENERAL, "style": "x"})
        assert changed.json() == {"enabled": True, "channel_id": str(GENERAL)}
        update = (await client.dispatch("GUILD_UPDATE"))["d"]
        assert update["widget_enabled"] is True and update["widget_channel_id"] == str(GENERAL)
        # null keeps ``enabled`` and clears the channel
        cleared = await asyncio.to_thread(enable, emu, {"enabled": None, "channel_id": None})
        assert cleared.json() == {"enabled": True, "channel_id": None}
        await client.close()

    asyncio.run(scenario())
    with bot(emu) as http:
        entries = http.get(f"/guilds/{GUILD_ID}/audit-logs", params={"action_type": 1}).json()["audit_log_entries"]
    assert [e["changes"] for e in entries] == [
        [{"key": "widget_channel_id", "old_value": str(GENERAL)}],
        [{"key": "widget_channel_id", "new_value": str(GENERAL)}, {"key": "widget_enabled", "old_value": False,
                                                                   "new_value": True}]]


def test_bad_input_names_the_field_and_changes_nothing(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    set_role_permissions(emu, BOT_ROLE, int(Permission.MANAGE_GUILD))
    for body, field in (({"enabled": "yes"}, "enabled"), ({"channel_id": "general"}, "channel_id"),
                        ({"channel_id": "1"}, "channel_id"), ({"enabled": True, "channel_id": "1"}, "channel_id")):
        response = enable(emu, body)
        assert response.status_code == 400 and field in response.json()["errors"], response.text
    with bot(emu) as http:
        assert http.get(f"/guilds/{GUILD_ID}/widget").json() == {"enabled": False, "channel_id": None}


def test_widget_json_is_public_and_anonymised(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    off = public(emu, "widget.json")
    assert off.status_code == 403 and off.json() == {"code": 50004, "message": "Widget Disabled"}
    set_role_permissions(emu, BOT_ROLE, int(Permission.MANAGE_GUILD))
    enable(emu, {"enabled": True, "channel_id": str(GENERAL)})
    online(emu, ALICE, "dnd")
    online(emu, BOB, "invisible")   # invisible looks offline: not listed
    widget = public(emu, "widget.json").json()
    assert widget["id"] == str(GUILD_ID) and widget["name"] == "Demo Guild" and widget["presence_count"] == 1
    assert widget["channels"] == [{"id": str(LOUNGE), "name": "Lounge", "position": 0}]
    (member,) = widget["members"]
    assert member["id"] == "0" and member["avatar"] is None and member["discriminator"] == "0000"
    assert member["status"] == "dnd" and member["username"] == "alice" and member["avatar_url"].startswith("http")
    code = widget["instant_invite"].rsplit("/", 1)[1]
    with api(emu, None) as http:
        invite = http.get(f"/invites/{code}")
    assert invite.status_code == 200 and invite.json()["channel"]["id"] == str(GENERAL)
    assert invite.json().get("inviter") is None
    # the same invite while it lives; none while the guild's invites are paused
    assert public(emu, "widget.json").json()["instant_invite"] == widget["instant_invite"]
    emu.state.db.execute("UPDATE guilds SET invites_disabled_until = '2999-01-01T00:00:00+00:00' WHERE id = ?",
                         (GUILD_ID,))
    assert public(emu, "widget.json").json()["instant_invite"] is None


def test_the_widget_invite_is_announced_once(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    set_role_permissions(emu, BOT_ROLE, int(Permission.MANAGE_GUILD | Permission.MANAGE_CHANNELS
                                            | Permission.VIEW_AUDIT_LOG))
    enable(emu, {"enabled": True, "channel_id": str(GENERAL)})

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILDS | GUILD_INVITES)
        await client.dispatch("GUILD_CREATE")
        widget = (await asyncio.to_thread(public, emu, "widget.json")).json()
        created = (await client.dispatch("INVITE_CREATE"))["d"]
        assert widget["instant_invite"].endswith("/" + created["code"])
        assert created["channel_id"] == str(GENERAL) and created["max_age"] == 86400 and created["max_uses"] == 0
        assert "inviter" not in created
        await asyncio.to_thread(public, emu, "widget.json")
        await client.no_dispatch("INVITE_CREATE")
        await client.close()

    asyncio.run(scenario())
    with bot(emu) as http:   # the platform's own invite: no one made it, the audit log does not show it
        assert http.get(f"/guilds/{GUILD_ID}/audit-logs", params={"action_type": 40}).json()["audit_log_entries"] == []


def test_widget_png_styles_and_counts(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    assert public(emu, "widget.png").json()["code"] == 50004
    set_role_permissions(emu, BOT_ROLE, int(Permission.MANAGE_GUILD))
    enable(emu, {"enabled": True})
    before = {}
    for style, size in SIZES.items():
        response = public(emu, "widget.png", style=style)
        assert response.status_code == 200 and response.headers["content-type"] == "image/png"
        image = Image.open(io.BytesIO(response.content))
        assert image.format == "PNG" and image.size == size
        before[style] = image.convert("RGB").tobytes()
    assert Image.open(io.BytesIO(public(emu, "widget.png").content)).size == SIZES["shield"]   # the default
    online(emu, ALICE)
    for style in SIZES:
        after = Image.open(io.BytesIO(public(emu, "widget.png", style=style).content)).convert("RGB").tobytes()
        assert after != before[style], style
    bad = public(emu, "widget.png", style="banner5")
    assert bad.status_code == 400 and "style" in bad.json()["errors"]


def test_world_files_set_the_widget_up(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    seed = httpx.post(f"{emu.base_url}/_emulator/seed", timeout=10, json={
        "guild_widgets": [{"guild_id": str(GUILD_ID), "enabled": True, "channel_id": str(LOUNGE)}]})
    assert seed.status_code == 204, seed.text
    assert public(emu, "widget.json").status_code == 200
    bad = httpx.post(f"{emu.base_url}/_emulator/seed", timeout=10, json={
        "guild_widgets": [{"guild_id": str(GUILD_ID), "channel_id": "1", "colour": 1}]})
    assert bad.status_code == 400
    errors = bad.json()["errors"]["guild_widgets"]["0"]
    assert set(errors) == {"channel_id", "colour"}
