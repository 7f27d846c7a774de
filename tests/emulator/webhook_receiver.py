"""A real HTTP server on loopback that records the webhook deliveries it receives, for the tests."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import TYPE_CHECKING, Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

if TYPE_CHECKING:
    from typing_extensions import Self




class Delivery:
    def __init__(self, headers: dict[str, str], body: bytes) -> None:
        self.headers, self.body = headers, body

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    def signature_valid(self, verify_key_hex: str) -> bool:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(verify_key_hex))
        try:
            key.verify(bytes.fromhex(self.headers["x-signature-ed25519"]),
                       self.headers["x-signature-timestamp"].encode() + self.body)
        except InvalidSignature:
            return False
        return True


class Receiver:
    """``with Receiver(fail_first=2) as receiver:`` answers 500 to the first two requests, then 204."""

    def __init__(self, fail_first: int = 0) -> None:
        self.deliveries: list[Delivery] = []
        self.fail_first = fail_first
        self._condition = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                with receiver._condition:
                    receiver.deliveries.append(Delivery({k.lower(): v for k, v in self.headers.items()}, body))
                    failing = len(receiver.deliveries) <= receiver.fail_first
                    receiver._condition.notify_all()
                self.send_response(500 if failing else 204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        # A short poll interval keeps shutdown() (each test's teardown) quick.
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02},
                                        daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/webhooks"

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Delivery]:
        deadline = time.monotonic() + timeout
        with self._condition:
            while len(self.deliveries) < count:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"expected {count} webhook deliveries, got {len(self.deliveries)}")
                self._condition.wait(remaining)
            return list(self.deliveries)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._server.shutdown()
        self._server.server_close()
