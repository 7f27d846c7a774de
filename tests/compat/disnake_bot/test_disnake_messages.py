"""disnake's messages against the emulator: a user's message arrives as the library's event, the bot sends
embeds, files and spoilers, edits (content, kept attachments, new files), reacts and sees reactions, pins,
pages the history, fetches, deletes one and many, and forwards."""

from __future__ import annotations

import datetime
import io
import disnake
from disnake_bot import GENERAL, MODERATORS, enable_privileged, make_bot_admin, running
from emulator_world import ALICE, BOB, BOT_ID
from platformpp.emulator import Emulator

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


def test_messages_send_edit_react_pin_page_delete_forward(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    enable_privileged(emu, "MESSAGE_CONTENT")
    make_bot_admin(emu)
    intents = disnake.Intents.default() | disnake.Intents(message_content=True)
    with running(emu, disnake.Client, intents=intents) as bot:
        client: disnake.Client = bot.client
        general: disnake.TextChannel = client.get_channel(GENERAL)

        # a user's message, as the library's event
        received = bot.expect("message", lambda: emu.admin.post_message(GENERAL, BOB, "hello bot"),
                              check=lambda m: m.author.id == BOB)
        assert received.content == "hello bot" and isinstance(received.author, disnake.Member)
        assert received.channel.id == GENERAL and received.guild.id == general.guild.id

        # embeds, files, a spoiler
        embed = disnake.Embed(title="Report", description="all green", colour=0x3498DB,
                              timestamp=datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc))
        embed.add_field(name="uptime", value="99%", inline=True).set_footer(text="bot")
        sent = bot.call(general.send("status", embed=embed, files=[
            disnake.File(io.BytesIO(b"plain text"), filename="notes.txt"),
            disnake.File(io.BytesIO(PNG), filename="pixel.png", spoiler=True)]))
        assert sent.author.id == BOT_ID and sent.content == "status"
        assert sent.embeds[0].title == "Report" and sent.embeds[0].fields[0].value == "99%"
        assert sent.embeds[0].colour.value == 0x3498DB and sent.embeds[0].footer.text == "bot"
        assert sent.embeds[0].timestamp == embed.timestamp
        notes, pixel = sent.attachments
        assert notes.filename == "notes.txt" and not notes.is_spoiler() and notes.size == len(b"plain text")
        assert pixel.filename == "SPOILER_pixel.png" and pixel.is_spoiler()
        assert bot.call(notes.read()) == b"plain text" and bot.call(pixel.read()) == PNG

        # edit: new content, one attachment kept, a new file
        edited = bot.call(sent.edit(content="status, updated", attachments=[notes],
                                    file=disnake.File(io.BytesIO(b"more"), filename="more.txt")))
        assert edited.content == "status, updated" and edited.edited_at is not None
        assert [a.filename for a in edited.attachments] == ["notes.txt", "more.txt"]
        assert edited.attachments[0].id == notes.id
        assert bot.call(edited.attachments[1].read()) == b"more"

        # reactions: the bot's own and a user's, as events and as counts
        bot.call(sent.add_reaction("👍"))
        reaction, user = bot.expect(
            "reaction_add",
            lambda: emu.admin.react(GENERAL, sent.id, BOB, "🎉"),
            check=lambda r, u: u.id == BOB)
        assert str(reaction.emoji) == "🎉" and reaction.message.id == sent.id
        assert isinstance(user, disnake.Member)
        fetched = bot.call(general.fetch_message(sent.id))
        counts = {str(r.emoji): (r.count, r.me) for r in fetched.reactions}
        assert counts == {"👍": (1, True), "🎉": (1, False)}
        reactors = bot.call(fetched.reactions[1].users().flatten())
        assert [u.id for u in reactors] == [BOB]
        bot.call(fetched.remove_reaction("👍", client.user))
        assert {str(r.emoji) for r in bot.call(general.fetch_message(sent.id)).reactions} == {"🎉"}

        # pins
        bot.call(sent.pin())
        bot.call(received.pin())
        pinned = bot.call(general.pins(limit=None).flatten())
        assert [m.id for m in pinned] == [received.id, sent.id]   # most recently pinned first
        bot.call(received.unpin())
        assert [m.id for m in bot.call(general.pins().flatten())] == [sent.id]

        # history: more than one page (100 a request)
        posted = [int(emu.admin.post_message(GENERAL, ALICE, f"line {n}")["id"]) for n in range(105)]
        history = bot.call(general.history(limit=None, after=disnake.Object(posted[0] - 1)).flatten())
        assert [m.id for m in history] == posted   # after= pages oldest first
        newest = bot.call(general.history(limit=103).flatten())
        assert [m.id for m in newest] == posted[::-1][:103]
        assert newest[0].content == "line 104"

        # fetch, delete one (another user's), delete many
        fetched = bot.call(general.fetch_message(posted[7]))
        assert fetched.content == "line 7" and fetched.author.id == ALICE
        deleted = bot.expect("raw_message_delete", lambda: bot.call(fetched.delete()))
        assert deleted.message_id == posted[7] and deleted.channel_id == GENERAL
        batch = [disnake.Object(i) for i in posted[8:20]]
        with_bulk = bot.expect("raw_bulk_message_delete", lambda: bot.call(general.delete_messages(batch)))
        assert with_bulk.message_ids == set(posted[8:20])
        try:
            bot.call(general.fetch_message(posted[8]))
            raise AssertionError("a bulk-deleted message is still there")
        except disnake.NotFound as gone:
            assert gone.code == 10008

        # forward into another channel
        moderators: disnake.TextChannel = client.get_channel(MODERATORS)
        forwarded = bot.call(sent.forward(moderators))
        assert forwarded.channel.id == MODERATORS and forwarded.flags.has_snapshot
        snapshot = forwarded.message_snapshots[0]
        assert snapshot.content == "status, updated"
        assert [a.filename for a in snapshot.attachments] == ["notes.txt", "more.txt"]


def test_message_bad_input_is_the_librarys_exception(platformpp_emulator: Emulator) -> None:
    """An over-long message is refused by the emulator as by the platform: disnake raises its
    HTTPException with the field error, and nothing is posted."""
    emu = platformpp_emulator
    with running(emu, disnake.Client, intents=disnake.Intents.default()) as bot:
        general: disnake.TextChannel = bot.client.get_channel(GENERAL)
        before = bot.call(general.history(limit=5).flatten())
        try:
            bot.call(general.send("x" * 2001))
            raise AssertionError("an over-long message was accepted")
        except disnake.HTTPException as refused:
            assert refused.status == 400 and refused.code == 50035 and "content" in refused.text
        assert [m.id for m in bot.call(general.history(limit=5).flatten())] == [m.id for m in before]
