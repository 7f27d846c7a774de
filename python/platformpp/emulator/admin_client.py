"""``AdminClient``: the emulator's admin API (``/_emulator``, docs/emulator.md "Admin API") as typed
Python calls, so that tests set the world up, move the clock, inject faults, read the request log and
act as users without writing admin HTTP by hand. ``Emulator.admin`` is one for a running emulator;
``AdminClient(base_url, admin_secret=...)`` reaches an emulator started elsewhere (``platformpp
emulator``). Every call is synchronous; a refused call raises ``AdminError`` with the emulator's
error body (a 50035 names each bad field)."""

from __future__ import annotations

import fnmatch
import ssl
from collections.abc import Mapping
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, NamedTuple

import httpx

from .admin_error import AdminError
from .default_world import DEFAULT_APPLICATION_ID

if TYPE_CHECKING:
    from .simulated_user import SimulatedUser


class ClockState(NamedTuple):
    now: datetime
    frozen: bool
    real_time: bool


class FaultRule(NamedTuple):
    """One injected fault (docs/emulator.md "Faults"): requests whose path matches the glob ``path``
    (and ``method``, ``*`` for any) wait ``latency_ms``, fail with ``error_status`` at ``error_rate``,
    get a 429 for the next ``force_429`` of them (-1: all), or lose their connection at ``drop_rate``."""

    path: str
    method: str = "*"
    latency_ms: float = 0.0
    error_rate: float = 0.0
    error_status: int = 500
    force_429: int = 0
    retry_after: float = 1.0
    global_429: bool = False
    drop_rate: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "method": self.method, "latency_ms": self.latency_ms,
                "error_rate": self.error_rate, "error_status": self.error_status, "force_429": self.force_429,
                "retry_after": self.retry_after, "global": self.global_429, "drop_rate": self.drop_rate}


def _parse_clock(data: Mapping[str, Any]) -> ClockState:
    return ClockState(datetime.fromisoformat(str(data["now"]).replace("Z", "+00:00")), bool(data["frozen"]),
                      bool(data["real_time"]))


def _instant(value: datetime | str) -> str:
    if isinstance(value, str):
        return value
    if value.tzinfo is None:
        raise ValueError("set_clock: give an aware datetime (e.g. datetime(..., tzinfo=timezone.utc))")
    return value.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


class AdminClient:
    def __init__(self, base_url: str, *, admin_secret: str | None = None, timeout_s: float = 30.0,
                 verify: ssl.SSLContext | bool = True) -> None:
        """``verify``: for an emulator serving TLS, a context trusting it (``Emulator.client_tls_context()``)."""
        self.base_url = base_url.rstrip("/")
        self._admin_secret = admin_secret
        headers = {"Authorization": f"Bearer {admin_secret}"} if admin_secret else {}
        self._http = httpx.Client(base_url=self.base_url + "/_emulator", headers=headers, timeout=timeout_s,
                                  verify=verify)

    def __repr__(self) -> str:   # never the admin secret
        return f"AdminClient({self.base_url!r})"

    def close(self) -> None:
        self._http.close()

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self._http.request(method, path, **kwargs)
        if response.status_code >= 400:
            try:
                body: Any = response.json()
            except ValueError:
                body = response.text
            raise AdminError(response.status_code, body)
        return response.json() if response.content else None

    # -- the world -------------------------------------------------------------------------------------
    def health(self) -> dict[str, Any]:
        return self._call("GET", "/health")  # type: ignore[no-any-return]

    def reset(self, *, empty: bool = False) -> None:
        """Back to the world the emulator started with (``empty``: no world at all), the clock, faults,
        limits and the request log too."""
        self._call("POST", "/reset", params={"world": "empty"} if empty else None)

    def seed(self, fixture: Mapping[str, Any], *, reset: bool = False) -> None:
        """Add a fixture (docs/emulator.md "Fixtures") to the world; ``reset`` clears the world first."""
        self._call("POST", "/seed", json=dict(fixture), params={"reset": "true"} if reset else None)

    def snapshot(self) -> dict[str, Any]:
        return self._call("GET", "/snapshot")  # type: ignore[no-any-return]

    def restore(self, snapshot: Mapping[str, Any]) -> None:
        self._call("POST", "/snapshot", json=dict(snapshot))

    # -- the clock -------------------------------------------------------------------------------------
    def clock(self) -> ClockState:
        return _parse_clock(self._call("GET", "/clock"))

    def set_clock(self, now: datetime | str | None, *, frozen: bool = False) -> ClockState:
        """Move the clock to ``now`` (``None``: back to real time); it runs on from there unless frozen."""
        body = {"now": None if now is None else _instant(now), "frozen": frozen}
        return _parse_clock(self._call("PUT", "/clock", json=body))

    def advance_clock(self, by: timedelta | float, *, frozen: bool | None = None) -> ClockState:
        """Move the clock forward by ``by`` (seconds or a timedelta); frozen stays as it was unless given."""
        current = self.clock()
        step = by if isinstance(by, timedelta) else timedelta(seconds=by)
        return self.set_clock(current.now + step, frozen=current.frozen if frozen is None else frozen)

    # -- faults ----------------------------------------------------------------------------------------
    def faults(self) -> list[FaultRule]:
        data = self._call("GET", "/faults")
        return [FaultRule(rule["path"], rule.get("method", "*"), rule.get("latency_ms", 0),
                          rule.get("error_rate", 0.0), rule.get("error_status", 500), rule.get("force_429", 0),
                          rule.get("retry_after", 1.0), rule.get("global", False), rule.get("drop_rate", 0.0))
                for rule in data.get("rules", [])]

    def add_fault(self, rule: FaultRule) -> None:
        data = self._call("GET", "/faults")
        self._call("PUT", "/faults", json={**data, "rules": [*data.get("rules", []), rule.to_json()]})

    def clear_faults(self) -> None:
        self._call("PUT", "/faults", json={"rules": []})

    # -- the request log -------------------------------------------------------------------------------
    def requests(self, *, method: str | None = None, path: str | None = None, status: int | None = None,
                 limit: int | None = None) -> list[dict[str, Any]]:
        """Recent requests, oldest first, redacted (docs/emulator.md "The request log"); ``path`` is a
        glob on the request path."""
        entries: list[dict[str, Any]] = self._call("GET", "/requests")
        chosen = [entry for entry in entries
                  if (method is None or entry["method"] == method.upper())
                  and (path is None or fnmatch.fnmatchcase(entry["path"], path))
                  and (status is None or entry["status"] == status)]
        return chosen if limit is None else chosen[-limit:]

    def clear_requests(self) -> None:
        self._call("DELETE", "/requests")

    # -- acting as a user --------------------------------------------------------------------------------
    def post_message(self, channel_id: int, author_id: int, content: str | None = None,
                     **fields: Any) -> dict[str, Any]:
        """A message in a guild channel, sent as that user would (permissions, slowmode, dispatches);
        ``fields`` are the platform's message create fields (``embeds``, ``components``, ...)."""
        body = {"author_id": str(author_id), **({"content": content} if content is not None else {}), **fields}
        return self._call("POST", f"/channels/{channel_id}/messages", json=body)  # type: ignore[no-any-return]

    def react(self, channel_id: int, message_id: int | str, user_id: int, emoji: str) -> None:
        self._call("PUT", f"/channels/{channel_id}/messages/{message_id}/reactions",
                   json={"user_id": str(user_id), "emoji": emoji})

    def as_user(self, user_id: int, *, channel_id: int | None = None, recipient_id: int | None = None,
                application_id: int = DEFAULT_APPLICATION_ID, wait_s: float = 3.0) -> SimulatedUser:
        """That user in a channel (or their DM with ``recipient_id``), running the app's commands,
        clicking its buttons and submitting its modals (simulated_user.py). Close it when done."""
        from .simulated_user import SimulatedUser

        return SimulatedUser(self.base_url, user_id, channel_id=channel_id, recipient_id=recipient_id,
                             application_id=application_id, admin_secret=self._admin_secret, wait_s=wait_s)
