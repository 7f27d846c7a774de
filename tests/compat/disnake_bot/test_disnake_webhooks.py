"""disnake's webhook helpers against the emulator: a channel's webhook created, listed, sent through with
``wait`` and a username override, its message edited, the webhook edited and deleted; a partial webhook
made from the id and token alone (what ``Webhook.from_url`` makes; that helper only parses the platform's
own host, so the emulator's URL is taken apart here); an announcement channel followed and a message
published (crossposted) to the follower."""

from __future__ import annotations

import aiohttp
import disnake
from disnake_bot import GENERAL, enable_privileged, make_bot_admin, running
from platformpp.emulator import Emulator

IS_CROSSPOST = 1 << 1


def test_webhooks_follow_and_publish(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    enable_privileged(emu, "MESSAGE_CONTENT")
    make_bot_admin(emu)
    intents = disnake.Intents.default() | disnake.Intents(message_content=True)
    with running(emu, disnake.Client, intents=intents) as bot:
        client: disnake.Client = bot.client
        general: disnake.TextChannel = client.get_channel(GENERAL)
        guild = general.guild

        hook = bot.call(general.create_webhook(name="alerts", reason="monitoring"))
        assert hook.type is disnake.WebhookType.incoming and hook.channel_id == GENERAL and hook.token
        assert [w.id for w in bot.call(general.webhooks())] == [hook.id]
        assert [w.id for w in bot.call(guild.webhooks())] == [hook.id]

        sent = bot.expect("message", lambda: bot.call(hook.send("deploy done", wait=True, username="CI")),
                          check=lambda m: m.webhook_id == hook.id)
        assert sent.content == "deploy done" and sent.author.name == "CI" and sent.author.bot
        fetched = bot.call(hook.fetch_message(sent.id))
        assert fetched.webhook_id == hook.id and fetched.author.name == "CI"
        edited = bot.call(fetched.edit(content="deploy done (edited)"))
        assert edited.content == "deploy done (edited)"

        renamed = bot.call(hook.edit(name="alerts v2"))
        assert renamed.name == "alerts v2"

        async def by_token() -> disnake.WebhookMessage:
            webhook_id, token = hook.url.rstrip("/").split("/")[-2:]
            async with aiohttp.ClientSession() as session:
                partial = disnake.Webhook.partial(int(webhook_id), token, session=session)
                message = await partial.send("from a partial", wait=True)
                await partial.delete_message(message.id)
                return message
        from_partial = bot.call(by_token())
        assert from_partial.author.name == "alerts v2"
        bot.call(hook.delete())
        assert bot.call(general.webhooks()) == []

        news = bot.call(guild.create_text_channel("news", news=True))
        follower = bot.call(news.follow(destination=general))
        assert follower.type is disnake.WebhookType.channel_follower and follower.channel_id == GENERAL
        shown = bot.call(client.fetch_webhook(follower.id))
        assert shown.source_channel is not None and shown.source_channel.id == news.id
        assert shown.source_guild is not None and shown.source_guild.id == guild.id
        announced = bot.call(news.send("big news"))
        copy = bot.expect("message", lambda: bot.call(announced.publish()),
                          check=lambda m: m.channel.id == GENERAL and m.flags.is_crossposted)
        assert copy.content == "big news" and copy.webhook_id == follower.id
        assert copy.reference is not None and copy.reference.message_id == announced.id
        assert bot.call(news.fetch_message(announced.id)).flags.crossposted
