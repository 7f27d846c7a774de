"""The admin API's secret. On loopback, ``/_emulator`` is open (only this machine can reach it). When
the emulator listens beyond loopback, anyone who reaches the port could reset or rewrite the world,
so every admin request must then carry ``Authorization: Bearer <secret>``: the secret comes from
``PLATFORMPP_EMULATOR_ADMIN_TOKEN`` or is generated at start (the CLI prints it once)."""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
from collections.abc import Mapping

ENV = "PLATFORMPP_EMULATOR_ADMIN_TOKEN"
MIN_LENGTH = 16


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` keeps the server reachable from this machine only. A host name other
    than ``localhost`` could resolve anywhere, so it counts as beyond loopback."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class AdminSecret:
    """A bearer secret; its repr never shows it."""

    def __init__(self, value: str, *, generated: bool) -> None:
        if len(value) < MIN_LENGTH:
            raise ValueError(f"{ENV}: the admin secret must be at least {MIN_LENGTH} characters")
        self._value = value
        self.generated = generated

    @classmethod
    def for_host(cls, host: str, environ: Mapping[str, str] = os.environ) -> AdminSecret | None:
        """None on loopback; else the secret given in the environment, or a new random one."""
        if is_loopback(host):
            return None
        given = environ.get(ENV)
        if given:
            return cls(given, generated=False)
        return cls(secrets.token_urlsafe(32), generated=True)

    def reveal(self) -> str:
        return self._value

    def matches(self, given: str | None) -> bool:
        """Whether ``given`` is the secret (compared in constant time)."""
        return given is not None and hmac.compare_digest(given.strip().encode(), self._value.encode())

    def admits(self, authorization: str | None) -> bool:
        scheme, _, token = (authorization or "").strip().partition(" ")
        return scheme.lower() == "bearer" and self.matches(token)


# The parameter that carries the secret where a header cannot: a consent given in a browser or by the SDK
# opening the authorize URL (docs/emulator.md "Headless consent").
CONSENT_PARAMETER = "emulator_admin_secret"


def consent_admitted(secret: AdminSecret | None, params: Mapping[str, str], authorization: str | None) -> bool:
    """Whether a consent on behalf of a test user may be given: always on loopback; beyond it only with
    the admin secret (the ``emulator_admin_secret`` parameter or a bearer header), since anyone who
    reaches the port could otherwise get a token for any test user."""
    return secret is None or secret.matches(params.get(CONSENT_PARAMETER)) or secret.admits(authorization)

    def __repr__(self) -> str:
        return "AdminSecret([REDACTED])"
