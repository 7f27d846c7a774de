"""The local platform emulator: HTTP API, OAuth2, accounts and webhooks over SQLite.

A separate server: it never imports the SDK's C++ extension (``platformpp._platformpp``). ``Emulator``
is loaded on first use (PEP 562) so that the pytest plugin module, which pytest imports in every run,
needs none of the emulator's dependencies until a test uses it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .admin_client import AdminClient, ClockState, FaultRule
    from .admin_error import AdminError
    from .core.tls import ServerCertificate, TlsSetupError, local_certificate
    from .default_world import (
        ALICE_ID,
        BOB_ID,
        CAROL_ID,
        DAVE_ID,
        DEFAULT_APPLICATION_ID,
        DEFAULT_BOT_ID,
        DEFAULT_BOT_TOKEN,
        DEFAULT_CLIENT_SECRET,
        DEFAULT_GUILD_ID,
        GENERAL_CHANNEL_ID,
        LOUNGE_CHANNEL_ID,
    )
    from .server import Emulator

__all__ = ["ALICE_ID", "BOB_ID", "CAROL_ID", "DAVE_ID", "DEFAULT_APPLICATION_ID", "DEFAULT_BOT_ID",
           "DEFAULT_BOT_TOKEN", "DEFAULT_CLIENT_SECRET", "DEFAULT_GUILD_ID", "GENERAL_CHANNEL_ID",
           "LOUNGE_CHANNEL_ID", "AdminClient", "AdminError", "ClockState", "Emulator", "FaultRule",
           "ServerCertificate", "TlsSetupError", "local_certificate"]


def __getattr__(name: str) -> Any:
    if name == "Emulator":
        from .server import Emulator

        return Emulator
    if name in ("AdminClient", "ClockState", "FaultRule"):
        from . import admin_client

        return getattr(admin_client, name)
    if name == "AdminError":
        from .admin_error import AdminError

        return AdminError
    if name.isupper():
        from . import default_world

        if hasattr(default_world, name):
            return getattr(default_world, name)
    if name in ("ServerCertificate", "TlsSetupError", "local_certificate"):
        from .core import tls

        return getattr(tls, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
