"""The messages of an interaction's answer: the original response and the followups, read from the
app's bodies (the published IncomingWebhookInteractionRequest / update shapes), stored with their
files, and shown as message objects (authored by the app's bot user, ``webhook_id`` the app, with
``interaction_metadata``)."""

from __future__ import annotations

import base64
import json
import sqlite3
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Union
from urllib.parse import quote

from ...core import errors
from ...core.components import check_message_components
from ...core.errors import ApiError
from ...core.uploads import UploadedFile, attachment_name
from ...core.validation import Form
from ...events.audience import Payload
from ...wire.user import public_user_json
from ..commands import validation as cv
from .metadata import APPLICATION_COMMAND, interaction_metadata, payload_facts

if TYPE_CHECKING:
    from ...state import EmulatorState

EPHEMERAL = 1 << 6
LOADING = 1 << 7
SETTABLE_FLAGS = (1 << 2) | EPHEMERAL | (1 << 12) | (1 << 15)
MAX_CONTENT = 2000
# A row of interaction_messages: read from the table, or as ``insert`` wrote it.
MessageRow = Union[sqlite3.Row, Mapping[str, Any]]
# Message types: the answer to a command, to a component / modal, and a followup.
CHAT_INPUT_COMMAND, CONTEXT_MENU_COMMAND, DEFAULT = 20, 23, 0
# The callbacks that answer a component by editing its message (no message of their own).
DEFERRED_UPDATE, UPDATE_MESSAGE = 6, 7


def read_body(data: Any, *, editing: bool, path: tuple[str, ...] = ()) -> tuple[Payload, list[Payload] | None, int | None]:
    """(fields to store, the ``attachments`` specs or None, flags or None). Errors raise one 50035."""
    form = Form(data, path=path)
    body: Payload = {}
    if "content" in form.data:
        body["content"] = form.string("content", required=False, max_len=MAX_CONTENT, nullable=True) or ""
    if "tts" in form.data and not editing:
        body["tts"] = form.boolean("tts")
    flags = None
    if form.data.get("flags") is not None:
        flags = form.integer("flags", minimum=0)
        if flags is not None and flags & ~SETTABLE_FLAGS:
            form.fail("flags", "MESSAGE_FLAGS_INVALID",
                      "Only SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS and IS_COMPONENTS_V2 can be set.")
    if "embeds" in form.data:
        embeds = form.array("embeds", required=False, max_items=10) or []
        for index, raw in enumerate(embeds):
            embed = form.item("embeds", index, raw)
            embed.string("title", required=False, max_len=256)
            embed.string("description", required=False, max_len=4096)
        body["embeds"] = [dict(e, type=e.get("type", "rich")) if isinstance(e, dict) else e for e in embeds]
    if "components" in form.data:
        body["components"] = check_message_components(form, flags=flags or 0)
    if form.data.get("poll") is not None and not editing:
        poll = form.obj("poll")
        if poll is not None:
            question = poll.obj("question")
            if question is not None:
                question.string("text", min_len=1, max_len=300)
            poll.array("answers", min_items=1, max_items=10)
            body["poll"] = poll.data
    if form.data.get("allowed_mentions") is not None:
        form.obj("allowed_mentions")
    specs = None
    if form.data.get("attachments") is not None:
        specs = []
        for index, raw in enumerate(form.array("attachments", required=False, max_items=10) or []):
            item = form.item("attachments", index, raw)
            specs.append({"id": item.snowflake("id"), "filename": item.string("filename", required=False, max_len=1024),
                          "description": item.string("description", required=False, max_len=1024)})
    form.done()
    return body, specs, flags


def store_file(state: EmulatorState, conn: sqlite3.Connection, interaction_id: int, upload: UploadedFile,
               base_url: str, *, filename: str | None = None, description: str | None = None) -> Payload:
    """Keep one uploaded file with the interaction; its attachment object (served by the emulator)."""
    file_id = state.ids.next()
    name = attachment_name(filename or upload.filename, upload.index)
    conn.execute("INSERT INTO interaction_files (id, interaction_id, filename, content_type, size, data_base64)"
                 " VALUES (?, ?, ?, ?, ?, ?)", (file_id, interaction_id, name, upload.content_type, len(upload.data),
                                                base64.b64encode(upload.data).decode("ascii")))
    url = f"{base_url.rstrip('/')}/interaction-attachments/{interaction_id}/{file_id}/{quote(name)}"
    attachment: Payload = {"id": str(file_id), "filename": name, "size": len(upload.data), "url": url,
                           "proxy_url": url}
    if upload.content_type:
        attachment["content_type"] = upload.content_type
    if description:
        attachment["description"] = description
    return attachment


def attach(state: EmulatorState, conn: sqlite3.Connection, interaction_id: int, files: list[UploadedFile],
           specs: list[Payload] | None, kept: list[Payload], base_url: str) -> list[Payload]:
    """The attachments of a message after an answer: ``kept`` ones the specs still name, then the
    uploaded ``files[n]`` (each paired with the spec whose id is n)."""
    by_id = {str(spec["id"]): spec for spec in specs or []}
    result = []
    for attachment in kept:
        spec = by_id.get(attachment["id"])
        if specs is not None and spec is None:
            continue   # left out of the specs: removed
        if spec is not None and spec["description"] is not None:   # the one editable field of a kept file
            attachment = {**attachment, "description": spec["description"]}
        result.append(attachment)
    indexes = {f.index for f in files}
    for position, spec in enumerate(specs or []):
        if str(spec["id"]) not in {a["id"] for a in kept} and spec["id"] not in indexes:
            raise ApiError(400, errors.INVALID_FORM_BODY, "Invalid Form Body", {"attachments": {str(position): {
                "id": {"_errors": [{"code": "ATTACHMENT_NOT_FOUND", "message": "No file or attachment has this id."}]}}}})
    for upload in files:
        spec = by_id.get(str(upload.index), {})
        result.append(store_file(state, conn, interaction_id, upload, base_url, filename=spec.get("filename"),
                                 description=spec.get("description")))
    return result


def insert(state: EmulatorState, conn: sqlite3.Connection, interaction_id: int, *, original: bool, body: Payload,
           flags: int, attachments: list[Payload], loading: bool = False) -> MessageRow:
    """Store a new message; its row as a SELECT would read it back (so nobody needs to)."""
    row: dict[str, Any] = {"id": state.ids.next(), "interaction_id": interaction_id, "is_original": int(original),
                           "flags": flags, "loading": int(loading), "body": json.dumps(body),
                           "attachments": json.dumps(attachments) if attachments else "[]",
                           "created_at": state.clock.iso(), "edited_at": None}
    conn.execute("INSERT INTO interaction_messages (id, interaction_id, is_original, flags, loading, body, attachments,"
                 " created_at) VALUES (:id, :interaction_id, :is_original, :flags, :loading, :body, :attachments,"
                 " :created_at)", row)
    return row


def update(state: EmulatorState, conn: sqlite3.Connection, row: sqlite3.Row, body: Payload, flags: int | None,
           attachments: list[Payload]) -> None:
    merged = {**json.loads(row["body"]), **body}
    new_flags = row["flags"] if flags is None else (row["flags"] & EPHEMERAL) | (flags & ~EPHEMERAL)
    conn.execute("UPDATE interaction_messages SET body = ?, flags = ?, loading = 0, attachments = ?, edited_at = ?"
                 " WHERE id = ?", (json.dumps(merged), new_flags, json.dumps(attachments),
                                   None if row["loading"] else state.clock.iso(), row["id"]))


def message_json(conn: sqlite3.Connection, row: MessageRow, interaction: sqlite3.Row,
                 body: Payload | None = None) -> Payload:
    """The message object of an interaction's answer (``body``: the row's body already decoded, or
    what it was encoded from)."""
    if body is None:
        body = json.loads(row["body"])
    # The app's bot user (the author; none: an app without one) and the interaction's user, in one read.
    rows = {row["is_author"]: row for row in conn.execute(
        "SELECT 1 AS is_author, u.* FROM applications a JOIN users u ON u.id = a.bot_user_id WHERE a.id = ?"
        " UNION ALL SELECT 0, u.* FROM users u WHERE u.id = ?", (interaction["application_id"], interaction["user_id"]))}
    bot, user = rows.get(1), rows.get(0)
    author = public_user_json(bot) if bot is not None else {
        "id": str(interaction["application_id"]), "username": "app", "discriminator": "0000", "global_name": None,
        "avatar": None, "bot": True}
    kind = DEFAULT
    if row["is_original"] and interaction["type"] == APPLICATION_COMMAND:
        command_type = payload_facts(interaction["payload"]).command_type
        kind = CHAT_INPUT_COMMAND if command_type == cv.CHAT_INPUT else CONTEXT_MENU_COMMAND
    flags = row["flags"] | (LOADING if row["loading"] else 0)
    message: Payload = {
        "id": str(row["id"]), "type": kind, "channel_id": str(interaction["channel_id"]),
        "author": author, "content": body.get("content", ""), "timestamp": row["created_at"],
        "edited_timestamp": row["edited_at"], "tts": bool(body.get("tts", False)), "mention_everyone": False,
        "mentions": [], "mention_roles": [],
        "attachments": [] if row["attachments"] == "[]" else json.loads(row["attachments"]),   # most have none
        "embeds": body.get("embeds", []), "components": body.get("components", []), "pinned": False,
        "flags": flags, "webhook_id": str(interaction["application_id"]),
        "application_id": str(interaction["application_id"]),
        "interaction_metadata": interaction_metadata(
            conn, interaction, public_user_json(user) if user is not None else None,
            None if row["is_original"] else _original_response_id(conn, interaction)),
    }
    if interaction["guild_id"] is not None:
        message["guild_id"] = str(interaction["guild_id"])
    if "poll" in body:
        message["poll"] = body["poll"]
    return message


def _original_response_id(conn: sqlite3.Connection, interaction: sqlite3.Row) -> int | None:
    """The id of the interaction's original response (a followup names it): its own message, or the
    component's message an UPDATE_MESSAGE / DEFERRED_UPDATE_MESSAGE answer edits."""
    found = conn.execute("SELECT id FROM interaction_messages WHERE interaction_id = ? AND is_original = 1",
                         (interaction["id"],)).fetchone()
    if found is not None:
        return int(found["id"])
    return interaction["message_id"] if interaction["response_type"] in (DEFERRED_UPDATE, UPDATE_MESSAGE) else None
