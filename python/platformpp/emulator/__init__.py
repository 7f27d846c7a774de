"""The local platform emulator: HTTP API, OAuth2, accounts and webhooks over SQLite.

A separate server: it never imports the SDK's C++ extension (``platformpp._platformpp``)."""

from __future__ import annotations

from .server import Emulator

__all__ = ["Emulator"]
