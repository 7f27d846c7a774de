"""Activity attachments (kept with their bytes) and the activity instances the emulator launched: each
``LAUNCH_ACTIVITY`` answer to an interaction started one, in that interaction's channel, with the user
who used the command in it."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING
from urllib.parse import quote

from ...core.errors import ApiError
from ...core.uploads import UploadedFile, attachment_name
from ...events.audience import Payload
from ..interactions.store import LAUNCH_ACTIVITY

if TYPE_CHECKING:
    from ...state import EmulatorState


def attachment_path(application_id: int, attachment_id: int, filename: str) -> str:
    return f"/ephemeral-attachments/{application_id}/{attachment_id}/{quote(filename)}"


def save_attachment(state: EmulatorState, conn: sqlite3.Connection, application_id: int, upload: UploadedFile,
                    base_url: str) -> Payload:
    attachment_id = state.ids.next()
    name = attachment_name(upload.filename, 0)
    conn.execute("INSERT INTO activity_attachments (id, application_id, filename, content_type, data,"
                 " created_at) VALUES (?, ?, ?, ?, ?, ?)", (attachment_id, application_id, name, upload.content_type,
                                                upload.data, state.clock.iso()))
    url = base_url.rstrip("/") + attachment_path(application_id, attachment_id, name)
    body: Payload = {"id": str(attachment_id), "filename": name, "size": len(upload.data), "url": url,
                     "proxy_url": url, "ephemeral": True}
    if upload.content_type:
        body["content_type"] = upload.content_type
    return {"attachment": body}


def find_attachment(conn: sqlite3.Connection, application_id: int, attachment_id: int) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM activity_attachments WHERE id = ? AND application_id = ?",
                        (attachment_id, application_id)).fetchone()


def activity_instance(conn: sqlite3.Connection, application_id: int, instance_id: str) -> Payload:
    row = conn.execute("SELECT id, user_id, guild_id, channel_id FROM interactions WHERE application_id = ?"
                       " AND response_type = ? AND json_extract(response, '$.activity_instance_id') = ?",
                       (application_id, LAUNCH_ACTIVITY, instance_id)).fetchone()
    if row is None or row["channel_id"] is None:
        raise ApiError(404, 0, "404: Not Found")   # no error code of its own: the platform's plain 404
    location: Payload = {"id": f"{'gc' if row['guild_id'] else 'pc'}-{row['channel_id']}",
                         "kind": "gc" if row["guild_id"] else "pc", "channel_id": str(row["channel_id"])}
    if row["guild_id"]:
        location["guild_id"] = str(row["guild_id"])
    return {"application_id": str(application_id), "instance_id": instance_id, "launch_id": str(row["id"]),
            "location": location, "users": [str(row["user_id"])]}
