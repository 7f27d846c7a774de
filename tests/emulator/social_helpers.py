"""Helpers for the social-layer and Gateway tests: SDK-user tokens issued through the emulator's own
grant code, a small Gateway client over real WebSockets (zlib-stream aware), and HTTP shortcuts."""

from __future__ import annotations

import asyncio
import json
import zlib
from collections.abc import Callable
from typing import Any

import httpx
import websockets
from emulator_world import ALICE, APP_ID, BOB, BOT_ID, BOT_TOKEN, CAROL, DAVE, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.areas.oauth.store import create_grant, issue_tokens
from platformpp.emulator.core.scopes import expand

SYNC_FLUSH = b"\x00\x00\xff\xff"
# The group DM of Alice and Bob that the ``group_dm_emulator`` fixture (conftest.py) adds to the default world.
GROUP_DM = 1300000000000000001
# The default world's ids, re-exported for the social-layer tests.
__all__ = ["ALICE", "APP_ID", "BOB", "BOT_ID", "BOT_TOKEN", "CAROL", "DAVE", "GROUP_DM", "GUILD_ID", "SYNC_FLUSH", "GatewayClient",
           "api", "bot", "sdk_session", "set_heartbeat", "user_token"]


def user_token(emu: Emulator, user_id: int, scopes: str = "openid sdk.social_layer",
               application_id: int = APP_ID) -> str:
    """An access token for ``user_id`` in the application, as the token endpoint would issue it."""
    state = emu.state
    granted = expand(scopes.split())
    with state.db.transaction() as conn:
        grant = create_grant(state, conn, application_id, user_id, granted, "authorization_code")
        return issue_tokens(state, conn, grant, granted).access_token


# Set by conftest.py's ``schema_hook`` fixture for the running test: validates answers against the
# published schema.
SCHEMA_HOOK: Callable[[httpx.Response], None] | None = None


def api(emu: Emulator, token: str | None, bot: bool = False) -> httpx.Client:
    headers = {}
    if token is not None:
        headers["Authorization"] = f"{'Bot' if bot else 'Bearer'} {token}"
    hooks = {"response": [SCHEMA_HOOK]} if SCHEMA_HOOK is not None else None
    return httpx.Client(base_url=emu.api_base, headers=headers, timeout=10, event_hooks=hooks)


def bot(emu: Emulator) -> httpx.Client:
    return api(emu, BOT_TOKEN, bot=True)


def set_heartbeat(emu: Emulator, interval_ms: int, **extra: Any) -> None:
    response = httpx.put(f"{emu.base_url}/_emulator/gateway", json={"heartbeat_interval_ms": interval_ms, **extra})
    assert response.status_code == 200, response.text


class GatewayClient:
    """One Gateway connection; ``recv`` returns decoded payloads, inflating zlib-stream frames."""

    def __init__(self, ws: Any, compressed: bool) -> None:
        self.ws = ws
        self._inflate = zlib.decompressobj() if compressed else None
        self.binary_frames = 0

    @classmethod
    async def connect(cls, emu: Emulator, query: str = "v=10&encoding=json") -> GatewayClient:
        url = emu.base_url.replace("http://", "ws://") + "/gateway/?" + query
        ws = await websockets.connect(url, max_size=None)
        return cls(ws, "compress=zlib-stream" in query)

    async def recv(self, timeout: float = 5.0) -> dict[str, Any]:
        frame = await asyncio.wait_for(self.ws.recv(), timeout)
        if isinstance(frame, bytes):
            self.binary_frames += 1
            assert self._inflate is not None and frame.endswith(SYNC_FLUSH)
            frame = self._inflate.decompress(frame).decode("utf-8")
        return json.loads(frame)

    async def send(self, payload: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(payload))

    async def dispatch(self, name: str, timeout: float = 5.0) -> dict[str, Any]:
        """The next dispatch named ``name``, skipping heartbeat ACKs and other dispatches."""
        while True:
            payload = await self.recv(timeout)
            if payload["op"] == 0 and payload["t"] == name:
                return payload

    async def no_dispatch(self, name: str, wait: float = 0.3) -> None:
        """Assert that no dispatch named ``name`` arrives within ``wait`` seconds."""
        try:
            while True:
                payload = await self.recv(wait)
                assert not (payload["op"] == 0 and payload["t"] == name), payload
        except asyncio.TimeoutError:
            return

    async def identify(self, token: str, intents: int = 0, **extra: Any) -> dict[str, Any]:
        hello = await self.recv()
        assert hello["op"] == 10
        await self.send({"op": 2, "d": {"token": token, "intents": intents,
                                        "properties": {"os": "linux", "browser": "tests", "device": "tests"},
                                        **extra}})
        return await self.dispatch("READY")

    async def close_code(self, timeout: float = 5.0) -> int | None:
        """Read until the server closes; the close code it sent."""
        try:
            while True:
                await asyncio.wait_for(self.ws.recv(), timeout)
        except websockets.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None

    async def close(self) -> None:
        await self.ws.close()


async def sdk_session(emu: Emulator, user_id: int) -> GatewayClient:
    client = await GatewayClient.connect(emu)
    await client.identify(user_token(emu, user_id))
    return client
