"""disnake's DM and poll helpers against the emulator: user.create_dm() and send, a user's DM reply as
the library's event, the DM history, reactions and pins in a DM; a disnake.Poll sent in a guild channel, votes as raw and cached
events, the voters of an answer, expire, and the poll result message at the end."""

from __future__ import annotations

import datetime

import disnake
from disnake_bot import GENERAL, admin, enable_privileged, make_bot_admin, running
from emulator_world import ALICE, BOB, BOT_ID
from platformpp.emulator import Emulator


def test_dm_send_reply_and_history(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with running(emu, disnake.Client, intents=disnake.Intents.default()) as bot:
        client: disnake.Client = bot.client
        alice = bot.call(client.fetch_user(ALICE))
        dm = bot.call(alice.create_dm())
        assert isinstance(dm, disnake.DMChannel) and dm.recipient is not None and dm.recipient.id == ALICE
        async def typed_then_sent() -> disnake.Message:
            async with dm.typing():
                return await alice.send("hello alice")

        sent = bot.call(typed_then_sent())
        assert sent.channel.id == dm.id and sent.author.id == BOT_ID and sent.guild is None
        reply = bot.expect("message", lambda: emu.admin.post_message(dm.id, ALICE, "hi bot"),
                           check=lambda m: m.author.id == ALICE)
        assert isinstance(reply.channel, disnake.DMChannel) and reply.content == "hi bot"
        history = bot.call(dm.history(limit=10).flatten())
        assert [m.content for m in history] == ["hi bot", "hello alice"]
        edited = bot.call(sent.edit(content="hello, alice"))
        assert edited.content == "hello, alice"
        assert bot.call(dm.fetch_message(sent.id)).content == "hello, alice"
        bot.call(sent.delete())
        assert [m.id for m in bot.call(dm.history(limit=10).flatten())] == [reply.id]


def test_dm_reactions_and_pins(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with running(emu, disnake.Client, intents=disnake.Intents.default()) as bot:
        client: disnake.Client = bot.client
        alice = bot.call(client.fetch_user(ALICE))
        sent = bot.call(alice.send("react to me"))
        bot.call(sent.add_reaction("\N{THUMBS UP SIGN}"))
        raw = bot.expect("raw_reaction_add", lambda: admin(
            emu, "PUT", f"/channels/{sent.channel.id}/messages/{sent.id}/reactions",
            {"user_id": str(ALICE), "emoji": "\N{THUMBS UP SIGN}"}), check=lambda p: p.user_id == ALICE)
        assert raw.guild_id is None and raw.member is None and raw.message_id == sent.id
        bot.call(sent.pin())
        fetched = bot.call(sent.channel.fetch_message(sent.id))
        assert fetched.pinned and [(str(r.emoji), r.count, r.me) for r in fetched.reactions] == [
            ("\N{THUMBS UP SIGN}", 2, True)]
        assert [m.id for m in bot.call(sent.channel.pins())] == [sent.id]
        bot.call(sent.remove_reaction("\N{THUMBS UP SIGN}", client.user))
        bot.call(sent.unpin())
        again = bot.call(sent.channel.fetch_message(sent.id))
        assert not again.pinned and [r.count for r in again.reactions] == [1]


def test_poll_votes_voters_and_expire(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_bot_admin(emu)
    enable_privileged(emu, "GUILD_MEMBERS")   # the cached member of poll_vote_add
    with running(emu, disnake.Client, intents=disnake.Intents.default() | disnake.Intents(members=True)) as bot:
        client: disnake.Client = bot.client
        general = client.get_channel(GENERAL)
        assert isinstance(general, disnake.TextChannel)
        poll = disnake.Poll("Which map?", answers=["Dust", "Nuke"], duration=datetime.timedelta(hours=2))
        message = bot.call(general.send(poll=poll))
        assert message.poll is not None and [a.media.text for a in message.poll.answers] == ["Dust", "Nuke"]
        assert not message.poll.is_finalized

        def vote(user_id: int, answer_id: int) -> None:
            admin(emu, "PUT", f"/channels/{GENERAL}/polls/{message.id}/answers/{answer_id}/voters/{user_id}")

        raw = bot.expect("raw_poll_vote_add", lambda: vote(ALICE, 2))
        assert (raw.user_id, raw.answer_id, raw.message_id) == (ALICE, 2, message.id)
        member, answer = bot.expect("poll_vote_add", lambda: vote(BOB, 2))
        assert member.id == BOB and answer.media.text == "Nuke"
        removed = bot.expect("raw_poll_vote_remove", lambda: admin(
            emu, "DELETE", f"/channels/{GENERAL}/polls/{message.id}/answers/2/voters/{BOB}"))
        assert removed.user_id == BOB
        fetched = bot.call(general.fetch_message(message.id))
        assert fetched.poll is not None
        nuke = fetched.poll.get_answer(2)
        assert nuke is not None and nuke.vote_count == 1
        assert [u.id for u in bot.call(nuke.voters().flatten())] == [ALICE]

        result = bot.expect("message", lambda: bot.call(fetched.poll.expire()),
                            check=lambda m: m.type == disnake.MessageType.poll_result)
        assert result.reference is not None and result.reference.message_id == message.id
        ended = bot.call(general.fetch_message(message.id))
        assert ended.poll is not None and ended.poll.is_finalized
