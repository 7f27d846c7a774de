"""Everything one running emulator holds, shared by all route modules as ``app.state.emu``."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from .clock import Clock
from .events import EventHub
from .faults import Faults
from .ratelimit import RateLimiter
from .requestlog import RequestLog
from .snowflake import SnowflakeGenerator
from .storage import Database
from .tokens import ACCESS_TOKEN_TTL_S
from .webhooks import DEFAULT_RETRY_DELAYS_S, WebhookDispatcher


@dataclass(eq=False)
class EmulatorState:
    db: Database
    clock: Clock
    ids: SnowflakeGenerator
    events: EventHub
    faults: Faults
    limits: RateLimiter
    requests: RequestLog
    webhooks: WebhookDispatcher = field(init=False)
    # The fixture the emulator started with; POST /_emulator/reset returns to it.
    initial_seed: dict[str, Any] = field(default_factory=dict, repr=False)   # holds plaintext test credentials
    initial_clock: datetime | None = None
    # Lifetime of new access tokens (their expires_in); PUT /_emulator/token-lifetime shortens it so
    # that clients' expiry handling can be tested in seconds. POST /_emulator/reset restores it.
    access_token_ttl_s: int = ACCESS_TOKEN_TTL_S
    # Free room for other modules' in-memory state (e.g. Gateway sessions), keyed by module.
    extras: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def create(cls, db_path: str | Path, *, retry_delays_s: tuple[float, ...] = DEFAULT_RETRY_DELAYS_S
               ) -> EmulatorState:
        clock = Clock()
        state = cls(Database(db_path), clock, SnowflakeGenerator(clock), EventHub(), Faults(), RateLimiter(),
                    RequestLog())
        state.webhooks = WebhookDispatcher(state, retry_delays_s)
        return state

    def observe_stored_ids(self) -> None:
        """Make new snowflakes larger than every stored one (after loading a store, fixture or snapshot)."""
        for table in self.db.data_tables():
            columns = {row[1]: row[2] for row in self.db.query(f'PRAGMA table_info("{table}")')}
            if columns.get("id") == "INTEGER":
                row = self.db.query_one(f'SELECT MAX(id) FROM "{table}"')
                self.ids.observe(int(row[0] or 0) if row else 0)
