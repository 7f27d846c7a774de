"""Event webhooks: the platform's envelope, signed with the application's Ed25519 key
(``X-Signature-Ed25519`` over ``timestamp + body``), POSTed over real HTTP by a background thread with
bounded retries and exponential backoff. Every delivery is a row, visible through the admin API, and
pending ones resume after a restart."""

from __future__ import annotations

import http.client
import json
import logging
import queue
import secrets
import threading
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from ...state import EmulatorState

log = logging.getLogger("platformpp.emulator.webhooks")

PING = 0
EVENT = 1
RECEIVER_TIMEOUT_S = 3.0
DEFAULT_RETRY_DELAYS_S = (1.0, 2.0, 4.0, 8.0)   # so at most five attempts


def _private_key(private_key_hex: str) -> Ed25519PrivateKey:
    # cryptography is imported on first use: a tenth of the emulator's time to serve otherwise.
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(private_key_hex))


def new_private_key_hex() -> str:
    # An Ed25519 private key is 32 random bytes (RFC 8032, 5.1.5): no need to load cryptography here.
    return secrets.token_hex(32)


def public_key_hex(private_key_hex: str) -> str:
    return _private_key(private_key_hex).public_key().public_bytes_raw().hex()


def sign(private_key_hex: str, timestamp: str, body: bytes) -> str:
    return _private_key(private_key_hex).sign(timestamp.encode("ascii") + body).hex()


class WebhookDispatcher:
    def __init__(self, state: EmulatorState, retry_delays_s: tuple[float, ...] = DEFAULT_RETRY_DELAYS_S) -> None:
        self.state = state
        self.retry_delays_s = retry_delays_s
        self._queue: queue.Queue[int | None] = queue.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- producing ------------------------------------------------------------------------------------
    def send_event(self, application_id: int, event_type: str, data: dict[str, Any]) -> int | None:
        """Record an event delivery for the app (if it has an event webhook URL) and queue it.
        Call inside the caller's transaction: the delivery exists only if that work commits."""
        return self._record(application_id, EVENT, {"type": event_type, "timestamp": self.state.clock.iso(),
                                                     "data": data}, event_type)

    def send_ping(self, application_id: int) -> int | None:
        return self._record(application_id, PING, None, "PING")

    def _record(self, application_id: int, kind: int, event: dict[str, Any] | None, label: str) -> int | None:
        db = self.state.db
        app = db.query_one("SELECT event_webhooks_url FROM applications WHERE id = ?", (application_id,))
        if app is None or not app["event_webhooks_url"]:
            return None
        envelope: dict[str, Any] = {"version": 1, "application_id": str(application_id), "type": kind}
        if event is not None:
            envelope["event"] = event
        with db.transaction() as conn:
            cursor = conn.execute(
                "INSERT INTO webhook_deliveries (application_id, url, event_type, body, status, created_at)"
                " VALUES (?, ?, ?, ?, 'pending', ?)",
                (application_id, app["event_webhooks_url"], label,
                 json.dumps(envelope, separators=(",", ":")), self.state.clock.iso()))
            delivery_id = int(cursor.lastrowid or 0)
            db.on_commit(lambda: self._queue.put(delivery_id))
        return delivery_id

    # -- delivering -----------------------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        for row in self.state.db.query("SELECT id FROM webhook_deliveries WHERE status = 'pending' ORDER BY id"):
            self._queue.put(row["id"])
        self._thread = threading.Thread(target=self._run, name="platformpp-webhooks", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread is None:
            return
        self._stop.set()
        self._queue.put(None)
        self._thread.join(timeout=5)
        self._thread = None

    def _run(self) -> None:
        while not self._stop.is_set():
            delivery_id = self._queue.get()
            if delivery_id is None:
                continue
            try:
                self._deliver(delivery_id)
            except Exception:   # a bad row must not kill the thread that serves all later ones
                log.exception("webhook delivery %s failed unexpectedly", delivery_id)

    def _deliver(self, delivery_id: int) -> None:
        db = self.state.db
        row = db.query_one(
            "SELECT d.url, d.body, d.attempts, d.status, a.webhook_private_key FROM webhook_deliveries d"
            " JOIN applications a ON a.id = d.application_id WHERE d.id = ?", (delivery_id,))
        if row is None or row["status"] != "pending":
            return   # rolled back, reset away, or already done
        attempts = row["attempts"]
        while not self._stop.is_set():
            attempts += 1
            status, error = self._post(row["url"], row["body"].encode("utf-8"), row["webhook_private_key"])
            done = status is not None and 200 <= status < 300
            final = done or attempts > len(self.retry_delays_s)
            db.execute(
                "UPDATE webhook_deliveries SET attempts = ?, last_status = ?, last_error = ?, status = ?,"
                " delivered_at = ? WHERE id = ?",
                (attempts, status, error, "delivered" if done else ("failed" if final else "pending"),
                 self.state.clock.iso() if done else None, delivery_id))
            if final:
                return
            if self._stop.wait(self.retry_delays_s[attempts - 1]):
                return

    def _post(self, url: str, body: bytes, private_key_hex: str) -> tuple[int | None, str | None]:
        timestamp = str(int(self.state.clock.timestamp()))
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "platformpp-emulator webhooks",
            "X-Signature-Ed25519": sign(private_key_hex, timestamp, body),
            "X-Signature-Timestamp": timestamp,
        }
        parts = urlsplit(url)
        connection_type = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        connection = connection_type(parts.hostname or "", parts.port, timeout=RECEIVER_TIMEOUT_S)
        try:
            target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            connection.request("POST", target, body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            return response.status, None if 200 <= response.status < 300 else f"HTTP {response.status}"
        except (OSError, http.client.HTTPException) as exc:
            return None, f"{type(exc).__name__}: {exc}"[:300]
        finally:
            connection.close()


def deliveries_json(state: EmulatorState, application_id: int | None = None) -> list[dict[str, Any]]:
    sql = ("SELECT id, application_id, url, event_type, body, status, attempts, last_status, last_error,"
           " created_at, delivered_at FROM webhook_deliveries")
    rows = state.db.query(sql + (" WHERE application_id = ? ORDER BY id" if application_id else " ORDER BY id"),
                          (application_id,) if application_id else ())
    return [{**dict(row), "id": str(row["id"]), "application_id": str(row["application_id"]),
             "body": json.loads(row["body"])} for row in rows]


