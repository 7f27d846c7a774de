"""Guild templates over real HTTP: a bot with MANAGE_GUILD creates its guild's one template (30031 for a
second), reads it by code without signing in, renames, syncs and deletes it; the snapshot carries the
guild's roles and channels with placeholder ids (managed roles and member overwrites left out); a change
to the guild after the snapshot makes the template dirty and a sync makes it clean; bad input names the
field and changes nothing; world files and the admin API set templates up."""

from __future__ import annotations

import json
from typing import Any

import httpx
from channel_helpers import BOT_ROLE, GENERAL, MODERATOR_ROLE, MODERATORS, grant_bot, set_clock
from emulator_world import ALICE, BOT_ID, BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission

TEMPLATES = f"/guilds/{GUILD_ID}/templates"


def bot(emu: Emulator) -> httpx.Client:
    return httpx.Client(base_url=emu.api_base, headers={"Authorization": f"Bot {BOT_TOKEN}"}, timeout=10)


def admin(emu: Emulator) -> httpx.Client:
    return httpx.Client(base_url=emu.base_url + "/_emulator", timeout=10)


def create(emu: Emulator, **body: Any) -> dict[str, Any]:
    with bot(emu) as http:
        response = http.post(TEMPLATES, json={"name": "Starter", **body})
    assert response.status_code == 200, response.text
    return dict(response.json())


def by_code(emu: Emulator, code: str) -> httpx.Response:
    return httpx.get(f"{emu.api_base}/guilds/templates/{code}", timeout=10)


def test_a_manager_creates_the_one_template_of_its_guild(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as http:
        for refused in (http.get(TEMPLATES), http.post(TEMPLATES, json={"name": "Starter"})):
            assert refused.status_code == 403 and refused.json()["code"] == 50013
            assert "MANAGE_GUILD" in refused.json()["message"]
        grant_bot(emu, Permission.MANAGE_GUILD)
        assert http.get(TEMPLATES).json() == []
        # unknown fields are ignored; the description may be null
        created = http.post(TEMPLATES, json={"name": "Starter", "description": None, "icon": "x", "tts": True})
        assert created.status_code == 200, created.text
        template = created.json()
        assert template["name"] == "Starter" and template["description"] is None
        assert template["usage_count"] == 0 and template["is_dirty"] is None
        assert template["creator_id"] == str(BOT_ID) and template["creator"]["id"] == str(BOT_ID)
        assert template["source_guild_id"] == str(GUILD_ID)
        assert template["created_at"] == template["updated_at"]
        assert len(template["code"]) == 12 and template["code"].isalnum()

        again = http.post(TEMPLATES, json={"name": "Another"})
        assert again.status_code == 400 and again.json()["code"] == 30031
        assert http.get(TEMPLATES).json() == [template]
    # anyone may read a template by its code, signed in or not
    assert by_code(emu, template["code"]).json() == template
    missing = by_code(emu, "NoSuchCode12")
    assert missing.status_code == 404 and missing.json()["code"] == 10057


def test_the_snapshot_has_placeholder_ids_and_leaves_out_managed_roles(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, Permission.MANAGE_GUILD)
    # an overwrite of a member and one of the bot's managed role are not part of a template
    overwrites = json.dumps([{"id": str(GUILD_ID), "type": 0, "allow": "0", "deny": "1024"},
                             {"id": str(MODERATOR_ROLE), "type": 0, "allow": "1024", "deny": "0"},
                             {"id": str(ALICE), "type": 1, "allow": "1024", "deny": "0"},
                             {"id": str(BOT_ROLE), "type": 0, "allow": "1024", "deny": "0"}])
    emu.state.db.execute("UPDATE channels SET permission_overwrites = ? WHERE id = ?", (overwrites, MODERATORS))
    emu.state.db.execute("UPDATE guilds SET system_channel_id = ? WHERE id = ?", (GENERAL, GUILD_ID))
    snapshot = create(emu)["serialized_source_guild"]
    assert snapshot["name"] == "Demo Guild" and snapshot["afk_timeout"] == 300
    assert [(r["id"], r["name"]) for r in snapshot["roles"]] == [(0, "@everyone"), (1, "Moderator")]
    assert snapshot["roles"][1]["permissions"] == "1099511635986" and snapshot["roles"][1]["hoist"] is True
    channels = {c["name"]: c for c in snapshot["channels"]}
    assert [c["name"] for c in snapshot["channels"]] == ["Text Channels", "general", "moderators",
                                                         "Voice Channels", "Lounge"]
    assert [c["id"] for c in snapshot["channels"]] == [1, 2, 3, 4, 5]
    assert channels["general"]["parent_id"] == "1" and channels["Lounge"]["parent_id"] == "4"
    assert channels["Text Channels"]["parent_id"] is None and channels["Text Channels"]["type"] == 4
    assert channels["general"]["topic"] == "Say hi" and channels["Lounge"]["type"] == 2
    assert channels["moderators"]["permission_overwrites"] == [
        {"id": "0", "type": 0, "allow": "0", "deny": "1024"}, {"id": "1", "type": 0, "allow": "1024", "deny": "0"}]
    assert snapshot["system_channel_id"] == "2" and snapshot["afk_channel_id"] is None
    # minutes as an int on every channel: libraries (hikari) read it without a null check
    assert all(isinstance(c["default_auto_archive_duration"], int) for c in snapshot["channels"])


def test_plain_types_stand_for_those_a_new_guild_cannot_start_with(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, Permission.MANAGE_GUILD | Permission.MANAGE_CHANNELS)
    with bot(emu) as http:
        for name, kind in (("news", 5), ("stage", 13), ("gallery", 16)):
            assert http.post(f"/guilds/{GUILD_ID}/channels", json={"name": name, "type": kind}).status_code == 201
    channels = {c["name"]: c["type"] for c in create(emu)["serialized_source_guild"]["channels"]}
    assert (channels["news"], channels["stage"], channels["gallery"]) == (0, 2, 15)


def test_a_change_after_the_snapshot_makes_it_dirty_and_a_sync_clean(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    set_clock(emu, "2026-03-01T12:00:00Z")
    grant_bot(emu, Permission.MANAGE_GUILD | Permission.MANAGE_ROLES | Permission.MANAGE_CHANNELS)
    template = create(emu)
    code = template["code"]
    with bot(emu) as http, admin(emu) as emulator_admin:
        # a member's roles are not part of the snapshot: the template stays clean
        granted = emulator_admin.put(f"/guilds/{GUILD_ID}/members/{ALICE}/roles/{MODERATOR_ROLE}")
        assert granted.status_code in (200, 204), granted.text
        assert by_code(emu, code).json()["is_dirty"] is None
        assert http.patch(f"/guilds/{GUILD_ID}", json={"name": "Renamed Guild"}).status_code == 200
        assert by_code(emu, code).json()["is_dirty"] is True
        set_clock(emu, "2026-03-02T12:00:00Z")
        synced = http.put(f"{TEMPLATES}/{code}")
        assert synced.status_code == 200, synced.text
        assert synced.json()["is_dirty"] is None
        assert synced.json()["serialized_source_guild"]["name"] == "Renamed Guild"
        assert synced.json()["updated_at"].startswith("2026-03-02") and synced.json()["created_at"].startswith(
            "2026-03-01")
        # a new role and a new channel each make it dirty again
        assert http.post(f"/guilds/{GUILD_ID}/roles", json={"name": "Helpers"}).status_code == 200
        assert by_code(emu, code).json()["is_dirty"] is True
        assert http.put(f"{TEMPLATES}/{code}").json()["is_dirty"] is None
        assert http.post(f"/guilds/{GUILD_ID}/channels", json={"name": "help"}).status_code == 201
        assert by_code(emu, code).json()["is_dirty"] is True


def test_rename_checks_fields_and_delete_answers_the_template(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, Permission.MANAGE_GUILD)
    template = create(emu, description="for friends")
    item = f"{TEMPLATES}/{template['code']}"
    with bot(emu) as http:
        for body, field in (({"name": ""}, "name"), ({"name": "x" * 101}, "name"),
                            ({"description": "d" * 121}, "description"), ({"name": 5}, "name")):
            refused = http.patch(item, json=body)
            assert refused.status_code == 400 and refused.json()["code"] == 50035, body
            assert field in refused.json()["errors"]
        assert by_code(emu, template["code"]).json() == template   # nothing changed
        renamed = http.patch(item, json={"name": "Club", "unknown": 1})
        assert renamed.status_code == 200
        assert renamed.json()["name"] == "Club" and renamed.json()["description"] == "for friends"
        assert http.patch(item, json={"description": "d" * 120}).json()["description"] == "d" * 120
        assert http.patch(item, json={"description": None}).json()["description"] is None
        missing_name = http.post(TEMPLATES, json={})
        assert missing_name.status_code == 400 and "name" in missing_name.json()["errors"]

        deleted = http.delete(item)
        assert deleted.status_code == 200 and deleted.json()["name"] == "Club"
        assert by_code(emu, template["code"]).status_code == 404
        gone = http.delete(item)
        assert gone.status_code == 404 and gone.json()["code"] == 10057
        # a new one may follow the deleted one
        assert http.post(TEMPLATES, json={"name": "Second"}).status_code == 200


def test_a_template_is_reached_only_through_its_own_guild(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with admin(emu) as emulator_admin:
        seeded = emulator_admin.post("/seed", json={"guilds": [{
            "id": "7000", "name": "Other", "owner_id": str(ALICE),
            "roles": [{"id": "7001", "name": "Bots", "permissions": str(int(Permission.MANAGE_GUILD))}],
            "members": [{"user_id": str(ALICE)}, {"user_id": str(BOT_ID), "roles": ["7001"]}]}]})
        assert seeded.status_code == 204, seeded.text
    grant_bot(emu, Permission.MANAGE_GUILD)
    template = create(emu)
    with bot(emu) as http:
        for method in ("PUT", "PATCH", "DELETE"):
            elsewhere = http.request(method, f"/guilds/7000/templates/{template['code']}", json={"name": "x"})
            assert elsewhere.status_code == 404 and elsewhere.json()["code"] == 10057, method
        unknown_guild = http.get("/guilds/7999/templates")
        assert unknown_guild.status_code == 404 and unknown_guild.json()["code"] == 10004


def test_world_files_and_the_admin_api_set_templates_up(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with admin(emu) as emulator_admin:
        bad = emulator_admin.post("/seed", json={"guild_templates": [
            {"guild_id": "7999", "name": "Nowhere"},
            {"guild_id": str(GUILD_ID), "name": "", "colour": 1}]})
        assert bad.status_code == 400 and bad.json()["code"] == 50035
        errors = bad.json()["errors"]["guild_templates"]
        assert "guild_id" in errors["0"] and {"name", "colour"} <= set(errors["1"])
        assert emu.state.db.query_one("SELECT COUNT(*) FROM guild_templates")[0] == 0

        seeded = emulator_admin.post("/seed", json={"guild_templates": [
            {"guild_id": str(GUILD_ID), "code": "demo-start", "name": "Demo", "usage_count": 12}]})
        assert seeded.status_code == 204, seeded.text
        template = by_code(emu, "demo-start").json()
        assert template["usage_count"] == 12 and template["creator_id"] == str(ALICE)
        assert template["serialized_source_guild"]["name"] == "Demo Guild"

        second = emulator_admin.post(f"/guilds/{GUILD_ID}/templates", json={"name": "Two"})
        assert second.status_code == 400 and "guild_id" in second.json()["errors"]
        assert emulator_admin.post("/guilds/7999/templates", json={"name": "x"}).status_code == 404
    grant_bot(emu, Permission.MANAGE_GUILD)
    with bot(emu) as http:
        assert http.delete(f"{TEMPLATES}/demo-start").status_code == 200
    with admin(emu) as emulator_admin:
        added = emulator_admin.post(f"/guilds/{GUILD_ID}/templates",
                                    json={"name": "Again", "creator_id": str(BOT_ID), "code": "again"})
        assert added.status_code == 201 and added.json()["creator_id"] == str(BOT_ID)
