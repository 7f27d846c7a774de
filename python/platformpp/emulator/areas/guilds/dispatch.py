"""Guild dispatches and who gets them (Gateway "Guilds" and "Guild Members" intents): the bots that
are members of the guild, on the shard that carries it. Channel dispatches are rendered per bot:
a bot that opted in to channel obfuscation (Identify capability 1 << 15, or its application's
private toggle) gets channels it cannot view obfuscated. ``visibility`` before and after a change to
roles or overwrites tells which bots gained or lost sight of a channel: they get CHANNEL_UPDATE with
the full, or again obfuscated, channel (seed, "Channel visibility for a bot").

Domain events (published on commit, with the dispatches): ``guild.bot_joined`` / ``guild.bot_left``
``{guild_id, user_id}`` when a bot enters or leaves a guild after Identify; the Gateway hub adds or
removes the guild in that bot's sessions' ``Viewer.guild_ids``, which other areas' audiences read."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from ...events.audience import Payload, Viewer
from ...events.outbox import Outbox
from ...wire.channel import channel_json, obfuscated_channel_json
from .access import standing, visible_channel_ids

# Gateway intents (gateway/protocol.py names them; repeated here so areas do not import the gateway).
GUILDS_INTENT = 1 << 0
GUILD_MEMBERS_INTENT = 1 << 1
CAPABILITY_CHANNEL_OBFUSCATION = 1 << 15


def shard_of(guild_id: int, num_shards: int) -> int:
    return (guild_id >> 22) % num_shards


@dataclass(frozen=True)
class GuildBots:
    """The guild's bot members as of the change, what each can view, and which applications turned
    the private obfuscation toggle on."""

    guild_id: int
    visible: Mapping[int, frozenset[int]]  # bot user id -> channel ids it can view
    toggled_apps: frozenset[int]

    def admits(self, viewer: Viewer, intent: int = 0) -> bool:
        """A bot member's session on the guild's shard, holding ``intent`` (0: none needed)."""
        if viewer.kind != "bot" or viewer.user_id not in self.visible:
            return False
        if intent and not viewer.intents & intent:
            return False
        return viewer.shard is None or shard_of(self.guild_id, viewer.shard[1]) == viewer.shard[0]

    def obfuscates(self, viewer: Viewer) -> bool:
        return (bool(viewer.capabilities & CAPABILITY_CHANNEL_OBFUSCATION)
                or viewer.application_id in self.toggled_apps)


def guild_bots(conn: sqlite3.Connection, guild_id: int, now: datetime) -> GuildBots:
    rows = conn.execute("SELECT m.user_id, a.id AS application_id, a.channel_obfuscation FROM members m"
                        " JOIN users u ON u.id = m.user_id AND u.bot = 1"
                        " LEFT JOIN applications a ON a.bot_user_id = m.user_id WHERE m.guild_id = ?",
                        (guild_id,)).fetchall()
    visible = {row["user_id"]: frozenset(visible_channel_ids(
        conn, standing(conn, guild_id, row["user_id"], now), categories_by_children=False)) for row in rows}
    toggled = frozenset(row["application_id"] for row in rows if row["channel_obfuscation"])
    return GuildBots(guild_id, visible, toggled)


def app_obfuscates(conn: sqlite3.Connection, application_id: int) -> bool:
    """The private toggle, which also governs REST answers (Identify's capability cannot reach them)."""
    row = conn.execute("SELECT channel_obfuscation FROM applications WHERE id = ?",
                       (application_id,)).fetchone()
    return bool(row and row["channel_obfuscation"])


# --- audiences ------------------------------------------------------------------------------------

def to_guild(outbox: Outbox, bots: GuildBots, event: str, payload: Payload, intent: int = GUILDS_INTENT,
             also_user: int | None = None) -> None:
    """The same payload for each admitted bot; ``also_user``: that bot even without ``intent`` (a
    bot's own GUILD_MEMBER_UPDATE)."""
    def render(viewer: Viewer) -> Payload | None:
        if bots.admits(viewer, intent) or (viewer.user_id == also_user and bots.admits(viewer)):
            return payload
        return None
    outbox.add(event, render)


def channel_event(outbox: Outbox, bots: GuildBots, event: str, row: sqlite3.Row) -> None:
    """CHANNEL_CREATE / UPDATE / DELETE: full for bots that see the channel or did not opt in,
    obfuscated (still sent) for the others."""
    full = channel_json(row)
    hidden = obfuscated_channel_json(row)

    def render(viewer: Viewer) -> Payload | None:
        if not bots.admits(viewer, GUILDS_INTENT):
            return None
        if bots.obfuscates(viewer) and row["id"] not in bots.visible[viewer.user_id]:
            return hidden
        return full
    outbox.add(event, render)


def visibility_changes(conn: sqlite3.Connection, outbox: Outbox, before: GuildBots, after: GuildBots) -> None:
    """CHANNEL_UPDATE to each opted-in bot for each channel it gained (full data) or lost (obfuscated)
    sight of, after a change to roles or to a member's roles."""
    changed: dict[int, set[int]] = {}
    for user_id, now_visible in after.visible.items():
        was = before.visible.get(user_id)
        if was is not None:
            for channel_id in was ^ now_visible:
                changed.setdefault(channel_id, set()).add(user_id)
    for channel_id, user_ids in sorted(changed.items()):
        row = conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()
        if row is None:
            continue
        _to_bots(outbox, after, frozenset(user_ids), row)


def _to_bots(outbox: Outbox, bots: GuildBots, user_ids: frozenset[int], row: sqlite3.Row) -> None:
    full = channel_json(row)
    hidden = obfuscated_channel_json(row)

    def render(viewer: Viewer) -> Payload | None:
        if viewer.user_id not in user_ids or not bots.admits(viewer, GUILDS_INTENT):
            return None
        if not bots.obfuscates(viewer):
            return None
        return full if row["id"] in bots.visible[viewer.user_id] else hidden
    outbox.add("CHANNEL_UPDATE", render)
