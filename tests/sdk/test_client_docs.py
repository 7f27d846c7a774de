"""The Python examples of docs/client.md run as written against a live emulator."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import platformpp
from platformpp import Client

from sdk_support import GAME_ID, pump_until

DOC = Path(__file__).resolve().parents[2] / "docs" / "client.md"


def python_example(containing: str) -> str:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    matches = [block for block in blocks if containing in block]
    assert len(matches) == 1, f"{len(matches)} python examples contain {containing!r}"
    return matches[0]


def run_example(client: Client, containing: str) -> None:
    statuses: list[Client.Status] = []
    client.set_status_changed_callback(lambda status, error, detail: statuses.append(status))
    exec(python_example(containing), {"client": client, "platformpp": platformpp, "GAME_ID": GAME_ID})
    pump_until(lambda: bool(statuses) and statuses[-1] is Client.Status.Ready)


def test_the_construction_example_uses_the_default_worlds_game() -> None:
    namespace: dict[str, Any] = {}
    exec(python_example("client.set_application_id("), namespace)
    assert namespace["client"].get_application_id() == GAME_ID


def test_the_pkce_example_signs_in_and_connects(client: Client) -> None:
    run_example(client, "client.authorize(AuthorizationArgs(")
    assert client.is_authenticated()


def test_the_provisional_account_example_connects(client: Client) -> None:
    run_example(client, "client.get_provisional_token(")
    assert client.is_authenticated()


def test_client_reads_the_documented_environment_variables(monkeypatch) -> None:
    monkeypatch.setenv("PLATFORMPP_API_BASE", "http://127.0.0.1:5123/api/v10/")
    monkeypatch.setenv("PLATFORMPP_WEB_BASE", "http://127.0.0.1:5123")
    client = Client()
    assert (client.get_api_base(), client.get_web_base()) == ("http://127.0.0.1:5123/api/v10", "http://127.0.0.1:5123")
    # Empty means unset: the build's defaults.
    monkeypatch.setenv("PLATFORMPP_API_BASE", "")
    monkeypatch.delenv("PLATFORMPP_WEB_BASE")
    client = Client()
    assert (client.get_api_base(), client.get_web_base()) == ("http://127.0.0.1:8787/api/v10", "http://127.0.0.1:8787")
    monkeypatch.setenv("PLATFORMPP_API_BASE", "not a url")
    with pytest.raises(platformpp.ValidationError) as error:
        Client()
    assert error.value.field == "api_base"
