"""hikari's DM and poll calls against the emulator: create_dm_channel, a message in the DM and a user's
reply as DMMessageCreateEvent, the DM history; a poll built with hikari's PollBuilder, votes as
PollVoteCreateEvent / PollVoteDeleteEvent, fetch_poll_voters and end_poll."""

from __future__ import annotations

import hikari
from emulator_world import ALICE, BOB, BOT_ID
from hikari.impl.special_endpoints import PollBuilder
from hikari_bot import GENERAL, HikariBot, admin, make_bot_administrator
from platformpp.emulator import Emulator


def test_dm_send_reply_and_history(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with HikariBot(emu, intents=hikari.Intents.ALL_UNPRIVILEGED) as running:
        rest = running.rest
        dm = running.call(rest.create_dm_channel(ALICE))
        assert isinstance(dm, hikari.DMChannel) and dm.recipient.id == ALICE
        sent = running.call(rest.create_message(dm, "hello alice"))
        assert sent.channel_id == dm.id and sent.author.id == BOT_ID and sent.guild_id is None
        emu.admin.post_message(dm.id, ALICE, "hi bot")
        reply = running.wait_event(hikari.DMMessageCreateEvent, lambda e: e.author_id == ALICE)
        assert reply.message.content == "hi bot" and reply.channel_id == dm.id
        history = running.call(rest.fetch_messages(dm).collect(list))
        assert [m.content for m in history] == ["hi bot", "hello alice"]


def test_poll_votes_voters_and_end(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_bot_administrator(emu)
    with HikariBot(emu, intents=hikari.Intents.ALL_UNPRIVILEGED) as running:
        rest = running.rest
        poll = PollBuilder(question_text="Which map?", allow_multiselect=False, duration=2)
        poll.add_answer(text="Dust").add_answer(text="Nuke")
        message = running.call(rest.create_message(GENERAL, poll=poll))
        assert message.poll is not None and [a.poll_media.text for a in message.poll.answers] == ["Dust", "Nuke"]
        assert message.poll.results is not None and not message.poll.results.is_finalized
        voter = f"/channels/{GENERAL}/polls/{message.id}/answers/2/voters"
        for user in (ALICE, BOB):
            admin(emu, "PUT", f"{voter}/{user}")
        added = running.wait_event(hikari.PollVoteCreateEvent, lambda e: e.user_id == BOB)
        assert (added.message_id, added.answer_id, added.guild_id) == (message.id, 2, message.guild_id)
        admin(emu, "DELETE", f"{voter}/{BOB}")
        removed = running.wait_event(hikari.PollVoteDeleteEvent, lambda e: e.user_id == BOB)
        assert removed.answer_id == 2
        voters = running.call(rest.fetch_poll_voters(GENERAL, message, 2))
        assert [u.id for u in voters] == [ALICE]
        ended = running.call(rest.end_poll(GENERAL, message))
        assert ended.poll is not None and ended.poll.results is not None and ended.poll.results.is_finalized
        assert [(c.id, c.count) for c in ended.poll.results.answer_counts] == [(2, 1)]
        result = running.wait_event(hikari.GuildMessageCreateEvent,
                                    lambda e: e.message.type == hikari.MessageType.POLL_RESULT)
        reference = result.message.message_reference
        assert reference is not None and reference.id == message.id
        assert {f.name: f.value for f in result.message.embeds[0].fields}["victor_answer_text"] == "Nuke"
