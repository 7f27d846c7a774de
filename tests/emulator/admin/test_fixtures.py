"""The fixture format: JSON and YAML, the default world, and all-or-nothing validation."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
import yaml
from emulator_world import APP_ID, BOT_ID, GUILD_ID, bot_headers
from platformpp.emulator import Emulator
from platformpp.emulator.core.fixtures import FixtureError, default_world


def test_default_world_has_a_game_with_a_bot_players_and_a_guild(http: httpx.Client) -> None:
    tables = http.get("/_emulator/snapshot").json()["tables"]
    players = [u for u in tables["users"] if not u["bot"]]
    assert len(players) >= 4
    [app] = tables["applications"]
    assert app["id"] == APP_ID and app["bot_user_id"] == BOT_ID
    [guild] = tables["guilds"]
    everyone = [r for r in tables["roles"] if r["id"] == GUILD_ID]
    assert guild["id"] == GUILD_ID and everyone and everyone[0]["name"] == "@everyone"
    channels = {c["name"]: c for c in tables["channels"]}
    assert channels["general"]["parent_id"] == channels["Text Channels"]["id"]
    assert {m["user_id"] for m in tables["members"]} >= {BOT_ID, *(p["id"] for p in players)}


def test_yaml_fixture_file(tmp_path: Path) -> None:
    path = tmp_path / "world.yaml"
    path.write_text(yaml.safe_dump({"users": [{"id": "77", "username": "yaml-user"}], "applications": [
        {"id": "78", "name": "Yaml Game", "client_secret": "yaml-secret-1", "bot": {
            "id": "79", "username": "yaml-bot", "token": "Nzk.AAAA.yaml-bot-token"}}]}))
    with Emulator(seed=path) as emu:
        me = httpx.get(emu.api_base + "/users/@me", headers=bot_headers("Nzk.AAAA.yaml-bot-token"))
        assert me.json()["username"] == "yaml-bot"
        assert httpx.get(emu.api_base + "/users/77", headers=bot_headers("Nzk.AAAA.yaml-bot-token")).status_code == 200


def test_bad_fixture_names_every_bad_field_and_loads_nothing(http: httpx.Client) -> None:
    before = http.get("/_emulator/snapshot").json()["tables"]
    fixture = {
        "users": [{"id": "60", "username": "ok-user", "flags": 1 << 70},
                  {"id": str(1 << 63), "username": "x", "premium_type": 9, "privacy": "nobody"}],
        "applications": [{"name": "Bad", "bot": {"id": "61", "username": "bad-bot", "token": "MTI.AAAA.mismatch"},
                          "approved_scopes": ["identify.premium", "made.up"], "redirect_uris": [5]}],
        "guilds": [{"name": "G", "owner_id": "424242", "channels": [{"type": 99, "name": "c"}]}],
        "surprise": True,
    }
    response = http.post("/_emulator/seed", json=fixture)
    assert response.status_code == 400 and response.json()["code"] == 50035
    errors = response.json()["errors"]
    assert errors["surprise"]["_errors"][0]["code"] == "BASE_TYPE_UNKNOWN_FIELD"
    assert set(errors["users"]["0"]) == {"flags"}
    assert set(errors["users"]["1"]) == {"id", "username", "premium_type", "privacy"}
    app = errors["applications"]["0"]
    assert app["bot"]["token"]["_errors"][0]["code"] == "BOT_TOKEN_FORMAT"
    assert set(app["approved_scopes"]) == {"1"} and "redirect_uris" in app and "client_secret" in app
    assert errors["guilds"]["0"]["channels"]["0"]["type"]["_errors"][0]["code"] == "BASE_TYPE_CHOICES"
    assert http.get("/_emulator/snapshot").json()["tables"] == before


def test_dangling_reference_is_a_field_error(http: httpx.Client) -> None:
    response = http.post("/_emulator/seed", json={"guilds": [{"id": "90", "name": "Orphan", "owner_id": "424242"}]})
    assert response.status_code == 400 and "guilds" in response.json()["errors"]
    assert http.get("/api/v10/users/@me", headers=bot_headers()).status_code == 200


def test_forward_references_inside_a_fixture_load(http: httpx.Client) -> None:
    fixture = {"guilds": [{"id": "91", "name": "Forward", "owner_id": str(BOT_ID), "channels": [
        {"id": "93", "type": 0, "name": "child", "parent_id": "92"}, {"id": "92", "type": 4, "name": "Category"}]}]}
    assert http.post("/_emulator/seed", json=fixture).status_code == 204


def test_in_process_bad_seed_raises_fixture_error() -> None:
    world = default_world()
    world["users"][0]["username"] = ""
    with pytest.raises(FixtureError, match=r"users\.0\.username"):
        Emulator(seed=world).start()
