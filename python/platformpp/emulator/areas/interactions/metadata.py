"""The ``interaction_metadata`` of an answer message, in the published schema's variant for the
interaction's type: a command's (``target_user`` of a user command, ``target_message_id`` of a
message command), a component's (``interacted_message_id``, the message the component is on) or a
modal submit's (``triggering_interaction_metadata``, the metadata of the command or component
interaction the modal answered). A followup also names its ``original_response_message_id``."""

from __future__ import annotations

import json
import sqlite3
from typing import NamedTuple

from ...events.audience import Payload
from ..commands import validation as cv

APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT = 2, 3, 5


class PayloadFacts(NamedTuple):
    """What an answer message shows of its interaction's stored payload."""

    command_type: int | None
    owners: tuple[tuple[str, str], ...]
    target_id: str | None
    target_user: Payload | None   # a user command's target, as the interaction resolved it


# By the stored payload's text (a function of the text alone, so never stale). ``remember_payload``
# records them when the interaction is stored: its answer, another request, need not decode the
# payload again.
_FACTS: dict[str, PayloadFacts] = {}
_FACTS_KEPT = 1024


def remember_payload(text: str, payload: Payload) -> PayloadFacts:
    """``payload`` is ``json.loads(text)`` (or what ``text`` was encoded from)."""
    owners = payload.get("authorizing_integration_owners") or {}
    data = payload.get("data") or {}
    target_id = data.get("target_id")
    target_user = None
    if data.get("type") == cv.USER and target_id is not None:
        target_user = ((data.get("resolved") or {}).get("users") or {}).get(str(target_id))
    facts = PayloadFacts(data.get("type"), tuple(owners.items()), None if target_id is None else str(target_id),
                         target_user)
    if len(_FACTS) >= _FACTS_KEPT:
        _FACTS.clear()
    _FACTS[text] = facts
    return facts


def payload_facts(text: str) -> PayloadFacts:
    facts = _FACTS.get(text)
    return facts if facts is not None else remember_payload(text, json.loads(text))


def interaction_metadata(conn: sqlite3.Connection, interaction: sqlite3.Row, user: Payload | None,
                         original_response_message_id: int | None = None) -> Payload:
    """``user``: the interaction's user object. A modal submit's triggering interaction has the same
    user (the modal was answered to that user)."""
    facts = payload_facts(interaction["payload"])
    kind = interaction["type"]
    metadata: Payload = {"id": str(interaction["id"]), "type": kind}
    if user is not None:
        metadata["user"] = user
    metadata["authorizing_integration_owners"] = dict(facts.owners)
    if original_response_message_id is not None:
        metadata["original_response_message_id"] = str(original_response_message_id)
    if kind == APPLICATION_COMMAND:
        if facts.command_type == cv.USER and facts.target_user is not None:
            metadata["target_user"] = dict(facts.target_user)
        elif facts.command_type == cv.MESSAGE and facts.target_id is not None:
            metadata["target_message_id"] = facts.target_id
    elif kind == MESSAGE_COMPONENT:
        metadata["interacted_message_id"] = str(interaction["message_id"])
    elif kind == MODAL_SUBMIT and interaction["triggering_interaction_id"] is not None:
        opener = conn.execute("SELECT * FROM interactions WHERE id = ?",
                              (interaction["triggering_interaction_id"],)).fetchone()
        if opener is not None:
            metadata["triggering_interaction_metadata"] = interaction_metadata(conn, opener, user)
    return metadata
