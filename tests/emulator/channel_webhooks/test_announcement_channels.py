"""Announcement channels: following one makes a channel follower webhook in the target channel, and a
crosspost marks the message CROSSPOSTED and writes it to every follower channel (IS_CROSSPOST, a
reference to the original, the source's name as author); permissions and wrong channel types refused
as the platform answers them; MESSAGE_CREATE of the copy over a real WebSocket."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from channel_helpers import GENERAL, Permission, grant_bot, set_message_content, user_posts
from platformpp.emulator import Emulator
from social_helpers import APP_ID, BOB, BOT_TOKEN, GUILD_ID, GatewayClient, bot

GUILDS, GUILD_MESSAGES, MESSAGE_CONTENT = 1 << 0, 1 << 9, 1 << 15
MANAGER = Permission.MANAGE_WEBHOOKS | Permission.MANAGE_CHANNELS
CROSSPOSTED, IS_CROSSPOST = 1 << 0, 1 << 1


def _announcements(http: httpx.Client) -> dict[str, Any]:
    response = http.post(f"/guilds/{GUILD_ID}/channels", json={"name": "news", "type": 5})
    assert response.status_code in (200, 201), response.text
    return dict(response.json())


def _follow(http: httpx.Client, source: str, target: int = GENERAL) -> httpx.Response:
    return http.post(f"/channels/{source}/followers", json={"webhook_channel_id": str(target)})


def test_following_makes_a_channel_follower_webhook(emu: Emulator) -> None:
    grant_bot(emu, MANAGER)
    with bot(emu) as http:
        news = _announcements(http)
        followed = _follow(http, news["id"])
        assert followed.status_code == 200, followed.text
        assert followed.json()["channel_id"] == news["id"]
        hook = http.get(f"/webhooks/{followed.json()['webhook_id']}").json()
        assert hook["type"] == 2 and hook["channel_id"] == str(GENERAL) and "token" not in hook
        assert hook["source_channel"] == {"id": news["id"], "name": "news"}
        assert hook["source_guild"]["id"] == str(GUILD_ID)
        not_news = _follow(http, str(GENERAL))
        assert not_news.status_code == 400 and not_news.json()["code"] == 50024
        missing = http.post(f"/channels/{news['id']}/followers", json={})
        assert missing.status_code == 400 and "webhook_channel_id" in missing.json()["errors"]
        grant_bot(emu, Permission.MANAGE_CHANNELS)
        refused = _follow(http, news["id"])
        assert refused.status_code == 403 and refused.json()["code"] == 50013
    assert emu.state.db.query_one("SELECT COUNT(*) FROM channel_webhooks")[0] == 1


def test_a_crosspost_reaches_every_follower_once(emu: Emulator) -> None:
    grant_bot(emu, MANAGER | Permission.MANAGE_MESSAGES)
    set_message_content(emu, APP_ID, True)
    with bot(emu) as http:
        news = _announcements(http)
        other = http.post(f"/guilds/{GUILD_ID}/channels", json={"name": "other", "type": 0}).json()
        assert _follow(http, news["id"]).status_code == 200
        assert _follow(http, news["id"], int(other["id"])).status_code == 200
        message = http.post(f"/channels/{news['id']}/messages", json={"content": "big news"}).json()
        crossposted = http.post(f"/channels/{news['id']}/messages/{message['id']}/crosspost")
        assert crossposted.status_code == 200, crossposted.text
        assert crossposted.json()["flags"] & CROSSPOSTED
        again = http.post(f"/channels/{news['id']}/messages/{message['id']}/crosspost")
        assert again.status_code == 400 and again.json()["code"] == 40033
        for channel in (str(GENERAL), other["id"]):
            copy = http.get(f"/channels/{channel}/messages", params={"limit": 1}).json()[0]
            assert copy["content"] == "big news" and copy["flags"] & IS_CROSSPOST and copy["webhook_id"]
            assert copy["message_reference"]["message_id"] == message["id"]
            assert copy["author"]["username"].endswith("#news")
        in_text = http.post(f"/channels/{GENERAL}/messages", json={"content": "x"}).json()
        wrong = http.post(f"/channels/{GENERAL}/messages/{in_text['id']}/crosspost")
        assert wrong.status_code == 400 and wrong.json()["code"] == 50024


def test_crossposting_anothers_message_needs_manage_messages(emu: Emulator) -> None:
    grant_bot(emu, MANAGER)
    with bot(emu) as http:
        news = _announcements(http)
    posted = user_posts(emu, int(news["id"]), BOB, content="from bob")
    assert posted.status_code == 200, posted.text
    with bot(emu) as http:
        refused = http.post(f"/channels/{news['id']}/messages/{posted.json()['id']}/crosspost")
        assert refused.status_code == 403 and refused.json()["code"] == 50013
        unknown = http.post(f"/channels/{news['id']}/messages/1200000000000009999/crosspost")
        assert unknown.status_code == 404 and unknown.json()["code"] == 10008
    flags = emu.state.db.query_one("SELECT flags FROM channel_messages WHERE id = ?", (int(posted.json()["id"]),))
    assert flags[0] & CROSSPOSTED == 0


def test_the_crossposted_copy_is_dispatched_in_the_follower_channel(emu: Emulator) -> None:
    grant_bot(emu, MANAGER)
    set_message_content(emu, APP_ID, True)
    with bot(emu) as http:
        news = _announcements(http)
        assert _follow(http, news["id"]).status_code == 200
        message = http.post(f"/channels/{news['id']}/messages", json={"content": "wire"}).json()

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILDS | GUILD_MESSAGES | MESSAGE_CONTENT)
        await client.dispatch("GUILD_CREATE")

        def crosspost() -> None:
            with bot(emu) as http:
                assert http.post(f"/channels/{news['id']}/messages/{message['id']}/crosspost").status_code == 200
        await asyncio.to_thread(crosspost)
        updated = (await client.dispatch("MESSAGE_UPDATE"))["d"]
        assert updated["id"] == message["id"] and updated["flags"] & CROSSPOSTED
        copy = (await client.dispatch("MESSAGE_CREATE"))["d"]
        assert copy["channel_id"] == str(GENERAL) and copy["flags"] & IS_CROSSPOST and copy["webhook_id"]
        await client.close()

    asyncio.run(scenario())
