"""An SDK's whole session, as the C++ client will run it: OAuth2 login (headless consent), Gateway
over zlib-stream, a lobby with messages, a direct message, rich presence, leaving — and on the
socket, sequence numbers that only go up, with nothing a user may not see."""

from __future__ import annotations

import asyncio

import httpx
from emulator_world import login
from social_helpers import ALICE, BOB, GatewayClient, api

from platformpp.emulator import Emulator


def test_two_players_play_a_round(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with httpx.Client(base_url=emu.base_url) as web:
        alice_token = login(web, "alice")["access_token"]
        bob_token = login(web, "bob")["access_token"]
        carol_token = login(web, "carol")["access_token"]

    async def connect(token: str) -> tuple[GatewayClient, dict]:
        client = await GatewayClient.connect(emu, "v=10&encoding=json&compress=zlib-stream")
        return client, await client.identify(token)

    async def scenario() -> None:
        (alice, _), (bob, _), (carol, _) = [await connect(t) for t in (alice_token, bob_token, carol_token)]
        with api(emu, alice_token) as a, api(emu, bob_token) as b:
            lobby = a.put("/lobbies", json={"secret": "round-1", "lobby_metadata": {"map": "dust"}}).json()
            b.put("/lobbies", json={"secret": "round-1", "member_metadata": {"team": "blue"}})
            a.post(f"/lobbies/{lobby['id']}/messages", json={"content": "glhf"})
            b.post(f"/users/{ALICE}/messages", json={"content": "psst"})
            a.put("/users/@me/activity", json={"name": "Demo Game", "type": 0, "state": "In a round",
                                               "party": {"id": lobby["id"], "size": [2, 4]},
                                               "assets": {"invite_cover_image": "cover_key"}})
            b.delete(f"/lobbies/{lobby['id']}/members/@me")
        expected = {
            ALICE: ["LOBBY_CREATE", "LOBBY_MEMBER_ADD", "LOBBY_MESSAGE_CREATE", "DM_MESSAGE_CREATE",
                    "LOBBY_MEMBER_REMOVE"],
            BOB: ["LOBBY_CREATE", "LOBBY_MESSAGE_CREATE", "DM_MESSAGE_CREATE", "LOBBY_MEMBER_REMOVE"],
        }
        for user, client in ((ALICE, alice), (BOB, bob)):
            seen, seqs = [], []
            while len(seen) < len(expected[user]):
                payload = await client.recv()
                if payload["op"] == 0 and payload["t"] != "PRESENCE_UPDATE":
                    seen.append(payload["t"])
                    seqs.append(payload["s"])
            assert seen == expected[user], user
            assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
            assert client.binary_frames > 0
        # Carol is in no lobby, no conversation and no friendship: she hears none of it.
        for event in ("LOBBY_CREATE", "LOBBY_MESSAGE_CREATE", "DM_MESSAGE_CREATE", "PRESENCE_UPDATE"):
            await carol.no_dispatch(event, wait=0.1)
        with api(emu, bob_token) as b:
            assert b.get(f"/users/{ALICE}/messages").json()[0]["content"] == "psst"
        for client in (alice, bob, carol):
            await client.close()

    asyncio.run(scenario())
