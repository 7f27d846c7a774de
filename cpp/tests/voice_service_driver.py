"""The emulator's VoiceService, started standalone for the C++ voice integration tests.

Speaks JSON lines: first writes {"endpoint": "host:port"} once the service listens, then answers one
line per command read from stdin:
  {"cmd": "allocate", "server_id": S, "channel_id": C, "user_id": U, "session_id": "..."} -> {"token": ..., "endpoint": ...}
  {"cmd": "close_gateway", "server_id": S, "user_id": U}                                -> {"ok": true}
  {"cmd": "udp_faults", "channel_id": C, "drop_ratio": R, "delay_ms": D}                 -> {"ok": true}
  {"cmd": "stats"}                                                                       -> the service's stats
Stops at end of input.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime, timezone

from platformpp.emulator.voice.service import VoiceService


def main() -> None:
    service = VoiceService(now=lambda: datetime.now(timezone.utc), heartbeat_interval=1.0).start()
    try:
        print(json.dumps({"endpoint": service.endpoint}), flush=True)
        for line in sys.stdin:
            if not line.strip():
                continue
            request = json.loads(line)
            cmd = request.pop("cmd")
            if cmd == "allocate":
                token, endpoint = service.allocate(request["server_id"], request["channel_id"], request["user_id"],
                                                   request["session_id"])
                answer: object = {"token": token, "endpoint": endpoint}
            elif cmd == "close_gateway":
                service.faults.close_gateway(request["server_id"], request["user_id"])
                answer = {"ok": True}
            elif cmd == "udp_faults":
                service.faults.set_udp(request["channel_id"], drop_ratio=request["drop_ratio"],
                                       delay_ms=request["delay_ms"])
                answer = {"ok": True}
            elif cmd == "stats":
                answer = service.stats()
            else:
                answer = {"error": f"cmd: unknown command {cmd!r}"}
            print(json.dumps(answer, default=str), flush=True)
    finally:
        service.stop()


if __name__ == "__main__":
    main()
