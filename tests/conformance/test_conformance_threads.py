"""Conformance of the thread operations (threads in text and forum channels, archived and active lists,
search, thread members): every success and error body checked against the published schema."""

from __future__ import annotations

import httpx
import pytest
from emulator_world import ALICE, BOB, BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission

from conformance_client import ClientFactory

BOT = f"Bot {BOT_TOKEN}"
GENERAL, MODERATORS, BOT_ROLE = 1200000000000000101, 1200000000000000102, 1200000000000000011
THREADS = (Permission.CREATE_PUBLIC_THREADS | Permission.CREATE_PRIVATE_THREADS | Permission.MANAGE_THREADS
           | Permission.MANAGE_CHANNELS)


def grant_bot(emu: Emulator, bits: int) -> None:
    emu.state.db.execute("UPDATE roles SET permissions = ? WHERE id = ?", (str(int(bits)), BOT_ROLE))


def user_posts(emu: Emulator, channel_id: int, content: str) -> str:
    response = httpx.post(f"{emu.base_url}/_emulator/channels/{channel_id}/messages",
                          json={"author_id": str(ALICE), "content": content}, timeout=10)
    assert response.status_code == 200, response.text
    return str(response.json()["id"])


@pytest.mark.covers("POST /channels/{channel_id}/threads",
                    "POST /channels/{channel_id}/messages/{message_id}/threads",
                    "GET /guilds/{guild_id}/threads/active",
                    "GET /channels/{channel_id}/threads/archived/public",
                    "GET /channels/{channel_id}/threads/archived/private",
                    "GET /channels/{channel_id}/users/@me/threads/archived/private",
                    "GET /channels/{channel_id}/threads/search")
def test_threads(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.post(f"/channels/{GENERAL}/threads", json={"name": "t", "type": 11}).status_code == 403
    grant_bot(emu, THREADS)
    public = bot.post(f"/channels/{GENERAL}/threads", json={"name": "public", "type": 11})
    assert public.status_code == 201
    private = bot.post(f"/channels/{GENERAL}/threads", json={"name": "private"})   # private by default
    assert private.status_code == 201 and private.json()["type"] == 12
    assert bot.post(f"/channels/{GENERAL}/threads", json={"name": ""}).status_code == 400
    message_id = user_posts(emu, GENERAL, "start here")
    started = bot.post(f"/channels/{GENERAL}/messages/{message_id}/threads", json={"name": "from a message"})
    assert started.status_code == 201 and started.json()["id"] == message_id
    assert bot.post(f"/channels/{GENERAL}/messages/{message_id}/threads",
                    json={"name": "again"}).status_code == 400
    assert bot.post(f"/channels/{GENERAL}/messages/1/threads", json={"name": "none"}).status_code == 404
    assert bot.get(f"/guilds/{GUILD_ID}/threads/active").status_code == 200
    assert bot.get("/guilds/1/threads/active").status_code == 404
    for thread in (public, private):
        assert bot.patch(f"/channels/{thread.json()['id']}", json={"archived": True}).status_code == 200
    assert bot.get(f"/channels/{GENERAL}/threads/archived/public", params={"limit": 2}).status_code == 200
    assert bot.get(f"/channels/{GENERAL}/threads/archived/public", params={"before": "x"}).status_code == 400
    assert bot.get(f"/channels/{GENERAL}/threads/archived/private").status_code == 200
    assert bot.get(f"/channels/{MODERATORS}/threads/archived/private").status_code == 403
    mine = bot.get(f"/channels/{GENERAL}/users/@me/threads/archived/private")
    assert mine.status_code == 200 and [t["id"] for t in mine.json()["threads"]] == [private.json()["id"]]
    assert bot.get(f"/channels/{MODERATORS}/users/@me/threads/archived/private").status_code == 403
    found = bot.get(f"/channels/{GENERAL}/threads/search", params={"name": "PUB", "archived": "1"})
    assert found.status_code == 200 and found.json()["total_results"] == 1
    assert bot.get(f"/channels/{GENERAL}/threads/search", params={"limit": 26}).status_code == 400


@pytest.mark.covers("GET /channels/{channel_id}/thread-members",
                    "PUT /channels/{channel_id}/thread-members/@me",
                    "DELETE /channels/{channel_id}/thread-members/@me",
                    "GET /channels/{channel_id}/thread-members/{user_id}",
                    "PUT /channels/{channel_id}/thread-members/{user_id}",
                    "DELETE /channels/{channel_id}/thread-members/{user_id}")
def test_thread_members(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    grant_bot(emu, THREADS)
    thread = bot.post(f"/channels/{GENERAL}/threads", json={"name": "members", "type": 11}).json()["id"]
    assert bot.get(f"/channels/{thread}/thread-members").status_code == 403   # GUILD_MEMBERS not enabled
    emu.state.db.execute("UPDATE applications SET flags = flags | ? WHERE id = 1000000000000000000",
                         (1 << 15,))
    assert bot.put(f"/channels/{thread}/thread-members/{BOB}").status_code == 204
    assert bot.put(f"/channels/{thread}/thread-members/1").status_code == 404
    listed = bot.get(f"/channels/{thread}/thread-members", params={"with_member": "true", "limit": 1})
    assert listed.status_code == 200 and len(listed.json()) == 1 and "member" in listed.json()[0]
    assert bot.get(f"/channels/{thread}/thread-members", params={"limit": 0}).status_code == 400
    assert bot.get(f"/channels/{thread}/thread-members/{BOB}").status_code == 200
    assert bot.get(f"/channels/{thread}/thread-members/{ALICE}").status_code == 404
    assert bot.delete(f"/channels/{thread}/thread-members/{BOB}").status_code == 204
    assert bot.delete(f"/channels/{thread}/thread-members/@me").status_code == 204
    assert bot.put(f"/channels/{thread}/thread-members/@me").status_code == 204
    assert bot.patch(f"/channels/{thread}", json={"archived": True}).status_code == 200
    assert bot.put(f"/channels/{thread}/thread-members/@me").status_code == 400      # archived: 50083
    assert bot.delete(f"/channels/{thread}/thread-members/@me").status_code == 400
    assert bot.delete(f"/channels/{thread}/thread-members/{BOB}").status_code == 400
    assert bot.delete("/channels/1/thread-members/@me").status_code == 404


def test_forum_posts_and_thread_channels_conform(emu: Emulator, client: ClientFactory) -> None:
    """Forum channels with their settings, a post with its first message, and the channel routes on
    a thread (GET / PATCH / DELETE), through the operations other files cover."""
    bot = client(BOT)
    grant_bot(emu, THREADS)
    forum = bot.post(f"/guilds/{GUILD_ID}/channels", json={
        "name": "help", "type": 15, "available_tags": [{"name": "bug", "emoji_name": "🐛"}],
        "default_reaction_emoji": {"emoji_name": "👍"}, "default_sort_order": 1, "default_forum_layout": 1})
    assert forum.status_code == 201
    tag = forum.json()["available_tags"][0]["id"]
    post = bot.post(f"/channels/{forum.json()['id']}/threads",
                    json={"name": "crash", "message": {"content": "it crashes"}, "applied_tags": [tag]})
    assert post.status_code == 201 and post.json()["message"]["content"] == "it crashes"
    assert bot.get(f"/channels/{post.json()['id']}").status_code == 200
    assert bot.patch(f"/channels/{post.json()['id']}", json={"auto_archive_duration": 61}).status_code == 400
    assert bot.delete(f"/channels/{post.json()['id']}").status_code == 200
