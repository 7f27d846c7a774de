"""Reading request bodies with a bound (``read_capped``: JSON, form and multipart bodies alike), and
uploads: the one size limit of files sent to the platform, and reading a request that carries them
(``multipart/form-data`` with ``payload_json`` and ``files[n]``, or plain JSON).

The limit is the same for users, bots, webhooks and interaction responses: 20 MiB for all the files
of one request together (10 MiB was the old limit). A larger upload answers 413 / 40005 before
anything is stored. The multipart body is parsed by the standard library's MIME parser."""

from __future__ import annotations

from dataclasses import dataclass
from email.message import Message
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request

from .errors import ENTITY_TOO_LARGE, INVALID_FORM_BODY, INVALID_JSON, ApiError
from .json_text import InvalidJson, decode_untrusted

UPLOAD_LIMIT_BYTES = 20 * 1024 * 1024
# JSON and form bodies without files: far above any request of the platform's API.
FORM_LIMIT_BYTES = 1024 * 1024
# Room for the non-file parts of a multipart body (payload_json, part headers) above the file limit.
_MULTIPART_OVERHEAD = 1024 * 1024


def upload_limit() -> int:
    """The most bytes of files one request may carry (users, bots, webhooks, interaction responses)."""
    return UPLOAD_LIMIT_BYTES


def too_large() -> ApiError:
    return ApiError(413, ENTITY_TOO_LARGE, "Request entity too large")


@dataclass(frozen=True)
class UploadedFile:
    index: int          # n of the ``files[n]`` part
    filename: str
    content_type: str | None
    data: bytes


async def read_capped(request: Request, cap: int) -> bytes:
    """The request's body, at most ``cap`` bytes: 413 / 40005 as soon as the declared length or the
    bytes received pass it, so a larger body is never held (the one bounded reader of bodies)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isascii() and declared.isdigit() and int(declared) > cap:
        raise too_large()
    chunks: list[bytes] = []
    total = 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > cap:
            raise too_large()
        chunks.append(chunk)
    return b"".join(chunks)


async def read_urlencoded(request: Request, *, max_bytes: int = FORM_LIMIT_BYTES,
                          keep_blank_values: bool = True) -> list[tuple[str, str]]:
    """The name/value pairs of an ``application/x-www-form-urlencoded`` body, in order, read with a
    bound (413 / 40005 past ``max_bytes``); bytes that are not UTF-8 read as U+FFFD."""
    body = await read_capped(request, max_bytes)
    return parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=keep_blank_values)


def json_body(raw: bytes | str) -> Any:
    """The JSON value of a body (or a ``payload_json`` part); 400 / 50109 when it is not JSON the
    emulator can hold (see ``decode_untrusted``)."""
    try:
        return decode_untrusted(raw)
    except InvalidJson:
        raise ApiError(400, INVALID_JSON, "The request body contains invalid JSON.") from None


def attachment_name(filename: str | None, index: int) -> str:
    """The name an attachment is stored and served under: the last segment of what the client sent
    (``../../x.txt`` is ``x.txt``), as the platform keeps it, so its URL has no path in it; ``file{n}``
    when nothing is left."""
    name = (filename or "").replace("\\", "/").rsplit("/", 1)[-1]
    return name if name not in ("", ".", "..") else f"file{index}"


def _files_field(message: str) -> ApiError:
    return ApiError(400, INVALID_FORM_BODY, "Invalid Form Body",
                    {"files": {"_errors": [{"code": "BASE_TYPE_BAD_FILE", "message": message}]}})


def _is_files_part(name: str) -> bool:
    """``files[n]``, n in ASCII digits (str.isdigit alone admits "²", which int() refuses)."""
    index = name[6:-1]
    return name.startswith("files[") and name.endswith("]") and index.isascii() and index.isdigit() and len(index) <= 9


@dataclass(frozen=True)
class MultipartBody:
    fields: dict[str, str]              # text parts by name
    files: dict[str, UploadedFile]      # parts that carry a filename, by part name


async def read_multipart(request: Request, *, file_limit: int | None = None) -> MultipartBody:
    """A ``multipart/form-data`` body: its text fields and its files, the files together at most
    ``file_limit`` bytes (default: the upload limit), else 413 / 40005."""
    limit = upload_limit() if file_limit is None else file_limit
    content_type = request.headers.get("content-type", "")
    if not content_type.lower().startswith("multipart/form-data"):
        raise _files_field("The body must be multipart/form-data.")
    body = await read_capped(request, limit + _MULTIPART_OVERHEAD)
    parsed = BytesParser(policy=HTTP).parsebytes(
        b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + body)
    if not parsed.is_multipart():
        raise _files_field("The body is not valid multipart/form-data.")
    fields: dict[str, str] = {}
    files: dict[str, UploadedFile] = {}
    total = 0
    for part in parsed.iter_parts():
        assert isinstance(part, Message)
        name = part.get_param("name", header="content-disposition")
        if not isinstance(name, str):
            continue
        raw = part.get_payload(decode=True)
        data = raw if isinstance(raw, bytes) else b""
        filename = part.get_filename()
        if filename is None:
            fields[name] = data.decode("utf-8", errors="replace")
            continue
        total += len(data)
        if total > limit:
            raise too_large()
        index = int(name[6:-1]) if _is_files_part(name) else 0
        files[name] = UploadedFile(index, filename, part.get_content_type() if part.get("content-type") else None,
                                   data)
    return MultipartBody(fields, files)


async def read_payload_and_files(request: Request) -> tuple[Any, list[UploadedFile]]:
    """The JSON payload of a request and its files. JSON bodies carry no files; multipart bodies put
    the JSON in ``payload_json`` (or leave it out: ``{}``) and each file in ``files[n]``. Files over
    the limit together answer 413 / 40005; nothing has been stored by then."""
    content_type = request.headers.get("content-type", "")
    if not content_type.lower().startswith("multipart/form-data"):
        body = await read_capped(request, upload_limit())
        if not body.strip():
            raise ApiError(400, INVALID_JSON, "The request body contains invalid JSON.")
        return json_body(body), []
    multipart = await read_multipart(request)
    payload_file = multipart.files.pop("payload_json", None)   # some clients attach it as a file part
    raw_payload = multipart.fields.get("payload_json", payload_file.data if payload_file else None)
    payload = json_body(raw_payload) if raw_payload is not None else {}
    for name in multipart.files:
        if not _is_files_part(name):
            raise _files_field(f"Unexpected file part {name!r}: files are sent as files[n].")
    return payload, sorted(multipart.files.values(), key=lambda f: f.index)
