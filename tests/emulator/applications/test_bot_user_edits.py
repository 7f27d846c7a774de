"""A bot edits its own user (PATCH /users/@me) and reads its application by id; its managed role
carries ``tags.bot_id``."""

from __future__ import annotations

import asyncio
import base64
import io

import httpx
from emulator_world import ALICE, APP_ID, BOT_ID, BOT_TOKEN, GUILD_ID
from PIL import Image
from platformpp.emulator import Emulator
from platformpp.emulator.default_world import BOT_ROLE_ID
from social_helpers import GatewayClient, bot, user_token


def png(color: tuple[int, int, int] = (255, 0, 0)) -> str:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), color).save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def test_user_update_reaches_the_bots_own_session_with_the_new_name_and_images(emu: Emulator) -> None:
    async def scenario() -> tuple[dict, dict]:
        session = await GatewayClient.connect(emu)
        await session.identify(BOT_TOKEN, intents=1)
        with bot(emu) as http:
            answer = await asyncio.to_thread(http.patch, "/users/@me", json={
                "username": "renamed_bot", "avatar": png(), "banner": png((0, 0, 255))})
        assert answer.status_code == 200, answer.text
        update = (await session.dispatch("USER_UPDATE"))["d"]
        await session.close()
        return answer.json(), update

    answer, update = asyncio.run(scenario())
    assert answer["username"] == update["username"] == "renamed_bot"
    assert update["id"] == str(BOT_ID) and update["bot"] is True and update["avatar"] == answer["avatar"]
    for kind in ("avatars", "banners"):
        image = httpx.get(f"{emu.base_url}/{kind}/{BOT_ID}/{answer[kind[:-1]]}.png")
        assert image.status_code == 200 and image.headers["content-type"] == "image/png"
    with bot(emu) as http:
        me = http.get("/users/@me").json()
        assert me["username"] == "renamed_bot"
        assert (me["avatar"], me["banner"]) == (answer["avatar"], answer["banner"])
        cleared = http.patch("/users/@me", json={"avatar": None, "username": "renamed_bot"}).json()
        assert cleared["avatar"] is None and cleared["banner"] == answer["banner"]


def test_bad_input_names_the_field_and_changes_nothing(emu: Emulator) -> None:
    with bot(emu) as http:
        before = http.get("/users/@me").json()
        bad_image = http.patch("/users/@me", json={"username": before["username"] + "x",
                                                   "avatar": "data:image/png;base64,bm90IGFuIGltYWdl"})
        assert bad_image.status_code == 400 and bad_image.json()["code"] == 50035
        assert set(bad_image.json()["errors"]) == {"avatar"}
        alice = http.get(f"/users/{ALICE}").json()["username"]
        clash = http.patch("/users/@me", json={"username": alice, "avatar": png()})
        assert clash.status_code == 400
        assert clash.json()["errors"]["username"]["_errors"][0]["code"] == "USERNAME_ALREADY_TAKEN"
        short = http.patch("/users/@me", json={"username": "x"})
        assert short.status_code == 400 and "username" in short.json()["errors"]
        assert http.get("/users/@me").json() == before


def test_a_user_token_cannot_edit_the_user_through_this_route(emu: Emulator) -> None:
    token = user_token(emu, ALICE, "identify")
    answer = httpx.patch(emu.api_base + "/users/@me", json={"username": "alice_two"},
                         headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 401


def test_the_application_by_id_is_the_one_at_me_and_another_is_refused(emu: Emulator) -> None:
    with bot(emu) as http:
        assert http.get(f"/applications/{APP_ID}").json() == http.get("/applications/@me").json()
        changed = http.patch(f"/applications/{APP_ID}", json={"description": "Edited by id", "unknown": 1})
        assert changed.status_code == 200 and changed.json()["description"] == "Edited by id"
        assert http.get("/applications/@me").json()["description"] == "Edited by id"
        emu.admin.seed({"applications": [{"id": "4242", "name": "Other", "public_client": True}]})
        other = http.get("/applications/4242")
        assert other.status_code == 403 and other.json()["code"] == 50001
        assert http.patch("/applications/4242", json={"description": "x"}).status_code == 403
        unknown = http.get("/applications/1")
        assert unknown.status_code == 404 and unknown.json()["code"] == 10002


def test_the_bots_managed_role_names_the_bot(emu: Emulator) -> None:
    with bot(emu) as http:
        roles = {r["id"]: r for r in http.get(f"/guilds/{GUILD_ID}/roles").json()}
    assert roles[str(BOT_ROLE_ID)]["managed"] is True
    assert roles[str(BOT_ROLE_ID)]["tags"] == {"bot_id": str(BOT_ID)}
    assert all("tags" not in role for role_id, role in roles.items() if role_id != str(BOT_ROLE_ID))

    async def guild_create() -> dict:
        session = await GatewayClient.connect(emu)
        await session.identify(BOT_TOKEN, intents=1)
        guild = (await session.dispatch("GUILD_CREATE"))["d"]
        await session.close()
        return guild

    guild = asyncio.run(guild_create())
    [own] = [r for r in guild["roles"] if r.get("tags", {}).get("bot_id") == str(BOT_ID)]
    assert own["id"] == str(BOT_ROLE_ID)
