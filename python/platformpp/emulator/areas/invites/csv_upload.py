"""Reading a CSV of user ids from a request as it arrives, never whole: ``multipart/form-data`` read
line by line from the socket (the CSV part ``target_users_file`` handed on in batches of ids, the
other parts kept as text fields), or a bare ``text/csv`` body.

The CSV is one user id per line, optionally under a header line ``user_id`` (the shape Get Target
Users answers); blank lines are skipped. A bad line fails with 400 / 50035 naming the line."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Awaitable, Callable

from starlette.requests import Request

from ...core.errors import ApiError
from ...core.uploads import too_large, upload_limit
from ...core.validation import field_error

FILE_FIELD = "target_users_file"
BATCH = 500   # ids staged per transaction: the most the reader holds at once
MAX_LINE = 64 * 1024
MAX_TEXT_FIELD = 1 << 20
_SNOWFLAKE = re.compile(rb"[0-9]{1,20}")

Batch = list[tuple[int, int]]            # (line number, user id)
OnBatch = Callable[[Batch], Awaitable[None]]


def csv_error(line: int, message: str) -> ApiError:
    return field_error(FILE_FIELD, "CSV_INVALID", f"line {line}: {message}")


def _form_error(message: str) -> ApiError:
    return field_error(FILE_FIELD, "BASE_TYPE_BAD_FILE", message)


async def _lines(request: Request) -> AsyncIterator[bytes]:
    """The body's lines without their line ending; 413 past the upload limit."""
    limit = upload_limit() + (1 << 20)
    declared = request.headers.get("content-length")
    if declared is not None and declared.isascii() and declared.isdigit() and int(declared) > limit:
        raise too_large()
    total = 0
    pending = b""
    async for chunk in request.stream():
        total += len(chunk)
        if total > limit:
            raise too_large()
        pending += chunk
        start = 0
        while (end := pending.find(b"\n", start)) >= 0:   # one line at a time: no list of the chunk's lines
            yield pending[start:end - 1] if end > start and pending[end - 1] == 13 else pending[start:end]
            start = end + 1
        pending = pending[start:]
        if len(pending) > MAX_LINE:
            raise _form_error(f"A line is longer than {MAX_LINE} bytes.")
    if pending:
        yield pending[:-1] if pending.endswith(b"\r") else pending


class CsvReader:
    """Turns CSV lines into (line, user id) batches for ``on_batch``; counts the ids read."""

    def __init__(self, on_batch: OnBatch) -> None:
        self.on_batch = on_batch
        self.line = 0
        self.count = 0
        self._batch: Batch = []

    async def feed(self, raw: bytes) -> None:
        self.line += 1
        text = raw.strip().strip(b'"').strip()
        if not text:
            return
        if self.line_is_header(text):
            return
        if not _SNOWFLAKE.fullmatch(text) or int(text) >= 1 << 64:
            shown = raw[:40].decode("utf-8", errors="replace")
            raise csv_error(self.line,
                            f"{shown!r} is not a user id (one snowflake per line, header 'user_id').")
        self._batch.append((self.line, int(text)))
        self.count += 1
        if len(self._batch) >= BATCH:
            await self.flush()

    def line_is_header(self, text: bytes) -> bool:
        return self.count == 0 and text.lower() == b"user_id"

    async def flush(self) -> None:
        if self._batch:
            batch, self._batch = self._batch, []
            await self.on_batch(batch)


async def read_csv_body(request: Request, on_batch: OnBatch) -> int:
    """A ``text/csv`` body; returns the number of ids."""
    reader = CsvReader(on_batch)
    async for line in _lines(request):
        await reader.feed(line)
    await reader.flush()
    return reader.count


async def read_multipart_csv(request: Request, on_batch: OnBatch) -> tuple[dict[str, str], int | None]:
    """A ``multipart/form-data`` body: its text fields, and the number of ids of its
    ``target_users_file`` part (None when there is none)."""
    match = re.search(r'boundary="?([^";]+)"?', request.headers.get("content-type", ""))
    if match is None:
        raise _form_error("The body must be multipart/form-data with a boundary.")
    delimiter = b"--" + match.group(1).encode("latin-1")
    fields: dict[str, str] = {}
    reader: CsvReader | None = None
    name: str | None = None
    in_headers = False
    text: list[bytes] = []
    text_size = 0
    finished = False
    async for line in _lines(request):
        if finished:
            continue
        if line.startswith(delimiter):
            if name is not None and name != FILE_FIELD:
                fields[name] = b"\r\n".join(text).decode("utf-8", errors="replace")
            if reader is not None:
                await reader.flush()
            name, text, text_size, in_headers = None, [], 0, True
            finished = line[len(delimiter):].startswith(b"--")
            continue
        if in_headers:
            if not line:
                in_headers = False
                continue
            header, _, value = line.decode("latin-1").partition(":")
            if header.strip().lower() == "content-disposition":
                found = re.search(r'\bname="([^"]*)"', value)
                name = found.group(1) if found else None
                if name == FILE_FIELD:
                    if reader is not None:
                        raise _form_error(f"Only one {FILE_FIELD} part is allowed.")
                    reader = CsvReader(on_batch)
            continue
        if name == FILE_FIELD and reader is not None:
            await reader.feed(line)
        elif name is not None:
            text_size += len(line) + 2
            if text_size > MAX_TEXT_FIELD:
                raise _form_error(f"The part {name!r} is too large.")
            text.append(line)
    if not finished:
        raise _form_error("The multipart body ends before its closing boundary.")
    return fields, (reader.count if reader is not None else None)
