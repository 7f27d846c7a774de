"""Shared steps of the tests that drive voice states through the emulator's Gateway (opcode 4) and then
the voice service (tests/emulator/social_helpers.py supplies the Gateway client and the world)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "emulator"))
from platformpp.emulator import Emulator  # noqa: E402
from platformpp.emulator.core.permissions import Permission  # noqa: E402
from social_helpers import BOT_TOKEN, GUILD_ID, GatewayClient, user_token  # noqa: E402
from voice_client import VoiceClient  # noqa: E402
from voice_helpers import agreed, hears, until  # noqa: E402,F401 (shared with the tests that import them from here)

GUILDS, GUILD_MEMBERS, GUILD_VOICE_STATES = 1 << 0, 1 << 1, 1 << 7
LOUNGE = 1200000000000000201
VOICE_CATEGORY = 1200000000000000200
BOT_ROLE = 1200000000000000011


def grant_bot(emu: Emulator, *bits: Permission) -> None:
    """Give the bot's role these guild permissions (besides what @everyone has)."""
    value = 0
    for bit in bits:
        value |= int(bit)
    emu.state.db.execute("UPDATE roles SET permissions = ? WHERE id = ?", (str(value), BOT_ROLE))


def add_voice_channel(emu: Emulator, channel_id: int, name: str = "Den") -> int:
    emu.state.db.execute("INSERT INTO channels (id, guild_id, type, name, parent_id) VALUES (?, ?, 2, ?, ?)",
                         (channel_id, GUILD_ID, name, VOICE_CATEGORY))
    return channel_id


async def bot_session(emu: Emulator, intents: int = GUILDS | GUILD_VOICE_STATES) -> tuple[GatewayClient, str]:
    client = await GatewayClient.connect(emu)
    ready = await client.identify(BOT_TOKEN, intents=intents)
    await client.dispatch("GUILD_CREATE")
    return client, ready["d"]["session_id"]


async def sdk_session(emu: Emulator, user_id: int) -> tuple[GatewayClient, str]:
    client = await GatewayClient.connect(emu)
    ready = await client.identify(await asyncio.to_thread(user_token, emu, user_id))
    return client, ready["d"]["session_id"]


async def voice_update(client: GatewayClient, channel_id: int | None, guild_id: int | None = GUILD_ID,
                       **flags: bool) -> None:
    await client.send({"op": 4, "d": {"guild_id": None if guild_id is None else str(guild_id),
                                      "channel_id": None if channel_id is None else str(channel_id),
                                      "self_mute": flags.get("self_mute", False),
                                      "self_deaf": flags.get("self_deaf", False)}})


async def join_call(client: GatewayClient, session_id: str, user_id: int, channel_id: int,
                    guild_id: int | None = GUILD_ID) -> VoiceClient:
    """Opcode 4, then the voice gateway with the token VOICE_SERVER_UPDATE brought, DAVE on. The voice
    server is the guild, or the channel itself for DMs, group DMs and lobbies (``guild_id`` None)."""
    await voice_update(client, channel_id, guild_id)
    server_id = channel_id if guild_id is None else guild_id
    server = (await client.dispatch("VOICE_SERVER_UPDATE"))["d"]
    voice = VoiceClient(server["endpoint"], server_id, user_id, session_id, server["token"])
    voice.enable_dave(channel_id)
    await voice.join()
    return voice


async def next_voice_state(client: GatewayClient, user_id: int, timeout: float = 5.0) -> dict[str, Any]:
    """The next VOICE_STATE_UPDATE about ``user_id`` (others are skipped)."""
    while True:
        state = (await client.dispatch("VOICE_STATE_UPDATE", timeout=timeout))["d"]
        if state["user_id"] == str(user_id):
            return state


def stored_voice_states(emu: Emulator) -> list[tuple[int, int]]:
    return [(row["user_id"], row["channel_id"])
            for row in emu.state.db.query("SELECT user_id, channel_id FROM voice_states ORDER BY user_id")]
