"""Every URL prefix of the emulator, written once: the platform's HTTP API, the Gateway's WebSocket
endpoint, and the emulator's own admin API."""

from __future__ import annotations

API_VERSION = 10
API = f"/api/v{API_VERSION}"     # the platform's HTTP API (docs/wire.md)
API_ROOT = "/api/"               # any version: rate limits apply to everything under it
GATEWAY = "/gateway"             # the Gateway's WebSocket endpoint
ADMIN = "/_emulator"             # the emulator's admin API (tests drive the world through it)
INSPECTOR_PAGE = f"{ADMIN}/ui"   # the inspector's page and its static files (no secret in them)
