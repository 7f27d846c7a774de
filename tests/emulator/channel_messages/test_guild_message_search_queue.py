"""The in-memory store's full-text queue (channel_messages/search.py): new messages enter the index in
batches, yet every search, edit and delete sees the index as if each message had been indexed at once,
across a batch boundary (256 queued messages) as well."""

from __future__ import annotations

import httpx
from channel_helpers import GENERAL, set_message_content, user_posts
from platformpp.emulator import Emulator
from social_helpers import ALICE, APP_ID, bot
from test_guild_message_search import SEARCH, _ids, _wait_indexed

POSTS = 300   # more than one batch


def test_search_edit_and_delete_see_every_queued_message(emu: Emulator) -> None:
    set_message_content(emu, APP_ID, True)
    assert _wait_indexed(emu).status_code == 200
    assert httpx.put(f"{emu.base_url}/_emulator/rate-limits", json={"limit": 1_000_000, "window_s": 1}).is_success
    with bot(emu) as http:
        own = http.post(f"/channels/{GENERAL}/messages", json={"content": "zebra stripes"}).json()["id"]
        assert _ids(http.get(SEARCH, params={"content": "zebra"})) == [own]   # read at once, before any batch
        posted = [user_posts(emu, GENERAL, ALICE, content=f"queued number{i}").json()["id"]
                  for i in range(POSTS)]
        everything = http.get(SEARCH, params={"content": "queued"})
        assert everything.json()["total_results"] == POSTS
        assert _ids(http.get(SEARCH, params={"content": "number0"})) == [posted[0]]
        assert _ids(http.get(SEARCH, params={"content": f"number{POSTS - 1}"})) == [posted[-1]]
        assert http.patch(f"/channels/{GENERAL}/messages/{own}", json={"content": "giraffe neck"}).is_success
        assert _ids(http.get(SEARCH, params={"content": "zebra"})) == []
        assert _ids(http.get(SEARCH, params={"content": "giraffe"})) == [own]
        assert http.delete(f"/channels/{GENERAL}/messages/{own}").status_code == 204
        assert _ids(http.get(SEARCH, params={"content": "giraffe"})) == []
        assert http.get(SEARCH, params={"content": "queued"}).json()["total_results"] == POSTS
