"""A user of the platform's client, played through the emulator's admin API (``POST
/_emulator/interactions``): runs commands, uses context menus, clicks buttons, chooses in selects,
types into autocompleting options and submits modals. Each call delivers one interaction to the app
and returns what the app answered (``Answer``), so a test drives a whole conversation with a bot.

The pytest fixture ``platformpp_user`` (pytest_plugin.py) makes one for the default world::

    def test_roll(platformpp_emulator, platformpp_user):
        alice = platformpp_user(ALICE_ID, channel_id=GENERAL_ID)
        answer = alice.command("roll", options=[{"name": "sides", "value": 6}])
        assert answer.message["content"].startswith("You rolled")

The app must answer while the call waits (a bot on another thread or process, or an interactions
endpoint URL). Errors of the emulator (a command the client would not offer, a bad value) raise
``SimulatedUserError`` with the platform's error body."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

import httpx

from .admin_error import AdminError
from .default_world import DEFAULT_APPLICATION_ID


class SimulatedUserError(AdminError):
    """The emulator refused what the simulated user did: ``status`` and the platform's error ``body``."""


class Answer(NamedTuple):
    """One interaction and what the app answered to it."""

    interaction: dict[str, Any]      # as delivered to the app (token included)
    answer: dict[str, Any]           # response_type, message, followups, modal, choices, error

    @property
    def id(self) -> str:
        return str(self.interaction["id"])

    @property
    def message(self) -> dict[str, Any] | None:
        return self.answer["message"]

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.answer["modal"]

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        return self.answer["choices"]

    @property
    def error(self) -> str | None:
        return self.answer["error"]


class SimulatedUser:
    """A user acting in ``channel_id`` (a guild channel, a DM or a group DM they are in), or in their
    DM with ``recipient_id`` (the app's bot user: the bot DM, context 1; anyone else: context 2)."""

    def __init__(self, base_url: str, user_id: int, *, channel_id: int | None = None, recipient_id: int | None = None,
                 application_id: int = DEFAULT_APPLICATION_ID, admin_secret: str | None = None,
                 wait_s: float = 3.0) -> None:
        if (channel_id is None) == (recipient_id is None):
            raise ValueError("SimulatedUser: give exactly one of channel_id and recipient_id")
        headers = {"Authorization": f"Bearer {admin_secret}"} if admin_secret else {}
        self._http = httpx.Client(base_url=base_url.rstrip("/") + "/_emulator", headers=headers, timeout=wait_s + 30)
        self.user_id, self.channel_id, self.application_id, self.wait_s = user_id, channel_id, application_id, wait_s
        self.recipient_id = recipient_id

    def close(self) -> None:
        self._http.close()

    def _act(self, body: dict[str, Any], files: dict[int, tuple[str, bytes, str]] | None = None) -> Answer:
        body = {"application_id": str(self.application_id), "user_id": str(self.user_id),
                "wait_s": self.wait_s, **body}
        if body.get("channel_id") is None:
            body.pop("channel_id", None)
            if body["action"] != "modal_submit":
                body.update({"channel_id": str(self.channel_id)} if self.channel_id is not None
                            else {"recipient_id": str(self.recipient_id)})
        if files:
            response = self._http.post("/interactions", data={"payload_json": json.dumps(body)},
                                       files={f"files[{n}]": spec for n, spec in files.items()})
        else:
            response = self._http.post("/interactions", json=body)
        if response.status_code != 200:
            raise SimulatedUserError(response.status_code, response.json())
        result = response.json()
        return Answer(result["interaction"], result["answer"])

    def command(self, name: str, options: list[dict[str, Any]] | None = None, *,
                files: dict[int, tuple[str, bytes, str]] | None = None, channel_id: int | None = None) -> Answer:
        """A chat-input command. An attachment option's value is n of ``files[n]`` (filename, bytes, type)."""
        return self._act({"action": "command", "command_name": name, "options": options or [],
                          "channel_id": None if channel_id is None else str(channel_id)}, files)

    def launch(self, name: str = "launch") -> Answer:
        """The app's entry point command (type 4) from the App Launcher: delivered to the app when its
        handler is APP_HANDLER (1); launched by the platform itself when PLATFORM_LAUNCH_ACTIVITY (2)."""
        return self._act({"action": "command", "command_name": name, "command_type": 4})

    def check_sku_purchase(self, sku_id: int | str) -> Answer:
        """The client asks the app whether this user may buy the SKU (interaction type 6); the app
        answers with callback type 13, shown in ``answer["eligibility"]``."""
        return self._act({"action": "sku_purchase_eligibility", "sku_id": str(sku_id)})

    def user_command(self, name: str, target_user_id: int) -> Answer:
        return self._act({"action": "command", "command_name": name, "command_type": 2,
                          "target_id": str(target_user_id)})

    def message_command(self, name: str, target_message_id: int | str) -> Answer:
        return self._act({"action": "command", "command_name": name, "command_type": 3,
                          "target_id": str(target_message_id)})

    def autocomplete(self, name: str, options: list[dict[str, Any]]) -> Answer:
        """``options``: what is typed so far; the option being typed has ``"focused": true``."""
        return self._act({"action": "autocomplete", "command_name": name, "options": options})

    def click(self, message_id: int | str, custom_id: str) -> Answer:
        return self._act({"action": "component", "message_id": str(message_id), "custom_id": custom_id})

    def choose(self, message_id: int | str, custom_id: str, values: list[Any]) -> Answer:
        return self._act({"action": "component", "message_id": str(message_id), "custom_id": custom_id,
                          "values": values})

    def submit_modal(self, answer: Answer | str, values: dict[str, Any], *,
                     files: dict[int, tuple[str, bytes, str]] | None = None) -> Answer:
        """Fill in the modal the app opened in ``answer``: ``{custom_id: value}`` (a File Upload's
        value lists the n of ``files[n]``)."""
        opener = answer.id if isinstance(answer, Answer) else str(answer)
        return self._act({"action": "modal_submit", "interaction_id": opener, "values": values}, files)

    def conversation(self, interaction_id: str) -> dict[str, Any]:
        """An interaction's answer now (after a deferred response was edited, followups sent)."""
        response = self._http.get(f"/interactions/{interaction_id}")
        if response.status_code != 200:
            raise SimulatedUserError(response.status_code, response.json())
        return dict(response.json())
