"""The default world's well-known ids and credentials (python/platformpp/emulator/world/default.json),
and small request helpers shared by the emulator tests. Test data, not secrets."""

from __future__ import annotations

# Credentials of the default world (python/platformpp/emulator/world/default.json); test data, not secrets.
APP_ID = 1000000000000000000
BOT_ID = 1000000000000000001
BOT_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.ZW11bGF0b3I.ZGVmYXVsdC13b3JsZC1ib3QtdG9rZW4tbm90LXNlY3JldA"
CLIENT_SECRET = "default-world-client-secret"
ALICE, BOB, CAROL, DAVE = 1100000000000000001, 1100000000000000002, 1100000000000000003, 1100000000000000004
GUILD_ID = 1200000000000000000



def bot_headers(token: str = BOT_TOKEN) -> dict[str, str]:
    return {"Authorization": f"Bot {token}"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
