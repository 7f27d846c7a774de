"""Voice states (Gateway opcode 4: guild voice and stage channels, DMs, group DMs, lobby calls), the
voice service following them (``calls.py``), what else ends them (``lifecycle.py``: deleted channels,
removed members, timed-out voice sessions), server mute and deafen (``moderation.py``), voice channel
status and start time, voice regions."""
