"""Bad input at the door: JSON nested too deep, text with lone surrogates, bodies past the size limit
and attachment names with a path in them, over HTTP and the Gateway (the IPC socket: ipc/test_ipc_bad_input.py). Each is refused
with its typed error, nothing is stored, and the connection (or the next one) is served as before."""

from __future__ import annotations

import asyncio
import base64
import json
import os
from collections.abc import Iterator

import httpx
import pytest
from emulator_world import APP_ID, CLIENT_SECRET, GUILD_ID, bot_headers
from platformpp.emulator import Emulator
from platformpp.emulator.core.jwt import JwtError, verify
from platformpp.emulator.gateway.hub import get_hub
from social_helpers import ALICE, BOT_TOKEN, GatewayClient, user_token

DEEP = "[" * 100_000 + "]" * 100_000
# Within the Gateway's 4096-byte payload limit, yet deeper than the interpreter's recursion limit.
DEEP_FRAME = '{"op":1,"d":' + "[" * 2000 + "]" * 2000 + "}"
SURROGATE = '"\\ud800"'   # valid JSON text, but no UTF-8 form: the string holds a lone surrogate
INVALID_JSON = {"code": 50109, "message": "The request body contains invalid JSON."}
PROPS = {"os": "linux", "browser": "tests", "device": "tests"}
CHUNK = b"a" * 65536


@pytest.fixture
def bot_http(emu: Emulator) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=emu.api_base, headers=bot_headers(), timeout=30) as client:
        yield client


@pytest.fixture
def channel_id(bot_http: httpx.Client) -> int:
    channels = bot_http.get(f"/guilds/{GUILD_ID}/channels").json()
    return int(next(c["id"] for c in channels if c["type"] == 0))


def _multipart(payload_json: str) -> dict[str, object]:
    return {"files": {"payload_json": (None, payload_json, "application/json"),
                      "files[0]": ("a.txt", b"hello", "text/plain")}}


def _requests(channel_id: int, text: str) -> list[tuple[str, str, dict[str, object]]]:
    """One JSON body on each reader: a message (the uploads reader), its multipart ``payload_json``,
    and a guild update (the request kit's ``read_json``)."""
    headers = {"content-type": "application/json"}
    return [("POST", f"/channels/{channel_id}/messages", {"content": text, "headers": headers}),
            ("POST", f"/channels/{channel_id}/messages", _multipart(text)),
            ("PATCH", f"/guilds/{GUILD_ID}", {"content": text, "headers": headers})]


@pytest.mark.parametrize("body", [DEEP, '{"content": ' + SURROGATE + "}", '{"content": "ok", "embeds": [{"description": '
                                  + SURROGATE + "}]}", '{"name": ' + SURROGATE + "}", '{"\\udfff": 1}'])
def test_json_too_deep_or_with_a_lone_surrogate_is_400_50109_and_the_connection_goes_on(
        bot_http: httpx.Client, channel_id: int, body: str) -> None:
    before = bot_http.get(f"/channels/{channel_id}/messages").json()
    guild = bot_http.get(f"/guilds/{GUILD_ID}").json()
    for method, path, kwargs in _requests(channel_id, body):
        answer = bot_http.request(method, path, **kwargs)   # type: ignore[arg-type]
        assert (answer.status_code, answer.json()) == (400, INVALID_JSON), (method, path, answer.text)
        # The same keep-alive connection answers the next request.
        assert bot_http.get("/users/@me").status_code == 200
    assert bot_http.get(f"/channels/{channel_id}/messages").json() == before   # nothing stored
    assert bot_http.get(f"/guilds/{GUILD_ID}").json()["name"] == guild["name"]


def test_paired_surrogate_escapes_are_text(bot_http: httpx.Client, channel_id: int) -> None:
    sent = bot_http.post(f"/channels/{channel_id}/messages", content='{"content": "\\ud83d\\ude00"}',
                         headers={"content-type": "application/json"})
    assert sent.status_code == 200 and sent.json()["content"] == "\U0001F600"


async def _gateway_close(emu: Emulator, frame: str | bytes, identify: bool = False) -> int | None:
    client = await GatewayClient.connect(emu)
    assert (await client.recv())["op"] == 10
    if identify:
        await client.send({"op": 2, "d": {"token": BOT_TOKEN, "intents": 0, "properties": PROPS}})
        await client.dispatch("READY")
    await client.ws.send(frame)
    return await client.close_code()


@pytest.mark.parametrize("frame", [
    DEEP_FRAME, DEEP_FRAME.encode(),
    '{"op":2,"d":{"token":"x","intents":0,"properties":{"os":' + SURROGATE + ',"browser":"b","device":"d"}}}',
    ('{"op":3,"d":{"status":"online","afk":false,"since":null,"activities":[{"name":' + SURROGATE
     + ',"type":0}]}}').encode(),
])
def test_gateway_closes_4002_on_json_too_deep_or_with_a_lone_surrogate(emu: Emulator, frame: str | bytes) -> None:
    assert asyncio.run(_gateway_close(emu, frame, identify=b'"op":3' in (frame if isinstance(frame, bytes)
                                                                           else frame.encode()))) == 4002


@pytest.mark.parametrize("query", ["v=10&encoding=json", "v=10&encoding=json&compress=zlib-stream"])
def test_a_dispatch_that_cannot_be_encoded_closes_the_session_with_4000(emu: Emulator, query: str) -> None:
    async def scenario() -> int | None:
        client = await GatewayClient.connect(emu, query)
        ready = (await client.identify(user_token(emu, ALICE)))["d"]
        session = get_hub(emu.state).store.get(ready["session_id"])
        assert session is not None
        session.deliver("TEST_TEXT", {"text": "\ud800"})   # no UTF-8 form: cannot go on the wire
        return await client.close_code()

    assert asyncio.run(scenario()) == 4000


def _peak_rss_growth(send: object) -> tuple[object, int]:
    """What ``send()`` returns, and how far this process's peak RSS rose above its RSS meanwhile (the
    emulator runs in this process)."""
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")   # the peak (VmHWM) restarts from the current RSS
    status = dict(line.split(":", 1) for line in open("/proc/self/status"))
    start = int(status["VmRSS"].split()[0]) * 1024
    result = send()  # type: ignore[operator]
    status = dict(line.split(":", 1) for line in open("/proc/self/status"))
    return result, int(status["VmHWM"].split()[0]) * 1024 - start


def _streamed(mib: int) -> Iterator[bytes]:
    for _ in range(mib * 16):
        yield CHUNK   # 64 KiB at a time, no Content-Length: the server only learns the size by reading


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="needs Linux's /proc peak RSS reset")
@pytest.mark.parametrize("path, content_type", [
    ("/oauth2/token", "application/x-www-form-urlencoded"),
    (f"/guilds/{GUILD_ID}", "application/json"),
])
def test_a_50_mib_streamed_body_is_413_40005_with_memory_flat(emu: Emulator, path: str, content_type: str) -> None:
    with httpx.Client(base_url=emu.api_base, headers=bot_headers(), timeout=60) as client:
        method = "POST" if "oauth2" in path else "PATCH"
        answer, growth = _peak_rss_growth(lambda: client.request(
            method, path, content=_streamed(50), headers={"content-type": content_type}))
        assert isinstance(answer, httpx.Response)
        assert (answer.status_code, answer.json()["code"]) == (413, 40005), answer.text
        assert growth < 8 * 1024 * 1024, f"peak RSS rose by {growth / 2**20:.1f} MiB"
        assert client.get("/gateway").status_code == 200
    # A token request of ordinary size is still read as a form.
    token = httpx.post(f"{emu.api_base}/oauth2/token", data={"grant_type": "client_credentials", "scope": "identify",
                                                              "client_id": str(APP_ID), "client_secret": CLIENT_SECRET})
    assert token.status_code == 200, token.text


@pytest.mark.parametrize("name, served", [("../../x.txt", "x.txt"), ("a/b/../c.txt", "c.txt"),
                                          ("..\\up.txt", "up.txt"), ("..", "file0")])
def test_attachment_names_with_a_path_are_stored_and_served_as_their_last_segment(
        bot_http: httpx.Client, channel_id: int, name: str, served: str) -> None:
    sent = bot_http.post(f"/channels/{channel_id}/messages",
                         files={"payload_json": (None, json.dumps({"content": "file"}), "application/json"),
                                "files[0]": (name, b"payload bytes", "text/plain")})
    assert sent.status_code == 200, sent.text
    attachment = sent.json()["attachments"][0]
    assert attachment["filename"] == served
    assert attachment["url"].endswith(f"/{served}")
    fetched = httpx.get(attachment["url"])
    assert fetched.status_code == 200 and fetched.content == b"payload bytes"


@pytest.mark.parametrize("header", [DEEP.encode(), b'{"alg": "\\ud800"}'])
def test_a_jwt_whose_header_is_not_json_the_emulator_can_hold_is_a_jwt_error(header: bytes) -> None:
    token = ".".join(base64.urlsafe_b64encode(part).decode().rstrip("=") for part in (header, b"{}", b"sig"))
    with pytest.raises(JwtError, match="not JSON"):
        verify(token, {"keys": []})
