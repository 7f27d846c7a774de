"""A database written by the emulator before the area layout (commit 2643432, one folder of modules,
schema/ at the package root) opens with this version: the migration history is the same, nothing is
re-applied, the schema equals a fresh one's, and the old world's data is served.

``data/world_2643432.sqlite3`` was written once by that commit's ``Emulator`` (default world, clock
2026-11-20T12:00Z; provisional accounts ``old-0``/``old-1`` made by the default bot, a lobby of both
with one message, a direct message, a custom status), then vacuumed.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import httpx
from platformpp.emulator import Emulator
from platformpp.emulator.state import migrations, open_database

OLD_DB = Path(__file__).resolve().parent.parent / "data" / "world_2643432.sqlite3"
BOT = {"Authorization": "Bot MTAwMDAwMDAwMDAwMDAwMDAwMQ.ZW11bGF0b3I.ZGVmYXVsdC13b3JsZC1ib3QtdG9rZW4tbm90LXNlY3JldA"}
OLD_HISTORY = [(1, "0001_core.sql"), (100, "0100_social.sql"), (101, "0101_custom_status.sql")]


def _copy(tmp_path: Path) -> Path:
    path = tmp_path / "old.sqlite3"
    shutil.copyfile(OLD_DB, path)
    return path


def _schema(path: Path | str) -> set[tuple[str, str, str]]:
    with sqlite3.connect(path) as conn:
        return {(row[0], row[1], " ".join((row[2] or "").split()))
                for row in conn.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")}


def test_the_old_file_records_the_history_this_version_still_has(tmp_path: Path) -> None:
    with sqlite3.connect(_copy(tmp_path)) as conn:
        recorded = [tuple(row) for row in conn.execute("SELECT version, name FROM schema_version ORDER BY version")]
    assert recorded == OLD_HISTORY
    # Every old migration keeps its number and name; later ones may only be added after them.
    current = [(number, name) for number, name, _ in migrations()]
    assert current[:len(OLD_HISTORY)] == OLD_HISTORY


def test_the_old_database_migrates_to_the_schema_of_a_fresh_one(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    applied_before = {row[0] for row in sqlite3.connect(path).execute("SELECT version FROM schema_version")}
    db = open_database(path)
    versions = [row["version"] for row in db.query("SELECT version FROM schema_version ORDER BY version")]
    db.close()
    assert versions == [number for number, _, _ in migrations()]
    assert applied_before <= set(versions)
    fresh = tmp_path / "fresh.sqlite3"
    open_database(fresh).close()
    assert _schema(path) == _schema(fresh)


def test_the_old_world_is_served(tmp_path: Path) -> None:
    # The clock just after the file was written, so the old lobby has not idled out.
    with Emulator(db=_copy(tmp_path), clock="2026-11-20T12:01:00Z") as emu, \
            httpx.Client(base_url=emu.base_url + "/api/v10", timeout=30) as http:
        # The same external user gets the same provisional account back, with a new token.
        issued = http.post("/partner-sdk/token/bot", headers=BOT, json={"external_user_id": "old-0"})
        issued.raise_for_status()
        me = {"Authorization": f"Bearer {issued.json()['access_token']}"}
        user = http.get("/users/@me", headers=me).json()
        lobby_ids = [str(row["lobby_id"]) for row in emu.state.db.query(
            "SELECT lobby_id FROM lobby_members WHERE user_id = ?", (int(user["id"]),))]
        assert len(lobby_ids) == 1
        lobby = http.get(f"/lobbies/{lobby_ids[0]}", headers=me)
        assert lobby.status_code == 200 and lobby.json()["metadata"] == {"mode": "old"}
        messages = http.get(f"/lobbies/{lobby_ids[0]}/messages", headers=me)
        assert messages.status_code == 200
        assert [m["content"] for m in messages.json()] == ["written by the old layout"]
        assert messages.json()[0]["author"]["id"] == user["id"]
        presence = http.get("/users/@me/presence", headers=me)
        assert presence.status_code == 200
        assert [a["state"] for a in presence.json()["activities"] if a["type"] == 4] == ["old"]
        # New writes work on the old file, with ids above every stored one.
        posted = http.post(f"/lobbies/{lobby_ids[0]}/messages", headers=me, json={"content": "and read by the new"})
        assert posted.status_code == 201
        assert int(posted.json()["id"]) > int(messages.json()[0]["id"])
