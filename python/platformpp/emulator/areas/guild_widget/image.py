"""widget.png: the guild's banner in the platform's styles and sizes, drawn with Pillow: the guild's
name and how many of its members are online (the shield shows the count alone). Pillow is imported
on first use, not with the emulator."""

from __future__ import annotations

import io
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import ImageFont

# style -> (width, height) in pixels, the platform's.
SIZES = {"shield": (80, 20), "banner1": (320, 76), "banner2": (320, 82), "banner3": (320, 100),
         "banner4": (320, 164)}
BLURPLE, DARK, WHITE, GREEN = (88, 101, 242), (54, 57, 63), (255, 255, 255), (67, 181, 129)


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def render(style: str, guild_name: str, online: int) -> bytes:
    """The PNG bytes of one style."""
    from PIL import Image, ImageDraw

    width, height = SIZES[style]
    image = Image.new("RGB", (width, height), DARK)
    draw = ImageDraw.Draw(image)
    if style == "shield":
        draw.rectangle((0, 0, 29, height - 1), fill=BLURPLE)
        draw.text((15, height // 2), "●", fill=WHITE, font=_font(12), anchor="mm")
        draw.text((34, height // 2), f"{online} online", fill=WHITE, font=_font(10), anchor="lm")
    else:
        band = {"banner1": 22, "banner2": 0, "banner3": 26, "banner4": 56}[style]
        top = 44 if style == "banner4" else 0
        if style == "banner4":
            draw.rectangle((0, 0, width - 1, top - 1), fill=BLURPLE)
            draw.rectangle((80, height - 36, width - 81, height - 10), fill=GREEN)
        elif band:
            draw.rectangle((0, height - band, width - 1, height - 1), fill=BLURPLE)
        else:   # banner2: split, the mark on the right
            draw.rectangle((width - 70, 0, width - 1, height - 1), fill=BLURPLE)
        middle = top + (height - top - (36 if style == "banner4" else band)) // 2
        draw.ellipse((10, middle - 20, 50, middle + 20), fill=BLURPLE)
        draw.text((60, middle - 10), _fit(guild_name, 26), fill=WHITE, font=_font(14), anchor="lm")
        draw.text((60, middle + 10), f"{online} Online", fill=GREEN, font=_font(12), anchor="lm")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
