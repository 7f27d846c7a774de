"""disnake's own auto moderation helpers, unchanged, against the emulator: a keyword rule created, listed,
fetched, edited and deleted (``Guild.create_automod_rule``, ``fetch_automod_rules``, ``fetch_automod_rule``,
``AutoModRule.edit`` / ``delete``, with the library's rule events), and a member's message the rule blocks,
seen through the library's ``on_automod_action_execution``."""

from __future__ import annotations

import disnake
import httpx
from disnake_bot import GENERAL, MODERATORS, make_bot_admin, running
from emulator_world import BOB, BOT_ID
from platformpp.emulator import Emulator


def test_automod_rules_and_an_enforced_block(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_bot_admin(emu)
    with running(emu, disnake.Client, intents=disnake.Intents.default()) as bot:
        client: disnake.Client = bot.client
        general = client.get_channel(GENERAL)
        guild = general.guild
        moderators = client.get_channel(MODERATORS)

        rule = bot.expect("automod_rule_create", lambda: bot.call(guild.create_automod_rule(
            name="No cake", event_type=disnake.AutoModEventType.message_send,
            trigger_type=disnake.AutoModTriggerType.keyword,
            trigger_metadata=disnake.AutoModTriggerMetadata(keyword_filter=["*cake*"], allow_list=["pancake"]),
            actions=[disnake.AutoModBlockMessageAction(custom_message="Not here"),
                     disnake.AutoModSendAlertAction(moderators)],
            enabled=True, exempt_channels=[moderators])))
        assert rule.name == "No cake" and rule.enabled and rule.creator_id == BOT_ID
        assert rule.trigger_metadata.keyword_filter == ["*cake*"]
        assert [type(a) for a in rule.actions] == [disnake.AutoModBlockMessageAction, disnake.AutoModSendAlertAction]
        assert rule.exempt_channel_ids == frozenset({MODERATORS})

        listed = bot.call(guild.fetch_automod_rules())
        assert [r.id for r in listed] == [rule.id]
        assert bot.call(guild.fetch_automod_rule(rule.id)).name == "No cake"
        edited = bot.expect("automod_rule_update", lambda: bot.call(rule.edit(name="Still no cake")))
        assert edited.name == "Still no cake" and edited.id == rule.id

        # Bob (a member without MANAGE_GUILD) writes the word: blocked, and the library hears each action
        def bob_posts() -> None:
            response = httpx.post(f"{emu.base_url}/_emulator/channels/{GENERAL}/messages",
                                  json={"author_id": str(BOB), "content": "who wants cheesecake?"})
            assert response.status_code == 400 and response.json()["code"] == 200000, response.text

        execution = bot.expect("automod_action_execution", bob_posts,
                               check=lambda e: e.action.type is disnake.AutoModActionType.block_message)
        assert execution.rule_id == rule.id and execution.user_id == BOB and execution.channel_id == GENERAL
        assert execution.rule_trigger_type is disnake.AutoModTriggerType.keyword
        assert execution.matched_keyword == "*cake*" and execution.message_id is None
        assert execution.guild.id == guild.id

        deleted = bot.expect("automod_rule_delete", lambda: bot.call(rule.delete()))
        assert deleted.id == rule.id
        assert bot.call(guild.fetch_automod_rules()) == []
        try:
            bot.call(guild.fetch_automod_rule(rule.id))
            raise AssertionError("the deleted rule is still there")
        except disnake.NotFound as missing:
            assert missing.code == 10066
