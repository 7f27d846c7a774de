"""The default world's fixed ids and credentials (``world/default.json``, docs/emulator.md "The default
world"), for tests and examples to name. Test data, published on purpose: not secrets."""

from __future__ import annotations

from typing import Final

DEFAULT_APPLICATION_ID: Final = 1000000000000000000      # "Demo Game": public client with a secret
DEFAULT_CLIENT_SECRET: Final = "default-world-client-secret"
DEFAULT_BOT_ID: Final = 1000000000000000001              # demo-game-bot
DEFAULT_BOT_TOKEN: Final = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.ZW11bGF0b3I.ZGVmYXVsdC13b3JsZC1ib3QtdG9rZW4tbm90LXNlY3JldA"

ALICE_ID: Final = 1100000000000000001   # owner of the app and the guild
BOB_ID: Final = 1100000000000000002
CAROL_ID: Final = 1100000000000000003
DAVE_ID: Final = 1100000000000000004

DEFAULT_GUILD_ID: Final = 1200000000000000000            # "Demo Guild" (its @everyone role has this id)
MODERATOR_ROLE_ID: Final = 1200000000000000010
BOT_ROLE_ID: Final = 1200000000000000011                 # "Demo Game", the bot's managed role
TEXT_CATEGORY_ID: Final = 1200000000000000100
GENERAL_CHANNEL_ID: Final = 1200000000000000101
MODERATORS_CHANNEL_ID: Final = 1200000000000000102       # hidden from @everyone
VOICE_CATEGORY_ID: Final = 1200000000000000200
LOUNGE_CHANNEL_ID: Final = 1200000000000000201           # voice

STICKER_PACK_ID: Final = 1300000000000000000              # "Demo Greetings", a standard sticker pack
WAVE_STICKER_ID: Final = 1300000000000000010              # its first sticker (the cover)
