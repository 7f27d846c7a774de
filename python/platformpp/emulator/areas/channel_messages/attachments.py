"""Attachment bytes: stored on disk beside the database (``<db>.attachments/<attachment id>``; an
in-memory database gets a temporary folder that lives as long as the emulator), served back at each
attachment's ``url`` (``{base}/attachments/{channel_id}/{attachment_id}/{filename}``). Rows live in
``message_attachments``; a file whose transaction rolls back is removed again."""

from __future__ import annotations

import mimetypes
import os
import sqlite3
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from ...core.storage import MEMORY
from ...core.uploads import UploadedFile, attachment_name
from ...wire.message import IS_SPOILER, SPOILER_PREFIX
from .body import AttachmentSpec

if TYPE_CHECKING:
    from ...state import EmulatorState

_DIR_KEY = "channel_messages.attachment_dir"


def attachment_dir(state: EmulatorState) -> Path:
    folder = state.extras.get(_DIR_KEY)
    if folder is None:
        if state.db.path == MEMORY:
            # Removed when the emulator state is collected (TemporaryDirectory's finalizer).
            holder = tempfile.TemporaryDirectory(prefix="platformpp-attachments-")
            state.extras[_DIR_KEY + ".holder"] = holder
            folder = Path(holder.name)
        else:
            folder = Path(state.db.path + ".attachments")
        folder.mkdir(parents=True, exist_ok=True)
        state.extras[_DIR_KEY] = folder
    return Path(folder)


def file_path(state: EmulatorState, attachment_id: int) -> Path:
    return attachment_dir(state) / str(attachment_id)


def spoiler_flags(filename: str, is_spoiler: bool | None) -> int:
    """IS_SPOILER from the request's ``is_spoiler``, or from the legacy ``SPOILER_`` filename prefix."""
    if is_spoiler is None:
        return IS_SPOILER if filename.startswith(SPOILER_PREFIX) else 0
    return IS_SPOILER if is_spoiler else 0


class Writer:
    """Writes a request's files; ``discard()`` removes them when the transaction did not commit."""

    def __init__(self, state: EmulatorState) -> None:
        self.state = state
        self.written: list[Path] = []

    def store(self, conn: sqlite3.Connection, *, message_id: int, channel_id: int, position: int,
              upload: UploadedFile, spec: AttachmentSpec | None, base_url: str) -> int:
        attachment_id = self.state.ids.next()
        filename = attachment_name(spec.filename if spec and spec.filename else upload.filename, upload.index)
        content_type = upload.content_type if upload.content_type not in (None, "application/octet-stream") \
            else mimetypes.guess_type(filename)[0] or upload.content_type
        url = f"{base_url.rstrip('/')}/attachments/{channel_id}/{attachment_id}/{quote(filename)}"
        path = file_path(self.state, attachment_id)
        self.written.append(path)
        with open(path, "wb") as file:   # on disk before the message's commit is acknowledged
            file.write(upload.data)
            file.flush()
            os.fsync(file.fileno())
        conn.execute("INSERT INTO message_attachments (id, message_id, position, filename, title, description,"
                     " content_type, size, flags, url) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (attachment_id, message_id, position, filename, spec.title if spec else None,
                      spec.description if spec else None, content_type, len(upload.data),
                      spoiler_flags(filename, spec.is_spoiler if spec else None), url))
        return attachment_id

    def discard(self) -> None:
        for path in self.written:
            path.unlink(missing_ok=True)


def remove_files(state: EmulatorState, attachment_ids: list[int]) -> None:
    """After a commit that deleted attachments: their bytes go too."""
    for attachment_id in attachment_ids:
        file_path(state, attachment_id).unlink(missing_ok=True)
