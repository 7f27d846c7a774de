"""The Gateway (docs/wire.md "Gateway"): real-time WebSocket sessions for bots and SDK users. It subscribes
to the bus and turns events with an audience into dispatches; it reads area stores through their
query functions and never imports an area's routes."""
