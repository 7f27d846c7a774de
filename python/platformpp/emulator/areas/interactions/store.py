"""Interactions: starting one (the simulated user's action, recorded and dispatched), the app's
initial response (every callback type of the published schema, within 3 seconds of the emulator
clock), and the messages of the answer reached through the interaction token for 15 minutes.
Every function runs in the caller's transaction."""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core import components, errors
from ...core.errors import ApiError
from ...core.json_text import compact_json
from ...core.uploads import UploadedFile
from ...core.validation import Form
from ...events.audience import Payload
from ...events.bus import Encoded
from ..channel_messages import store as channel_messages
from ..channel_messages.attachments import Writer
from ..channel_messages.body import read_message_input
from . import history, messages, metadata
from .audience import AppBotSessions
from .context import Place, context_fields
from .messages import DEFERRED_UPDATE, UPDATE_MESSAGE
from .metadata import APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT

if TYPE_CHECKING:
    from ...events.outbox import Outbox
    from ...state import EmulatorState

PING, AUTOCOMPLETE = 1, 4
SKU_PURCHASE_ELIGIBILITY_CHECK = 6   # the published SOCIAL_LAYER_SKU_PURCHASE_ELIGIBILITY interaction type
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE = 1, 4, 5
AUTOCOMPLETE_RESULT, MODAL, LAUNCH_ACTIVITY, SKU_PURCHASE_ELIGIBILITY = 8, 9, 12, 13
CALLBACK_TYPES = (PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE,
                  AUTOCOMPLETE_RESULT, MODAL, LAUNCH_ACTIVITY, SKU_PURCHASE_ELIGIBILITY)
# Which answers each kind of interaction accepts (the platform's table in "Receiving and Responding").
ALLOWED = {
    PING: {PONG},
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL, LAUNCH_ACTIVITY},
    MESSAGE_COMPONENT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL,
                        LAUNCH_ACTIVITY},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
    SKU_PURCHASE_ELIGIBILITY_CHECK: {SKU_PURCHASE_ELIGIBILITY},
}
INELIGIBLE_REASONS = (0, 1, 2)   # OTHER, OWNS_SKU_OR_BUNDLE_COMPONENT, PLATFORM_RESTRICTION
RESPONSE_WINDOW_S = 3.0
TOKEN_LIFETIME_S = 15 * 60.0
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
INVALID_WEBHOOK_TOKEN = 50027
ALREADY_ACKNOWLEDGED = 40060
NOT_ACKNOWLEDGED = 40061   # a followup before the initial response (the emulator's code for it)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Started(NamedTuple):
    id: int
    token: str
    payload: Encoded          # as delivered, token included
    endpoint_url: str | None  # HTTP delivery when set
    private_key: str
    delivered: bool = True    # False: the platform answered it itself (an entry point it launches)


# Every interaction token begins so (base64 of "interaction", as the platform's own tokens begin): the
# /webhooks/{id}/{token} routes tell an interaction's token from a channel webhook's by it.
TOKEN_PREFIX = "aW50ZXJhY3Rpb24."


def start(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, interaction_id: int, kind: int,
          place: Place, data: Payload, integration_types: list[int], message: Payload | None,
          deliver: bool = True, triggering_interaction_id: int | None = None) -> Started:
    """Record the interaction and, for Gateway delivery, dispatch INTERACTION_CREATE on commit
    (``deliver`` False: the app is not asked, the platform answers it; ``triggering_interaction_id``:
    of a modal submit, the interaction the modal answered)."""
    app = place.app
    token = TOKEN_PREFIX + secrets.token_urlsafe(48)
    head: Payload = {"id": str(interaction_id), "type": kind, "data": data}
    rest = context_fields(place, integration_types)
    if message is not None:
        rest["message"] = message
    # The payload is encoded once, in two parts: stored without the token, delivered with it (the
    # bot's frame and the simulated user reuse that text). Compact JSON of a dict is its members'
    # texts joined in order, so the joined parts are exactly what encoding the whole would give.
    head_text, rest_text = compact_json(head), compact_json(rest)
    stored_text = f"{head_text[:-1]},{rest_text[1:]}"
    payload = Encoded({**head, "token": token, **rest},
                      f"{head_text[:-1]},\"token\":{compact_json(token)},{rest_text[1:]}")
    url = app["interactions_endpoint_url"]
    metadata.remember_payload(stored_text, {**head, **rest})
    conn.execute("INSERT INTO interactions (id, application_id, token_hash, type, user_id, guild_id, channel_id,"
                 " message_id, payload, created_at, delivery, triggering_interaction_id)"
                 " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (interaction_id, place.application_id, token_digest(token), kind, int(place.user["id"]),
                  place.guild_id, place.channel_id, int(message["id"]) if message else None, stored_text,
                  state.clock.timestamp(), ("http" if url else "gateway") if deliver else "platform",
                  triggering_interaction_id))
    if deliver and not url:
        outbox.add("INTERACTION_CREATE", AppBotSessions(place.application_id, place.guild_id, payload))
    return Started(interaction_id, token, payload, url, app["webhook_private_key"], deliver)


def get_interaction(conn: sqlite3.Connection, interaction_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM interactions WHERE id = ?", (interaction_id,)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_INTERACTION, "interaction")
    return row


def callback_target(conn: sqlite3.Connection, interaction_id: int, token: str) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM interactions WHERE id = ?", (interaction_id,)).fetchone()
    if row is None or not secrets.compare_digest(row["token_hash"], token_digest(token)):
        raise errors.not_found(UNKNOWN_INTERACTION, "interaction")
    return row


def record_failure(conn: sqlite3.Connection, interaction_id: int, reason: str) -> None:
    conn.execute("UPDATE interactions SET error = ? WHERE id = ? AND response_type IS NULL", (reason, interaction_id))


# --- the initial response ----------------------------------------------------------------------------------

def _choices(form: Form, option_type: int | None) -> list[Payload]:
    data = form.obj("data")
    result: list[Payload] = []
    if data is None:
        return result
    for index, raw in enumerate(data.array("choices", required=False, max_items=25) or []):
        choice = data.item("choices", index, raw)
        name = choice.string("name", min_len=1, max_len=100)
        if option_type == 4:
            value: Any = choice.integer("value")
        elif option_type == 10:
            value = choice.number("value")
        else:
            value = choice.string("value", max_len=6000)
        result.append({"name": name, "value": value})
    return result


def _eligibility(form: Form) -> Payload:
    """SocialLayerSKUPurchaseEligibilityCallbackData: ``eligible`` (required), and why not."""
    data = form.obj("data")
    result: Payload = {}
    if data is not None:
        reason = None if data.data.get("ineligible_reason") is None else \
            data.choice("ineligible_reason", INELIGIBLE_REASONS)
        result = {"eligible": data.boolean("eligible", required=True), "ineligible_reason": reason,
                  "ineligible_reason_description": data.string("ineligible_reason_description", required=False,
                                                               nullable=True, max_len=255)}
    form.done()
    return result


def _focused_type(options: list[Payload]) -> int | None:
    for option in options:
        if option.get("focused"):
            return int(option["type"])
        nested = _focused_type(option.get("options") or [])
        if nested is not None:
            return nested
    return None


def respond(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, row: sqlite3.Row, raw: Any,
            files: list[UploadedFile], base_url: str) -> Payload:
    """Apply the app's initial response; the InteractionCallbackResponse (for ``with_response``)."""
    return _respond(state, conn, outbox, row, raw, files, base_url)[0]


def respond_and_converse(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, row: sqlite3.Row, raw: Any,
                         files: list[UploadedFile], base_url: str) -> tuple[Payload, Payload]:
    """``respond``, and the conversation as it stands after it (what a waiting simulated user is given).
    When the response wrote the original message, the conversation is that message alone (no
    followup can precede the initial response), built from what was just written; otherwise read."""
    result, kind, original = _respond(state, conn, outbox, row, raw, files, base_url)
    if original is None:
        return result, conversation(conn, get_interaction(conn, row["id"]))
    return result, _conversation_json(row, kind, None, original, [], None)


def _respond(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, row: sqlite3.Row, raw: Any,
             files: list[UploadedFile], base_url: str) -> tuple[Payload, int, Payload | None]:
    """(the InteractionCallbackResponse, the callback type, the original message when this response
    wrote it)."""
    now = state.clock.timestamp()
    if row["response_type"] is not None:
        raise ApiError(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
    if now - row["created_at"] > RESPONSE_WINDOW_S:
        raise errors.not_found(UNKNOWN_INTERACTION, "interaction")
    form = Form(raw)
    kind = form.choice("type", CALLBACK_TYPES)
    form.done()
    if kind not in ALLOWED[row["type"]]:
        form.fail("type", "INTERACTION_CALLBACK_TYPE_INVALID",
                  f"Callback type {kind} cannot answer an interaction of type {row['type']}.")
        form.done()
    summary: Payload = {"id": str(row["id"]), "type": row["type"]}
    resource: Payload | None = None
    stored: Any = None
    stored_text: str | None = None   # ``stored`` as JSON, when already encoded
    original: Payload | None = None
    if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
        data = raw.get("data") or {}
        if kind == DEFERRED_CHANNEL_MESSAGE:
            data = {"flags": data.get("flags")} if isinstance(data, dict) and data.get("flags") is not None else {}
        body, specs, flags = messages.read_body(data, editing=False, path=("data",))
        if kind == CHANNEL_MESSAGE and not (body.get("content") or body.get("embeds") or body.get("components")
                                            or files or body.get("poll")):
            raise ApiError(400, 50006, "Cannot send an empty message")
        attachments = messages.attach(state, conn, row["id"], files, specs, [], base_url)
        stored_message = messages.insert(state, conn, row["id"], original=True, body=body, flags=flags or 0,
                                         attachments=attachments, loading=kind == DEFERRED_CHANNEL_MESSAGE)
        message = original = messages.message_json(conn, stored_message, row, body)
        history.created(state, conn, outbox, row, stored_message, message)
        summary.update(response_message_id=message["id"], response_message_loading=kind == DEFERRED_CHANNEL_MESSAGE,
                       response_message_ephemeral=bool((flags or 0) & messages.EPHEMERAL))
        if kind == CHANNEL_MESSAGE:   # a deferred answer has no resource yet: its message is loading
            resource = {"type": kind, "message": message}
        stored, stored_text = body, stored_message["body"]
    elif kind in (UPDATE_MESSAGE, DEFERRED_UPDATE):
        if row["message_id"] is None:
            form.fail("type", "INTERACTION_CALLBACK_TYPE_INVALID", "Only answers to a message's component update it.")
            form.done()
        if kind == UPDATE_MESSAGE:
            message = _update_component_message(state, conn, outbox, row, raw.get("data") or {}, files, base_url,
                                                path=("data",))
            resource = {"type": kind, "message": message}
            summary.update(response_message_id=message["id"], response_message_loading=False,
                           response_message_ephemeral=bool(message["flags"] & messages.EPHEMERAL))
            stored = raw.get("data")
    elif kind == AUTOCOMPLETE_RESULT:
        stored = _choices(form, _focused_type(json.loads(row["payload"])["data"].get("options") or []))
        form.done()
    elif kind == MODAL:
        data = form.obj("data")
        if data is not None:
            stored = components.check_modal(data)
        form.done()
    elif kind == LAUNCH_ACTIVITY:
        instance = f"i-{state.ids.next()}-gc-{row['guild_id'] or 0}-{row['channel_id'] or 0}"
        summary["activity_instance_id"] = instance
        resource = {"type": kind, "activity_instance": {"id": instance}}
        stored = {"activity_instance_id": instance}
    elif kind == SKU_PURCHASE_ELIGIBILITY:
        stored = _eligibility(form)
    conn.execute("UPDATE interactions SET response_type = ?, response = ?, responded_at = ?, error = NULL"
                 " WHERE id = ?", (kind, stored_text if stored_text is not None else json.dumps(stored), now,
                                   row["id"]))
    result: Payload = {"interaction": summary}
    if resource is not None:
        result["resource"] = resource
    return result, kind, original


def _update_component_message(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, row: sqlite3.Row,
                              data: Any, files: list[UploadedFile], base_url: str, *,
                              path: tuple[str, ...]) -> Payload:
    """UPDATE_MESSAGE (or an edit of ``@original`` after a component update): the message whose
    component was used changes, as the app says."""
    own = conn.execute("SELECT * FROM interaction_messages WHERE id = ?", (row["message_id"],)).fetchone()
    if own is not None:
        body, specs, flags = messages.read_body(data, editing=True, path=path)
        kept = json.loads(own["attachments"])
        attachments = messages.attach(state, conn, own["interaction_id"], files, specs, kept, base_url)
        messages.update(state, conn, own, body, flags, attachments)
        owner = get_interaction(conn, own["interaction_id"])
        history.updated(state, conn, outbox, owner, _message(conn, own["id"]))
        return render_message(conn, own["id"], owner)
    body_input = read_message_input(data, editing=True)
    author = _app_author(conn, row)
    message, _ = channel_messages.edit(state, conn, outbox, Writer(state), channel_id=row["channel_id"], editor=author,
                                       message_id=row["message_id"], body=body_input, files=files, base_url=base_url)
    return message


def _app_author(conn: sqlite3.Connection, row: sqlite3.Row) -> channel_messages.Author:
    """The interaction's application, as the author of channel messages (its bot user)."""
    app = conn.execute("SELECT bot_user_id FROM applications WHERE id = ?", (row["application_id"],)).fetchone()
    return channel_messages.Author(app["bot_user_id"], True, row["application_id"])


def _is_component_message(interaction: sqlite3.Row, message_id: int | None) -> bool:
    """Whether ``message_id`` (None: ``@original``) names the message the component is on: an answer by
    UPDATE_MESSAGE or DEFERRED_UPDATE_MESSAGE has no message of its own, its original is that one."""
    return (message_id is None and interaction["response_type"] in (DEFERRED_UPDATE, UPDATE_MESSAGE)
            and interaction["message_id"] is not None)


# --- messages through the interaction token ------------------------------------------------------------------

def by_token(state: EmulatorState, conn: sqlite3.Connection, application_id: int, token: str) -> sqlite3.Row:
    """The interaction of a webhook token (15 minutes on the emulator clock)."""
    row = conn.execute("SELECT * FROM interactions WHERE token_hash = ? AND application_id = ?",
                       (token_digest(token), application_id)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_WEBHOOK, "Webhook")
    if state.clock.timestamp() - row["created_at"] > TOKEN_LIFETIME_S:
        raise ApiError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
    return row


def _message(conn: sqlite3.Connection, message_id: int) -> sqlite3.Row:
    row: sqlite3.Row = conn.execute("SELECT * FROM interaction_messages WHERE id = ?", (message_id,)).fetchone()
    return row


def render_message(conn: sqlite3.Connection, message_id: int, interaction: sqlite3.Row) -> Payload:
    return messages.message_json(conn, _message(conn, message_id), interaction)


def get_message(conn: sqlite3.Connection, interaction: sqlite3.Row, message_id: int | None) -> Payload:
    """A message of the interaction (``message_id`` None: the original response)."""
    if _is_component_message(interaction, message_id):
        own = conn.execute("SELECT * FROM interaction_messages WHERE id = ?", (interaction["message_id"],)).fetchone()
        if own is not None:
            return render_message(conn, own["id"], get_interaction(conn, own["interaction_id"]))
        author = _app_author(conn, interaction)
        row = channel_messages.get_row(conn, interaction["channel_id"], interaction["message_id"])
        return channel_messages.for_reader(conn, channel_messages.render(conn, row, author.user_id), author)
    return render_message(conn, message_row(conn, interaction, message_id)["id"], interaction)


def message_row(conn: sqlite3.Connection, interaction: sqlite3.Row, message_id: int | None) -> sqlite3.Row:
    """``message_id`` None: the original response."""
    if message_id is None:
        row = conn.execute("SELECT * FROM interaction_messages WHERE interaction_id = ? AND is_original = 1",
                           (interaction["id"],)).fetchone()
    else:
        row = conn.execute("SELECT * FROM interaction_messages WHERE interaction_id = ? AND id = ?",
                           (interaction["id"], message_id)).fetchone()
    if row is None:
        raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
    return row


def followup(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, interaction: sqlite3.Row, raw: Any,
             files: list[UploadedFile], base_url: str) -> Payload:
    if interaction["response_type"] is None:
        raise ApiError(400, NOT_ACKNOWLEDGED, "The interaction has not been acknowledged.")
    body, specs, flags = messages.read_body(raw, editing=False)
    if not (body.get("content") or body.get("embeds") or body.get("components") or files or body.get("poll")):
        raise ApiError(400, 50006, "Cannot send an empty message")
    attachments = messages.attach(state, conn, interaction["id"], files, specs, [], base_url)
    stored_message = messages.insert(state, conn, interaction["id"], original=False, body=body, flags=flags or 0,
                                     attachments=attachments)
    message = messages.message_json(conn, stored_message, interaction)
    history.created(state, conn, outbox, interaction, stored_message, message)
    return message


def edit_message(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, interaction: sqlite3.Row,
                 message_id: int | None, raw: Any, files: list[UploadedFile], base_url: str) -> Payload:
    if _is_component_message(interaction, message_id):
        return _update_component_message(state, conn, outbox, interaction, raw, files, base_url, path=())
    row = message_row(conn, interaction, message_id)
    body, specs, flags = messages.read_body(raw, editing=True)
    attachments = messages.attach(state, conn, interaction["id"], files, specs, json.loads(row["attachments"]),
                                  base_url)
    messages.update(state, conn, row, body, flags, attachments)
    history.updated(state, conn, outbox, interaction, _message(conn, row["id"]))
    return render_message(conn, row["id"], interaction)


def delete_message(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, interaction: sqlite3.Row,
                   message_id: int | None) -> None:
    row = message_row(conn, interaction, message_id)
    conn.execute("DELETE FROM interaction_messages WHERE id = ?", (row["id"],))
    history.deleted(state, conn, outbox, interaction, row)


def conversation(conn: sqlite3.Connection, interaction: sqlite3.Row) -> Payload:
    """What the simulated user sees of an interaction: the app's answer and its messages."""
    response = json.loads(interaction["response"]) if interaction["response"] is not None else None
    rows = conn.execute("SELECT * FROM interaction_messages WHERE interaction_id = ? ORDER BY id",
                        (interaction["id"],)).fetchall()
    original = next((messages.message_json(conn, r, interaction) for r in rows if r["is_original"]), None)
    return _conversation_json(interaction, interaction["response_type"], response, original,
                              [messages.message_json(conn, r, interaction) for r in rows if not r["is_original"]],
                              interaction["error"])


def _conversation_json(interaction: sqlite3.Row, kind: int | None, response: Any, original: Payload | None,
                       followups: list[Payload], error: str | None) -> Payload:
    answer: Payload = {"id": str(interaction["id"]), "type": interaction["type"], "delivery": interaction["delivery"],
                       "response_type": kind, "message": original, "followups": followups,
                       "modal": response if kind == MODAL else None,
                       "choices": response if kind == AUTOCOMPLETE_RESULT else None,
                       "error": error}
    if kind == LAUNCH_ACTIVITY and response is not None:
        answer["activity_instance_id"] = response["activity_instance_id"]
    if kind == SKU_PURCHASE_ELIGIBILITY and response is not None:
        answer["eligibility"] = response
    return answer
