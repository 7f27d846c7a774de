"""What a token may see and what the emulator keeps to itself: the Gateway sends an SDK user's session
only what its token's scopes allow (as REST does), the request log never shows a client secret
whatever the body's content type, and key files and the IPC socket are never open to others."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import stat
from pathlib import Path

import httpx
import pytest
from emulator_world import APP_ID, CLIENT_SECRET, GUILD_ID, bot_headers
from platformpp.emulator import Emulator
from platformpp.emulator.core.tls import local_certificate
from platformpp.emulator.ipc.endpoint import private_unix_socket
from social_helpers import ALICE, BOB, GatewayClient, api, user_token


def test_an_identify_only_token_gets_no_social_data_over_the_gateway(emu: Emulator) -> None:
    narrow_token, full_token = user_token(emu, ALICE, "identify"), user_token(emu, ALICE)
    bob_token = user_token(emu, BOB)
    with api(emu, full_token) as alice, api(emu, bob_token) as bob:   # friends
        assert alice.put(f"/users/@me/relationships/{BOB}").status_code == 200
        assert bob.put(f"/users/@me/relationships/{ALICE}", json={"type": 1}).status_code == 200
    with api(emu, narrow_token) as narrow_api:   # REST refuses this token the same data
        assert narrow_api.get("/users/@me/relationships").status_code == 403
        assert narrow_api.get(f"/users/{BOB}/messages").status_code == 403

    async def scenario() -> None:
        narrow, full = await GatewayClient.connect(emu), await GatewayClient.connect(emu)
        narrow_ready = (await narrow.identify(narrow_token))["d"]
        full_ready = (await full.identify(full_token))["d"]
        assert [r["id"] for r in full_ready["relationships"]] == [str(BOB)]
        assert {k: narrow_ready[k] for k in ("relationships", "presences", "lobbies", "voice_states")} == {
            "relationships": [], "presences": [], "lobbies": [], "voice_states": []}
        bob_session = await GatewayClient.connect(emu)
        await bob_session.identify(bob_token)   # bob comes online: PRESENCE_UPDATE to his friends
        with api(emu, bob_token) as bob:
            assert bob.post(f"/users/{ALICE}/messages", json={"content": "psst"}).status_code == 201
        # The full token's session gets both; the narrow one neither (it only hears what it may).
        assert (await full.dispatch("PRESENCE_UPDATE"))["d"]["user"]["id"] == str(BOB)
        assert (await full.dispatch("DM_MESSAGE_CREATE"))["d"]["content"] == "psst"
        await narrow.no_dispatch("PRESENCE_UPDATE")
        await narrow.no_dispatch("DM_MESSAGE_CREATE")
        for client in (narrow, full, bob_session):
            await client.close()

    asyncio.run(scenario())


def _logged_bodies(emu: Emulator) -> str:
    return json.dumps(httpx.get(f"{emu.base_url}/_emulator/requests").json())


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "text/plain", "application/json",
                                          "multipart/form-data; boundary=x", None])
def test_the_request_log_never_shows_a_client_secret_whatever_the_content_type(
        emu: Emulator, content_type: str | None) -> None:
    headers = {"content-type": content_type} if content_type else {}
    bodies = [json.dumps({"grant_type": "client_credentials", "client_id": str(APP_ID),
                          "client_secret": CLIENT_SECRET}),
              f"grant_type=client_credentials&client_id={APP_ID}&client_secret={CLIENT_SECRET}",
              f"client_secret: {CLIENT_SECRET}",            # neither JSON nor a form: not shown at all
              '{"client_secret": "' + CLIENT_SECRET + '", ']   # cut short: not shown at all
    for body in bodies:
        httpx.post(f"{emu.api_base}/oauth2/token", content=body, headers=headers)
        # A route that reads its body whatever the content type.
        httpx.patch(f"{emu.api_base}/guilds/{GUILD_ID}", content=body, headers={**headers, **bot_headers()})
    logged = _logged_bodies(emu)
    assert CLIENT_SECRET not in logged
    assert logged.count('"client_secret": "[REDACTED]"') >= 2   # by field name, where the body could be read


def test_a_renewed_key_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    first = local_certificate(tmp_path)
    first.key_file.chmod(0o644)   # e.g. restored from a backup with a wider mode
    renewed = local_certificate(tmp_path, hosts=["game.example"])   # a new host: a new server key
    assert renewed.key_file.read_bytes() != b""
    assert stat.S_IMODE(renewed.key_file.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "ca-key.pem").stat().st_mode) == 0o600
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]   # no temporary left


def test_the_ipc_socket_is_created_private_whatever_the_umask(tmp_path: Path) -> None:
    previous = os.umask(0)   # the widest: a bind would make the socket 0777
    try:
        sock = private_unix_socket(tmp_path / "s")
    finally:
        os.umask(previous)
    try:
        assert stat.S_IMODE((tmp_path / "s").stat().st_mode) == 0o600
        assert os.umask(previous) == previous   # the process umask is back
        sock.listen()
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
            client.connect(str(tmp_path / "s"))
    finally:
        sock.close()
