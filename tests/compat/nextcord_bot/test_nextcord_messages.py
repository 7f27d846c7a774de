"""nextcord's message flows against the emulator: send with embeds, files and spoilers; edit (content, kept
attachments, new files); reactions; pins; history paging; fetch; delete; bulk delete; users' messages and a
forwarded one (nextcord 2.6 cannot forward itself, but receives forwards) as the library's events."""

from __future__ import annotations

import io
from typing import Any

import httpx
import nextcord
from emulator_world import ALICE, BOB, BOT_ID
from nextcord_bot import WAIT_S, NextcordBot, admin, enable_privileged_intents, grant_bot_permissions
from platformpp.emulator import Emulator

GENERAL, MODERATORS = 1200000000000000101, 1200000000000000102
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360f8cf00000301010018dd8db00000000049454e44ae426082")

# MANAGE_MESSAGES and PIN_MESSAGES (1 << 51, added after nextcord 2.6: it has no name there).
MODERATE_MESSAGES = nextcord.Permissions(nextcord.Permissions(manage_messages=True).value | 1 << 51)


def message_intents() -> nextcord.Intents:
    intents = nextcord.Intents.default()
    intents.message_content = True
    return intents


def post_as(http: httpx.Client, user_id: int, channel_id: int, **fields: Any) -> dict[str, Any]:
    response = http.post(f"/channels/{channel_id}/messages", json={"author_id": str(user_id), **fields})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_send_edit_react_pin_fetch_delete(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    enable_privileged_intents(emu, "MESSAGE_CONTENT")
    grant_bot_permissions(emu, MODERATE_MESSAGES)
    with NextcordBot(emu, intents=message_intents()) as bot, admin(emu) as http:
        channel = bot.client.get_channel(GENERAL)
        assert isinstance(channel, nextcord.TextChannel)

        # Send: an embed, a file and a spoiler image.
        embed = nextcord.Embed(title="Report", description="All good", colour=0x3366FF)
        embed.add_field(name="score", value="42", inline=True).set_footer(text="footer")
        files = [nextcord.File(io.BytesIO(b"first notes"), filename="notes.txt"),
                 nextcord.File(io.BytesIO(PNG), filename="pic.png", spoiler=True)]
        sent = bot.run(channel.send("hello **world**", embed=embed, files=files))
        assert sent.author.id == BOT_ID and sent.content == "hello **world**"
        assert sent.embeds[0].title == "Report" and sent.embeds[0].fields[0].value == "42"
        assert sent.embeds[0].colour.value == 0x3366FF and sent.embeds[0].footer.text == "footer"
        assert [a.filename for a in sent.attachments] == ["notes.txt", "SPOILER_pic.png"]
        assert not sent.attachments[0].is_spoiler() and sent.attachments[1].is_spoiler()
        assert sent.attachments[0].size == len(b"first notes")
        assert bot.run(sent.attachments[0].read()) == b"first notes"

        # Edit: new content, one attachment kept, a new file.
        edited = bot.run(sent.edit(content="edited", attachments=[sent.attachments[0]],
                                   file=nextcord.File(io.BytesIO(b"more"), filename="more.txt")))
        assert edited.content == "edited" and edited.edited_at is not None
        assert [a.filename for a in edited.attachments] == ["notes.txt", "more.txt"]
        assert edited.attachments[0].id == sent.attachments[0].id
        assert edited.embeds[0].title == "Report"

        # A user's message, as the library's event.
        arriving = bot.expect("message", lambda m: m.author.id == ALICE)
        posted = post_as(http, ALICE, GENERAL, content=f"hi <@{BOT_ID}>")
        message = arriving()
        assert message.id == int(posted["id"]) and message.content == f"hi <@{BOT_ID}>"
        assert bot.client.user in message.mentions and isinstance(message.author, nextcord.Member)

        # Reactions: the bot's own, a user's (the library's event), the users who reacted, removal.
        bot.run(edited.add_reaction("\N{THUMBS UP SIGN}"))
        reacted = bot.expect("raw_reaction_add", lambda p: p.user_id == ALICE)
        response = http.put(f"/channels/{GENERAL}/messages/{edited.id}/reactions",
                            json={"user_id": str(ALICE), "emoji": "\N{PARTY POPPER}"})
        assert response.status_code == 204, response.text
        payload = reacted()
        assert payload.message_id == edited.id and str(payload.emoji) == "\N{PARTY POPPER}"
        fetched = bot.run(channel.fetch_message(edited.id))
        counts = {str(r.emoji): (r.count, r.me) for r in fetched.reactions}
        assert counts == {"\N{THUMBS UP SIGN}": (1, True), "\N{PARTY POPPER}": (1, False)}

        async def reactors() -> list[int]:
            return [user.id async for user in fetched.reactions[1].users()]

        assert bot.run(reactors()) == [ALICE]
        bot.run(fetched.remove_reaction("\N{THUMBS UP SIGN}", bot.client.user))
        left = bot.run(channel.fetch_message(edited.id)).reactions
        assert [str(r.emoji) for r in left] == ["\N{PARTY POPPER}"]
        bot.run(fetched.clear_reactions())
        assert bot.run(channel.fetch_message(edited.id)).reactions == []

        # Pins.
        bot.run(fetched.pin())
        pins = bot.run(channel.pins())
        assert [m.id for m in pins] == [edited.id] and pins[0].pinned
        bot.run(fetched.unpin())
        assert bot.run(channel.pins()) == []

        # Fetch and delete.
        assert bot.run(channel.fetch_message(int(posted["id"]))).content == f"hi <@{BOT_ID}>"
        deleted = bot.expect("raw_message_delete", lambda p: p.message_id == edited.id)
        bot.run(edited.delete())
        assert deleted().channel_id == GENERAL
        try:
            bot.run(channel.fetch_message(edited.id))
        except nextcord.NotFound as error:
            assert error.code == 10008
        else:
            raise AssertionError("a deleted message was fetched")

        # A user forwards a message; the library receives it (nextcord 2.6 has no forward of its own).
        forwarded = bot.expect("message", lambda m: m.author.id == BOB)
        post_as(http, BOB, GENERAL,
                message_reference={"type": 1, "message_id": posted["id"], "channel_id": str(GENERAL)})
        forward = forwarded()
        assert forward.reference is not None and forward.reference.message_id == int(posted["id"])
        assert forward.flags.value & (1 << 14)


def test_history_paging_and_bulk_delete(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    enable_privileged_intents(emu, "MESSAGE_CONTENT")
    grant_bot_permissions(emu, MODERATE_MESSAGES)
    with admin(emu) as http:
        ids = [int(post_as(http, ALICE if n % 2 else BOB, GENERAL, content=f"message {n}")["id"])
               for n in range(105)]
    with NextcordBot(emu, intents=message_intents()) as bot:
        channel = bot.client.get_channel(GENERAL)
        assert isinstance(channel, nextcord.TextChannel)

        async def history(**options: Any) -> list[nextcord.Message]:
            return [message async for message in channel.history(**options)]

        # More than one page (the library asks 100 at a time), newest first.
        everything = bot.run(history(limit=None), timeout=WAIT_S)
        assert [m.id for m in everything] == ids[::-1]
        assert everything[0].content == "message 104" and everything[-1].author.id == BOB
        # Oldest first after a message, and a window before one.
        after = bot.run(history(limit=5, after=nextcord.Object(ids[9]), oldest_first=True))
        assert [m.id for m in after] == ids[10:15]
        assert [m.id for m in bot.run(history(limit=3, before=nextcord.Object(ids[50])))] == ids[47:50][::-1]

        # Bulk delete: the library's delete_messages and purge.
        gone = bot.expect("raw_bulk_message_delete")
        bot.run(channel.delete_messages([nextcord.Object(message_id) for message_id in ids[:3]]))
        assert gone().message_ids == set(ids[:3])
        purged = bot.run(channel.purge(limit=10), timeout=WAIT_S)
        assert sorted(m.id for m in purged) == ids[-10:]
        remaining = bot.run(history(limit=None), timeout=WAIT_S)
        assert [m.id for m in remaining] == ids[3:-10][::-1]
