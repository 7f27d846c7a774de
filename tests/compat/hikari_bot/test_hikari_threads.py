"""hikari's thread calls against the emulator: create threads (public, private, from a message), send in
them, join, add, fetch and remove members, active and archived threads, edit and delete a thread, a forum
channel with tags and a post; hikari's thread objects and Gateway events are asserted."""

from __future__ import annotations

from typing import TypeVar

import hikari
from emulator_world import BOB, BOT_ID, GUILD_ID
from hikari_bot import GENERAL, HikariBot, enable_privileged_intents, make_bot_administrator
from platformpp.emulator import Emulator

T = TypeVar("T")


async def _listed(pages: hikari.LazyIterator[T]) -> list[T]:
    return [item async for item in pages]


def test_threads_members_archives_and_forum_posts(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    enable_privileged_intents(emu)
    make_bot_administrator(emu)
    intents = hikari.Intents.ALL_UNPRIVILEGED | hikari.Intents.MESSAGE_CONTENT | hikari.Intents.GUILD_MEMBERS
    with HikariBot(emu, intents=intents) as running:
        rest = running.rest

        thread = running.call(rest.create_thread(GENERAL, hikari.ChannelType.GUILD_PUBLIC_THREAD, "release",
                                                 auto_archive_duration=60))
        assert isinstance(thread, hikari.GuildPublicThread) and thread.parent_id == GENERAL
        assert thread.owner_id == BOT_ID and not thread.is_archived
        created = running.wait_event(hikari.GuildThreadCreateEvent, lambda e: e.thread.id == thread.id)
        assert created.guild_id == GUILD_ID
        sent = running.call(rest.create_message(thread, "shipping today"))
        assert sent.channel_id == thread.id

        running.call(rest.add_thread_member(thread, BOB))
        running.wait_event(hikari.ThreadMembersUpdateEvent,
                           lambda e: e.thread_id == thread.id and BOB in e.added_members)
        members = running.call(_listed(rest.fetch_thread_members(thread)))
        assert sorted(m.user_id for m in members) == sorted([BOT_ID, BOB])
        running.call(rest.remove_thread_member(thread, BOB))
        running.call(rest.leave_thread(thread))
        running.call(rest.join_thread(thread))
        assert [m.user_id for m in running.call(_listed(rest.fetch_thread_members(thread)))] == [BOT_ID]

        private = running.call(rest.create_thread(GENERAL, hikari.ChannelType.GUILD_PRIVATE_THREAD, "staff",
                                                  invitable=False))
        assert isinstance(private, hikari.GuildPrivateThread) and not private.is_invitable
        message = running.call(rest.create_message(GENERAL, "discuss this"))
        started = running.call(rest.create_message_thread(GENERAL, message, "discussion"))
        assert started.id == message.id

        archived = running.call(rest.edit_channel(thread, archived=True))
        assert isinstance(archived, hikari.GuildPublicThread) and archived.is_archived
        running.wait_event(hikari.GuildThreadUpdateEvent,
                           lambda e: e.thread.id == thread.id and e.thread.is_archived)
        public_archive = [t.id for t in running.call(_listed(rest.fetch_public_archived_threads(GENERAL)))]
        assert public_archive == [thread.id]
        running.call(rest.edit_channel(private, archived=True))
        private_archive = running.call(_listed(rest.fetch_private_archived_threads(GENERAL)))
        assert [t.id for t in private_archive] == [private.id]
        joined_archive = running.call(_listed(rest.fetch_joined_private_archived_threads(GENERAL)))
        assert [t.id for t in joined_archive] == [private.id]
        active = running.call(rest.fetch_active_threads(GUILD_ID))
        assert [t.id for t in active] == [started.id]

        forum = running.call(rest.create_guild_forum_channel(
            GUILD_ID, "help", available_tags=[hikari.ForumTag(name="bug"), hikari.ForumTag(name="idea")],
            default_forum_layout=hikari.ForumLayoutType.GALLERY_VIEW, default_reaction_emoji="👍",
            default_sort_order=hikari.ForumSortOrderType.CREATION_DATE))
        assert [t.name for t in forum.available_tags] == ["bug", "idea"]
        assert forum.default_layout is hikari.ForumLayoutType.GALLERY_VIEW
        assert forum.default_sort_order is hikari.ForumSortOrderType.CREATION_DATE
        assert forum.default_reaction_emoji_name == "👍"
        bug = forum.available_tags[0]
        post = running.call(rest.create_forum_post(forum, "it crashes", "on start", tags=[bug.id]))
        assert isinstance(post, hikari.GuildPublicThread) and post.parent_id == forum.id
        assert list(post.applied_tag_ids) == [bug.id]
        running.call(rest.delete_channel(post))
        running.wait_event(hikari.GuildThreadDeleteEvent, lambda e: e.thread_id == post.id)
