"""Conformance of the guild settings pages (widget settings, widget.json and widget.png, the vanity URL,
the preview, join requests, incident actions, integrations): every success and error body checked
against the published schema."""

from __future__ import annotations

import httpx
import pytest
from emulator_world import ALICE, BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission

from conformance_client import ClientFactory

BOT = f"Bot {BOT_TOKEN}"
GENERAL, BOT_ROLE = 1200000000000000101, 1200000000000000011
ERIN = 1100000000000000099


def grant_bot(emu: Emulator, bits: int) -> None:
    emu.state.db.execute("UPDATE roles SET permissions = ? WHERE id = ?", (str(int(bits)), BOT_ROLE))


def admin(emu: Emulator, method: str, path: str, body: object) -> httpx.Response:
    response = httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=10)
    assert response.status_code < 300, response.text
    return response


@pytest.mark.covers("GET /guilds/{guild_id}/widget", "PATCH /guilds/{guild_id}/widget",
                    "GET /guilds/{guild_id}/widget.json", "GET /guilds/{guild_id}/widget.png")
def test_widget(emu: Emulator, client: ClientFactory) -> None:
    bot, anyone = client(BOT), client()
    assert bot.get(f"/guilds/{GUILD_ID}/widget").status_code == 403
    grant_bot(emu, Permission.MANAGE_GUILD)
    assert bot.get(f"/guilds/{GUILD_ID}/widget").json() == {"enabled": False, "channel_id": None}
    assert anyone.get(f"/guilds/{GUILD_ID}/widget.json").json()["code"] == 50004
    assert anyone.get(f"/guilds/{GUILD_ID}/widget.png").status_code == 403
    assert bot.patch(f"/guilds/{GUILD_ID}/widget", json={"channel_id": "1"}).status_code == 400
    enabled = bot.patch(f"/guilds/{GUILD_ID}/widget", json={"enabled": True, "channel_id": str(GENERAL)})
    assert enabled.status_code == 200 and enabled.json()["enabled"] is True
    emu.state.db.execute("INSERT INTO presences (user_id, status, updated_at) VALUES (?, 'dnd', '2026-01-01')", (ALICE,))
    widget = anyone.get(f"/guilds/{GUILD_ID}/widget.json")
    assert widget.status_code == 200 and widget.json()["presence_count"] == 1
    assert widget.json()["members"][0]["discriminator"] == "0000"
    png = anyone.get(f"/guilds/{GUILD_ID}/widget.png", params={"style": "banner3"})
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    assert anyone.get(f"/guilds/{GUILD_ID}/widget.png", params={"style": "banner9"}).status_code == 400


@pytest.mark.covers("GET /guilds/{guild_id}/vanity-url", "GET /guilds/{guild_id}/preview")
def test_vanity_url_and_preview(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.get(f"/guilds/{GUILD_ID}/vanity-url").json()["code"] == 50013
    grant_bot(emu, Permission.MANAGE_GUILD)
    assert bot.get(f"/guilds/{GUILD_ID}/vanity-url").json() == {"code": None, "uses": 0}
    admin(emu, "PUT", f"/guilds/{GUILD_ID}/vanity-url", {"code": "demo", "uses": 3})
    emu.state.db.execute("UPDATE guilds SET features = '[\"VANITY_URL\"]' WHERE id = ?", (GUILD_ID,))
    assert bot.get(f"/guilds/{GUILD_ID}/vanity-url").json() == {"code": "demo", "uses": 3}
    preview = bot.get(f"/guilds/{GUILD_ID}/preview")
    assert preview.status_code == 200 and preview.json()["approximate_member_count"] == 5
    assert bot.get("/guilds/1/preview").json()["code"] == 10004


@pytest.mark.covers("GET /guilds/{guild_id}/requests", "PATCH /guilds/{guild_id}/requests/{request_id}")
def test_join_requests(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    admin(emu, "POST", "/seed", {"users": [{"id": str(ERIN), "username": "erin"}]})
    emu.state.db.execute("UPDATE guilds SET features = '[\"MEMBER_VERIFICATION_GATE_ENABLED\"]' WHERE id = ?",
                         (GUILD_ID,))
    admin(emu, "POST", f"/guilds/{GUILD_ID}/members", {"user_id": str(ERIN)})
    assert bot.get(f"/guilds/{GUILD_ID}/requests").status_code == 403
    grant_bot(emu, Permission.KICK_MEMBERS)
    listed = bot.get(f"/guilds/{GUILD_ID}/requests", params={"status": "SUBMITTED"})
    assert listed.status_code == 200 and listed.json()["total"] == 1
    assert bot.get(f"/guilds/{GUILD_ID}/requests", params={"status": "MAYBE"}).status_code == 400
    request_id = listed.json()["guild_join_requests"][0]["id"]
    assert bot.patch(f"/guilds/{GUILD_ID}/requests/{request_id}", json={"action": "LATER"}).status_code == 400
    approved = bot.patch(f"/guilds/{GUILD_ID}/requests/{request_id}", json={"action": "APPROVED"})
    assert approved.status_code == 200 and approved.json()["application_status"] == "APPROVED"
    assert bot.patch(f"/guilds/{GUILD_ID}/requests/{request_id}", json={"action": "REJECTED"}).status_code == 400
    assert bot.patch(f"/guilds/{GUILD_ID}/requests/1", json={"action": "REJECTED"}).status_code == 404


@pytest.mark.covers("PUT /guilds/{guild_id}/incident-actions")
def test_incident_actions(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.put(f"/guilds/{GUILD_ID}/incident-actions", json={}).status_code == 403
    grant_bot(emu, Permission.MANAGE_GUILD)
    assert bot.put(f"/guilds/{GUILD_ID}/incident-actions",
                   json={"dms_disabled_until": "2999-01-01T00:00:00Z"}).status_code == 400
    paused = bot.put(f"/guilds/{GUILD_ID}/incident-actions", json={"invites_disabled_until": emu.state.clock.iso()})
    assert paused.status_code == 200 and paused.json()["dms_disabled_until"] is None


@pytest.mark.covers("GET /guilds/{guild_id}/integrations", "DELETE /guilds/{guild_id}/integrations/{integration_id}")
def test_integrations(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.get(f"/guilds/{GUILD_ID}/integrations").status_code == 403
    grant_bot(emu, Permission.MANAGE_GUILD)
    listed = bot.get(f"/guilds/{GUILD_ID}/integrations")
    assert listed.status_code == 200 and [i["type"] for i in listed.json()] == ["platform"]
    assert bot.delete(f"/guilds/{GUILD_ID}/integrations/1").json()["code"] == 10005
    assert bot.delete(f"/guilds/{GUILD_ID}/integrations/{listed.json()[0]['id']}").status_code == 204
