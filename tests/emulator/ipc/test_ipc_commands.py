"""The commands of the desktop client's IPC endpoint: AUTHORIZE with the desktop user's consent (and
the deny switch), AUTHENTICATE, guilds and channels, subscriptions (GUILD_STATUS, VOICE_SETTINGS_UPDATE,
AUTHORIZE_REQUEST, activity joins), SET_ACTIVITY seen through presence, the voice settings."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from emulator_world import ALICE, APP_ID, BOB, CAROL, GUILD_ID, pkce_pair
from ipc_client import IpcClient
from platformpp.emulator import Emulator
from social_helpers import api, sdk_session, user_token

GENERAL = 1200000000000000101


def _admin(emu: Emulator, method: str, path: str, **kwargs: object) -> httpx.Response:
    return httpx.request(method, f"{emu.base_url}/_emulator/desktop{path}", timeout=10, **kwargs)


def _authenticated(emu: Emulator, client: IpcClient, scopes: str = "openid sdk.social_layer guilds") -> None:
    client.handshake(APP_ID)
    answer = client.command("AUTHENTICATE", {"access_token": user_token(emu, ALICE, scopes)})
    assert answer["evt"] is None, answer


def test_authorize_gives_a_code_the_token_endpoint_exchanges(desktop: Emulator) -> None:
    verifier, challenge = pkce_pair()
    with IpcClient(desktop.ipc_path) as client:
        client.handshake(APP_ID)
        answer = client.command("AUTHORIZE", {"client_id": str(APP_ID), "scopes": ["openid", "sdk.social_layer"],
                                              "code_challenge": challenge, "code_challenge_method": "S256"})
        assert answer["cmd"] == "AUTHORIZE" and answer["evt"] is None
        code = answer["data"]["code"]
        tokens = httpx.post(f"{desktop.api_base}/oauth2/token", data={
            "grant_type": "authorization_code", "code": code, "client_id": str(APP_ID), "code_verifier": verifier})
        assert tokens.status_code == 200, tokens.text
        me = api(desktop, tokens.json()["access_token"]).get("/users/@me").json()
        assert me["id"] == str(ALICE)   # consent was the desktop user's
        authenticated = client.command("AUTHENTICATE", {"access_token": tokens.json()["access_token"]})
        assert authenticated["data"]["user"]["id"] == str(ALICE)
        assert "sdk.social_layer" in authenticated["data"]["scopes"]


def test_authorize_refused_by_the_deny_switch_and_bad_args(desktop: Emulator) -> None:
    assert _admin(desktop, "PUT", "/consent", json={"deny": True}).json() == {"deny": True}
    with IpcClient(desktop.ipc_path) as client:
        client.handshake(APP_ID)
        denied = client.command("AUTHORIZE", {"client_id": str(APP_ID), "scopes": ["openid"]})
        assert denied["evt"] == "ERROR" and denied["data"]["code"] == 5000
        assert denied["data"]["message"].startswith("access_denied")
        other = client.command("AUTHORIZE", {"client_id": "123", "scopes": ["openid"]})
        assert other["data"]["code"] == 4007
        bad = client.command("AUTHORIZE", {"client_id": str(APP_ID), "scopes": []})
        assert bad["data"]["code"] == 4000 and "scopes" in bad["data"]["message"]
        unknown = client.command("AUTHORIZE", {"client_id": str(APP_ID), "scopes": ["nope"]})
        assert unknown["data"]["code"] == 5000 and "invalid_scope" in unknown["data"]["message"]


def test_authenticate_refuses_tokens_of_another_user_or_app(desktop: Emulator) -> None:
    with IpcClient(desktop.ipc_path) as client:
        client.handshake(APP_ID)
        for token in ("garbage", user_token(desktop, BOB)):
            answer = client.command("AUTHENTICATE", {"access_token": token})
            assert answer["evt"] == "ERROR" and answer["data"]["code"] == 4009
        assert client.command("GET_GUILDS")["data"]["code"] == 4006


def test_guilds_and_channels_of_the_desktop_user(desktop: Emulator) -> None:
    with IpcClient(desktop.ipc_path) as client:
        _authenticated(desktop, client)
        guilds = client.command("GET_GUILDS")["data"]["guilds"]
        assert [g["id"] for g in guilds] == [str(GUILD_ID)]
        assert client.command("GET_GUILD", {"guild_id": str(GUILD_ID)})["data"]["name"] == guilds[0]["name"]
        assert client.command("GET_GUILD", {"guild_id": "1"})["data"]["code"] == 4003
        channels = client.command("GET_CHANNELS", {"guild_id": str(GUILD_ID)})["data"]["channels"]
        assert {"id": str(GENERAL), "name": "general", "type": 0} in channels
        channel = client.command("GET_CHANNEL", {"channel_id": str(GENERAL)})["data"]
        assert channel["guild_id"] == str(GUILD_ID) and channel["name"] == "general"
        assert client.command("GET_CHANNEL", {"channel_id": "5"})["data"]["code"] == 4005
        assert client.command("GET_CHANNEL", {"channel_id": "x"})["data"]["code"] == 4000


def test_guilds_need_the_guilds_scope(desktop: Emulator) -> None:
    with IpcClient(desktop.ipc_path) as client:
        _authenticated(desktop, client, scopes="openid sdk.social_layer")
        answer = client.command("GET_GUILDS")
        assert answer["data"]["code"] == 4006 and "guilds" in answer["data"]["message"]


def test_guild_status_counts_online_members(desktop: Emulator) -> None:
    async def scenario() -> None:
        with IpcClient(desktop.ipc_path) as client:
            _authenticated(desktop, client)
            answer = client.command("SUBSCRIBE", {"guild_id": str(GUILD_ID)}, evt="GUILD_STATUS")
            assert answer["data"] == {"evt": "GUILD_STATUS"}
            first = client.event("GUILD_STATUS")["data"]
            assert first["guild"]["id"] == str(GUILD_ID)
            session = await sdk_session(desktop, CAROL)   # carol comes online
            try:
                second = await asyncio.to_thread(client.event, "GUILD_STATUS")
                assert second["data"]["online"] == first["online"] + 1
            finally:
                await session.close()
    asyncio.run(scenario())


def test_subscribe_refuses_unknown_events(desktop: Emulator) -> None:
    with IpcClient(desktop.ipc_path) as client:
        client.handshake(APP_ID)
        assert client.command("SUBSCRIBE", {}, evt="NOPE")["data"]["code"] == 4004
        assert client.command("SUBSCRIBE", {"guild_id": str(GUILD_ID)}, evt="GUILD_STATUS")["data"]["code"] == 4006


ACTIVITY = {"state": "In a match", "details": "Ranked", "party": {"id": "p1", "size": [1, 4]},
            "secrets": {"join": "join-secret"}}


def test_set_activity_is_seen_by_a_friend_and_cleared_when_the_connection_closes(desktop: Emulator) -> None:
    async def scenario() -> None:
        alice = api(desktop, user_token(desktop, ALICE))
        bob = api(desktop, user_token(desktop, BOB))
        alice.put(f"/users/@me/relationships/{BOB}")
        assert bob.put(f"/users/@me/relationships/{ALICE}").json()["type"] == 1
        friend = await sdk_session(desktop, BOB)
        try:
            with IpcClient(desktop.ipc_path) as client:
                client.handshake(APP_ID)
                answer = client.command("SET_ACTIVITY", {"pid": 4242, "activity": ACTIVITY})
                assert answer["data"]["state"] == "In a match" and answer["data"]["name"] == "Demo Game"
                update = await friend.dispatch("PRESENCE_UPDATE")
                assert update["d"]["user"]["id"] == str(ALICE)
                assert [a["state"] for a in update["d"]["activities"]] == ["In a match"]
                seen = bob.get(f"/users/{ALICE}/presence").json()
                assert seen["activities"][0]["application_id"] == str(APP_ID)
                bad = client.command("SET_ACTIVITY", {"activity": {"state": 5}})
                assert bad["data"]["code"] == 4000 and "state" in bad["data"]["message"]
            cleared = await friend.dispatch("PRESENCE_UPDATE")
            assert cleared["d"]["activities"] == []
        finally:
            await friend.close()
    asyncio.run(scenario())


def test_voice_settings_read_changed_by_the_user_and_announced(desktop: Emulator) -> None:
    with IpcClient(desktop.ipc_path) as client:
        client.handshake(APP_ID)
        assert client.command("GET_VOICE_SETTINGS")["data"]["code"] == 4006   # not authenticated
        answer = client.command("AUTHENTICATE", {"access_token": user_token(desktop, ALICE)})
        assert answer["evt"] is None
        settings = client.command("GET_VOICE_SETTINGS")["data"]
        assert settings["mute"] is False and settings["mode"]["type"] == "VOICE_ACTIVITY"
        assert settings["input"]["volume"] == 100 and settings["output"]["volume"] == 100
        client.command("SUBSCRIBE", {}, evt="VOICE_SETTINGS_UPDATE")
        changed = _admin(desktop, "PATCH", "/voice-settings", json={
            "self_mute": True, "input_mode": "push_to_talk", "ptt_key": "SHIFT + F", "output_volume": 150,
            "noise_cancellation": True})
        assert changed.status_code == 200 and changed.json()["input_mode"] == "push_to_talk"
        update = client.event("VOICE_SETTINGS_UPDATE")["data"]
        assert update["mute"] is True and update["mode"] == {"type": "PUSH_TO_TALK", "ptt_key": "SHIFT + F"}
        assert update["output"]["volume"] == 150 and update["noise_cancellation"] is True
        from_game = client.command("SET_VOICE_SETTINGS", {"input": {"volume": 40}, "deaf": True})["data"]
        assert from_game["input"]["volume"] == 40 and from_game["deaf"] is True
        assert client.event("VOICE_SETTINGS_UPDATE")["data"]["deaf"] is True
        bad = client.command("SET_VOICE_SETTINGS", {"output": {"volume": 201}})
        assert bad["data"]["code"] == 4000 and "output.volume" in bad["data"]["message"]
        assert client.command("GET_VOICE_SETTINGS")["data"]["output"]["volume"] == 150   # left intact


@pytest.mark.parametrize("body", [{"input_volume": 101}, {"output_volume": -1}, {"input_mode": "always"},
                                  {"self_mute": "yes"}])
def test_admin_voice_settings_refuse_bad_fields(desktop: Emulator, body: dict) -> None:
    before = _admin(desktop, "GET", "").json()["voice_settings"]
    response = _admin(desktop, "PATCH", "/voice-settings", json=body)
    assert response.status_code == 400 and response.json()["code"] == 50035
    assert set(response.json()["errors"]) == set(body)
    assert _admin(desktop, "GET", "").json()["voice_settings"] == before


def test_authorize_request_reaches_the_subscribed_game(desktop: Emulator) -> None:
    with IpcClient(desktop.ipc_path) as client:
        client.handshake(APP_ID)
        assert _admin(desktop, "POST", "/authorize-request", json={"application_id": str(APP_ID)}).json() == {
            "delivered": 0}
        client.command("SUBSCRIBE", {}, evt="AUTHORIZE_REQUEST")
        assert _admin(desktop, "POST", "/authorize-request", json={"application_id": str(APP_ID)}).json() == {
            "delivered": 1}
        assert client.event("AUTHORIZE_REQUEST")["data"] == {"application_id": str(APP_ID)}


def test_activity_join_request_then_invite_or_close(desktop: Emulator) -> None:
    with IpcClient(desktop.ipc_path) as client:
        client.handshake(APP_ID)
        client.command("SUBSCRIBE", {}, evt="ACTIVITY_JOIN_REQUEST")
        client.command("SUBSCRIBE", {}, evt="ACTIVITY_JOIN")
        assert client.command("SEND_ACTIVITY_JOIN_INVITE", {"user_id": str(BOB)})["data"]["code"] == 4012
        _admin(desktop, "POST", "/activity-join-request", json={"application_id": str(APP_ID), "user_id": str(BOB)})
        assert client.event("ACTIVITY_JOIN_REQUEST")["data"]["user"]["id"] == str(BOB)
        assert client.command("SEND_ACTIVITY_JOIN_INVITE", {"user_id": str(BOB)})["evt"] is None
        assert client.command("CLOSE_ACTIVITY_REQUEST", {"user_id": str(BOB)})["data"]["code"] == 4012
        _admin(desktop, "POST", "/activity-join", json={"application_id": str(APP_ID), "secret": "join-secret"})
        assert client.event("ACTIVITY_JOIN")["data"] == {"secret": "join-secret"}


def test_admin_routes_need_a_running_desktop_client(socket_dir: object) -> None:
    with Emulator() as emu:
        response = _admin(emu, "PATCH", "/voice-settings", json={"self_mute": True})
        assert response.status_code == 409 and "PUT /_emulator/desktop" in response.json()["message"]
        assert _admin(emu, "GET", "").json()["username"] is None
