"""platformpp.Error and its subclasses, defined in pure Python so that the parts of the package that
never load the C++ extension (``platformpp.ipc``) raise the very same classes as the SDK.

The extension adopts these classes (python/bindings/errors.cpp) instead of creating its own, and they
keep the qualified name they have always had, ``platformpp._platformpp.<Name>``, so that reprs,
pickles and the typed stub are unchanged. Importing this module never loads the extension."""

from __future__ import annotations

from typing import Any

_EXTENSION_MODULE = "platformpp._platformpp"


class Error(Exception):
    """Base class of every error platformpp raises."""


class NullHandleError(Error):
    """A handle that holds no object (its class's nullobj, or moved from) was used."""


class ValidationError(Error, ValueError):
    """An argument breaks a rule. `field` names the field; the message names the field and the rule."""

    field: str


class ClientError(Error):
    """An SDK call failed: `result` is its ClientResult (type, status, error_code, error...)."""

    result: Any


class NetworkError(ClientError):
    """No HTTP answer: connect, TLS, timeout or a dropped connection."""


class HTTPError(ClientError):
    """The platform answered with an error status (result.status, result.error_code)."""


class ClientNotReady(ClientError):
    """The call needs a connected or authenticated Client."""


class Disabled(ClientError):
    """The feature is turned off."""


class ClientDestroyed(ClientError):
    """The Client was destroyed before the call completed."""


class Aborted(ClientError):
    """The call was cancelled (e.g. abort_authorize())."""


class AuthorizationFailed(ClientError):
    """OAuth2 refused: state mismatch, consent denied, invalid_grant (result.deauthorized)..."""


class RPCError(ClientError):
    """A client entry point request failed. From platformpp.ipc, ``code`` is the desktop client's ERROR or
    close code (None when it gave none)."""

    code: int | None = None


ERROR_CLASSES = (Error, NullHandleError, ValidationError, ClientError, NetworkError, HTTPError, ClientNotReady,
                 Disabled, ClientDestroyed, Aborted, AuthorizationFailed, RPCError)
for _cls in ERROR_CLASSES:
    _cls.__module__ = _EXTENSION_MODULE
del _cls

__all__ = [cls.__name__ for cls in ERROR_CLASSES]
