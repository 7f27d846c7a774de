"""``@original`` of a component interaction answered by updating the component's message (callback 6,
DEFERRED_UPDATE_MESSAGE, or 7, UPDATE_MESSAGE): it is the message the component is on, for GET and
PATCH through the interaction token, whether that is a channel message or an interaction's answer."""

from __future__ import annotations

from collections.abc import Callable

import httpx
from channel_helpers import GENERAL
from emulator_world import ALICE, APP_ID
from interaction_bots import GatewayBot, Replies
from platformpp.emulator import Emulator
from platformpp.emulator.simulated_user import SimulatedUser
from social_helpers import bot

BUTTONS = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}]


def test_original_after_a_deferred_update_is_the_channel_message_with_the_button(
        emu: Emulator, gateway_bot: GatewayBot, replies: Replies,
        platformpp_user: Callable[..., SimulatedUser]) -> None:
    with bot(emu) as http:
        sent = http.post(f"/channels/{GENERAL}/messages", json={"content": "press", "components": BUTTONS}).json()
    replies.next = lambda p: {"type": 6}
    platformpp_user(ALICE, channel_id=GENERAL).click(sent["id"], "go")
    hook = f"{emu.api_base}/webhooks/{APP_ID}/{gateway_bot.received[-1]['token']}"
    original = httpx.get(f"{hook}/messages/@original")
    assert original.status_code == 200, original.text
    assert original.json()["id"] == sent["id"] and original.json()["content"] == "press"
    edited = httpx.patch(f"{hook}/messages/@original", json={"content": "pressed", "components": [], "tts": False})
    assert edited.status_code == 200, edited.text
    assert edited.json()["id"] == sent["id"] and edited.json()["components"] == []
    with bot(emu) as http:
        assert http.get(f"/channels/{GENERAL}/messages/{sent['id']}").json()["content"] == "pressed"
    wrong = httpx.patch(f"{hook}/messages/@original", json={"content": 5})
    assert wrong.status_code == 400 and "content" in wrong.json()["errors"]


def test_original_after_an_update_message_is_the_answer_the_button_is_on(
        emu: Emulator, gateway_bot: GatewayBot, replies: Replies,
        platformpp_user: Callable[..., SimulatedUser]) -> None:
    with bot(emu) as http:
        assert http.post(f"/applications/{APP_ID}/commands", json={"name": "menu", "description": "d"}).status_code == 201
    alice = platformpp_user(ALICE, channel_id=GENERAL)
    replies.next = lambda p: {"type": 4, "data": {"content": "menu", "components": BUTTONS}}
    answer = alice.command("menu").message
    replies.next = lambda p: {"type": 7, "data": {"content": "chosen"}}
    alice.click(answer["id"], "go")
    hook = f"{emu.api_base}/webhooks/{APP_ID}/{gateway_bot.received[-1]['token']}"
    original = httpx.get(f"{hook}/messages/@original").json()
    assert original["id"] == answer["id"] and original["content"] == "chosen"
    edited = httpx.patch(f"{hook}/messages/@original", json={"content": "done", "components": []}).json()
    assert edited["id"] == answer["id"] and edited["content"] == "done"
    first_hook = f"{emu.api_base}/webhooks/{APP_ID}/{gateway_bot.received[0]['token']}"
    assert httpx.get(f"{first_hook}/messages/@original").json()["content"] == "done"
