"""Interactions delivered to an application's interactions endpoint URL: an HTTP POST signed with the
app's Ed25519 key (the one signer of event webhooks, store.py here), whose response body is the app's
answer. Setting the URL first checks it: a signed PING must be answered with PONG and a badly signed
one refused with 401, else the URL is refused. Used by the applications area (PATCH
/applications/@me) and the interactions area; it lives beside the signer so that neither imports the
other's package to reach it."""

from __future__ import annotations

import http.client
import json
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import urlsplit

from ...core import errors
from ...core.errors import ApiError
from .store import sign

if TYPE_CHECKING:
    from ...state import EmulatorState

PING = 1
ENDPOINT_TIMEOUT_S = 3.0
USER_AGENT = "platformpp-emulator interactions"


class EndpointAnswer(NamedTuple):
    status: int | None
    body: bytes
    error: str | None


def post_signed(url: str, private_key_hex: str, body: bytes, timestamp: str, *, bad_signature: bool = False
                ) -> EndpointAnswer:
    """One signed POST to an interactions endpoint; what it answered."""
    signature = sign(private_key_hex, timestamp, body)
    if bad_signature:   # a valid-looking signature over other bytes
        signature = sign(private_key_hex, timestamp, body + b" ")
    parts = urlsplit(url)
    connection_type = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = connection_type(parts.hostname or "", parts.port, timeout=ENDPOINT_TIMEOUT_S)
    try:
        connection.request("POST", (parts.path or "/") + (f"?{parts.query}" if parts.query else ""), body=body,
                           headers={"Content-Type": "application/json", "User-Agent": USER_AGENT,
                                    "X-Signature-Ed25519": signature, "X-Signature-Timestamp": timestamp})
        response = connection.getresponse()
        return EndpointAnswer(response.status, response.read(), None)
    except (OSError, http.client.HTTPException) as exc:
        return EndpointAnswer(None, b"", f"{type(exc).__name__}: {exc}"[:300])
    finally:
        connection.close()


def _invalid_url(reason: str) -> ApiError:
    return ApiError(400, errors.INVALID_FORM_BODY, "Invalid Form Body", {"interactions_endpoint_url": {"_errors": [
        {"code": "APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID",
         "message": f"The specified interactions endpoint url could not be verified: {reason}"}]}})


def verify_endpoint(state: EmulatorState, application_id: int, url: str) -> None:
    """The platform's check of a new interactions endpoint URL (blocking; call off the event loop)."""
    row = state.db.query_one("SELECT webhook_private_key FROM applications WHERE id = ?", (application_id,))
    if row is None:
        raise errors.not_found(errors.UNKNOWN_APPLICATION, "Application")
    ping = json.dumps({"id": str(state.ids.next()), "application_id": str(application_id), "type": PING,
                       "token": "ping-check", "version": 1}, separators=(",", ":")).encode()
    timestamp = str(int(state.clock.timestamp()))
    answer = post_signed(url, row["webhook_private_key"], ping, timestamp)
    if answer.status is None:
        raise _invalid_url(answer.error or "no answer")
    try:
        pong = json.loads(answer.body)
    except ValueError:
        pong = None
    if not 200 <= answer.status < 300 or not isinstance(pong, dict) or pong.get("type") != 1:
        raise _invalid_url(f"a signed PING was answered with HTTP {answer.status}, not a PONG")
    refused = post_signed(url, row["webhook_private_key"], ping, timestamp, bad_signature=True)
    if refused.status != 401:
        raise _invalid_url(f"a badly signed request was answered with HTTP {refused.status}, not 401")


def answer_json(answer: EndpointAnswer) -> Any:
    """The callback an endpoint answered with, or raise a reason the interaction failed."""
    if answer.status is None:
        raise ValueError(f"the interactions endpoint did not answer ({answer.error})")
    if not 200 <= answer.status < 300:
        raise ValueError(f"the interactions endpoint answered HTTP {answer.status}")
    try:
        return json.loads(answer.body)
    except ValueError:
        raise ValueError("the interactions endpoint answered a body that is not JSON") from None
