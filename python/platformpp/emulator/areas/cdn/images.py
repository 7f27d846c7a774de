"""Image bytes: decoding an uploaded data URI (the one decoder of untrusted image input here) and
rendering a stored image in the format and size a CDN request asks for, with Pillow (imported on first
use: it was a twentieth of the emulator's time to serve)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import re
from typing import NamedTuple

MAX_BYTES = 10 * 1024 * 1024
MAX_PIXELS = 4096 * 4096
_DATA_URI = re.compile(r"^data:(image/[a-z0-9.+-]+);base64,(.*)$", re.DOTALL | re.IGNORECASE)
# What an upload may be (Pillow's format name -> content type).
UPLOAD_FORMATS = {"PNG": "image/png", "JPEG": "image/jpeg", "GIF": "image/gif", "WEBP": "image/webp"}
# What a CDN request may ask for, by extension (the platform's image formatting: PNG, JPEG, WebP, GIF).
EXTENSIONS = {"png": "PNG", "jpg": "JPEG", "jpeg": "JPEG", "webp": "WEBP", "gif": "GIF"}
CONTENT_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp", "GIF": "image/gif"}
SIZES = frozenset(1 << n for n in range(4, 13))   # any power of two from 16 to 4096


class BadImage(ValueError):
    """An upload that is not an image this accepts; the message says why (for the field's error)."""


class Upload(NamedTuple):
    hash: str           # what the API answers with: 32 hex digits, "a_" first when animated
    content_type: str
    animated: bool
    data: bytes


def decode_data_uri(value: str) -> Upload:
    """``data:image/<type>;base64,<data>`` of a PNG, JPEG, GIF or WebP image (the bytes must be that
    image, not only say so), at most 10 MiB and 4096 × 4096 pixels."""
    match = _DATA_URI.match(value)
    if match is None:
        raise BadImage("Must be a data URI: data:image/<type>;base64,<data>.")
    try:
        data = base64.b64decode(match.group(2), validate=True)
    except (binascii.Error, ValueError):
        raise BadImage("The image data is not valid base64.") from None
    if not data:
        raise BadImage("The image is empty.")
    if len(data) > MAX_BYTES:
        raise BadImage("The image must be 10 MiB or smaller.")
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            kind = image.format or ""
            if image.width * image.height > MAX_PIXELS:
                raise BadImage("The image must be at most 4096 × 4096 pixels.")
            animated = kind in ("GIF", "WEBP") and bool(getattr(image, "is_animated", False))
            image.verify()   # reads the whole file: a truncated or corrupt one fails here
    except BadImage:
        raise
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise BadImage("The data is not a PNG, JPEG, GIF or WebP image.") from None
    content_type = UPLOAD_FORMATS.get(kind)
    if content_type is None:
        raise BadImage("The image must be a PNG, JPEG, GIF or WebP image.")
    if match.group(1).lower() != content_type and not (match.group(1).lower() == "image/jpg"
                                                       and content_type == "image/jpeg"):
        raise BadImage(f"The data is a {content_type} image, not {match.group(1)}.")
    digest = hashlib.sha256(data).hexdigest()[:32]
    return Upload(("a_" + digest) if animated else digest, content_type, animated, data)


def render(data: bytes, content_type: str, fmt: str, size: int | None, *, animated: bool) -> bytes:
    """The stored image as ``fmt`` (a Pillow format name), its larger side scaled to ``size`` when
    given. Animated output (GIF; WebP when ``animated``) keeps every frame."""
    if size is None and CONTENT_TYPES[fmt] == content_type and (fmt != "WEBP" or animated):
        return data   # as uploaded
    from PIL import Image, ImageSequence

    with Image.open(io.BytesIO(data)) as image:
        frames = [frame.copy() for frame in ImageSequence.Iterator(image)] if animated else [image.copy()]
        durations = [frame.info.get("duration", 100) for frame in frames]
    if size is not None:
        scale = size / max(frames[0].width, frames[0].height)
        box = (max(1, round(frames[0].width * scale)), max(1, round(frames[0].height * scale)))
        frames = [frame.resize(box, Image.Resampling.LANCZOS) for frame in frames]
    if fmt == "JPEG":
        frames = [frame.convert("RGB") for frame in frames]
    elif fmt != "GIF":
        frames = [frame.convert("RGBA") for frame in frames]
    out = io.BytesIO()
    if animated and len(frames) > 1:
        frames[0].save(out, format=fmt, save_all=True, append_images=frames[1:], duration=durations, loop=0)
    else:
        frames[0].save(out, format=fmt)
    return out.getvalue()
