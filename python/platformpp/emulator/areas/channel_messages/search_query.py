"""The query of Search Guild Messages (``GET /guilds/{guild_id}/messages/search``): its parameters,
exactly as the published schema names them, turned into one SQL query over ``channel_messages`` and
the FTS5 index. Channels the caller cannot view or lacks READ_MESSAGE_HISTORY in are left out
silently, as on the platform."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from starlette.datastructures import QueryParams

from ...core.http import parse_query_bool
from ...core.permissions import Permission
from ...core.snowflake import parse_snowflake
from ...core.validation import FieldErrors
from .access import channels_of_guild, permissions_in
from .search import match_query, move_queue

MAX_LIMIT, MAX_OFFSET = 25, 9975
_HAS = {"link", "embed", "file", "image", "video", "sound", "sticker", "poll", "snapshot"}
# The issue names forwards "forward"; the schema's value is "snapshot". Both are accepted.
_HAS_ALIASES = {"forward": "snapshot"}
_AUTHOR_TYPES = {"user", "bot", "webhook"}
# The schema's SearchableEmbedType; "gif" is a gifv embed.
_EMBED_TYPES = {"image", "video", "gif", "sound", "article"}
_ATTACHMENT = "EXISTS (SELECT 1 FROM message_attachments a WHERE a.message_id = m.id{})"
_HAS_SQL = {
    "link": "(m.content LIKE '%http://%' OR m.content LIKE '%https://%')",
    "embed": "m.embeds != '[]'",
    "file": _ATTACHMENT.format(""),
    "image": _ATTACHMENT.format(" AND a.content_type LIKE 'image/%'"),
    "video": _ATTACHMENT.format(" AND a.content_type LIKE 'video/%'"),
    "sound": _ATTACHMENT.format(" AND a.content_type LIKE 'audio/%'"),
    "sticker": "m.sticker_items != '[]'",
    "poll": "m.poll IS NOT NULL",
    "snapshot": "m.message_snapshots IS NOT NULL",
}


@dataclass
class SearchQuery:
    content: str | None = None
    author_ids: list[int] = field(default_factory=list)
    author_types: list[str] = field(default_factory=list)
    mentions: list[int] = field(default_factory=list)
    mentions_role_ids: list[int] = field(default_factory=list)
    mention_everyone: bool | None = None
    channel_ids: list[int] = field(default_factory=list)
    has: list[str] = field(default_factory=list)
    pinned: bool | None = None
    include_nsfw: bool = False
    min_id: int | None = None
    max_id: int | None = None
    replied_to_user_ids: list[int] = field(default_factory=list)
    replied_to_message_ids: list[int] = field(default_factory=list)
    link_hostnames: list[str] = field(default_factory=list)
    embed_providers: list[str] = field(default_factory=list)
    embed_types: list[str] = field(default_factory=list)
    attachment_extensions: list[str] = field(default_factory=list)
    attachment_filenames: list[str] = field(default_factory=list)
    sort_by: str = "timestamp"
    sort_order: str = "desc"
    limit: int = MAX_LIMIT
    offset: int = 0


def parse(params: QueryParams) -> SearchQuery:
    """The query, or one 50035 naming every bad parameter."""
    errors = FieldErrors()
    query = SearchQuery()

    def snowflakes(name: str, limit: int) -> list[int]:
        values = params.getlist(name)
        if len(values) > limit:
            errors.add((name,), "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
        result = []
        for value in values:
            snowflake = parse_snowflake(value)
            if snowflake is not None:
                result.append(snowflake)
            else:
                errors.add((name,), "NUMBER_TYPE_COERCE", f"Value {value[:40]!r} is not snowflake.")
        return result

    def one(name: str) -> str | None:
        values = params.getlist(name)
        return values[-1] if values else None

    def boolean(name: str) -> bool | None:
        value = one(name)
        if value is None:
            return None
        parsed = parse_query_bool(value)
        if parsed is None:
            errors.add((name,), "BOOLEAN_TYPE_COERCE", "Must be one of true, false, 1 or 0.")
        return parsed

    def integer(name: str, low: int, high: int, default: int) -> int:
        value = one(name)
        if value is None:
            return default
        if not (value.isascii() and value.isdigit()) or not low <= int(value) <= high:
            errors.add((name,), "NUMBER_TYPE_MAX", f"Must be an integer from {low} to {high}.")
            return default
        return int(value)

    def choices(name: str, allowed: set[str], limit: int, aliases: dict[str, str] | None = None,
                negatable: bool = True) -> list[str]:
        values = params.getlist(name)
        if len(values) > limit:
            errors.add((name,), "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
        result = []
        for value in values:
            negated = negatable and value.startswith("-")
            bare = value[1:] if negated else value
            bare = (aliases or {}).get(bare, bare)
            if bare not in allowed:
                negation = " (or one of them with a leading '-')" if negatable else ""
                errors.add((name,), "BASE_TYPE_CHOICES", f"Value {value[:40]!r} must be one of {sorted(allowed)}{negation}.")
            else:
                result.append(("-" if negated else "") + bare)
        return result

    def strings(name: str, limit: int, max_len: int) -> list[str]:
        values = params.getlist(name)
        if len(values) > limit:
            errors.add((name,), "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
        for value in values:
            if len(value) > max_len:
                errors.add((name,), "BASE_TYPE_MAX_LENGTH", f"Each must be {max_len} or fewer in length.")
        return [value.lower() for value in values if len(value) <= max_len]

    content = one("content")
    if content is not None and len(content) > 1024:
        errors.add(("content",), "BASE_TYPE_MAX_LENGTH", "Must be 1024 or fewer in length.")
    query.content = content
    query.author_ids = snowflakes("author_id", 100)
    query.author_types = choices("author_type", _AUTHOR_TYPES, 6)
    query.mentions = snowflakes("mentions", 100)
    query.mentions_role_ids = snowflakes("mentions_role_id", 100)
    query.mention_everyone = boolean("mention_everyone")
    query.channel_ids = snowflakes("channel_id", 500)
    query.has = choices("has", _HAS, 18, _HAS_ALIASES)
    query.pinned = boolean("pinned")
    query.replied_to_user_ids = snowflakes("replied_to_user_id", 100)
    query.replied_to_message_ids = snowflakes("replied_to_message_id", 100)
    query.link_hostnames = strings("link_hostname", 100, 256)
    query.embed_providers = strings("embed_provider", 100, 256)
    query.embed_types = choices("embed_type", _EMBED_TYPES, 5, negatable=False)
    integer("slop", 0, 100, 2)   # validated; matching ignores word distance
    query.attachment_extensions = [e.lstrip(".") for e in strings("attachment_extension", 100, 256)]
    query.attachment_filenames = strings("attachment_filename", 100, 1024)
    query.include_nsfw = bool(boolean("include_nsfw"))
    for name in ("min_id", "max_id"):
        ids = snowflakes(name, 1)
        setattr(query, name, ids[0] if ids else None)
    sort_by, sort_order = one("sort_by") or "timestamp", one("sort_order") or "desc"
    if sort_by not in ("timestamp", "relevance"):
        errors.add(("sort_by",), "BASE_TYPE_CHOICES", "Value must be one of ['relevance', 'timestamp'].")
    if sort_order not in ("asc", "desc"):
        errors.add(("sort_order",), "BASE_TYPE_CHOICES", "Value must be one of ['asc', 'desc'].")
    query.sort_by, query.sort_order = sort_by, sort_order
    query.limit = integer("limit", 1, MAX_LIMIT, MAX_LIMIT)
    query.offset = integer("offset", 0, MAX_OFFSET, 0)
    errors.raise_if_any()
    return query


def _any_of(where: list[str], params: list[Any], ids: list[int], template: str) -> None:
    """A condition on a list of ids (``{}`` in ``template`` takes their placeholders)."""
    if ids:
        where.append("(" + template.format(",".join("?" * len(ids))) + ")")
        params.extend(ids)


def _any_like(where: list[str], params: list[Any], values: list[str], condition: str) -> None:
    """Any one of ``values`` satisfies ``condition`` (one ``?`` each)."""
    if values:
        where.append("(" + " OR ".join(f"({condition})" for _ in values) + ")")
        params.extend(values)


def searchable_channels(conn: sqlite3.Connection, guild_id: int, user_id: int, query: SearchQuery,
                        now: datetime) -> list[int]:
    needed = int(Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY)
    wanted = set(query.channel_ids)
    return [row["id"] for row in channels_of_guild(conn, guild_id)
            if (not wanted or row["id"] in wanted) and (query.include_nsfw or not row["nsfw"])
            and permissions_in(conn, row, user_id, now) & needed == needed]


def run(conn: sqlite3.Connection, guild_id: int, channel_ids: list[int], query: SearchQuery
        ) -> tuple[list[sqlite3.Row], int]:
    """The page of matching message rows and the total number of matches."""
    if not channel_ids:
        return [], 0
    move_queue(conn)
    where = [f"m.guild_id = ? AND m.channel_id IN ({','.join('?' * len(channel_ids))})"]
    params: list[Any] = [guild_id, *channel_ids]
    source = "channel_messages m"
    relevance = "0"
    if query.content is not None:
        match = match_query(query.content)
        if match is None:
            return [], 0
        source = "message_search s JOIN channel_messages m ON m.id = s.rowid"
        where.append("message_search MATCH ?")
        params.append(match)
        relevance = "bm25(message_search)"
    if query.author_ids:
        where.append(f"m.author_id IN ({','.join('?' * len(query.author_ids))})")
        params.extend(query.author_ids)
    for author_type in query.author_types:
        negated, bare = author_type.startswith("-"), author_type.lstrip("-")
        test = {"user": "NOT u.bot", "bot": "u.bot", "webhook": "0"}[bare]
        where.append(f"{'NOT ' if negated else ''}EXISTS (SELECT 1 FROM users u WHERE u.id = m.author_id AND {test})")
    for column, ids in (("mentions", query.mentions), ("mention_roles", query.mentions_role_ids)):
        if ids:
            where.append(f"EXISTS (SELECT 1 FROM json_each(m.{column}) j WHERE j.value IN"
                         f" ({','.join('?' * len(ids))}))")
            params.extend(str(i) for i in ids)
    if query.mention_everyone is not None:
        where.append("m.mention_everyone = ?")
        params.append(int(query.mention_everyone))
    for has in query.has:
        negated, bare = has.startswith("-"), has.lstrip("-")
        where.append(f"{'NOT ' if negated else ''}{_HAS_SQL[bare]}")
    _any_of(where, params, query.replied_to_message_ids,
            "json_extract(m.message_reference, '$.type') = 0"
            " AND CAST(json_extract(m.message_reference, '$.message_id') AS INTEGER) IN ({})")
    _any_of(where, params, query.replied_to_user_ids,
            "json_extract(m.message_reference, '$.type') = 0 AND EXISTS (SELECT 1 FROM channel_messages r"
            " WHERE r.id = CAST(json_extract(m.message_reference, '$.message_id') AS INTEGER) AND r.author_id IN ({}))")
    _any_like(where, params, query.link_hostnames, "lower(m.content) LIKE '%://' || ? || '%'")
    _any_like(where, params, query.embed_providers,
              "EXISTS (SELECT 1 FROM json_each(m.embeds) e WHERE lower(json_extract(e.value, '$.provider.name')) = ?)")
    _any_like(where, params, [{"gif": "gifv"}.get(t, t) for t in query.embed_types],
              "EXISTS (SELECT 1 FROM json_each(m.embeds) e WHERE json_extract(e.value, '$.type') = ?)")
    _any_like(where, params, query.attachment_extensions,
              "EXISTS (SELECT 1 FROM message_attachments a WHERE a.message_id = m.id AND lower(a.filename) LIKE '%.' || ?)")
    _any_like(where, params, query.attachment_filenames,
              "EXISTS (SELECT 1 FROM message_attachments a WHERE a.message_id = m.id"
              " AND instr(lower(a.filename), ?) > 0)")
    if query.pinned is not None:
        where.append("m.pinned_at IS NOT NULL" if query.pinned else "m.pinned_at IS NULL")
    if query.min_id is not None:
        where.append("m.id > ?")
        params.append(query.min_id)
    if query.max_id is not None:
        where.append("m.id < ?")
        params.append(query.max_id)
    condition = " AND ".join(where)
    total = int(conn.execute(f"SELECT COUNT(*) FROM {source} WHERE {condition}", params).fetchone()[0])
    direction = "DESC" if query.sort_order == "desc" else "ASC"
    if query.sort_by == "relevance" and query.content is not None:
        # bm25 is smaller for better matches: "desc" (most relevant first) sorts it ascending.
        order = f"{relevance} {'ASC' if direction == 'DESC' else 'DESC'}, m.id DESC"
    else:
        order = f"m.id {direction}"
    rows = conn.execute(f"SELECT m.* FROM {source} WHERE {condition} ORDER BY {order} LIMIT ? OFFSET ?",
                        (*params, query.limit, query.offset)).fetchall()
    return rows, total
