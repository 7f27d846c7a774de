"""hikari's everyday message calls against the emulator: send with embeds, files and spoilers; edit the
content, keep attachments and add files; reactions; pins; history paging; fetch; delete and bulk
delete; forward. Users act through the admin API; hikari's objects and Gateway events are asserted."""

from __future__ import annotations

import hikari
import httpx
from emulator_world import ALICE, BOB, BOT_ID, GUILD_ID
from hikari_bot import GENERAL, MODERATORS, HikariBot, enable_privileged_intents, make_bot_administrator
from platformpp.emulator import Emulator

IS_SPOILER = 1 << 3


def test_send_edit_react_pin_page_fetch_delete_forward(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    enable_privileged_intents(emu)
    make_bot_administrator(emu)
    with HikariBot(emu, intents=hikari.Intents.ALL_UNPRIVILEGED | hikari.Intents.MESSAGE_CONTENT) as running:
        rest = running.rest

        # send: an embed, a file and a spoiler file
        embed = hikari.Embed(title="Score", description="3 to 1", color=0x3498DB).add_field("MVP", "Alice")
        sent = running.call(rest.create_message(GENERAL, "match report", embed=embed, attachments=[
            hikari.Bytes(b"round 1\nround 2\n", "rounds.txt"),
            hikari.Bytes(b"the twist", "ending.txt", spoiler=True)]))
        assert sent.author.id == BOT_ID and sent.content == "match report" and sent.guild_id == GUILD_ID
        assert sent.embeds[0].title == "Score" and sent.embeds[0].fields[0].value == "Alice"
        rounds, ending = sent.attachments
        assert (rounds.filename, rounds.size) == ("rounds.txt", 16)
        assert ending.filename == "SPOILER_ending.txt" or ending.flags & IS_SPOILER
        assert httpx.get(rounds.url).content == b"round 1\nround 2\n"   # the attachment is served
        created = running.wait_event(hikari.GuildMessageCreateEvent, lambda e: e.message_id == sent.id)
        assert created.message.embeds[0].description == "3 to 1"

        # edit: new content, the first file kept, the second dropped, a new file added
        edited = running.call(rest.edit_message(GENERAL, sent, "match report (final)", attachments=[
            rounds, hikari.Bytes(b"round 3\n", "more.txt")]))
        assert edited.content == "match report (final)" and edited.edited_timestamp is not None
        assert [a.filename for a in edited.attachments] == ["rounds.txt", "more.txt"]
        assert edited.attachments[0].id == rounds.id
        update = running.wait_event(hikari.GuildMessageUpdateEvent, lambda e: e.message_id == sent.id)
        assert update.message.content == "match report (final)"

        # reactions: the bot's own and a user's, seen as events and fetched
        running.call(rest.add_reaction(GENERAL, sent, "👍"))
        emu.admin.react(GENERAL, sent.id, ALICE, "👍")
        by_alice = running.wait_event(hikari.GuildReactionAddEvent, lambda e: e.user_id == ALICE)
        assert by_alice.message_id == sent.id and by_alice.emoji_name == "👍"
        reactors = running.call(rest.fetch_reactions_for_emoji(GENERAL, sent, "👍").collect(list))
        assert {u.id for u in reactors} == {BOT_ID, ALICE}
        counted = running.call(rest.fetch_message(GENERAL, sent))
        assert [(r.emoji.name, r.count, r.is_me) for r in counted.reactions] == [("👍", 2, True)]
        running.call(rest.delete_my_reaction(GENERAL, sent, "👍"))
        running.wait_event(hikari.GuildReactionDeleteEvent, lambda e: e.user_id == BOT_ID)

        # pins
        running.call(rest.pin_message(GENERAL, sent))
        pins = running.call(rest.fetch_pins(GENERAL).collect(list))
        assert [p.message.id for p in pins] == [sent.id] and pins[0].pinned_at is not None
        running.wait_event(hikari.GuildPinsUpdateEvent, lambda e: e.channel_id == GENERAL)
        running.call(rest.unpin_message(GENERAL, sent))
        assert running.call(rest.fetch_pins(GENERAL).collect(list)) == []

        # history: 120 user messages, paged by hikari 100 at a time, both ways
        posted = [int(emu.admin.post_message(GENERAL, BOB if n % 2 else ALICE, f"line {n}")["id"])
                  for n in range(120)]
        newest_first = running.call(rest.fetch_messages(GENERAL).collect(list))
        assert [m.id for m in newest_first] == posted[::-1] + [sent.id]
        assert newest_first[0].content == "line 119" and newest_first[0].author.id == BOB
        oldest_first = running.call(rest.fetch_messages(GENERAL, after=sent.id).collect(list))
        assert [m.id for m in oldest_first] == posted
        # hikari pages "around" by moving the anchor: one page of it is what a bot takes
        around = [m.id for m in running.call(rest.fetch_messages(GENERAL, around=posted[50]).limit(100)
                                             .collect(list))]
        assert posted[50] in around and around == sorted(around, reverse=True)
        fetched = running.call(rest.fetch_message(GENERAL, posted[7]))
        assert fetched.content == "line 7" and fetched.author.id == BOB

        # forward a user's message into the moderators' channel
        forwarded = running.call(rest.forward_message(MODERATORS, posted[7], GENERAL))
        assert forwarded.channel_id == MODERATORS and forwarded.message_reference is not None
        assert forwarded.message_reference.type == hikari.messages.MessageReferenceType.FORWARD
        assert forwarded.message_snapshots[0].content == "line 7"

        # delete one, then bulk delete the rest of a page
        running.call(rest.delete_message(GENERAL, posted[0]))
        running.wait_event(hikari.GuildMessageDeleteEvent, lambda e: e.message_id == posted[0])
        running.call(rest.delete_messages(GENERAL, posted[1:11]))
        bulk = running.wait_event(hikari.GuildBulkMessageDeleteEvent, lambda e: e.channel_id == GENERAL)
        assert set(bulk.message_ids) == set(posted[1:11])
        remaining = running.call(rest.fetch_messages(GENERAL, after=sent.id).collect(list))
        assert [m.id for m in remaining] == posted[11:]
