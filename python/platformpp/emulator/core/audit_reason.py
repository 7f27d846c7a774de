"""The reason a caller gives for a change (``X-Audit-Log-Reason``, URL-encoded, 1-512 characters),
bound to the request's context by the traffic middleware so that the audit log's ``record`` finds it
in whatever area or worker thread writes the entry (Starlette's worker threads copy the context)."""

from __future__ import annotations

from contextvars import ContextVar
from urllib.parse import unquote

HEADER = "x-audit-log-reason"
MAX_LENGTH = 512

_current: ContextVar[str | None] = ContextVar("audit_log_reason", default=None)


def parse_reason(raw: str | None) -> str | None:
    """The decoded reason, cut at 512 characters; None for an absent or blank header."""
    if not raw:
        return None
    text = unquote(raw, errors="replace").strip()
    return text[:MAX_LENGTH] or None


def bind(raw_header: str | None) -> None:
    """Called once per request with the raw header value (or None)."""
    _current.set(parse_reason(raw_header))


def current_reason() -> str | None:
    return _current.get()
