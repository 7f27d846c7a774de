"""Boolean query parameters are read as the platform reads them: ``true``/``false``/``1``/``0`` in any
case; anything else is 400 / 50035 naming the parameter (clients send ``1``, e.g. ``with_response=1``)."""

from __future__ import annotations

import io
from collections.abc import Callable

import httpx
import pytest
from channel_helpers import GENERAL, LOUNGE, grant_bot, set_clock
from emulator_world import ALICE, APP_ID, BOT_ID, GUILD_ID
from image_helpers import animated_gif, uri
from interaction_bots import GatewayBot, Replies
from PIL import Image
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission
from platformpp.emulator.simulated_user import SimulatedUser
from social_helpers import bot


def refused_naming(response: httpx.Response, name: str) -> bool:
    body = response.json()
    return (response.status_code == 400 and body["code"] == 50035
            and body["errors"][name]["_errors"][0]["code"] == "BOOLEAN_TYPE_COERCE")


@pytest.mark.parametrize("value, counted", [("1", True), ("true", True), ("True", True), ("TRUE", True),
                                            ("0", False), ("false", False), ("False", False)])
def test_get_guild_reads_every_spelling_of_with_counts(emu: Emulator, value: str, counted: bool) -> None:
    with bot(emu) as http:
        guild = http.get(f"/guilds/{GUILD_ID}", params={"with_counts": value})
    assert guild.status_code == 200, guild.text
    assert ("approximate_member_count" in guild.json()) is counted


@pytest.mark.parametrize("value", ["yes", "", "2", "truee"])
def test_a_value_that_is_not_a_boolean_is_refused_naming_the_parameter(emu: Emulator, value: str) -> None:
    with bot(emu) as http:
        assert refused_naming(http.get(f"/guilds/{GUILD_ID}", params={"with_counts": value}), "with_counts")
        assert refused_naming(http.get(f"/applications/{APP_ID}/commands", params={"with_localizations": value}),
                              "with_localizations")


def test_get_invite_with_counts_1(emu: Emulator) -> None:
    grant_bot(emu, Permission.CREATE_INSTANT_INVITE)
    with bot(emu) as http:
        invite = http.post(f"/channels/{GENERAL}/invites", json={"max_age": 0}).json()
        counted = http.get(f"/invites/{invite['code']}", params={"with_counts": "1"}).json()
        assert counted["approximate_member_count"] >= 1 and "approximate_presence_count" in counted
        assert "approximate_member_count" not in http.get(f"/invites/{invite['code']}",
                                                         params={"with_counts": "0"}).json()
        assert refused_naming(http.get(f"/invites/{invite['code']}", params={"with_counts": "on"}), "with_counts")


def test_scheduled_event_with_user_count_1(emu: Emulator) -> None:
    grant_bot(emu, Permission.CREATE_EVENTS)
    with bot(emu) as http:
        event = http.post(f"/guilds/{GUILD_ID}/scheduled-events", json={
            "name": "Hangout", "privacy_level": 2, "entity_type": 2, "channel_id": str(LOUNGE),
            "scheduled_start_time": "2030-06-01T18:00:00Z"}).json()
        assert httpx.put(f"{emu.base_url}/_emulator/guilds/{GUILD_ID}/scheduled-events/{event['id']}/users/{ALICE}"
                         ).status_code == 204
        one = http.get(f"/guilds/{GUILD_ID}/scheduled-events/{event['id']}", params={"with_user_count": "1"})
        assert one.json()["user_count"] == 1
        listed = http.get(f"/guilds/{GUILD_ID}/scheduled-events", params={"with_user_count": "1"}).json()
        assert listed[0]["user_count"] == 1
        users = http.get(f"/guilds/{GUILD_ID}/scheduled-events/{event['id']}/users", params={"with_member": "1"})
        assert "member" in users.json()[0]


def test_commands_with_localizations_1(emu: Emulator) -> None:
    path = f"/applications/{APP_ID}/commands"
    with bot(emu) as http:
        made = http.post(path, json={"name": "roll", "description": "d", "name_localizations": {"fr": "lancer"}})
        assert made.status_code == 201, made.text
        assert http.get(path, params={"with_localizations": "1"}).json()[0]["name_localizations"] == {"fr": "lancer"}
        assert "name_localizations" not in http.get(path, params={"with_localizations": "0"}).json()[0]


def test_cdn_animated_1_keeps_the_frames(emu: Emulator) -> None:
    with bot(emu) as http:
        me = http.patch(f"/guilds/{GUILD_ID}/members/@me", json={"banner": uri(animated_gif(), "gif")})
        assert me.status_code == 200, me.text
    url = f"{emu.base_url}/guilds/{GUILD_ID}/users/{BOT_ID}/banners/{me.json()['banner']}.webp"

    def frames(value: str) -> int:
        response = httpx.get(url, params={"animated": value})
        assert response.status_code == 200, response.text
        return int(getattr(Image.open(io.BytesIO(response.content)), "n_frames", 1))

    assert frames("1") == 2 and frames("True") == 2 and frames("0") == 1
    assert httpx.get(url, params={"animated": "yes"}).status_code == 400


def test_interaction_callback_with_response_1_answers_the_callback_response(
        emu: Emulator, gateway_bot: GatewayBot, replies: Replies,
        platformpp_user: Callable[..., SimulatedUser]) -> None:
    with bot(emu) as http:
        assert http.post(f"/applications/{APP_ID}/commands", json={"name": "ping", "description": "d"}).status_code == 201
    replies.next = lambda p: None   # the test answers
    set_clock(emu, "2026-11-01T00:00:00Z")   # frozen: the 3-second window does not run out
    started = platformpp_user(ALICE, channel_id=GENERAL, wait_s=0).command("ping")
    callback = f"{emu.api_base}/interactions/{started.id}/{started.interaction['token']}/callback"
    refused = httpx.post(callback, params={"with_response": "maybe"}, json={"type": 4, "data": {"content": "x"}})
    assert refused_naming(refused, "with_response")
    answered = httpx.post(callback, params={"with_response": "1"}, json={"type": 4, "data": {"content": "pong"}})
    assert answered.status_code == 200, answered.text
    body = answered.json()
    assert body["interaction"]["id"] == started.id and body["resource"]["message"]["content"] == "pong"
