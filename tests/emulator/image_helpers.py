"""Images for the tests that upload some (avatars, icons, emoji): made with Pillow, sent as data URIs."""

from __future__ import annotations

import base64
import io

from PIL import Image


def animated_gif() -> bytes:
    frames = [Image.new("RGB", (40, 40), c) for c in ((255, 0, 0), (0, 0, 255))]
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
    return out.getvalue()


def uri(data: bytes, kind: str = "png") -> str:
    return f"data:image/{kind};base64," + base64.b64encode(data).decode()
