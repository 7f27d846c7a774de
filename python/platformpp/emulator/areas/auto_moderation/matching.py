"""What a rule's trigger finds in a text, as the platform matches it. Pure functions of the text and
the rule's metadata (no database).

Keywords are matched case-insensitively: ``word`` as a whole word, ``*word`` at the end of a word,
``word*`` at the start of one, ``*word*`` anywhere. ``regex_patterns`` are the platform's Rust-flavoured
regular expressions, run by RE2, an engine of the same family as Rust's: time linear in the text
whatever the pattern (no pattern a client sends can stall the emulator), and the same refusals
(look-around, back references). An ``allow_list`` entry (same wildcard rules) that matches the words
found cancels the match."""

from __future__ import annotations

import codecs
import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any, NamedTuple

MATCHED_CONTENT_MAX = 50   # the platform cuts the matched content it reports


class Match(NamedTuple):
    keyword: str | None   # the keyword or pattern that matched (None for a mention count)
    content: str          # the text it matched


@lru_cache(maxsize=1)
def _re2() -> tuple[Any, Any]:
    """The re2 module and its options for rule patterns; imported with the first pattern, not with
    the emulator."""
    import re2

    options = re2.Options()
    options.case_sensitive = False
    options.log_errors = False   # a client's bad pattern is its 50035, not a line on the emulator's stderr
    return re2, options


@lru_cache(maxsize=256)
def regex_problem(pattern: str) -> str | None:
    """Why ``pattern`` is refused, or None."""
    re2, options = _re2()
    try:
        re2.compile(pattern, options)
    except re2.error as exc:
        reason = exc.args[0].decode(errors="replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        return f"Invalid regular expression: {reason}."
    return None


@lru_cache(maxsize=4096)
def _keyword_regex(keyword: str) -> re.Pattern[str]:
    text = keyword.strip()
    anywhere_before, anywhere_after = text.startswith("*"), text.endswith("*")
    core = re.escape(text.strip("*"))
    before = "" if anywhere_before else r"(?<!\w)"
    after = "" if anywhere_after else r"(?!\w)"
    return re.compile(before + core + after, re.IGNORECASE)


@lru_cache(maxsize=256)
def _pattern_regex(pattern: str) -> Any:   # re2's compiled pattern (the module has no type information)
    re2, options = _re2()
    return re2.compile(pattern, options)


def _word_around(text: str, start: int, end: int) -> str:
    """The whole word(s) a match lies in: what the platform reports as the matched content."""
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return text[start:end][:MATCHED_CONTENT_MAX]


def _allowed(found: str, allow_list: list[str]) -> bool:
    return any(_keyword_regex(entry).search(found) for entry in allow_list if entry.strip("* "))


def match_keywords(text: str, keywords: list[str], allow_list: list[str]) -> Match | None:
    for keyword in keywords:
        if not keyword.strip("* "):
            continue
        for hit in _keyword_regex(keyword).finditer(text):
            found = _word_around(text, hit.start(), hit.end())
            if not _allowed(found, allow_list):
                return Match(keyword, found)
    return None


def match_patterns(text: str, patterns: list[str], allow_list: list[str]) -> Match | None:
    for pattern in patterns:
        if regex_problem(pattern) is not None:   # stored patterns were checked; never compile a bad one
            continue
        for hit in _pattern_regex(pattern).finditer(text):
            if hit.end() == hit.start():
                continue
            found = hit.group(0)[:MATCHED_CONTENT_MAX]
            if not _allowed(found, allow_list):
                return Match(pattern, found)
    return None


@lru_cache(maxsize=1)
def _preset_words() -> dict[int, list[str]]:
    data = json.loads((resources.files(__package__) / "presets.json").read_text(encoding="utf-8"))
    return {int(key): [codecs.decode(word, "rot13") for word in words] for key, words in data["presets"].items()}


def match_presets(text: str, presets: list[int], allow_list: list[str]) -> Match | None:
    words = _preset_words()
    for preset in presets:
        found = match_keywords(text, words.get(preset, []), allow_list)
        if found is not None:
            return found
    return None


def match_text(trigger_type: int, metadata: dict[str, Any], text: str) -> Match | None:
    """A keyword-like trigger (KEYWORD, KEYWORD_PRESET, MEMBER_PROFILE) on ``text``."""
    allow_list = list(metadata.get("allow_list") or [])
    if trigger_type == 4:
        return match_presets(text, [int(p) for p in metadata.get("presets") or []], allow_list)
    return (match_keywords(text, list(metadata.get("keyword_filter") or []), allow_list)
            or match_patterns(text, list(metadata.get("regex_patterns") or []), allow_list))

