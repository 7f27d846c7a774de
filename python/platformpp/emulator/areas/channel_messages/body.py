"""Reading the body of a message create or edit (the schema's MessageCreateRequest and
MessageEditRequestPartial): every bad field is collected into one 50035 naming its path. ``null``
means absent, as the schema allows for every field."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ...core.components import COMPONENTS_V2, check_message_components
from ...core.validation import Form

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_ATTACHMENTS = 10
MAX_STICKERS = 3
# Flags a client may set on a message: SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2.
SETTABLE_FLAGS = (1 << 2) | (1 << 12) | COMPONENTS_V2
_EMBED_LIMITS = {"title": 256, "description": 4096, "url": 2048, "type": 32, "timestamp": 64}


class AttachmentSpec(NamedTuple):
    """One item of ``attachments``: an uploaded ``files[n]`` (id n) or, when editing, an existing one."""

    id: int
    filename: str | None
    description: str | None
    title: str | None
    is_spoiler: bool | None


class AllowedMentions(NamedTuple):
    parse: frozenset[str] = frozenset({"users", "roles", "everyone"})
    users: frozenset[int] = frozenset()
    roles: frozenset[int] = frozenset()


@dataclass
class MessageInput:
    given: set[str] = field(default_factory=set)   # the fields present and not null
    content: str | None = None
    tts: bool = False
    nonce: str | None = None
    enforce_nonce: bool = False
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    sticker_ids: list[int] = field(default_factory=list)
    poll: dict[str, Any] | None = None
    reference: dict[str, Any] | None = None
    attachments: list[AttachmentSpec] | None = None
    allowed_mentions: AllowedMentions = field(default_factory=AllowedMentions)
    flags: int = 0


def _present(form: Form) -> set[str]:
    return {key for key, value in form.data.items() if value is not None}


def _embeds(form: Form) -> list[dict[str, Any]]:
    result = []
    for index, raw in enumerate(form.array("embeds", required=False, max_items=MAX_EMBEDS) or []):
        item = form.item("embeds", index, raw)
        for key, limit in _EMBED_LIMITS.items():
            item.string(key, required=False, max_len=limit)
        item.integer("color", required=False, minimum=0, maximum=0xFFFFFF)
        embed = {key: value for key, value in item.data.items() if value is not None}
        embed.setdefault("type", "rich")
        result.append(embed)
    return result


def _attachments(form: Form) -> list[AttachmentSpec] | None:
    raw_list = form.array("attachments", required=False, max_items=MAX_ATTACHMENTS)
    if raw_list is None:
        return None
    specs = []
    for index, raw in enumerate(raw_list):
        item = form.item("attachments", index, raw)
        attachment_id = item.snowflake("id")
        # Clients that send a kept attachment back as a whole object mark it ``spoiler``.
        spoiler_key = "is_spoiler" if item.data.get("is_spoiler") is not None else "spoiler"
        spoiler = item.data.get(spoiler_key)
        if spoiler is not None and not isinstance(spoiler, bool):
            item.fail(spoiler_key, "BOOLEAN_TYPE_COERCE", "Must be either true or false.")
        specs.append(AttachmentSpec(attachment_id or 0, item.string("filename", required=False, min_len=1, max_len=1024),
                                    item.string("description", required=False, max_len=1024),
                                    item.string("title", required=False, max_len=1024),
                                    spoiler if isinstance(spoiler, bool) else None))
    return specs


def _allowed_mentions(form: Form) -> AllowedMentions:
    sub = form.obj("allowed_mentions", required=False, nullable=True)
    if sub is None:
        return AllowedMentions()
    parse = sub.array("parse", required=False) or []
    for index, value in enumerate(parse):
        if value not in ("users", "roles", "everyone"):
            sub.errors.add((*sub.path, "parse", index), "BASE_TYPE_CHOICES",
                           "Value must be one of ['users', 'roles', 'everyone'].")
    users = {sub.coerce_snowflake("users", u) for u in sub.array("users", required=False, max_items=100) or []}
    roles = {sub.coerce_snowflake("roles", r) for r in sub.array("roles", required=False, max_items=100) or []}
    return AllowedMentions(frozenset(p for p in parse if isinstance(p, str)),
                           frozenset(u for u in users if u is not None), frozenset(r for r in roles if r is not None))


def _reference(form: Form) -> dict[str, Any] | None:
    sub = form.obj("message_reference", required=False, nullable=True)
    if sub is None:
        return None
    return {"message_id": sub.snowflake("message_id"), "channel_id": sub.snowflake("channel_id", required=False,
                                                                                    nullable=True),
            "guild_id": sub.snowflake("guild_id", required=False, nullable=True),
            "type": sub.choice("type", (0, 1), required=False, default=0) if sub.data.get("type") is not None else 0,
            "fail_if_not_exists": sub.boolean("fail_if_not_exists", default=True)
            if sub.data.get("fail_if_not_exists") is not None else True}


def _poll(form: Form) -> dict[str, Any] | None:
    sub = form.obj("poll", required=False, nullable=True)
    if sub is None:
        return None
    question = sub.obj("question")
    text = question.string("text", min_len=1, max_len=300) if question else None
    answers = []
    for index, raw in enumerate(sub.array("answers", min_items=1, max_items=10) or []):
        answer = sub.item("answers", index, raw)
        media = answer.obj("poll_media")
        answers.append({"answer_id": index + 1,
                        "poll_media": {"text": media.string("text", min_len=1, max_len=55) if media else None}})
    duration = sub.integer("duration", required=False, minimum=1, maximum=768, default=24)
    return {"question": {"text": text}, "answers": answers, "duration": duration,
            "allow_multiselect": sub.boolean("allow_multiselect"), "layout_type": 1}


def read_message_input(data: Any, *, editing: bool) -> MessageInput:
    form = Form(data)
    given = _present(form)
    result = MessageInput(given=given)
    result.content = form.string("content", required=False, max_len=MAX_CONTENT, nullable=True)
    result.embeds = _embeds(form)
    raw_flags = form.data.get("flags")
    result.components = check_message_components(form, flags=raw_flags if isinstance(raw_flags, int) else 0)
    result.sticker_ids = [s for s in (form.coerce_snowflake("sticker_ids", v) for v in
                                      form.array("sticker_ids", required=False, max_items=MAX_STICKERS) or [])
                          if s is not None]
    result.attachments = _attachments(form)
    result.allowed_mentions = _allowed_mentions(form)
    flags = form.integer("flags", required=False, minimum=0, default=0) if "flags" in given else 0
    if flags and flags & ~SETTABLE_FLAGS:
        form.fail("flags", "MESSAGE_FLAGS_INVALID",
                  "Only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS and IS_COMPONENTS_V2 can be set.")
    result.flags = flags or 0
    if not editing:
        result.tts = form.boolean("tts", default=False) if "tts" in given else False
        nonce = form.data.get("nonce")
        if nonce is not None:
            if isinstance(nonce, bool) or not isinstance(nonce, (int, str)) or len(str(nonce)) > 25:
                form.fail("nonce", "BASE_TYPE_BAD_NONCE", "Must be an integer or a string of at most 25 characters.")
            else:
                result.nonce = str(nonce)
        result.enforce_nonce = form.boolean("enforce_nonce") if "enforce_nonce" in given else False
        result.poll = _poll(form)
        result.reference = _reference(form)
    form.done()
    return result
