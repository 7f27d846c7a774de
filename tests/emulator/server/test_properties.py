"""Property tests over a real server: whatever a client sends, the emulator answers a typed error (never
a 500), never echoes a credential back, and never records one in its request log."""

from __future__ import annotations

import json
import string
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from emulator_world import bot_headers
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from platformpp.emulator import Emulator
from platformpp.emulator.core.fixtures import default_world

TOKEN_FIELDS = ["grant_type", "code", "redirect_uri", "code_verifier", "client_id", "client_secret",
                "refresh_token", "scope", "subject_token", "subject_token_type", "external_auth_type",
                "external_auth_token"]
SECRET_FIELDS = ["code", "code_verifier", "client_secret", "refresh_token", "subject_token", "external_auth_token"]
GRANTS = ["authorization_code", "refresh_token", "client_credentials",
          "urn:ietf:params:oauth:grant-type:token-exchange", "password"]
PROPERTY_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12)
# A marked prefix, so a value can only be found in an answer if the answer echoed it.
secret_text = st.text(alphabet=string.ascii_letters + string.digits + "-_", min_size=4, max_size=40).map(
    lambda text: f"Zq9-{text}")


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    with Emulator() as emu, httpx.Client(base_url=emu.base_url, timeout=10) as http:
        http.put("/_emulator/rate-limits", json={"limit": 1_000_000, "window_s": 1})   # hypothesis is fast
        yield http


@PROPERTY_SETTINGS
@given(fields=st.dictionaries(st.sampled_from(TOKEN_FIELDS), secret_text, max_size=8), grant=st.sampled_from(GRANTS))
def test_token_endpoint_answers_oauth_errors_and_echoes_no_secret(client: httpx.Client, fields: dict[str, str],
                                                                  grant: str) -> None:
    response = client.post("/api/v10/oauth2/token", data={**fields, "grant_type": grant})
    assert response.status_code in (400, 401)
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert set(body) in ({"error", "error_description"}, {"code", "message"}, {"code", "message", "errors"})
    for name in SECRET_FIELDS:
        if name in fields:
            assert fields[name] not in response.text


@PROPERTY_SETTINGS
@given(body=json_values)
@pytest.mark.parametrize("method, path", [
    ("PUT", "/_emulator/clock"), ("PUT", "/_emulator/faults"), ("POST", "/_emulator/seed"),
    ("POST", "/api/v10/partner-sdk/token/bot"), ("POST", "/api/v10/partner-sdk/token"),
    ("POST", "/_emulator/users/1100000000000000002/ban"),
])
def test_any_json_body_gets_a_typed_answer(client: httpx.Client, method: str, path: str, body: Any) -> None:
    response = client.request(method, path, content=json.dumps(body), headers={
        "Content-Type": "application/json", **bot_headers()})
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert response.json()["code"] in (50035, 50109, 404, 10002, 401, 530001, 530002) or \
            response.json()["code"] >= 40001
    client.post("/_emulator/seed?reset=true", json=default_world())


@PROPERTY_SETTINGS
@given(values=st.dictionaries(st.sampled_from(SECRET_FIELDS + ["token", "secret", "access_token", "id_token"]),
                              secret_text, min_size=1, max_size=6))
def test_secrets_never_reach_the_request_log(client: httpx.Client, values: dict[str, str]) -> None:
    client.delete("/_emulator/requests")     # only this example's requests
    client.post("/api/v10/oauth2/token", data=values)
    client.post("/api/v10/oauth2/token/revoke", data=values)
    client.post("/api/v10/partner-sdk/token", json={"nested": values, **values})
    client.get("/oauth2/authorize", params=values)
    log = client.get("/_emulator/requests").text
    for value in values.values():
        assert value not in log
