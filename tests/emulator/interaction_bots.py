"""Two real bots for the interaction tests, each answering with a handler ``payload -> callback | None``:

- ``GatewayBot``: a Gateway session (its own thread and event loop) that receives INTERACTION_CREATE
  and answers through ``POST /interactions/{id}/{token}/callback``;
- ``EndpointBot``: an HTTP server on loopback (an interactions endpoint URL) that checks the Ed25519
  signature as the platform tells apps to (401 when it does not verify), answers PING with PONG and
  interactions with the handler's callback in the response body.

Both record every interaction they received (``received``)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import websockets
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from emulator_world import BOT_TOKEN

Handler = Callable[[dict[str, Any]], "dict[str, Any] | None"]


class Replies:
    """A bot's answers, changed by each test step: ``replies.next = lambda payload: {...}``."""

    def __init__(self) -> None:
        self.next: Handler = lambda payload: {"type": 4, "data": {"content": "ok"}}

    def __call__(self, payload: dict[str, Any]) -> dict[str, Any] | None:
        return self.next(payload)


class GatewayBot:
    def __init__(self, base_url: str, handler: Handler, *, token: str = BOT_TOKEN, intents: int = 1) -> None:
        self.base_url, self.handler, self.token, self.intents = base_url, handler, token, intents
        self.received: list[dict[str, Any]] = []
        self.dispatches: list[dict[str, Any]] = []   # every dispatch after READY: {"t", "d"}
        self.callback_statuses: list[int] = []
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)

    def __enter__(self) -> GatewayBot:
        self._thread.start()
        assert self._ready.wait(10), "the bot did not receive READY"
        return self

    def __exit__(self, *exc: object) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)

    async def _main(self) -> None:
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        url = self.base_url.replace("http://", "ws://") + "/gateway/?v=10&encoding=json"
        async with websockets.connect(url, max_size=None) as ws, \
                httpx.AsyncClient(base_url=self.base_url + "/api/v10", timeout=10) as http:
            json.loads(await ws.recv())   # HELLO
            await ws.send(json.dumps({"op": 2, "d": {"token": self.token, "intents": self.intents,
                                                     "properties": {"os": "linux", "browser": "t", "device": "t"}}}))
            reader = asyncio.create_task(self._read(ws, http))
            await self._stop.wait()
            reader.cancel()

    async def _read(self, ws: Any, http: httpx.AsyncClient) -> None:
        async for frame in ws:
            message = json.loads(frame)
            if message.get("t") == "READY":
                self._ready.set()
            elif message.get("op") == 0:
                self.dispatches.append({"t": message["t"], "d": message["d"]})
            if message.get("t") != "INTERACTION_CREATE":
                continue
            payload = message["d"]
            self.received.append(payload)
            callback = self.handler(payload)
            if callback is None:
                continue
            files = callback.pop("__files__", None)
            path = f"/interactions/{payload['id']}/{payload['token']}/callback"
            if files:
                response = await http.post(path, data={"payload_json": json.dumps(callback)}, files=files)
            else:
                response = await http.post(path, json=callback)
            self.callback_statuses.append(response.status_code)


class EndpointBot:
    def __init__(self, handler: Handler, verify_key_hex: str, *, answer_ping: bool = True,
                 check_signature: bool = True) -> None:
        self.received: list[dict[str, Any]] = []
        self.rejected = 0
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(verify_key_hex))
        bot = self

        class Request(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                try:
                    key.verify(bytes.fromhex(self.headers["x-signature-ed25519"]),
                               self.headers["x-signature-timestamp"].encode() + body)
                    valid = True
                except (InvalidSignature, ValueError, KeyError):
                    valid = False
                if check_signature and not valid:
                    bot.rejected += 1
                    return self._answer(401, {"error": "invalid request signature"})
                payload = json.loads(body)
                if payload["type"] == 1:
                    return self._answer(200, {"type": 1} if answer_ping else {"type": 4})
                bot.received.append(payload)
                self._answer(200, handler(payload) or {})

            def _answer(self, status: int, body: Any) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Request)
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02},
                                        daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/interactions"

    def __enter__(self) -> EndpointBot:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
