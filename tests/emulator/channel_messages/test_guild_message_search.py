"""Search Guild Messages: FTS5 full-text matching with bm25 relevance, the schema's filters, paging,
the READ_MESSAGE_HISTORY and MESSAGE_CONTENT requirements, and asynchronous indexing (110000 until a
guild's indexing job has run; a new guild, or one marked through the admin API)."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from channel_helpers import GENERAL, MODERATORS, set_message_content, user_posts
from platformpp.emulator import Emulator
from social_helpers import ALICE, APP_ID, BOB, BOT_ID, GUILD_ID, bot

SEARCH = f"/guilds/{GUILD_ID}/messages/search"


def _wait_indexed(emu: Emulator, guild_id: int = GUILD_ID, timeout: float = 10.0) -> httpx.Response:
    deadline = time.monotonic() + timeout
    with bot(emu) as http:
        while True:
            answer = http.get(f"/guilds/{guild_id}/messages/search")
            if answer.status_code == 200 or time.monotonic() > deadline:
                return answer
            time.sleep(0.05)


def _ids(answer: httpx.Response) -> list[str]:
    assert answer.status_code == 200, answer.text
    return [group[0]["id"] for group in answer.json()["messages"]]


@pytest.fixture
def world(emu: Emulator) -> dict[str, str]:
    set_message_content(emu, APP_ID, True)
    assert _wait_indexed(emu).status_code == 200
    posts = {
        "one": user_posts(emu, GENERAL, ALICE, content="apple banana"),
        "many": user_posts(emu, GENERAL, ALICE, content="apple apple apple"),
        "cherry": user_posts(emu, GENERAL, BOB, content=f"cherry for <@{ALICE}> https://example.test/x"),
        "hidden": user_posts(emu, MODERATORS, ALICE, content="apple in the mods channel"),
    }
    ids = {name: answer.json()["id"] for name, answer in posts.items()}
    with bot(emu) as http:
        ids["bot"] = http.post(f"/channels/{GENERAL}/messages", data={"payload_json": json.dumps({"content": "apple pie"})},
                               files={"files[0]": ("pie.png", b"png", "image/png")}).json()["id"]
    return ids


def test_full_text_match_with_relevance_and_timestamp_order(emu: Emulator, world: dict[str, str]) -> None:
    with bot(emu) as http:
        by_time = http.get(SEARCH, params={"content": "apple"})
        assert _ids(by_time) == [world["bot"], world["many"], world["one"]]   # hidden channel left out
        assert by_time.json()["total_results"] == 3 and by_time.json()["doing_deep_historical_index"] is False
        assert _ids(http.get(SEARCH, params={"content": "apple", "sort_order": "asc"})) == [
            world["one"], world["many"], world["bot"]]
        relevance = _ids(http.get(SEARCH, params={"content": "apple", "sort_by": "relevance"}))
        assert relevance[0] == world["many"]   # bm25: three occurrences in a short message
        assert _ids(http.get(SEARCH, params={"content": "app"})) == []   # words, not substrings
        assert _ids(http.get(SEARCH, params={"content": "APPLE Banana"})) == [world["one"]]
        # FTS5 operators in the text are words, not syntax: every word must occur.
        assert _ids(http.get(SEARCH, params={"content": '"apple" OR NEAR('})) == []


def test_filters_and_paging(emu: Emulator, world: dict[str, str]) -> None:
    with bot(emu) as http:
        assert _ids(http.get(SEARCH, params={"author_id": str(BOB)})) == [world["cherry"]]
        assert _ids(http.get(SEARCH, params={"author_type": "bot"})) == [world["bot"]]
        assert world["bot"] not in _ids(http.get(SEARCH, params={"author_type": "-bot"}))
        assert _ids(http.get(SEARCH, params={"mentions": str(ALICE)})) == [world["cherry"]]
        assert _ids(http.get(SEARCH, params={"has": "link"})) == [world["cherry"]]
        assert _ids(http.get(SEARCH, params={"has": ["file", "image"]})) == [world["bot"]]
        assert world["bot"] not in _ids(http.get(SEARCH, params={"has": "-file"}))
        assert _ids(http.get(SEARCH, params={"min_id": world["many"], "max_id": world["bot"]})) == [world["cherry"]]
        page = http.get(SEARCH, params={"limit": 2, "offset": 1})
        assert _ids(page) == [world["cherry"], world["many"]] and page.json()["total_results"] == 4
        assert _ids(http.get(SEARCH, params={"channel_id": str(MODERATORS)})) == []   # silently excluded
        assert http.put(f"/channels/{GENERAL}/messages/pins/{world['one']}").status_code == 403   # no PIN_MESSAGES
    assert httpx.put(f"{emu.base_url}/_emulator/channels/{GENERAL}/pins/{world['one']}",
                     json={"user_id": str(ALICE)}).status_code == 204
    with bot(emu) as http:
        assert _ids(http.get(SEARCH, params={"pinned": "true"})) == [world["one"]]
        bad = http.get(SEARCH, params={"has": "sparkles", "limit": 26, "author_id": "x", "sort_by": "size"})
        assert bad.status_code == 400 and set(bad.json()["errors"]) == {"has", "limit", "author_id", "sort_by"}


def test_needs_message_content_and_membership(emu: Emulator, world: dict[str, str]) -> None:
    set_message_content(emu, APP_ID, False)
    with bot(emu) as http:
        refused = http.get(SEARCH)
        assert refused.status_code == 403 and "MESSAGE_CONTENT" in refused.json()["message"]
        assert http.get("/guilds/1/messages/search").status_code == 404
    assert BOT_ID


def test_a_new_guild_is_not_indexed_until_its_job_runs(emu: Emulator) -> None:
    set_message_content(emu, APP_ID, True)
    new_guild = 1300000000000000000
    with emu.state.db.transaction() as conn:
        conn.execute("INSERT INTO guilds (id, name, owner_id, created_at) VALUES (?, 'New', ?, '2026-01-01T00:00:00Z')",
                     (new_guild, ALICE))
        conn.execute("INSERT INTO roles (id, guild_id, name, permissions) VALUES (?, ?, '@everyone', ?)",
                     (new_guild, new_guild, str((1 << 10) | (1 << 16))))
        conn.execute("INSERT INTO members (guild_id, user_id, roles, joined_at) VALUES (?, ?, '[]', '2026-01-01')",
                     (new_guild, BOT_ID))
    with bot(emu) as http:
        first = http.get(f"/guilds/{new_guild}/messages/search")
        assert first.status_code == 202
        assert first.json()["code"] == 110000 and first.json()["retry_after"] > 0
    assert _wait_indexed(emu, new_guild).status_code == 200


def test_admin_marks_a_guild_not_indexed(emu: Emulator, world: dict[str, str]) -> None:
    admin = f"{emu.base_url}/_emulator/guilds/{GUILD_ID}/search-index"
    bad = httpx.post(admin, json={"indexed": "no", "index_after_s": -1})
    assert bad.status_code == 400 and set(bad.json()["errors"]) == {"indexed", "index_after_s"}
    marked = httpx.post(admin, json={"indexed": False, "index_after_s": 600})
    assert marked.status_code == 200 and marked.json()["indexed"] is False
    with bot(emu) as http:
        waiting = http.get(SEARCH, params={"content": "apple"})
        assert waiting.status_code == 202 and waiting.json()["code"] == 110000
    done = httpx.post(admin, json={"indexed": True})
    assert done.status_code == 200 and done.json()["documents_indexed"] == 5
    with bot(emu) as http:
        assert len(_ids(http.get(SEARCH, params={"content": "apple"}))) == 3
    httpx.post(admin, json={"indexed": False, "index_after_s": 0})
    assert _wait_indexed(emu).status_code == 200   # the job ran by itself
    assert httpx.post(f"{emu.base_url}/_emulator/guilds/1/search-index", json={"indexed": True}).status_code == 404


def test_the_index_is_rebuilt_after_a_snapshot_import(emu: Emulator, world: dict[str, str]) -> None:
    snapshot = httpx.get(f"{emu.base_url}/_emulator/snapshot").json()
    assert "message_search" not in snapshot["tables"]   # derived data: rebuilt, never copied
    assert httpx.post(f"{emu.base_url}/_emulator/reset", params={"world": "empty"}).status_code == 204
    assert httpx.post(f"{emu.base_url}/_emulator/snapshot", json=snapshot).status_code == 204
    answer = _wait_indexed(emu)
    assert answer.status_code == 200
    with bot(emu) as http:
        assert _ids(http.get(SEARCH, params={"content": "apple"})) == [world["bot"], world["many"], world["one"]]


def test_reply_link_embed_and_attachment_filters(emu: Emulator, world: dict[str, str]) -> None:
    with bot(emu) as http:
        reply = http.post(f"/channels/{GENERAL}/messages", json={
            "content": "see above", "message_reference": {"message_id": world["cherry"]},
            "embeds": [{"title": "a", "type": "article", "provider": {"name": "Example News"}}]}).json()
        assert _ids(http.get(SEARCH, params={"replied_to_message_id": world["cherry"]})) == [reply["id"]]
        assert _ids(http.get(SEARCH, params={"replied_to_user_id": str(BOB)})) == [reply["id"]]
        assert _ids(http.get(SEARCH, params={"replied_to_user_id": str(ALICE)})) == []
        assert _ids(http.get(SEARCH, params={"link_hostname": "EXAMPLE.test"})) == [world["cherry"]]
        assert _ids(http.get(SEARCH, params={"embed_provider": "example news"})) == [reply["id"]]
        assert _ids(http.get(SEARCH, params={"embed_type": ["article", "video"]})) == [reply["id"]]
        assert _ids(http.get(SEARCH, params={"attachment_extension": "png"})) == [world["bot"]]
        assert _ids(http.get(SEARCH, params={"attachment_filename": "PIE"})) == [world["bot"]]
        assert _ids(http.get(SEARCH, params={"attachment_filename": "cake"})) == []
        bad = http.get(SEARCH, params={"embed_type": "-image", "slop": 101})
        assert bad.status_code == 400 and set(bad.json()["errors"]) == {"embed_type", "slop"}
