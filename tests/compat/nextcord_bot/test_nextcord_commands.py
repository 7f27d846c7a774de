"""nextcord's application commands against the emulator: the library syncs them at login (global and guild;
a slash command with options, a user and a message context menu), and a simulated user of the platform's
client runs each one. Every response kind the library offers: reply, ephemeral reply, defer + followup,
edit of the original, a modal and its submit (values read), button and select clicks, autocomplete."""

from __future__ import annotations

import time
from typing import Any

import httpx
import nextcord
from emulator_world import ALICE, APP_ID, BOB, GUILD_ID, bot_headers
from nextcord_bot import WAIT_S, NextcordBot, admin
from platformpp.emulator import Emulator

GENERAL = 1200000000000000101
EPHEMERAL = 1 << 6


class Greeting(nextcord.ui.Modal):
    def __init__(self) -> None:
        super().__init__("Greeting", custom_id="ncb:greeting")
        self.who = nextcord.ui.TextInput(label="Your name", custom_id="ncb:who", min_length=2, max_length=20)
        self.note = nextcord.ui.TextInput(label="A note", custom_id="ncb:note", required=False,
                                          style=nextcord.TextInputStyle.paragraph)
        self.add_item(self.who)
        self.add_item(self.note)

    async def callback(self, interaction: nextcord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.who.value} ({self.note.value})")


class Panel(nextcord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @nextcord.ui.button(label="Press", custom_id="ncb:press", style=nextcord.ButtonStyle.primary)
    async def press(self, button: nextcord.ui.Button[Any], interaction: nextcord.Interaction) -> None:
        button.disabled = True
        await interaction.response.edit_message(content="pressed", view=self)

    @nextcord.ui.select(custom_id="ncb:pick", placeholder="Pick", min_values=1, max_values=2,
                        options=[nextcord.SelectOption(label="Alpha", value="a"),
                                 nextcord.SelectOption(label="Beta", value="b"),
                                 nextcord.SelectOption(label="Gamma", value="c")])
    async def pick(self, select: nextcord.ui.StringSelect[Any], interaction: nextcord.Interaction) -> None:
        await interaction.response.send_message("picked " + ",".join(select.values), ephemeral=True)


def add_commands(client: nextcord.Client) -> None:
    @client.slash_command(name="roll", description="Roll a die", guild_ids=[GUILD_ID])
    async def roll(interaction: nextcord.Interaction,
                   sides: int = nextcord.SlashOption(description="Sides", min_value=2, max_value=100),
                   label: str = nextcord.SlashOption(description="A label", required=False,
                                                     autocomplete=True),
                   ) -> None:
        await interaction.response.send_message(f"rolled d{sides} {label or '-'}")

    @roll.on_autocomplete("label")
    async def roll_label(interaction: nextcord.Interaction, label: str) -> None:
        await interaction.response.send_autocomplete([name for name in ("alpha", "beta", "gamma")
                                                      if name.startswith(label)])

    @client.slash_command(name="secret", description="Only you see it")
    async def secret(interaction: nextcord.Interaction) -> None:
        await interaction.response.send_message("psst", ephemeral=True)

    @client.slash_command(name="slow", description="Takes a while", guild_ids=[GUILD_ID])
    async def slow(interaction: nextcord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.edit_original_message(content="done thinking")
        followup = await interaction.followup.send("and one more thing", wait=True)
        assert isinstance(followup, nextcord.WebhookMessage)
        original = await interaction.original_message()
        assert original.content == "done thinking"
        await interaction.followup.send(f"original {original.id}")

    @client.slash_command(name="form", description="Opens a form", guild_ids=[GUILD_ID])
    async def form(interaction: nextcord.Interaction) -> None:
        await interaction.response.send_modal(Greeting())

    @client.slash_command(name="panel", description="Buttons and a select", guild_ids=[GUILD_ID])
    async def panel(interaction: nextcord.Interaction) -> None:
        await interaction.response.send_message("choose", view=Panel())

    @client.user_command(name="Inspect", guild_ids=[GUILD_ID])
    async def inspect(interaction: nextcord.Interaction, member: nextcord.Member) -> None:
        await interaction.response.send_message(f"inspected {member.name} {member.id}")

    @client.message_command(name="Quote")
    async def quote(interaction: nextcord.Interaction, message: nextcord.Message) -> None:
        await interaction.response.send_message(f"quoted {message.author.name}: {message.content}")


def registered(emu: Emulator) -> tuple[set[str], set[str]]:
    with httpx.Client(base_url=emu.api_base, headers=bot_headers(), timeout=WAIT_S) as http:
        global_commands = http.get(f"/applications/{APP_ID}/commands")
        guild_commands = http.get(f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands")
    return ({c["name"] for c in global_commands.json()}, {c["name"] for c in guild_commands.json()})


def wait_registered(emu: Emulator) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        global_names, guild_names = registered(emu)
        if (global_names, guild_names) == ({"secret", "Quote"}, {"roll", "slow", "form", "panel", "Inspect"}):
            with httpx.Client(base_url=emu.api_base, headers=bot_headers(), timeout=WAIT_S) as http:
                commands = http.get(f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands").json()
            return {c["name"]: c for c in commands}
        time.sleep(0.05)
    raise AssertionError(f"commands not synced: {registered(emu)}")


def conversation_when(alice: Any, interaction_id: str, done: Any) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_S
    while True:
        state = alice.conversation(interaction_id)
        if done(state) or time.monotonic() > deadline:
            return state
        time.sleep(0.05)


def test_commands_sync_and_every_response_kind(platformpp_emulator: Emulator, platformpp_user: Any) -> None:
    emu = platformpp_emulator
    # Posted before the bot logs in: the library then reads the target of the message command from the
    # interaction's resolved data (which carries the content without the MESSAGE_CONTENT intent), not from
    # its cache of MESSAGE_CREATEs (emptied without that intent).
    with admin(emu) as http:
        posted = http.post(f"/channels/{GENERAL}/messages",
                           json={"author_id": str(BOB), "content": "quote me"})
        assert posted.status_code == 200, posted.text
    with NextcordBot(emu, setup=add_commands):
        guild_commands = wait_registered(emu)
        roll = guild_commands["roll"]
        assert [(o["name"], o["type"], o.get("required", False)) for o in roll["options"]] == [
            ("sides", 4, True), ("label", 3, False)]
        assert roll["options"][0]["min_value"] == 2 and roll["options"][1]["autocomplete"] is True
        assert guild_commands["Inspect"]["type"] == 2

        alice = platformpp_user(ALICE, channel_id=GENERAL)

        # A reply, with the options the library read.
        rolled = alice.command("roll", options=[{"name": "sides", "value": 6}])
        assert rolled.error is None, rolled.error
        assert rolled.message is not None and rolled.message["content"] == "rolled d6 -"

        # Autocomplete on the focused option.
        typed = alice.autocomplete("roll", [{"name": "sides", "value": 6},
                                            {"name": "label", "value": "b", "focused": True}])
        assert typed.choices == [{"name": "beta", "value": "beta"}]

        # An ephemeral reply of a global command.
        secret = alice.command("secret")
        assert secret.message is not None and secret.message["content"] == "psst"
        assert secret.message["flags"] & EPHEMERAL

        # Defer, edit the original, followups (one waited for), fetch the original.
        slow = alice.command("slow")
        assert slow.error is None, slow.error
        state = conversation_when(alice, slow.id, lambda s: len(s["followups"]) >= 2)
        assert state["message"]["content"] == "done thinking"
        assert [f["content"] for f in state["followups"]] == [
            "and one more thing", f"original {state['message']['id']}"]

        # A modal, and its submit with the values read.
        form = alice.command("form")
        assert form.modal is not None and form.modal["custom_id"] == "ncb:greeting"
        submitted = alice.submit_modal(form, {"ncb:who": "Zed", "ncb:note": "hi there"})
        assert submitted.error is None, submitted.error
        assert submitted.message is not None and submitted.message["content"] == "hello Zed (hi there)"

        # Buttons and selects on a message the command sent.
        panel = alice.command("panel")
        assert panel.message is not None
        panel_id = panel.message["id"]
        picked = alice.choose(panel_id, "ncb:pick", ["a", "c"])
        assert picked.message is not None and picked.message["content"] == "picked a,c"
        assert picked.message["flags"] & EPHEMERAL
        pressed = alice.click(panel_id, "ncb:press")
        assert pressed.error is None, pressed.error
        assert pressed.answer["response_type"] == 7   # the library updated the message the button is on
        updated = alice.conversation(panel.id)["message"]
        assert updated["id"] == panel_id and updated["content"] == "pressed"
        button = updated["components"][0]["components"][0]
        assert button["custom_id"] == "ncb:press" and button["disabled"] is True

        # The context menus: a user command and a message command.
        inspected = alice.user_command("Inspect", BOB)
        assert inspected.message is not None and inspected.message["content"] == f"inspected bob {BOB}"
        quoted = alice.message_command("Quote", posted.json()["id"])
        assert quoted.message is not None and quoted.message["content"] == "quoted bob: quote me"
