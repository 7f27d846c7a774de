"""Attachments of guild channel messages over real multipart requests: stored on disk beside the
database and served back at their url, the 20 MiB limit (413 / 40005, nothing stored), spoilers
(is_spoiler and the SPOILER_ prefix), editing description and is_spoiler, removing attachments."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
from channel_helpers import GENERAL, Permission, set_message_content, set_role_permissions
from platformpp.emulator import Emulator
from platformpp.emulator.core.uploads import UPLOAD_LIMIT_BYTES, upload_limit
from social_helpers import APP_ID, GUILD_ID, bot

IS_SPOILER = 1 << 3


def _post(http: httpx.Client, payload: dict, files: dict) -> httpx.Response:
    return http.post(f"/channels/{GENERAL}/messages", data={"payload_json": json.dumps(payload)}, files=files)


def test_upload_is_stored_and_served(emu: Emulator) -> None:
    set_message_content(emu, APP_ID, True)
    data = bytes(range(256)) * 40
    with bot(emu) as http:
        created = _post(http, {"content": "a file", "attachments": [{"id": 0, "description": "bytes"}]},
                        {"files[0]": ("data.bin", data, "application/octet-stream"),
                         "files[1]": ("notes.txt", b"hello", "text/plain")})
        assert created.status_code == 200, created.text
        first, second = created.json()["attachments"]
        assert first["filename"] == "data.bin" and first["size"] == len(data) and first["description"] == "bytes"
        assert second["filename"] == "notes.txt" and second["content_type"] == "text/plain"
    served = httpx.get(first["url"])
    assert served.status_code == 200 and served.content == data
    assert httpx.get(second["proxy_url"]).content == b"hello"
    assert httpx.get(first["url"].replace("data.bin", "other.bin")).status_code == 404


def test_files_on_disk_beside_the_database(tmp_path: Path) -> None:
    db = tmp_path / "world.sqlite3"
    with Emulator(db=str(db)) as emu:
        with bot(emu) as http:
            attachment = _post(http, {}, {"files[0]": ("a.txt", b"on disk", "text/plain")}).json()["attachments"][0]
        assert (tmp_path / "world.sqlite3.attachments" / attachment["id"]).read_bytes() == b"on disk"
        with bot(emu) as http:
            message_id = http.get(f"/channels/{GENERAL}/messages").json()[0]["id"]
            assert http.delete(f"/channels/{GENERAL}/messages/{message_id}").status_code == 204
        assert not (tmp_path / "world.sqlite3.attachments" / attachment["id"]).exists()


def test_messages_attachments_and_the_search_index_survive_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "world.sqlite3")
    with Emulator(db=db) as emu:
        set_message_content(emu, APP_ID, True)
        with bot(emu) as http:
            message = _post(http, {"content": "persistent words"}, {"files[0]": ("k.txt", b"kept", "text/plain")}).json()
    with Emulator(db=db, seed=None) as emu:
        with bot(emu) as http:
            again = http.get(f"/channels/{GENERAL}/messages/{message['id']}").json()
            assert again["content"] == "persistent words" and again["attachments"][0]["size"] == 4
            deadline = time.monotonic() + 10
            while (found := http.get(f"/guilds/{GUILD_ID}/messages/search", params={"content": "persistent"})
                   ).status_code != 200 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert [group[0]["id"] for group in found.json()["messages"]] == [message["id"]]
        # The url names the base URL the upload came in on; restarted on another port, the same path serves it.
        path = "/" + again["attachments"][0]["url"].split("/", 3)[3]
        served = httpx.get(emu.base_url + path)
        assert served.status_code == 200 and served.content == b"kept"


def test_over_the_limit_is_413_and_nothing_is_stored(emu: Emulator) -> None:
    assert upload_limit() == UPLOAD_LIMIT_BYTES == 20 * 1024 * 1024
    with bot(emu) as http:
        under = _post(http, {}, {"files[0]": ("big.bin", b"\0" * (UPLOAD_LIMIT_BYTES - 1024), "application/octet-stream")})
        assert under.status_code == 200, under.text
        over = _post(http, {"content": "too big"}, {"files[0]": ("a.bin", b"\0" * (UPLOAD_LIMIT_BYTES // 2), "x/y"),
                                                    "files[1]": ("b.bin", b"\0" * (UPLOAD_LIMIT_BYTES // 2 + 1), "x/y")})
        assert over.status_code == 413 and over.json()["code"] == 40005
        assert len(http.get(f"/channels/{GENERAL}/messages").json()) == 1
    assert emu.state.db.query_one("SELECT COUNT(*) FROM message_attachments")[0] == 1


def test_spoilers_and_editing_attachments(emu: Emulator) -> None:
    with bot(emu) as http:
        message = _post(http, {"attachments": [{"id": 0, "is_spoiler": True}, {"id": 1}]},
                        {"files[0]": ("cat.png", b"png", "image/png"),
                         "files[1]": ("SPOILER_dog.png", b"png2", "image/png"),
                         "files[2]": ("plain.png", b"png3", "image/png")}).json()
        cat, dog, plain = message["attachments"]
        assert cat["flags"] & IS_SPOILER and dog["flags"] & IS_SPOILER and not plain["flags"] & IS_SPOILER
        edited = http.patch(f"/channels/{GENERAL}/messages/{message['id']}", json={"attachments": [
            {"id": cat["id"], "is_spoiler": False, "description": "a cat"}, {"id": plain["id"], "is_spoiler": True}]})
        assert edited.status_code == 200, edited.text
        kept = {a["id"]: a for a in edited.json()["attachments"]}
        assert set(kept) == {cat["id"], plain["id"]}   # dog was left out: removed
        assert not kept[cat["id"]]["flags"] & IS_SPOILER and kept[cat["id"]]["description"] == "a cat"
        assert kept[plain["id"]]["flags"] & IS_SPOILER
    assert httpx.get(dog["url"]).status_code == 404
    with bot(emu) as http:
        added = http.patch(f"/channels/{GENERAL}/messages/{message['id']}",
                           data={"payload_json": json.dumps({"attachments": [{"id": cat["id"]}, {"id": 0}]})},
                           files={"files[0]": ("new.txt", b"new", "text/plain")})
        assert [a["filename"] for a in added.json()["attachments"]] == ["cat.png", "new.txt"]
        unknown = http.patch(f"/channels/{GENERAL}/messages/{message['id']}", json={"attachments": [{"id": 5}]})
        assert unknown.status_code == 400 and "attachments" in unknown.json()["errors"]


def test_attach_files_permission(emu: Emulator) -> None:
    everyone = int(emu.state.db.query_one("SELECT permissions FROM roles WHERE id = ?", (GUILD_ID,))[0])
    set_role_permissions(emu, GUILD_ID, everyone & ~Permission.ATTACH_FILES)
    with bot(emu) as http:
        refused = _post(http, {}, {"files[0]": ("a.txt", b"x", "text/plain")})
        assert refused.status_code == 403 and "ATTACH_FILES" in refused.json()["message"]
        assert http.post(f"/channels/{GENERAL}/messages", json={"content": "text is fine"}).status_code == 200
    assert emu.state.db.query_one("SELECT COUNT(*) FROM message_attachments")[0] == 0
