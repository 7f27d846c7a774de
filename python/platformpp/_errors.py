"""platformpp.Error and its subclasses, defined in pure Python so that the parts of the package that
never load the C++ extension (``platformpp.ipc``) raise the very same classes as the SDK.

The extension adopts these classes (python/bindings/errors.cpp) instead of creating its own. They are
public as ``platformpp.<Name>``, the name tracebacks, reprs and pickles show. What the core reports
in C++ terms (a field ``Scopes``, "call UpdateToken first") reaches Python users in Python terms
(``scopes``, "call update_token() first"): ``python_terms`` is the one translation, applied where an
error enters Python (a ValidationError's field, aio's errors of a ClientResult). Importing this
module never loads the extension."""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._platformpp import ClientResult

_EXTENSION_MODULE = "platformpp._platformpp"
_PUBLIC_MODULE = "platformpp"

# A C++ method name: two or more capitalised words (UpdateToken), or one followed by "()" (Connect()).
_CPP_METHOD = re.compile(r"\b([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?=\(\)))(\(\))?")
_HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def snake_case(name: str) -> str:
    """The PEP 8 name of a C++ name: ``CodeChallenge`` and ``codeChallenge`` give ``code_challenge``."""
    return _HUMP.sub("_", name).lower()


def python_terms(text: str) -> str:
    """`text` with each C++ method name of the Client written as the Python call (``UpdateToken`` →
    ``update_token()``); other words are left alone."""
    client = getattr(sys.modules.get(_EXTENSION_MODULE), "Client", None)
    if client is None:
        return text

    def rename(match: re.Match[str]) -> str:
        python_name = snake_case(match.group(1))
        return f"{python_name}()" if callable(getattr(client, python_name, None)) else match.group(0)

    return _CPP_METHOD.sub(rename, text)


class Error(Exception):
    """Base class of every error platformpp raises."""


class NullHandleError(Error):
    """A handle that holds no object (its class's nullobj, or moved from) was used."""


class ValidationError(Error, ValueError):
    """An argument breaks a rule. `field` names the field (its Python name, e.g. ``scopes``); the message
    names the field and the rule."""

    _field: str = ""

    @property
    def field(self) -> str:
        """The argument or property whose rule is broken, as Python names it."""
        return self._field

    @field.setter
    def field(self, name: str) -> None:
        # The core names its C++ field (Scopes, apiBase) and starts the message with it: both are said
        # in Python terms here, where every ValidationError gets its field.
        self._field = snake_case(name)
        if self.args and isinstance(self.args[0], str):
            message = self.args[0]
            if name and message.startswith(f"{name}:"):
                message = self._field + message[len(name):]
            self.args = (python_terms(message), *self.args[1:])


class ClientError(Error):
    """An SDK call failed: `result` is its ClientResult (type, status, error_code, error...); None when
    no SDK call made it (platformpp.ipc, connect_async)."""

    result: ClientResult | None = None


class NetworkError(ClientError):
    """No HTTP answer: connect, TLS, timeout or a dropped connection."""


class HTTPError(ClientError):
    """The platform answered with an error status (result.status, result.error_code)."""

    result: ClientResult


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
    _cls.__module__ = _PUBLIC_MODULE
del _cls

__all__ = [cls.__name__ for cls in ERROR_CLASSES]
