"""The recent-request log behind ``GET /_emulator/requests``. Everything secret is redacted before
anyone can read it: the Authorization header's credential, and every query, form or JSON field whose
name says it carries a token, code, secret or verifier (a body is read as JSON or form fields whatever
its content type; one that is neither is not shown). Logging a request only keeps what it was
(``RawRequest``); the redaction runs when the log is read, so that the hot path of every request
does not parse and rewrite its body for a log that is rarely read."""

from __future__ import annotations

import re
import threading
from collections import deque
from datetime import datetime, timezone
from typing import Any, NamedTuple
from urllib.parse import parse_qsl

from ..paths import ADMIN
from .clock import format_instant
from .json_text import InvalidJson, decode_untrusted

REDACTED = "[REDACTED]"
_SECRET_NAME = re.compile(
    r"(^|_)(token|code|secret|verifier|password|assertion|private_key)s?($|_)|^(access|refresh|id|subject)_token$",
    re.IGNORECASE)
# Path segments that are themselves credentials: /invites/<code>, /webhooks/<id>/<token>, /interactions/<id>/<token>
_SECRET_PATH = re.compile(r"(/invites/)[^/]+|(/(?:webhooks|interactions)/\d+/)[^/]+")
_MAX_BODY = 16 * 1024


def is_secret_name(name: str) -> bool:
    return bool(_SECRET_NAME.search(name))


def redact_value(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: REDACTED if is_secret_name(str(k)) else redact_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_value(v) for v in value]
    if isinstance(value, str) and value.lstrip().startswith("-----BEGIN"):
        return REDACTED     # a PEM key or certificate, whatever its field is called
    return value


def redact_path(path: str) -> str:
    return _SECRET_PATH.sub(lambda m: (m.group(1) or m.group(2)) + REDACTED, path)


def redact_query(query: str) -> dict[str, str]:
    return {k: REDACTED if is_secret_name(k) else v for k, v in parse_qsl(query, keep_blank_values=True)}


def redact_authorization(header: str | None) -> str | None:
    if not header:
        return None
    scheme, _, _ = header.partition(" ")
    return f"{scheme} {REDACTED}" if scheme.lower() in ("bot", "bearer", "basic") else REDACTED


def redact_body(body: bytes, content_type: str, path: str = "") -> Any:
    """A body as the log shows it. It is read as JSON, else as form fields, whatever its declared
    content type (a JSON body sent as a form still names its secrets); a body that is neither is never
    echoed back, as unparsed text could hold anything."""
    kept = body_to_keep(body, path)
    if not isinstance(kept, bytes):
        return kept
    try:
        return redact_value(decode_untrusted(body))
    except InvalidJson:
        pass
    fields = _form_fields(body)
    if fields is not None:
        return {k: REDACTED if is_secret_name(k) else v for k, v in fields}
    kind = content_type.split(";")[0].strip() or "no content type"
    return f"[{len(body)} bytes of {kind}, not recorded: neither JSON nor form fields]"


# What a form field's name looks like (``scope``, ``files[0]``, ``payload_json``); anything else is
# not read as a form, so that no text passes as the name of a field.
_FIELD_NAME = re.compile(r"[A-Za-z0-9_.\[\]-]+")


def _form_fields(body: bytes) -> list[tuple[str, str]] | None:
    try:
        fields = parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=True)
    except (UnicodeDecodeError, ValueError):
        return None
    return fields if all(_FIELD_NAME.fullmatch(name) for name, _ in fields) else None


def body_to_keep(body: bytes, path: str) -> bytes | str | None:
    """What the log keeps of a body: nothing, a note in place of a body it never records, or the bytes
    (redacted when read)."""
    if not body:
        return None
    if path == f"{ADMIN}/snapshot":
        return f"[snapshot of {len(body)} bytes, not recorded]"   # the whole state, keys included
    if len(body) > _MAX_BODY:
        return f"[{len(body)} bytes, not recorded]"
    return body


class RawRequest(NamedTuple):
    """One request as it came (secrets included): redacted by ``RequestLog.recent`` only."""
    time: float                    # emulator-clock timestamp, formatted when read
    method: str
    path: str
    query: bytes
    authorization: str
    principal: Any                 # core.auth.Principal or None
    body: bytes | str | None       # see body_to_keep
    content_type: str
    status: int | str | None
    duration_ms: float
    response: bytes | None = None  # kept only while the log is followed live (RequestLog.keep_responses)


def _redacted(entry_id: int, raw: RawRequest) -> dict[str, Any]:
    principal = raw.principal
    body = raw.body if not isinstance(raw.body, bytes) else redact_body(raw.body, raw.content_type, raw.path)
    return {
        "time": format_instant(datetime.fromtimestamp(raw.time, tz=timezone.utc)),
        "method": raw.method,
        "path": redact_path(raw.path),
        "query": redact_query(raw.query.decode("latin-1")),
        "authorization": redact_authorization(raw.authorization),
        "principal": None if principal is None else {
            "kind": principal.kind, "user_id": str(principal.user_id),
            "application_id": str(principal.application_id)},
        "body": body,
        "status": raw.status,
        "duration_ms": round(raw.duration_ms, 3),
        "response": None if raw.response is None else redact_body(raw.response, "", raw.path),
        "id": entry_id,
    }


class RequestLog:
    def __init__(self, capacity: int = 500) -> None:
        self._entries: deque[tuple[int, RawRequest]] = deque(maxlen=capacity)
        self._lock = threading.Lock()
        self._next_id = 1
        # How many live readers want response bodies kept (the middleware reads it once per request).
        self.keep_responses = 0

    def add(self, raw: RawRequest) -> None:
        with self._lock:
            self._entries.append((self._next_id, raw))
            self._next_id += 1

    def recent(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The latest entries, oldest first, redacted, each ``time`` as an ISO-8601 instant."""
        with self._lock:
            entries = list(self._entries)
        entries = entries[-limit:] if limit else entries
        return [_redacted(entry_id, raw) for entry_id, raw in entries]

    def since(self, entry_id: int) -> list[dict[str, Any]]:
        """The entries after ``entry_id``, oldest first, redacted (a live reader's next batch)."""
        with self._lock:
            entries = [(i, raw) for i, raw in self._entries if i > entry_id]
        return [_redacted(i, raw) for i, raw in entries]

    def following(self, delta: int) -> None:
        """A live reader starts (1) or stops (-1) following the log: response bodies are kept meanwhile."""
        with self._lock:
            self.keep_responses += delta

    @property
    def last_id(self) -> int:
        """The id of the latest entry (0 before any)."""
        return self._next_id - 1

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
