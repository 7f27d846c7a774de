"""disnake's thread helpers against the emulator: threads in a text channel (public, private, from a
message), messages in them, joining, adding and listing members, archived and active threads, and a forum
channel with tags whose posts carry their first message."""

from __future__ import annotations

import disnake
from disnake_bot import GENERAL, enable_privileged, make_bot_admin, running
from emulator_world import BOB, BOT_ID
from platformpp.emulator import Emulator


def test_threads_members_archives_and_forum_posts(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    enable_privileged(emu, "MESSAGE_CONTENT", "GUILD_MEMBERS")
    make_bot_admin(emu)
    intents = disnake.Intents.default() | disnake.Intents(message_content=True, members=True)
    with running(emu, disnake.Client, intents=intents) as bot:
        client: disnake.Client = bot.client
        general: disnake.TextChannel = client.get_channel(GENERAL)
        guild = general.guild

        # a public thread: the library's event, then a message in it
        created = bot.expect("thread_create", lambda: bot.call(general.create_thread(
            name="release", type=disnake.ChannelType.public_thread, auto_archive_duration=60)))
        thread = guild.get_thread(created.id)
        assert thread is not None and thread.name == "release" and thread.parent_id == GENERAL
        assert thread.owner_id == BOT_ID and thread.auto_archive_duration == 60 and not thread.archived
        sent = bot.call(thread.send("shipping today"))
        assert sent.channel.id == thread.id and sent.content == "shipping today"

        # members: join, add a user (the library's member event), list them
        bot.call(thread.join())
        joined = bot.expect("thread_member_join", lambda: bot.call(thread.add_user(disnake.Object(BOB))),
                            check=lambda member: member.id == BOB)
        assert joined.thread_id == thread.id
        members = bot.call(thread.fetch_members())
        assert sorted(m.id for m in members) == sorted([BOT_ID, BOB])
        bot.call(thread.remove_user(disnake.Object(BOB)))
        assert [m.id for m in bot.call(thread.fetch_members())] == [BOT_ID]

        # a thread from a user's message
        posted = bot.expect("message", lambda: emu.admin.post_message(GENERAL, BOB, "discuss this"),
                            check=lambda m: m.author.id == BOB)
        started = bot.call(posted.create_thread(name="discussion"))
        assert started.id == posted.id and started.parent_id == GENERAL

        # archives: public and private archived threads, the active ones
        private = bot.call(general.create_thread(name="staff", type=disnake.ChannelType.private_thread,
                                                 invitable=False))
        assert private.type is disnake.ChannelType.private_thread and not private.invitable
        bot.call(thread.edit(archived=True))
        bot.call(private.edit(archived=True, locked=True))
        public_archive = bot.call(general.archived_threads(limit=None).flatten())
        assert [t.id for t in public_archive] == [thread.id] and public_archive[0].archived
        private_archive = bot.call(general.archived_threads(private=True, limit=None).flatten())
        assert [t.id for t in private_archive] == [private.id] and private_archive[0].locked
        mine = bot.call(general.archived_threads(private=True, joined=True, limit=None).flatten())
        assert [t.id for t in mine] == [private.id]
        active = bot.call(guild.active_threads())
        assert [t.id for t in active] == [started.id]

        # a forum channel with tags; a post with its first message and a tag
        forum = bot.call(guild.create_forum_channel(
            "help",
            available_tags=[disnake.ForumTag(name="bug", emoji="🐛"), disnake.ForumTag(name="idea")],
            default_reaction="👍", default_sort_order=disnake.ThreadSortOrder.creation_date,
            default_layout=disnake.ThreadLayout.gallery_view))
        assert [t.name for t in forum.available_tags] == ["bug", "idea"]
        assert str(forum.default_reaction) == "👍"
        assert forum.default_layout is disnake.ThreadLayout.gallery_view
        bug = forum.get_tag_by_name("bug")
        assert bug is not None and str(bug.emoji) == "🐛"
        post, first = bot.call(forum.create_thread(name="it crashes", content="on start", applied_tags=[bug]))
        assert post.parent_id == forum.id and [t.name for t in post.applied_tags] == ["bug"]
        assert first.content == "on start" and first.channel.id == post.id and first.id == post.id
        fetched = bot.call(client.fetch_channel(post.id))
        assert isinstance(fetched, disnake.Thread) and fetched.message_count == 1
