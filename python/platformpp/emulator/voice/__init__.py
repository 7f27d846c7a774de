"""The emulator's voice server: voice gateway v8, UDP relay, DAVE delivery service (see docs/emulator-voice.md)."""
