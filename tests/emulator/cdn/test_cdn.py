"""The CDN (Modify Current Member "served back"): images uploaded as data URIs are stored
as uploaded and served at the platform's CDN paths, in the format the extension asks for and the size
``?size=`` asks for; unknown images 404. The data-URI decoder is fuzzed (it reads untrusted bytes)."""

from __future__ import annotations

import base64
import io
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from image_helpers import animated_gif, uri
from PIL import Image
from platformpp.emulator import Emulator
from platformpp.emulator.areas.cdn.images import BadImage, decode_data_uri
from social_helpers import ALICE, BOT_ID, GUILD_ID, bot

# MANAGE_GUILD, MANAGE_ROLES, CHANGE_NICKNAME
MANAGER = 32 | (1 << 28) | (1 << 26)


def png(width: int = 64, height: int = 32, color: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, format="PNG")
    return out.getvalue()


def admin(emu: Emulator, method: str, path: str, body: Any = None) -> httpx.Response:
    return httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=10)


def cdn(emu: Emulator, path: str, **params: str) -> httpx.Response:
    return httpx.get(f"{emu.base_url}/{path}", params=params, timeout=10)


def opened(response: httpx.Response) -> Image.Image:
    return Image.open(io.BytesIO(response.content))


def test_member_avatar_and_banner_are_served_as_uploaded_and_converted(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    avatar_bytes, banner_bytes = png(), animated_gif()
    with bot(emu) as http:
        me = http.patch(f"/guilds/{GUILD_ID}/members/@me",
                        json={"avatar": uri(avatar_bytes), "banner": uri(banner_bytes, "gif")})
        assert me.status_code == 200, me.text
    avatar, banner = me.json()["avatar"], me.json()["banner"]
    assert len(avatar) == 32 and banner.startswith("a_") and len(banner) == 34
    base = f"guilds/{GUILD_ID}/users/{BOT_ID}"

    same = cdn(emu, f"{base}/avatars/{avatar}.png")
    assert same.status_code == 200 and same.headers["content-type"] == "image/png"
    assert same.content == avatar_bytes   # the bytes as uploaded
    jpeg = cdn(emu, f"{base}/avatars/{avatar}.jpg")
    assert jpeg.headers["content-type"] == "image/jpeg" and opened(jpeg).format == "JPEG"
    assert opened(jpeg).size == (64, 32)
    small = cdn(emu, f"{base}/avatars/{avatar}.webp", size="16")
    assert small.headers["content-type"] == "image/webp" and opened(small).size == (16, 8)
    assert opened(cdn(emu, f"{base}/avatars/{avatar}.png", size="128")).size == (128, 64)

    gif = cdn(emu, f"{base}/banners/{banner}.gif")
    assert gif.headers["content-type"] == "image/gif" and gif.content == banner_bytes
    assert opened(cdn(emu, f"{base}/banners/{banner}.gif", size="16")).n_frames == 2
    assert opened(cdn(emu, f"{base}/banners/{banner}.webp", animated="true")).n_frames == 2
    assert getattr(opened(cdn(emu, f"{base}/banners/{banner}.png")), "n_frames", 1) == 1

    for path, params, status in ((f"{base}/avatars/{avatar}.png", {"size": "15"}, 400),
                                 (f"{base}/avatars/{avatar}.png", {"size": "8192"}, 400),
                                 (f"{base}/avatars/{avatar}.gif", {}, 415),   # not animated: no gif
                                 (f"{base}/avatars/{avatar}.bmp", {}, 415),
                                 (f"{base}/avatars/{'0' * 32}.png", {}, 404),
                                 (f"{base}/avatars/not-a-hash.png", {}, 404),
                                 (f"guilds/{GUILD_ID}/users/{ALICE}/avatars/{avatar}.png", {}, 404),
                                 (f"{base}/banners/{avatar}.png", {}, 404)):
        assert cdn(emu, path, **params).status_code == status, (path, params)


def test_a_bad_image_names_its_field_and_changes_nothing(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as http:
        for bad in (uri(b"not an image at all"), "data:image/png;base64,@@@", uri(png(), "gif"),
                    uri(png()[:40]), "https://example.test/a.png"):
            refused = http.patch(f"/guilds/{GUILD_ID}/members/@me", json={"avatar": bad, "bio": "changed"})
            assert refused.status_code == 400 and "avatar" in refused.json()["errors"], bad
        member = http.get(f"/guilds/{GUILD_ID}/members/{BOT_ID}").json()
        assert member["avatar"] is None
        set_ = http.patch(f"/guilds/{GUILD_ID}/members/@me", json={"avatar": uri(png())}).json()["avatar"]
        assert http.patch(f"/guilds/{GUILD_ID}/members/@me", json={"avatar": None}).json()["avatar"] is None
    assert emu.state.db.query_one("SELECT COUNT(*) AS n FROM cdn_images")["n"] == 1   # only the good one
    assert set_ is not None


def test_guild_and_role_icons_and_user_avatars(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    role = admin(emu, "POST", f"/guilds/{GUILD_ID}/roles", {"name": "Icons", "position": 5,
                                                            "permissions": str(MANAGER)}).json()
    admin(emu, "PUT", f"/guilds/{GUILD_ID}/members/{BOT_ID}/roles/{role['id']}")
    icon = png(32, 32, (0, 128, 0))
    with bot(emu) as http:
        guild_icon = http.patch(f"/guilds/{GUILD_ID}", json={"icon": uri(icon)}).json()["icon"]
        made = http.post(f"/guilds/{GUILD_ID}/roles", json={"name": "Shiny", "icon": uri(icon)}).json()
    assert cdn(emu, f"icons/{GUILD_ID}/{guild_icon}.png").content == icon
    assert cdn(emu, f"role-icons/{made['id']}/{made['icon']}.png").content == icon

    not_an_image = {"image": "data:image/png;base64,AAAA"}
    assert admin(emu, "PUT", f"/users/{ALICE}/avatar", not_an_image).status_code == 400
    set_ = admin(emu, "PUT", f"/users/{ALICE}/avatar", {"image": uri(icon)})
    assert set_.status_code == 200, set_.text
    avatar = set_.json()["avatar"]
    with bot(emu) as http:
        assert http.get(f"/users/{ALICE}").json()["avatar"] == avatar
    assert opened(cdn(emu, f"avatars/{ALICE}/{avatar}.jpeg", size="64")).size == (64, 64)
    assert admin(emu, "PUT", "/users/42/avatar", {"image": uri(icon)}).status_code == 404


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=200),
                 st.binary(max_size=300).map(lambda b: uri(b)),
                 st.binary(max_size=300).map(lambda b: "data:image/gif;base64," + base64.b64encode(
                     b"GIF89a" + b).decode()),
                 st.binary(max_size=300).map(lambda b: "data:image/png;base64," + base64.b64encode(
                     png(4, 4)[:20] + b).decode())))
def test_the_data_uri_decoder_only_answers_an_image_or_bad_image(value: str) -> None:
    try:
        upload = decode_data_uri(value)
    except BadImage:
        return
    assert upload.content_type in ("image/png", "image/jpeg", "image/gif", "image/webp")


@pytest.mark.parametrize("kind", ["PNG", "JPEG", "WEBP", "GIF"])
def test_every_accepted_format_decodes(kind: str) -> None:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (1, 2, 3)).save(out, format=kind)
    upload = decode_data_uri(uri(out.getvalue(), kind.lower()))
    assert upload.data == out.getvalue() and not upload.animated and not upload.hash.startswith("a_")
