"""disnake's application commands against the emulator: the library syncs its global and guild commands
(slash commands with options, user and message context menus), a simulated user of the platform's client
runs each, and the bot answers with every response kind (reply, ephemeral reply, defer + followup, edit
original, modal + submit, button and select clicks, autocomplete)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import disnake
import httpx
from disnake.ext import commands
from disnake_bot import GENERAL, WAIT_S, running
from emulator_world import ALICE, APP_ID, BOB, BOT_TOKEN, GUILD_ID, bot_headers
from platformpp.emulator import Emulator

FRUITS = ["apple", "apricot", "banana", "cherry"]


def quiet_button() -> disnake.ui.Button[None]:
    return disnake.ui.Button(label="Quiet", custom_id="panel:quiet", style=disnake.ButtonStyle.secondary)


def build(seen: dict[str, Any]) -> Callable[..., commands.InteractionBot]:
    """The bot's own code: commands and component handlers, recording what disnake hands them."""

    def make(**kwargs: Any) -> commands.InteractionBot:
        bot = commands.InteractionBot(**kwargs)

        @bot.slash_command(description="Repeat some text")
        async def echo(inter: disnake.ApplicationCommandInteraction, text: str,
                       times: int = commands.Param(1, ge=1, le=3),
                       style: str = commands.Param("plain", choices=["plain", "loud"])) -> None:
            seen["echo"] = {"text": text, "times": times, "style": style, "author": inter.author.id,
                            "guild": inter.guild_id, "channel": inter.channel.id}
            said = " ".join([text] * times)
            await inter.response.send_message(said.upper() if style == "loud" else said)

        @bot.slash_command(description="Only you can see this", guild_ids=[GUILD_ID])
        async def secret(inter: disnake.ApplicationCommandInteraction) -> None:
            await inter.response.send_message("for your eyes only", ephemeral=True)

        @bot.slash_command(description="Think, then answer", guild_ids=[GUILD_ID])
        async def slow(inter: disnake.ApplicationCommandInteraction) -> None:
            await inter.response.defer()
            followup = await inter.followup.send("step one", wait=True)
            seen["followup"] = followup.id
            edited = await inter.edit_original_response(content="all done")
            seen["edited"] = edited.content
            seen["original"] = (await inter.original_response()).content

        @bot.slash_command(description="Sign up", guild_ids=[GUILD_ID])
        async def signup(inter: disnake.ApplicationCommandInteraction) -> None:
            await inter.response.send_modal(title="Sign up", custom_id="signup", components=[
                disnake.ui.Label("Name", disnake.ui.TextInput(custom_id="name", max_length=32)),
                disnake.ui.Label("Why", disnake.ui.TextInput(
                    custom_id="why", style=disnake.TextInputStyle.paragraph, required=False)),
            ])

        @bot.listen("on_modal_submit")
        async def submitted(inter: disnake.ModalInteraction) -> None:
            seen["modal"] = dict(inter.text_values)
            await inter.response.send_message(f"Welcome, {inter.text_values['name']}")

        @bot.slash_command(description="A panel of controls", guild_ids=[GUILD_ID])
        async def panel(inter: disnake.ApplicationCommandInteraction) -> None:
            await inter.response.send_message("pick one", components=[
                disnake.ui.Button(label="OK", custom_id="panel:ok"),
                quiet_button(),
                disnake.ui.StringSelect(custom_id="panel:colour", options=["red", "green", "blue"],
                                        max_values=2),
            ])

        @bot.listen("on_button_click")
        async def clicked(inter: disnake.MessageInteraction) -> None:
            seen.setdefault("clicks", []).append((inter.component.custom_id, inter.message.id))
            if inter.component.custom_id == "panel:ok":
                await inter.response.edit_message(content="clicked OK", components=[quiet_button()])
            else:
                await inter.response.defer()   # an update answered later, as bots do for slow work
                edited = await inter.edit_original_response(content="quietly done")
                seen["quiet"] = (edited.id, edited.content)

        @bot.listen("on_dropdown")
        async def chose(inter: disnake.MessageInteraction) -> None:
            seen["values"] = list(inter.values)
            await inter.response.send_message(f"you chose {', '.join(inter.values)}", ephemeral=True)

        @bot.slash_command(description="Pick a fruit")
        async def fruit(inter: disnake.ApplicationCommandInteraction, name: str) -> None:
            await inter.response.send_message(f"a fine {name}")

        @fruit.autocomplete("name")
        async def fruit_names(inter: disnake.ApplicationCommandInteraction, typed: str) -> list[str]:
            seen["typed"] = typed
            return [f for f in FRUITS if f.startswith(typed)]

        @bot.user_command(name="Inspect", guild_ids=[GUILD_ID])
        async def inspect(inter: disnake.UserCommandInteraction, user: disnake.Member) -> None:
            seen["target_user"] = (user.id, user.name, isinstance(user, disnake.Member))
            await inter.response.send_message(f"{user.name} joined at {user.joined_at:%Y-%m-%d}")

        @bot.message_command(name="Quote")
        async def quote(inter: disnake.MessageCommandInteraction, message: disnake.Message) -> None:
            seen["target_message"] = (message.id, message.author.id, message.content)
            await inter.response.send_message(f"> {message.content}")

        return bot

    return make


def synced(emu: Emulator, path: str, names: set[str]) -> list[dict[str, Any]]:
    """The commands under ``path`` once the library's sync has written ``names`` (it syncs after READY)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        listed = httpx.get(f"{emu.api_base}/applications/{APP_ID}{path}", headers=bot_headers(BOT_TOKEN),
                           timeout=WAIT_S).json()
        if {c["name"] for c in listed} == names or time.monotonic() > deadline:
            return list(listed)
        time.sleep(0.05)


def until(done: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT_S
    while not done() and time.monotonic() < deadline:
        time.sleep(0.05)


def conversation_until(user: Any, interaction_id: str,
                       done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_S
    while True:
        answer = user.conversation(interaction_id)
        if done(answer) or time.monotonic() > deadline:
            return answer
        time.sleep(0.05)


def test_command_sync_and_every_response_kind(platformpp_emulator: Emulator, platformpp_user: Any) -> None:
    emu, seen = platformpp_emulator, {}
    with running(emu, build(seen), intents=disnake.Intents.default()) as bot:
        global_commands = synced(emu, "/commands", {"echo", "fruit", "Quote"})
        guild_commands = synced(emu, f"/guilds/{GUILD_ID}/commands",
                                {"secret", "slow", "signup", "panel", "Inspect"})
        assert {(c["name"], c["type"]) for c in global_commands} == {("echo", 1), ("fruit", 1), ("Quote", 3)}
        assert {(c["name"], c["type"]) for c in guild_commands} == {
            ("secret", 1), ("slow", 1), ("signup", 1), ("panel", 1), ("Inspect", 2)}
        echo = next(c for c in global_commands if c["name"] == "echo")
        assert [(o["name"], o.get("required", False)) for o in echo["options"]] == [
            ("text", True), ("times", False), ("style", False)]

        alice = platformpp_user(ALICE, channel_id=GENERAL, wait_s=WAIT_S)

        # reply, with options as disnake converts them
        answer = alice.command("echo", [{"name": "text", "value": "hi"}, {"name": "times", "value": 2},
                                        {"name": "style", "value": "loud"}])
        assert answer.error is None and answer.message["content"] == "HI HI"
        assert seen["echo"] == {"text": "hi", "times": 2, "style": "loud", "author": ALICE, "guild": GUILD_ID,
                                "channel": GENERAL}

        # ephemeral reply
        answer = alice.command("secret")
        assert answer.message["content"] == "for your eyes only" and answer.message["flags"] & 64

        # defer, then a followup, then the original edited
        answer = alice.command("slow")
        assert answer.answer["response_type"] == 5
        later = conversation_until(alice, answer.id,
                                   lambda a: a["message"] and a["message"]["content"] == "all done")
        assert later["message"]["content"] == "all done"
        assert [f["content"] for f in later["followups"]] == ["step one"]
        until(lambda: "original" in seen)
        assert seen["edited"] == "all done" and seen["original"] == "all done"
        assert str(seen["followup"]) == later["followups"][0]["id"]

        # a modal, submitted with values the bot reads
        opened = alice.command("signup")
        assert opened.modal is not None and opened.modal["custom_id"] == "signup"
        done = alice.submit_modal(opened, {"name": "Ayla", "why": "for the glory"})
        assert done.message["content"] == "Welcome, Ayla"
        assert seen["modal"] == {"name": "Ayla", "why": "for the glory"}

        # a select, and a button that updates its message
        shown = alice.command("panel")
        message_id = shown.message["id"]
        chosen = alice.choose(message_id, "panel:colour", ["green", "blue"])
        assert chosen.message["content"] == "you chose green, blue" and chosen.message["flags"] & 64
        assert seen["values"] == ["green", "blue"]
        clicked = alice.click(message_id, "panel:ok")
        assert clicked.answer["response_type"] == 7
        panel_now = bot.call(bot.client.get_channel(GENERAL).fetch_message(int(message_id)))
        assert panel_now.content == "clicked OK"
        assert [c.custom_id for row in panel_now.components for c in row.children] == ["panel:quiet"]

        # autocomplete, then the command with the chosen value
        typed = alice.autocomplete("fruit", [{"name": "name", "value": "ap", "focused": True}])
        assert [c["value"] for c in typed.choices] == ["apple", "apricot"] and seen["typed"] == "ap"
        chosen_fruit = alice.command("fruit", [{"name": "name", "value": "apricot"}])
        assert chosen_fruit.message["content"] == "a fine apricot"

        # the two context menus
        answer = alice.user_command("Inspect", BOB)
        assert answer.message["content"] == "bob joined at 2025-01-02"
        assert seen["target_user"] == (BOB, "bob", True)
        posted = emu.admin.post_message(GENERAL, BOB, "wise words")
        answer = alice.message_command("Quote", posted["id"])
        assert answer.message["content"] == "> wise words"
        assert seen["target_message"] == (int(posted["id"]), BOB, "wise words")

        # a button answered with a deferred update, then its @original (the message clicked on) edited
        quiet = alice.click(message_id, "panel:quiet")
        assert quiet.answer["response_type"] == 6
        until(lambda: "quiet" in seen)
        assert seen["quiet"] == (int(message_id), "quietly done")
        assert [c for c, _ in seen["clicks"]] == ["panel:ok", "panel:quiet"]
        assert all(str(m) == message_id for _, m in seen["clicks"])
