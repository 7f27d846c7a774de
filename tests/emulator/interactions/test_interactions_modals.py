"""Modals: the components a MODAL callback may hold (Label with exactly one child, Text Input, the
selects, Text Display, Radio Group / Checkbox Group / Checkbox only inside a Label, File Upload with
min/max between 0 and 10), a bad modal refused with 50035 at the bad component's path, and the
simulated user's submission checked against the modal and delivered as MODAL_SUBMIT (files in
``resolved.attachments``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from channel_helpers import GENERAL
from emulator_world import ALICE, APP_ID
from interaction_bots import GatewayBot
from platformpp.emulator import Emulator
from platformpp.emulator.simulated_user import SimulatedUser, SimulatedUserError
from social_helpers import bot

RADIO = {"type": 21, "custom_id": "class", "options": [{"label": "Mage", "value": "mage"},
                                                         {"label": "Rogue", "value": "rogue"}]}
CHECKS = {"type": 22, "custom_id": "perks", "min_values": 1, "max_values": 2, "options": [
    {"label": "Speed", "value": "speed"}, {"label": "Luck", "value": "luck"}, {"label": "Wit", "value": "wit"}]}
MODAL = {"custom_id": "signup", "title": "Sign up", "components": [
    {"type": 10, "content": "Tell us about your hero"},
    {"type": 18, "label": "Name", "component": {"type": 4, "custom_id": "name", "style": 1, "min_length": 2,
                                                "max_length": 10}},
    {"type": 18, "label": "Class", "component": RADIO},
    {"type": 18, "label": "Perks", "component": CHECKS},
    {"type": 18, "label": "Rules", "component": {"type": 23, "custom_id": "rules"}},
    {"type": 18, "label": "Portrait", "component": {"type": 19, "custom_id": "portrait", "min_values": 1,
                                                    "max_values": 2}},
    {"type": 18, "label": "Motto", "component": {"type": 4, "custom_id": "motto", "style": 2, "required": False}},
]}


def with_label(child: dict[str, Any]) -> dict[str, Any]:
    return {"custom_id": "m", "title": "T", "components": [{"type": 18, "label": "L", "component": child}]}


class ModalBot:
    """Answers the command with ``modal``, and a submission with the answers it received."""

    def __init__(self) -> None:
        self.modal: dict[str, Any] = MODAL

    def __call__(self, payload: dict[str, Any]) -> dict[str, Any]:
        if payload["type"] == 5:
            return {"type": 4, "data": {"content": "thanks", "flags": 64}}
        return {"type": 9, "data": self.modal}


@pytest.fixture
def modal_bot(emu: Emulator) -> Iterator[tuple[ModalBot, GatewayBot]]:
    with bot(emu) as http:
        assert http.post(f"/applications/{APP_ID}/commands", json={"name": "signup", "description": "d"}).status_code == 201
    handler = ModalBot()
    with GatewayBot(emu.base_url, handler) as running:
        yield handler, running


@pytest.fixture
def alice(platformpp_user: Callable[..., SimulatedUser]) -> SimulatedUser:
    return platformpp_user(ALICE, channel_id=GENERAL, wait_s=1.0)


def test_a_modal_is_opened_filled_in_and_submitted_with_files(modal_bot: tuple[ModalBot, GatewayBot],
                                                              alice: SimulatedUser) -> None:
    _, running = modal_bot
    opened = alice.command("signup")
    assert opened.modal is not None and opened.modal["title"] == "Sign up"
    submitted = alice.submit_modal(opened, {"name": "Ayla", "class": "rogue", "perks": ["luck", "wit"], "rules": True,
                                            "portrait": [0]}, files={0: ("ayla.png", b"\x89PNG....", "image/png")})
    assert submitted.message["content"] == "thanks" and submitted.message["flags"] & 64
    payload = running.received[-1]
    assert payload["type"] == 5 and payload["data"]["custom_id"] == "signup"
    answers = {row["component"]["custom_id"]: row["component"] for row in payload["data"]["components"]
               if row["type"] == 18}
    assert answers["name"]["value"] == "Ayla" and answers["class"]["value"] == "rogue"
    assert answers["perks"]["values"] == ["luck", "wit"] and answers["rules"]["value"] is True
    assert answers["motto"]["value"] == ""
    (attachment_id,) = answers["portrait"]["values"]
    attachment = payload["data"]["resolved"]["attachments"][attachment_id]
    assert attachment["filename"] == "ayla.png" and httpx.get(attachment["url"]).content == b"\x89PNG...."
    assert all(isinstance(row["id"], int) for row in payload["data"]["components"])


@pytest.mark.parametrize(("values", "path"), [
    ({"class": "rogue", "perks": ["luck"], "portrait": [0]}, "name"),                           # required
    ({"name": "A", "class": "rogue", "perks": ["luck"], "portrait": [0]}, "name"),              # too short
    ({"name": "Ayla", "class": "bard", "perks": ["luck"], "portrait": [0]}, "class"),           # not an option
    ({"name": "Ayla", "perks": ["luck"], "portrait": [0]}, "class"),                            # radio required
    ({"name": "Ayla", "class": "mage", "perks": ["luck", "wit", "speed"], "portrait": [0]}, "perks"),   # > max
    ({"name": "Ayla", "class": "mage", "perks": ["luck"], "portrait": []}, "portrait"),         # < min files
    ({"name": "Ayla", "class": "mage", "perks": ["luck"], "portrait": [5]}, "portrait"),        # no such upload
    ({"name": "Ayla", "class": "mage", "perks": ["luck"], "portrait": [0], "extra": 1}, "extra"),
])
def test_a_submission_that_breaks_the_modal_is_refused(modal_bot: tuple[ModalBot, GatewayBot], alice: SimulatedUser,
                                                       values: dict[str, Any], path: str) -> None:
    _, running = modal_bot
    opened = alice.command("signup")
    with pytest.raises(SimulatedUserError) as refused:
        alice.submit_modal(opened, values, files={0: ("a.png", b"x", "image/png")})
    assert refused.value.status == 400 and path in refused.value.body["errors"]["values"]
    assert [p["type"] for p in running.received] == [2]   # nothing was delivered


@pytest.mark.parametrize(("modal", "path"), [
    ({"custom_id": "m", "title": "T", "components": [RADIO]}, ["components", "0", "type"]),   # outside a Label
    ({"custom_id": "m", "title": "T", "components": [{"type": 1, "components": [CHECKS]}]},
     ["components", "0", "components", "0", "type"]),
    ({"custom_id": "m", "title": "T", "components": [{"type": 18, "label": "L", "components": [RADIO, CHECKS]}]},
     ["components", "0", "components"]),                                                        # one child only
    ({"custom_id": "m", "title": "T", "components": [{"type": 18, "label": "L"}]}, ["components", "0", "component"]),
    (with_label({"type": 19, "custom_id": "f", "max_values": 11}), ["components", "0", "component", "max_values"]),
    (with_label({"type": 19, "custom_id": "f", "min_values": 11}), ["components", "0", "component", "min_values"]),
    (with_label({"type": 19, "custom_id": "f", "min_values": 3, "max_values": 2}),
     ["components", "0", "component", "min_values"]),
    (with_label({"type": 21, "custom_id": "r", "options": [{"label": "a", "value": "a"}]}),
     ["components", "0", "component", "options"]),                                             # radio needs 2+
    (with_label({"type": 22, "custom_id": "c", "max_values": 4, "options": [{"label": "a", "value": "a"}]}),
     ["components", "0", "component", "max_values"]),
    (with_label({"type": 23, "custom_id": "c", "default": "yes"}), ["components", "0", "component", "default"]),
    (with_label({"type": 2, "style": 1, "label": "b", "custom_id": "b"}), ["components", "0", "component", "type"]),
    ({"custom_id": "m", "title": "x" * 46, "components": [{"type": 10, "content": "hi"}]}, ["title"]),
])
def test_a_bad_modal_is_refused_with_the_path_of_the_bad_component(emu: Emulator, modal_bot: tuple[ModalBot, GatewayBot],
                                                                  alice: SimulatedUser, modal: dict[str, Any],
                                                                  path: list[str]) -> None:
    handler, running = modal_bot
    handler.modal = modal
    answer = alice.command("signup")
    assert answer.error == "The application did not respond" and answer.modal is None
    payload = running.received[-1]
    refused = httpx.post(f"{emu.api_base}/interactions/{payload['id']}/{payload['token']}/callback",
                         json={"type": 9, "data": modal})
    assert refused.status_code == 400 and refused.json()["code"] == 50035
    node = refused.json()["errors"]
    for part in ["data", *path]:
        assert part in node, (path, refused.json())
        node = node[part]
    assert "_errors" in node


def test_modal_only_components_are_refused_in_messages(emu: Emulator) -> None:
    with bot(emu) as http:
        for component in ({"type": 18, "label": "L", "component": RADIO}, {"type": 1, "components": [RADIO]},
                          {"type": 1, "components": [{"type": 4, "custom_id": "t", "style": 1}]}):
            refused = http.post(f"/channels/{GENERAL}/messages", json={"content": "x", "components": [component]})
            assert refused.status_code == 400 and "components" in refused.json()["errors"], refused.text
        layout = http.post(f"/channels/{GENERAL}/messages", json={"flags": 1 << 15, "components": [
            {"type": 17, "components": [{"type": 10, "content": "Inside"}, {"type": 14}]}]})
        assert layout.status_code == 200, layout.text
        assert layout.json()["components"][0]["components"][1]["divider"] is True
