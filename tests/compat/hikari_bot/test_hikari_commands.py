"""hikari syncs application commands (global and guild; a slash command with options, user and message
context menus) and answers a simulated user of the platform's client in every way a bot answers: reply,
ephemeral reply, defer + followup, edit of the original, modal + submit, button and select clicks,
autocomplete. What hikari reports (its interaction objects, their options, values and targets) is
echoed back in the answers and asserted from the user's side."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import hikari
from emulator_world import ALICE, APP_ID, BOB, GUILD_ID
from hikari_bot import GENERAL, HikariBot, eventually
from platformpp.emulator import Emulator

EPHEMERAL = 64


class App:
    """The bot's interaction handler: what it received, and how it answers each command."""

    def __init__(self) -> None:
        self.received: list[hikari.PartialInteraction] = []
        self.callback_answers: list[hikari.InteractionCallbackResponse] = []

    async def on_interaction(self, event: hikari.InteractionCreateEvent) -> None:
        interaction = event.interaction
        self.received.append(interaction)
        if isinstance(interaction, hikari.AutocompleteInteraction):
            typed = next(o for o in interaction.options if o.is_focused)
            words = ("hello", "help", "world")
            await interaction.create_response([hikari.impl.AutocompleteChoiceBuilder(name=w.title(), value=w)
                                               for w in words if w.startswith(str(typed.value))])
        elif isinstance(interaction, hikari.CommandInteraction):
            await self.command(interaction)
        elif isinstance(interaction, hikari.ComponentInteraction):
            await self.component(interaction)
        elif isinstance(interaction, hikari.ModalInteraction):
            fields = {c.custom_id: c.value for row in interaction.components for c in row.components}
            content = f"{interaction.custom_id}: {fields['name']}/{fields['story']}"
            await interaction.create_initial_response(hikari.ResponseType.MESSAGE_CREATE, content)

    async def command(self, interaction: hikari.CommandInteraction) -> None:
        rest = interaction.app.rest
        name = interaction.command_name
        if name == "echo":
            options = {o.name: o.value for o in interaction.options or ()}
            answer = await interaction.create_initial_response(
                hikari.ResponseType.MESSAGE_CREATE, f"{options['text']} x{options.get('times', 1)}")
            self.callback_answers.append(answer)
        elif name == "Inspect":
            user = interaction.resolved.users[interaction.target_id] if interaction.resolved else None
            await interaction.create_initial_response(hikari.ResponseType.MESSAGE_CREATE,
                                                      f"inspected {user.username if user else None}")
        elif name == "secret":
            await interaction.create_initial_response(hikari.ResponseType.MESSAGE_CREATE, "only you",
                                                      flags=hikari.MessageFlag.EPHEMERAL)
        elif name == "slow":
            await interaction.create_initial_response(hikari.ResponseType.DEFERRED_MESSAGE_CREATE)
            await interaction.execute("a followup")
            await interaction.edit_initial_response("done after a while")
        elif name == "form":
            story = rest.build_modal_action_row().add_text_input("story", "Story",
                                                                 style=hikari.TextInputStyle.PARAGRAPH)
            await interaction.create_modal_response("Tell me", "about-you", components=[
                rest.build_modal_action_row().add_text_input("name", "Name"), story])
        elif name == "panel":
            buttons = rest.build_message_action_row().add_interactive_button(
                hikari.ButtonStyle.PRIMARY, "press", label="Press")
            menu = rest.build_message_action_row().add_text_menu("colour", max_values=2)
            menu.add_option("Red", "red").add_option("Green", "green").add_option("Blue", "blue")
            await interaction.create_initial_response(hikari.ResponseType.MESSAGE_CREATE, "panel",
                                                      components=[buttons, menu.parent])
        elif name == "Quote":
            message = interaction.resolved.messages[interaction.target_id] if interaction.resolved else None
            await interaction.create_initial_response(hikari.ResponseType.MESSAGE_CREATE,
                                                      f"quoted: {message.content if message else None}")

    async def component(self, interaction: hikari.ComponentInteraction) -> None:
        if interaction.custom_id == "press":
            await interaction.create_initial_response(hikari.ResponseType.MESSAGE_UPDATE, "pressed")
        elif interaction.custom_id == "colour":
            await interaction.create_initial_response(hikari.ResponseType.DEFERRED_MESSAGE_UPDATE)
            await interaction.edit_initial_response("chose " + "+".join(interaction.values))


def sync_commands(running: HikariBot) -> None:
    rest = running.rest
    echo = rest.slash_command_builder("echo", "Says it again").add_option(
        hikari.CommandOption(type=hikari.OptionType.STRING, name="text", description="What to say",
                             is_required=True, autocomplete=True, max_length=100)).add_option(
        hikari.CommandOption(type=hikari.OptionType.INTEGER, name="times", description="How often",
                             min_value=1, max_value=3))
    inspect = rest.context_menu_command_builder(hikari.CommandType.USER, "Inspect")
    running.call(rest.set_application_commands(APP_ID, [echo, inspect]))
    guild_commands = [rest.slash_command_builder(name, f"The {name} command")
                      for name in ("secret", "slow", "form", "panel")]
    guild_commands.append(rest.context_menu_command_builder(hikari.CommandType.MESSAGE, "Quote"))
    running.call(rest.set_application_commands(APP_ID, guild_commands, guild=GUILD_ID))


def test_commands_synced_and_every_response_kind(platformpp_emulator: Emulator,
                                                 platformpp_user: Callable[..., Any]) -> None:
    emu = platformpp_emulator
    app = App()
    with HikariBot(emu, listeners={hikari.InteractionCreateEvent: app.on_interaction}) as running:
        sync_commands(running)
        global_commands = running.call(running.rest.fetch_application_commands(APP_ID))
        assert {(c.name, c.type) for c in global_commands} == {("echo", hikari.CommandType.SLASH),
                                                               ("Inspect", hikari.CommandType.USER)}
        echo = next(c for c in global_commands if c.name == "echo")
        assert isinstance(echo, hikari.SlashCommand) and echo.application_id == APP_ID
        assert [(o.name, o.type, o.is_required, o.autocomplete) for o in echo.options or ()] == [
            ("text", hikari.OptionType.STRING, True, True),
            ("times", hikari.OptionType.INTEGER, False, False)]
        guild_commands = running.call(running.rest.fetch_application_commands(APP_ID, guild=GUILD_ID))
        assert sorted(c.name for c in guild_commands) == ["Quote", "form", "panel", "secret", "slow"]
        assert all(c.guild_id == GUILD_ID for c in guild_commands)

        alice = platformpp_user(ALICE, channel_id=GENERAL)

        # a slash command with options: a reply, in the channel for all to see
        replied = alice.command("echo", [{"name": "text", "value": "hi"}, {"name": "times", "value": 2}])
        assert replied.error is None and replied.message["content"] == "hi x2"
        # hikari read the callback response (with_response), once its call has returned on the bot's thread
        callback = eventually(lambda: app.callback_answers, bool)[-1]
        assert callback.interaction.id == int(replied.id)
        assert callback.resource is not None and callback.resource.message.content == "hi x2"
        created = running.wait_event(hikari.GuildMessageCreateEvent, lambda e: e.content == "hi x2")
        assert created.channel_id == GENERAL and created.message.interaction_metadata is not None
        assert created.message.interaction_metadata.user.id == ALICE

        # autocomplete: the focused option as typed so far
        choices = alice.autocomplete("echo", [{"name": "text", "value": "he", "focused": True}]).choices
        assert choices == [{"name": "Hello", "value": "hello"}, {"name": "Help", "value": "help"}]

        # context menus: a user command and a message command, with their resolved targets
        assert alice.user_command("Inspect", BOB).message["content"] == "inspected bob"
        posted = emu.admin.post_message(GENERAL, BOB, "quote me")
        assert alice.message_command("Quote", posted["id"]).message["content"] == "quoted: quote me"

        # an ephemeral reply: only the user sees it, it never reaches the channel
        secret = alice.command("secret")
        assert secret.message["content"] == "only you" and secret.message["flags"] & EPHEMERAL

        # defer, then a followup and an edit of the original
        slow = alice.command("slow")
        conversation = eventually(lambda: alice.conversation(slow.id),
                                  lambda c: c["message"]["content"] == "done after a while")
        assert [f["content"] for f in conversation["followups"]] == ["a followup"]

        # a modal and its submission: hikari reads the submitted values
        opened = alice.command("form")
        assert opened.modal is not None and opened.modal["custom_id"] == "about-you"
        submitted = alice.submit_modal(opened, {"name": "Ayla", "story": "Once upon a time"})
        assert submitted.message["content"] == "about-you: Ayla/Once upon a time"
        modal = next(i for i in app.received if isinstance(i, hikari.ModalInteraction))
        assert modal.user.id == ALICE and modal.guild_id == GUILD_ID

        # a button (the message updated) and a select (deferred, then the original edited)
        panel = alice.command("panel")
        panel_id = panel.message["id"]
        assert alice.click(panel_id, "press").error is None
        eventually(lambda: alice.conversation(panel.id)["message"]["content"], lambda c: c == "pressed")
        chosen = alice.choose(panel_id, "colour", ["red", "blue"])
        assert chosen.error is None
        # @original of a component interaction is the message the component is on
        eventually(lambda: running.call(running.rest.fetch_message(GENERAL, int(panel_id))).content,
                   lambda c: c == "chose red+blue")
        clicks = [i for i in app.received if isinstance(i, hikari.ComponentInteraction)]
        assert [(c.custom_id, list(c.values)) for c in clicks] == [("press", []), ("colour", ["red", "blue"])]
        assert all(c.message.id == int(panel_id) for c in clicks)
        updated = running.wait_event(hikari.GuildMessageUpdateEvent, lambda e: e.message_id == int(panel_id)
                                     and e.message.content == "chose red+blue")
        assert updated.channel_id == GENERAL

        kinds = [type(i).__name__ for i in app.received]
        assert kinds.count("CommandInteraction") == 7 and kinds.count("AutocompleteInteraction") == 1
        assert kinds.count("ModalInteraction") == 1 and kinds.count("ComponentInteraction") == 2
