"""SET_ACTIVITY as the desktop client shapes it (button URLs kept for the game, labels for everyone else,
timestamps in seconds turned into milliseconds, secrets refused with buttons), and the desktop client
holding its user online for friends."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from emulator_world import ALICE, APP_ID, BOB
from ipc_client import IpcClient
from platformpp.emulator import Emulator
from social_helpers import GatewayClient, api, user_token

BUTTONS = [{"label": "Join", "url": "https://example.test/join"},
           {"label": "Watch", "url": "https://example.test/w"}]
START_S, END_S = 1_700_000_000, 1_700_003_600


def _befriend(emu: Emulator) -> httpx.Client:
    """Alice and Bob become friends; Bob's HTTP client."""
    api(emu, user_token(emu, ALICE)).put(f"/users/@me/relationships/{BOB}")
    bob = api(emu, user_token(emu, BOB))
    assert bob.put(f"/users/@me/relationships/{ALICE}").json()["type"] == 1
    return bob


async def _bob_session(emu: Emulator) -> tuple[GatewayClient, dict[str, Any]]:
    client = await GatewayClient.connect(emu)
    ready = await client.identify(user_token(emu, BOB))
    return client, ready


def _alice_in(presences: list[dict[str, Any]]) -> dict[str, Any]:
    return next(p for p in presences if p["user"]["id"] == str(ALICE))


def test_buttons_and_seconds_are_shaped_for_the_game_and_for_everyone_else(desktop: Emulator) -> None:
    bob = _befriend(desktop)

    async def scenario() -> None:
        friend, _ = await _bob_session(desktop)
        try:
            with IpcClient(desktop.ipc_path) as client:
                client.handshake(APP_ID)
                answer = client.command("SET_ACTIVITY", {"pid": 4242, "activity": {
                    "state": "In a match", "buttons": BUTTONS, "timestamps": {"start": START_S, "end": END_S},
                    "instance": True}})
                assert answer["evt"] is None, answer
                # The game's answer: labels, the URLs under metadata, milliseconds.
                assert answer["data"]["buttons"] == ["Join", "Watch"]
                assert answer["data"]["metadata"] == {"button_urls": [b["url"] for b in BUTTONS]}
                assert answer["data"]["timestamps"] == {"start": START_S * 1000, "end": END_S * 1000}

                # A friend, live (PRESENCE_UPDATE), by HTTP, and at its next READY: labels, no URLs, ms.
                update = await friend.dispatch("PRESENCE_UPDATE")
                seen = {"gateway": update["d"]["activities"][0],
                        "http": bob.get(f"/users/{ALICE}/presence").json()["activities"][0]}
                late, ready = await _bob_session(desktop)
                await late.close()
                seen["ready"] = _alice_in(ready["d"]["presences"])["activities"][0]
                for where, activity in seen.items():
                    assert activity["buttons"] == ["Join", "Watch"], where
                    assert "metadata" not in activity and "https://example.test" not in str(activity), where
                    assert activity["timestamps"] == {"start": START_S * 1000, "end": END_S * 1000}, where

                # Milliseconds are kept as they are.
                in_ms = client.command("SET_ACTIVITY", {"pid": 4242, "activity": {
                    "state": "Again", "timestamps": {"start": START_S * 1000 + 5}}})
                assert in_ms["data"]["timestamps"] == {"start": START_S * 1000 + 5}
                assert "metadata" not in in_ms["data"] and "buttons" not in in_ms["data"]
        finally:
            await friend.close()
    asyncio.run(scenario())


def test_secrets_with_buttons_are_refused_and_nothing_changes(desktop: Emulator) -> None:
    bob = _befriend(desktop)
    with IpcClient(desktop.ipc_path) as client:
        client.handshake(APP_ID)
        assert client.command("SET_ACTIVITY", {"pid": 1, "activity": {"state": "Lobby"}})["evt"] is None
        refused = client.command("SET_ACTIVITY", {"pid": 1, "activity": {
            "state": "In a match", "buttons": BUTTONS, "secrets": {"join": "join-secret"}}})
        assert refused["evt"] == "ERROR" and refused["data"]["code"] == 5005
        assert "buttons" in refused["data"]["message"]
        assert [a["state"] for a in bob.get(f"/users/{ALICE}/presence").json()["activities"]] == ["Lobby"]


def test_a_running_desktop_client_makes_its_user_online_for_friends(desktop: Emulator) -> None:
    bob = _befriend(desktop)
    admin = f"{desktop.base_url}/_emulator/desktop"

    async def scenario() -> None:
        # Alice has no SDK session and no game set an activity: the desktop client alone holds her online.
        assert bob.get(f"/users/{ALICE}/presence").json()["status"] == "online"
        friend, ready = await _bob_session(desktop)
        try:
            assert _alice_in(ready["d"]["presences"])["status"] == "online"
            assert httpx.delete(admin).status_code == 204
            assert (await friend.dispatch("PRESENCE_UPDATE"))["d"]["status"] == "offline"
            assert bob.get(f"/users/{ALICE}/presence").json()["status"] == "offline"
            assert httpx.put(admin, json={"user": "alice"}).status_code == 200
            update = await friend.dispatch("PRESENCE_UPDATE")
            assert update["d"]["user"]["id"] == str(ALICE) and update["d"]["status"] == "online"
        finally:
            await friend.close()
    asyncio.run(scenario())


def test_the_desktop_client_keeps_its_user_online_when_their_sdk_session_ends(desktop: Emulator) -> None:
    bob = _befriend(desktop)

    async def scenario() -> None:
        alice = await GatewayClient.connect(desktop)
        await alice.identify(user_token(desktop, ALICE))
        await alice.send({"op": 3, "d": {"status": "online", "afk": False, "since": None,
                                         "activities": [{"name": "Demo Game", "type": 0, "state": "SDK"}]}})
        for _ in range(50):
            if bob.get(f"/users/{ALICE}/presence").json()["activities"]:
                break
            await asyncio.sleep(0.05)
        await alice.close()
        for _ in range(50):   # the session's game's rich presence ends with it; she stays online
            seen = bob.get(f"/users/{ALICE}/presence").json()
            if not seen["activities"]:
                break
            await asyncio.sleep(0.05)
        assert seen == {**seen, "status": "online", "activities": []}
    asyncio.run(scenario())
