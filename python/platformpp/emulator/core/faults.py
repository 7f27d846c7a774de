"""Injected faults for testing clients' resilience: added latency, an error rate per route, forced
429s and dropped connections. All off by default; the admin API replaces the whole set at once."""

from __future__ import annotations

import fnmatch
import random
import threading
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

from .validation import Form


@dataclass
class FaultRule:
    path: str                      # fnmatch pattern on the request path, e.g. "/api/v10/users/*"
    method: str = "*"
    latency_ms: float = 0.0
    error_rate: float = 0.0        # probability of answering error_status instead
    error_status: int = 500
    force_429: int = 0             # the next N matching requests answer 429 (-1: all of them)
    retry_after: float = 1.0
    global_429: bool = False
    drop_rate: float = 0.0         # probability of closing the connection mid-response

    def matches(self, method: str, path: str) -> bool:
        return self.method in ("*", method) and fnmatch.fnmatchcase(path, self.path)


class FaultAction(NamedTuple):
    latency_s: float
    force_429: FaultRule | None
    error_status: int | None
    drop: bool


class Faults:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.latency_ms = 0.0
        self.rules: list[FaultRule] = []
        self._random = random.Random()

    def reset(self) -> None:
        with self._lock:
            self.latency_ms, self.rules = 0.0, []

    def configure(self, form: Form) -> None:
        """Replace the configuration from an admin request body (50035 on bad fields, nothing changed)."""
        latency = form.number("latency_ms", required=False, minimum=0, maximum=60_000, default=0.0)
        seed = form.integer("seed", required=False)
        rules: list[FaultRule] = []
        for index, raw in enumerate(form.array("rules", required=False, max_items=100) or []):
            item = form.item("rules", index, raw)
            rule = FaultRule(
                path=item.string("path", min_len=1, max_len=500) or "",
                method=(item.string("method", required=False, default="*", max_len=10) or "*").upper(),
                latency_ms=item.number("latency_ms", required=False, minimum=0, maximum=60_000, default=0.0) or 0.0,
                error_rate=item.number("error_rate", required=False, minimum=0, maximum=1, default=0.0) or 0.0,
                error_status=item.integer("error_status", required=False, minimum=400, maximum=599, default=500)
                or 500,
                force_429=item.integer("force_429", required=False, minimum=-1, default=0) or 0,
                retry_after=item.number("retry_after", required=False, minimum=0, maximum=3600, default=1.0) or 0.0,
                global_429=item.boolean("global", default=False),
                drop_rate=item.number("drop_rate", required=False, minimum=0, maximum=1, default=0.0) or 0.0,
            )
            rules.append(rule)
        form.done()
        with self._lock:
            self.latency_ms, self.rules = latency or 0.0, rules
            self._random = random.Random(seed)

    def to_json(self) -> dict[str, Any]:
        with self._lock:
            rules = [asdict(rule) for rule in self.rules]
        for rule in rules:
            rule["global"] = rule.pop("global_429")
        return {"latency_ms": self.latency_ms, "rules": rules}

    def decide(self, method: str, path: str) -> FaultAction | None:
        """What to do to this request; consumes one forced 429 of the first matching rule that has any."""
        with self._lock:
            if not self.rules and not self.latency_ms:
                return None
            latency = self.latency_ms
            forced: FaultRule | None = None
            status: int | None = None
            drop = False
            for rule in self.rules:
                if not rule.matches(method, path):
                    continue
                latency += rule.latency_ms
                if forced is None and rule.force_429:
                    forced = rule
                    if rule.force_429 > 0:
                        rule.force_429 -= 1
                if status is None and rule.error_rate and self._random.random() < rule.error_rate:
                    status = rule.error_status
                if rule.drop_rate and self._random.random() < rule.drop_rate:
                    drop = True
            return FaultAction(latency / 1000.0, forced, status, drop)
