"""Errors as a Python user reads them: Python names of fields and methods, public classes, messages that
do not repeat the class, enum names in print(), and no stray copy of SDK log lines on stderr."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import traceback

import pytest

import platformpp
from platformpp import Client


def test_a_validation_error_names_the_python_field_and_its_class_is_public() -> None:
    with pytest.raises(platformpp.ValidationError) as caught:
        Client("not a url", "http://127.0.0.1:9")
    assert caught.value.field == "api_base"
    assert str(caught.value).startswith("api_base: ")
    assert type(caught.value).__module__ == "platformpp"
    text = "".join(traceback.format_exception(caught.value))
    assert "platformpp.ValidationError: api_base: " in text and "_platformpp" not in text.splitlines()[-1]


def test_a_failed_call_says_what_to_call_in_python_and_does_not_repeat_its_class() -> None:
    client = Client("http://127.0.0.1:9/api/v10", "http://127.0.0.1:9")
    with pytest.raises(platformpp.ClientNotReady) as caught:
        asyncio.run(client.create_or_join_lobby_async("friday-night", timeout=5))
    message = str(caught.value)
    assert "update_token()" in message and "UpdateToken" not in message
    assert not message.startswith("ClientNotReady")
    assert caught.value.result is not None and caught.value.result.type == platformpp.ErrorType.ClientNotReady


def test_print_of_an_enum_shows_its_name_and_it_stays_an_int() -> None:
    assert str(Client.Status.Ready) == "Status.Ready"
    assert Client.Status.Ready == int(Client.Status.Ready) and f"{Client.Status.Ready:d}".isdigit()


def test_sdk_log_lines_are_not_written_to_stderr_when_the_program_configures_no_logging() -> None:
    program = (
        "import time, platformpp\n"
        "client = platformpp.Client('http://127.0.0.1:9/api/v10', 'http://127.0.0.1:9')\n"
        "seen = []\n"
        "client.on('status_changed', lambda *args: seen.append(args))\n"
        "client.connect()  # no token: the SDK logs an error line\n"
        "while not seen:\n"
        "    platformpp.run_callbacks(); time.sleep(0.002)\n"
        "try:\n"
        "    platformpp.Client('not a url', 'http://127.0.0.1:9')\n"
        "except platformpp.ValidationError as error:\n"
        "    print(error.field)\n"
    )
    # An editable install may announce its rebuild on stdout: that is the build tool's, not the SDK's.
    env = {**os.environ, "SKBUILD_EDITABLE_VERBOSE": "0"}
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=600, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "api_base\n"
    assert result.stderr == ""
