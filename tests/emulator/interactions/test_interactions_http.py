"""Interactions delivered to an interactions endpoint URL: the URL is checked when it is set (a signed
PING answered with PONG, a badly signed request refused with 401) through ``PATCH /applications/@me``
and the admin API; interactions are POSTed signed with the app's Ed25519 key, the response body is
the app's answer, and an answer the platform would refuse fails the interaction."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from channel_helpers import GENERAL
from emulator_world import ALICE, APP_ID
from interaction_bots import EndpointBot
from platformpp.emulator import Emulator
from platformpp.emulator.simulated_user import SimulatedUser
from social_helpers import bot


def verify_key(emu: Emulator) -> str:
    return str(httpx.get(f"{emu.base_url}/_emulator/applications/{APP_ID}").json()["verify_key"])


def set_endpoint(emu: Emulator, url: str | None) -> httpx.Response:
    return httpx.put(f"{emu.base_url}/_emulator/applications/{APP_ID}/interactions-endpoint", json={"url": url},
                     timeout=10)


def test_the_url_is_checked_when_set_through_patch_applications_me(emu: Emulator) -> None:
    key = verify_key(emu)
    with EndpointBot(lambda p: None, key) as good, bot(emu) as http:
        saved = http.patch("/applications/@me", json={"interactions_endpoint_url": good.url})
        assert saved.status_code == 200, saved.text
        assert saved.json()["interactions_endpoint_url"] == good.url and good.rejected == 1
    with EndpointBot(lambda p: None, key, check_signature=False) as careless, bot(emu) as http:
        refused = http.patch("/applications/@me", json={"interactions_endpoint_url": careless.url, "description": "x"})
        assert refused.status_code == 400
        assert "interactions_endpoint_url" in refused.json()["errors"]
        assert http.get("/applications/@me").json()["interactions_endpoint_url"] == good.url   # unchanged
        assert http.get("/applications/@me").json()["description"] != "x"
    with EndpointBot(lambda p: None, key, answer_ping=False) as no_pong:
        assert set_endpoint(emu, no_pong.url).status_code == 400
    assert set_endpoint(emu, "http://127.0.0.1:9/nobody").status_code == 400
    assert set_endpoint(emu, None).status_code == 204


@pytest.fixture
def alice(platformpp_user: Callable[..., SimulatedUser]) -> SimulatedUser:
    return platformpp_user(ALICE, channel_id=GENERAL)


def test_interactions_are_posted_signed_and_answered_in_the_response_body(emu: Emulator, alice: SimulatedUser) -> None:
    with bot(emu) as http:
        assert http.post(f"/applications/{APP_ID}/commands", json={"name": "hello", "description": "d"}).status_code == 201

    def answer(payload: dict[str, Any]) -> dict[str, Any]:
        return {"type": 4, "data": {"content": f"hi {payload['member']['user']['username']}"}}

    with EndpointBot(answer, verify_key(emu)) as endpoint:
        assert set_endpoint(emu, endpoint.url).status_code == 204
        result = alice.command("hello")
        assert result.answer["delivery"] == "http" and result.message["content"] == "hi alice"
        assert endpoint.received[0]["type"] == 2 and endpoint.received[0]["token"]
        # the token works for followups like a Gateway one
        hook = f"{emu.api_base}/webhooks/{APP_ID}/{endpoint.received[0]['token']}"
        assert httpx.post(hook, json={"content": "more"}).status_code == 200
        assert len(alice.conversation(result.id)["followups"]) == 1


def test_an_answer_the_platform_refuses_fails_the_interaction(emu: Emulator, alice: SimulatedUser) -> None:
    with bot(emu) as http:
        assert http.post(f"/applications/{APP_ID}/commands", json={"name": "odd", "description": "d"}).status_code == 201
    with EndpointBot(lambda p: {"type": 9, "data": {"custom_id": "m", "title": "T", "components": [
            {"type": 21, "custom_id": "r", "options": []}]}}, verify_key(emu)) as endpoint:
        assert set_endpoint(emu, endpoint.url).status_code == 204
        result = alice.command("odd")
    assert result.modal is None and "refused" in (result.error or "")
    assert '"data": {"components"' in (result.error or "")   # the path of the bad component
