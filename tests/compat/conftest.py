"""The compatibility suite: off-the-shelf client libraries from PyPI, unchanged, run against the
emulator as their users configure them (an API base URL, the Gateway URL from GET /gateway/bot, TLS
trust). Each library has its own folder; what they share is here.

Every test also fails if anything logged a warning or an error meanwhile: a library warns about
answers it does not understand (unexpected bucket headers, fields it cannot parse, events it drops),
and those are exactly the emulator's mistakes this suite exists to catch."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# The default world's ids and credentials are shared with the emulator's own tests.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "emulator"))


class LoggedProblems(logging.Handler):
    """Every record at WARNING or above, from any logger (the library's and the emulator's)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []
        self.allowed: list[tuple[str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def allow(self, logger: str, text: str) -> None:
        """Let one expected warning through: records of ``logger`` (or its children) whose message
        contains ``text``. For warnings a test provokes on purpose (bad input it sends itself)."""
        self.allowed.append((logger, text))

    def unexpected(self) -> list[str]:
        def expected(record: logging.LogRecord) -> bool:
            message = record.getMessage()
            return any((record.name == name or record.name.startswith(name + ".")) and text in message
                       for name, text in self.allowed)

        return [f"{record.name} {record.levelname}: {record.getMessage()}"
                for record in self.records if not expected(record)]


@pytest.fixture(autouse=True)
def logged_problems() -> Iterator[LoggedProblems]:
    """Fails the test when anything logged a warning or an error that the test did not allow."""
    handler = LoggedProblems()
    root = logging.getLogger()
    previous_level = root.level
    root.addHandler(handler)
    root.setLevel(min(previous_level, logging.WARNING) if previous_level else logging.WARNING)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(previous_level)
    problems = handler.unexpected()
    assert not problems, "logged during the test:\n" + "\n".join(problems)
