"""The emulator's voice server: voice gateway v8, UDP relay, DAVE delivery service (see docs/emulator-voice.md)."""

from .protocol import Close, Op
from .service import E2EE_REQUIRED_FROM, VoiceFaults, VoiceService, VoiceServiceError

__all__ = ["Close", "E2EE_REQUIRED_FROM", "Op", "VoiceFaults", "VoiceService", "VoiceServiceError"]
