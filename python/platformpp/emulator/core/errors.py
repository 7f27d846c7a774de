"""Error bodies exactly as docs/wire.md: ``{"code", "message", "errors"?}`` for the HTTP API (50035 nests
field errors by path), ``{"error", "error_description"}`` for the OAuth2 endpoints (RFC 6749)."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

from .json_text import compact_json_bytes

JSON = "application/json"

# HTTP API error codes (docs/wire.md)
GENERAL = 0
UNKNOWN_APPLICATION = 10002
UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_LOBBY = 10031
UNAUTHORIZED = 40001
ENTITY_TOO_LARGE = 40005
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
INVALID_TOKEN = 50014
INVALID_OAUTH2_TOKEN = 50025
INVALID_FORM_BODY = 50035
INVALID_JSON = 50109
# Provisional accounts (530000–530017)
INVALID_EXTERNAL_AUTH_TOKEN = 530001
UNKNOWN_IDENTITY_PROVIDER = 530002
PROVISIONAL_ACCOUNT_NOT_FOUND = 530003
ACCOUNT_ALREADY_LINKED = 530004
NOT_A_PROVISIONAL_ACCOUNT = 530005
MERGE_BLOCKED_BY_BAN = 530017


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """A JSON response whose Content-Type is exactly ``application/json``."""
    body = compact_json_bytes(data)
    return Response(body, status_code=status, headers=headers, media_type=JSON)


def json_text_response(text: str, status: int = 200) -> Response:
    """``json_response`` of a body already encoded as it encodes (compact, UTF-8 as is)."""
    return Response(text.encode("utf-8"), status_code=status, media_type=JSON)


class ApiError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors, self.headers = status, code, message, errors, headers

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            body["errors"] = self.errors
        return body


def not_found(code: int, what: str) -> ApiError:
    return ApiError(404, code, f"Unknown {what}")


class OAuthError(Exception):
    """An RFC 6749 error from the token or revoke endpoint."""

    def __init__(self, error: str, description: str, status: int = 400) -> None:
        super().__init__(f"{error}: {description}")
        self.error, self.description, self.status = error, description, status

    def body(self) -> dict[str, str]:
        return {"error": self.error, "error_description": self.description}


# -- field validation (50035) ---------------------------------------------------------------------------


