"""The local platform emulator: HTTP API, OAuth2, accounts and webhooks over SQLite.

A separate server: it never imports the SDK's C++ extension (``platformpp._platformpp``). ``Emulator``
is loaded on first use (PEP 562) so that the pytest plugin module, which pytest imports in every run,
needs none of the emulator's dependencies until a test uses it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core.tls import ServerCertificate, TlsSetupError, local_certificate
    from .server import Emulator

__all__ = ["Emulator", "ServerCertificate", "TlsSetupError", "local_certificate"]


def __getattr__(name: str) -> Any:
    if name == "Emulator":
        from .server import Emulator

        return Emulator
    if name in ("ServerCertificate", "TlsSetupError", "local_certificate"):
        from .core import tls

        return getattr(tls, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
