"""The compact JSON text the emulator writes (HTTP responses, Gateway payloads, stored payloads)."""

from __future__ import annotations

import json

# ``json.dumps(value, separators=(",", ":"), ensure_ascii=False)``, with one encoder for every call:
# dumps builds a new encoder per call for any non-default option, and an encoder keeps no state
# between calls.
compact_json = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
