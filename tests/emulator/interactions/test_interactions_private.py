"""Interactions outside guilds and those the platform answers itself: a simulated user in the DM
with the app's bot user (context 1), in another DM or a group DM (context 2), launching an entry
point command (handled by the app, or launched by the platform), and the SKU purchase eligibility
check answered with callback type 13."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from emulator_world import ALICE, APP_ID, BOB, BOT_ID, CAROL
from interaction_bots import GatewayBot, Replies
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission
from platformpp.emulator.simulated_user import SimulatedUser, SimulatedUserError
from social_helpers import bot

IN_PRIVATE = Permission.ATTACH_FILES | Permission.EMBED_LINKS | Permission.MENTION_EVERYONE
GROUP_DM_ID = 1300000000000000077


def create(emu: Emulator, body: dict[str, Any]) -> dict[str, Any]:
    with bot(emu) as http:
        response = http.post(f"/applications/{APP_ID}/commands", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def test_a_command_in_the_dm_with_the_bot_has_context_1_and_no_guild(
        emu: Emulator, gateway_bot: GatewayBot, platformpp_user: Callable[..., SimulatedUser]) -> None:
    create(emu, {"name": "hello", "description": "d"})   # a guild install ([0]), every context
    alice = platformpp_user(ALICE, recipient_id=BOT_ID)
    answer = alice.command("hello")
    assert answer.error is None and answer.message["content"] == "ok"
    payload = gateway_bot.received[0]
    assert payload["context"] == 1 and payload["user"]["id"] == str(ALICE)
    for absent in ("member", "guild_id", "guild", "guild_locale"):
        assert absent not in payload
    assert payload["authorizing_integration_owners"] == {"0": "0"}
    assert int(payload["app_permissions"]) == IN_PRIVATE | Permission.USE_EXTERNAL_EMOJIS
    channel = payload["channel"]
    assert channel["type"] == 1 and [r["id"] for r in channel["recipients"]] == [str(BOT_ID)]
    assert payload["channel_id"] == channel["id"]
    assert answer.message["channel_id"] == channel["id"] and "guild_id" not in answer.message
    alice.command("hello")   # the same DM channel again
    assert gateway_bot.received[1]["channel_id"] == channel["id"]


def test_other_dms_need_a_user_install_and_carry_context_2(
        emu: Emulator, gateway_bot: GatewayBot, platformpp_user: Callable[..., SimulatedUser]) -> None:
    create(emu, {"name": "guildonly", "description": "d", "integration_types": [0]})
    create(emu, {"name": "anywhere", "description": "d", "integration_types": [0, 1]})
    create(emu, {"name": "inguilds", "description": "d", "integration_types": [0, 1], "contexts": [0]})
    alice = platformpp_user(ALICE, recipient_id=BOB)
    with pytest.raises(SimulatedUserError) as refused:
        alice.command("guildonly")
    assert refused.value.status == 403 and refused.value.body["code"] == 50013
    with pytest.raises(SimulatedUserError) as outside:
        alice.command("inguilds")
    assert outside.value.status == 403 and "context" in outside.value.body["message"]
    assert gateway_bot.received == []
    answer = alice.command("anywhere")
    assert answer.message["content"] == "ok"
    payload = gateway_bot.received[0]
    assert payload["context"] == 2 and payload["authorizing_integration_owners"] == {"1": str(ALICE)}
    assert int(payload["app_permissions"]) == IN_PRIVATE
    assert [r["id"] for r in payload["channel"]["recipients"]] == [str(BOB)]


def test_a_group_dm_is_context_2_for_its_recipients_only(
        emu: Emulator, gateway_bot: GatewayBot, platformpp_user: Callable[..., SimulatedUser]) -> None:
    seeded = httpx.post(f"{emu.base_url}/_emulator/seed", json={"group_dms": [
        {"id": str(GROUP_DM_ID), "name": "raid", "owner_id": str(ALICE), "recipients": [str(BOB)]}]})
    assert seeded.status_code == 204, seeded.text
    create(emu, {"name": "roll", "description": "d", "integration_types": [1],
                 "options": [{"type": 6, "name": "who", "description": "w"}]})
    answer = platformpp_user(ALICE, channel_id=GROUP_DM_ID).command("roll", [{"name": "who", "value": str(BOB)}])
    assert answer.message["channel_id"] == str(GROUP_DM_ID)
    payload = gateway_bot.received[0]
    assert payload["context"] == 2 and payload["channel"]["type"] == 3 and payload["channel"]["name"] == "raid"
    assert [r["id"] for r in payload["channel"]["recipients"]] == [str(BOB)]
    resolved = payload["data"]["resolved"]
    assert set(resolved["users"]) == {str(BOB)} and "members" not in resolved
    with pytest.raises(SimulatedUserError) as stranger:
        platformpp_user(CAROL, channel_id=GROUP_DM_ID).command("roll")
    assert stranger.value.status == 403 and stranger.value.body["code"] == 50001


def test_an_entry_point_is_handled_by_the_app_or_launched_by_the_platform(
        emu: Emulator, gateway_bot: GatewayBot, replies: Replies,
        platformpp_user: Callable[..., SimulatedUser]) -> None:
    command = create(emu, {"name": "launch", "description": "Play", "type": 4, "handler": 1,
                           "integration_types": [0, 1], "contexts": [0, 1, 2]})
    replies.next = lambda payload: {"type": 12}
    alice = platformpp_user(ALICE, recipient_id=BOT_ID)
    handled = alice.launch()
    payload = gateway_bot.received[0]
    assert payload["type"] == 2 and payload["data"]["type"] == 4 and payload["data"]["name"] == "launch"
    assert handled.answer["response_type"] == 12 and handled.answer["delivery"] == "gateway"
    assert handled.answer["activity_instance_id"].startswith("i-")
    with bot(emu) as http:
        changed = http.patch(f"/applications/{APP_ID}/commands/{command['id']}", json={"handler": 2})
        assert changed.status_code == 200 and changed.json()["handler"] == 2, changed.text
    launched = alice.launch()
    assert len(gateway_bot.received) == 1   # the app was not asked
    assert launched.answer["delivery"] == "platform" and launched.answer["response_type"] == 12
    assert launched.answer["activity_instance_id"] != handled.answer["activity_instance_id"]
    assert launched.answer["error"] is None


def test_the_sku_purchase_eligibility_check_is_answered_with_callback_type_13(
        emu: Emulator, gateway_bot: GatewayBot, replies: Replies,
        platformpp_user: Callable[..., SimulatedUser]) -> None:
    made = httpx.post(f"{emu.base_url}/_emulator/applications/{APP_ID}/skus", json={"type": 5, "name": "Premium"})
    assert made.status_code in (200, 201), made.text
    sku_id = made.json()["id"]
    alice = platformpp_user(ALICE, recipient_id=BOT_ID, wait_s=0.5)
    replies.next = lambda payload: {"type": 4, "data": {"content": "not this"}}
    wrong = alice.check_sku_purchase(sku_id)
    assert wrong.error == "The application did not respond" and gateway_bot.callback_statuses[-1] == 400
    replies.next = lambda payload: {"type": 13, "data": {"ineligible_reason": 1}}
    alice.check_sku_purchase(sku_id)
    assert gateway_bot.callback_statuses[-1] == 400   # eligible is required
    replies.next = lambda payload: {"type": 13, "data": {"eligible": False, "ineligible_reason": 1,
                                                         "ineligible_reason_description": "You own it"}}
    answer = alice.check_sku_purchase(sku_id)
    payload = gateway_bot.received[-1]
    assert payload["type"] == 6 and payload["data"] == {"sku_id": sku_id}
    assert answer.answer["response_type"] == 13 and answer.answer["eligibility"] == {
        "eligible": False, "ineligible_reason": 1, "ineligible_reason_description": "You own it"}
    create(emu, {"name": "hello", "description": "d"})
    replies.next = lambda payload: {"type": 13, "data": {"eligible": True}}
    assert alice.command("hello").error == "The application did not respond"   # 13 answers only type 6
    assert gateway_bot.callback_statuses[-1] == 400
    with pytest.raises(SimulatedUserError) as unknown:
        alice.check_sku_purchase(1)
    assert unknown.value.status == 400 and "sku_id" in unknown.value.body["errors"]
