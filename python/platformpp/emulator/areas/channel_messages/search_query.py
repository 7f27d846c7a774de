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

from ...core.errors import ApiError, INVALID_FORM_BODY
from ...core.permissions import Permission
from .access import channels_of_guild, permissions_in
from .search import match_query

MAX_LIMIT, MAX_OFFSET = 25, 9975
_HAS = {"link", "embed", "file", "image", "video", "sound", "sticker", "poll", "snapshot"}
# The issue names forwards "forward"; the schema's value is "snapshot". Both are accepted.
_HAS_ALIASES = {"forward": "snapshot"}
_AUTHOR_TYPES = {"user", "bot", "webhook"}
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
    sort_by: str = "timestamp"
    sort_order: str = "desc"
    limit: int = MAX_LIMIT
    offset: int = 0


class _Errors:
    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, name: str, code: str, message: str) -> None:
        self.tree.setdefault(name, {"_errors": []})["_errors"].append({"code": code, "message": message})


def parse(params: QueryParams) -> SearchQuery:
    """The query, or one 50035 naming every bad parameter."""
    errors = _Errors()
    query = SearchQuery()

    def snowflakes(name: str, limit: int) -> list[int]:
        values = params.getlist(name)
        if len(values) > limit:
            errors.add(name, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
        result = []
        for value in values:
            if value.isascii() and value.isdigit() and len(value) <= 20 and int(value) < 1 << 63:
                result.append(int(value))
            else:
                errors.add(name, "NUMBER_TYPE_COERCE", f"Value {value[:40]!r} is not snowflake.")
        return result

    def one(name: str) -> str | None:
        values = params.getlist(name)
        return values[-1] if values else None

    def boolean(name: str) -> bool | None:
        value = one(name)
        if value is None:
            return None
        if value.lower() not in ("true", "false"):
            errors.add(name, "BOOLEAN_TYPE_COERCE", "Must be either true or false.")
            return None
        return value.lower() == "true"

    def integer(name: str, low: int, high: int, default: int) -> int:
        value = one(name)
        if value is None:
            return default
        if not (value.isascii() and value.isdigit()) or not low <= int(value) <= high:
            errors.add(name, "NUMBER_TYPE_MAX", f"Must be an integer from {low} to {high}.")
            return default
        return int(value)

    def choices(name: str, allowed: set[str], limit: int, aliases: dict[str, str] | None = None) -> list[str]:
        values = params.getlist(name)
        if len(values) > limit:
            errors.add(name, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
        result = []
        for value in values:
            negated = value.startswith("-")
            bare = (aliases or {}).get(value.lstrip("-"), value.lstrip("-"))
            if bare not in allowed:
                errors.add(name, "BASE_TYPE_CHOICES", f"Value {value[:40]!r} must be one of {sorted(allowed)}"
                                                      " (or one of them with a leading '-').")
            else:
                result.append(("-" if negated else "") + bare)
        return result

    content = one("content")
    if content is not None and len(content) > 1024:
        errors.add("content", "BASE_TYPE_MAX_LENGTH", "Must be 1024 or fewer in length.")
    query.content = content
    query.author_ids = snowflakes("author_id", 100)
    query.author_types = choices("author_type", _AUTHOR_TYPES, 6)
    query.mentions = snowflakes("mentions", 100)
    query.mentions_role_ids = snowflakes("mentions_role_id", 100)
    query.mention_everyone = boolean("mention_everyone")
    query.channel_ids = snowflakes("channel_id", 500)
    query.has = choices("has", _HAS, 18, _HAS_ALIASES)
    query.pinned = boolean("pinned")
    query.include_nsfw = bool(boolean("include_nsfw"))
    for name in ("min_id", "max_id"):
        ids = snowflakes(name, 1)
        setattr(query, name, ids[0] if ids else None)
    sort_by, sort_order = one("sort_by") or "timestamp", one("sort_order") or "desc"
    if sort_by not in ("timestamp", "relevance"):
        errors.add("sort_by", "BASE_TYPE_CHOICES", "Value must be one of ['relevance', 'timestamp'].")
    if sort_order not in ("asc", "desc"):
        errors.add("sort_order", "BASE_TYPE_CHOICES", "Value must be one of ['asc', 'desc'].")
    query.sort_by, query.sort_order = sort_by, sort_order
    query.limit = integer("limit", 1, MAX_LIMIT, MAX_LIMIT)
    query.offset = integer("offset", 0, MAX_OFFSET, 0)
    if errors.tree:
        raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", errors.tree)
    return query


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
