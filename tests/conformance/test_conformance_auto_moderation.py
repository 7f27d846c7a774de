"""Conformance of the auto moderation rule operations, and of the error a blocked message answers:
every success and error body checked against the published schema."""

from __future__ import annotations

import pytest
from automod_helpers import keyword_rule, rules_path
from channel_helpers import BOT_ROLE, GENERAL, MODERATORS, grant_bot, set_role_permissions
from conformance_client import ClientFactory
from emulator_world import ALICE, BOB, BOT_TOKEN
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission

BOT = f"Bot {BOT_TOKEN}"


@pytest.mark.covers("GET /guilds/{guild_id}/auto-moderation/rules", "POST /guilds/{guild_id}/auto-moderation/rules",
                    "GET /guilds/{guild_id}/auto-moderation/rules/{rule_id}",
                    "PATCH /guilds/{guild_id}/auto-moderation/rules/{rule_id}",
                    "DELETE /guilds/{guild_id}/auto-moderation/rules/{rule_id}")
def test_auto_moderation_rules(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.get(rules_path()).status_code == 403
    assert bot.post(rules_path(), json=keyword_rule(["cake"])).status_code == 403
    grant_bot(emu, Permission.MANAGE_GUILD | Permission.MODERATE_MEMBERS)
    assert bot.post(rules_path(), json=keyword_rule(["k" * 61])).status_code == 400
    made = [bot.post(rules_path(), json=body) for body in (
        keyword_rule(["cake"], regex=["fo+"], allow=["pancake"], actions=[
            {"type": 1, "metadata": {"custom_message": "No"}}, {"type": 2, "metadata": {"channel_id": str(MODERATORS)}},
            {"type": 3, "metadata": {"duration_seconds": 60}}]),
        {"name": "spam", "event_type": 1, "trigger_type": 3, "actions": [{"type": 1}]},
        {"name": "preset", "event_type": 1, "trigger_type": 4, "trigger_metadata": {"presets": [1, 3]},
         "actions": [{"type": 1}], "enabled": True},
        {"name": "mentions", "event_type": 1, "trigger_type": 5, "trigger_metadata": {"mention_total_limit": 3},
         "actions": [{"type": 1}]},
        {"name": "profile", "event_type": 2, "trigger_type": 6, "trigger_metadata": {"keyword_filter": ["x"]},
         "actions": [{"type": 4}], "exempt_roles": [str(BOT_ROLE)]})]
    assert [r.status_code for r in made] == [200] * 5, [r.text for r in made]
    assert len(bot.get(rules_path()).json()) == 5
    rule_id = made[0].json()["id"]
    assert bot.get(rules_path(rule_id)).json() == made[0].json()
    assert bot.get(rules_path("1")).status_code == 404
    assert bot.patch(rules_path(rule_id), json={"name": ""}).status_code == 400
    assert bot.patch(rules_path(rule_id), json={"name": "renamed", "enabled": True}).status_code == 200
    assert bot.delete(rules_path(rule_id)).status_code == 204
    assert bot.delete(rules_path(rule_id)).status_code == 404


@pytest.mark.covers("POST /channels/{channel_id}/messages")
def test_a_message_the_rules_block(emu: Emulator, client: ClientFactory) -> None:
    """A bot is never screened (its message is stored); its answers, and a user's blocked post of the
    same words through the admin API, keep to the schema's bodies."""
    import httpx

    bot = client(BOT)
    grant_bot(emu, Permission.MANAGE_GUILD)
    assert bot.post(rules_path(), json=keyword_rule(["cake"])).status_code == 200
    set_role_permissions(emu, BOT_ROLE, int(Permission.MANAGE_GUILD | Permission.SEND_MESSAGES))
    assert bot.post(f"/channels/{GENERAL}/messages", json={"content": "cake"}).status_code == 200
    assert bot.post(f"/channels/{GENERAL}/messages", json={"content": ""}).status_code == 400
    refused = httpx.post(f"{emu.base_url}/_emulator/channels/{GENERAL}/messages",
                         json={"author_id": str(BOB), "content": "cake"})
    assert refused.status_code == 400 and refused.json() == {
        "code": 200000, "message": "Message was blocked by automatic moderation"}
    assert httpx.post(f"{emu.base_url}/_emulator/channels/{GENERAL}/messages",
                      json={"author_id": str(ALICE), "content": "cake"}).status_code == 200
