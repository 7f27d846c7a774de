"""Everything one running emulator holds, shared by all routes as ``app.state.emu``, and how it is
put together from the areas listed in ``areas/__init__.py``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .areas.catalog import AREAS
from .areas.oauth.store import ACCESS_TOKEN_TTL_S
from .areas.webhooks.store import DEFAULT_RETRY_DELAYS_S, WebhookDispatcher
from .core.admin_secret import AdminSecret
from .core.clock import Clock
from .core.faults import Faults
from .core.fixtures import FixtureSection
from .core.migrations import CORE_SCHEMA, Migration, collect
from .core.ratelimit import RateLimiter
from .core.requestlog import RequestLog
from .core.snowflake import SnowflakeGenerator
from .core.storage import MEMORY, Database
from .core.tls import ServerCertificate
from .events.bus import Bus

if TYPE_CHECKING:   # the voice service is imported when it starts (areas/voice_states/calls.py)
    from .voice.service import VoiceService


@dataclass(eq=False)
class EmulatorState:
    db: Database
    clock: Clock
    ids: SnowflakeGenerator
    bus: Bus
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
    # Required on /_emulator when the emulator listens beyond loopback (None: the admin API is open).
    admin_secret: AdminSecret | None = field(default=None, repr=False)
    # The fixture sections of every area (what a world file may contain).
    fixture_sections: tuple[FixtureSection, ...] = field(default_factory=tuple, repr=False)
    # SDK users of an application with a live Gateway connection (lobbies' idleness depends on it).
    # The Gateway installs its own when it starts; areas ask through this and never import it.
    connected_users: Callable[[int], set[int]] = field(default=lambda application_id: set(), repr=False)
    # The voice service (voice gateway and UDP relay), running while the emulator serves; it listens on
    # ``voice_host`` (the emulator's host) and VOICE_SERVER_UPDATE names its endpoint.
    voice: VoiceService | None = field(default=None, repr=False)
    voice_host: str = "127.0.0.1"
    # Set when the emulator serves TLS: HTTPS and WSS, the voice gateway's WSS included.
    tls: ServerCertificate | None = field(default=None, repr=False)
    # Free room for other parts' in-memory state (e.g. Gateway sessions), keyed by part.
    extras: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def create(cls, db_path: str | Path, *, retry_delays_s: tuple[float, ...] = DEFAULT_RETRY_DELAYS_S
               ) -> EmulatorState:
        clock = Clock()
        state = cls(open_database(db_path), clock, SnowflakeGenerator(clock), Bus(), Faults(), RateLimiter(),
                    RequestLog(), fixture_sections=tuple(s for area in AREAS for s in area.fixtures))
        state.webhooks = WebhookDispatcher(state, retry_delays_s)
        return state

    def observe_stored_ids(self) -> None:
        """Make new snowflakes larger than every stored one (after loading a store, fixture or snapshot)."""
        for table in self.db.data_tables():
            columns = {row[1]: row[2] for row in self.db.query(f'PRAGMA table_info("{table}")')}
            if columns.get("id") == "INTEGER":
                row = self.db.query_one(f'SELECT MAX(id) FROM "{table}"')
                self.ids.observe(int(row[0] or 0) if row else 0)


def migrations() -> list[Migration]:
    """The whole schema: core's migrations and every area's, in number order."""
    return collect([CORE_SCHEMA, *(area.schema for area in AREAS if area.schema is not None)])


def open_database(path: str | Path = MEMORY) -> Database:
    """The world's database at ``path``, migrated to the current schema."""
    return Database(path, migrations())
