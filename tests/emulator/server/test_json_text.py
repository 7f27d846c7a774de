"""The compact JSON the emulator writes: the standard library's text, whichever encoder wrote it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from platformpp.emulator.core.json_text import InvalidJson, compact_json, compact_json_bytes, decode_untrusted


def _stdlib(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("value", [
    {"id": "1", "content": "héllo ✓ 🎮", "tts": False, "flags": 0, "embeds": [], "edited_timestamp": None,
     "nested": {"a": [1, 2.5, -3, {"b": None}], "quote": "\"\\\n\t"}},
    [0, (1 << 64) - 1, -(1 << 63), 0.1, 123456789.125, 1e15],
    {1: "int key", True: "bool key"},
    "\u0000\u001f\u007f\u2028",
])
def test_the_text_is_the_standard_librarys(value: Any) -> None:
    assert compact_json(value) == _stdlib(value)
    assert compact_json_bytes(value) == _stdlib(value).encode("utf-8")


def test_a_float_in_exponent_form_is_the_same_number() -> None:
    value = [1e-7, 2.5e20]
    assert json.loads(compact_json(value)) == value


def test_what_orjson_refuses_is_written_by_the_standard_library() -> None:
    huge = {"permissions": 1 << 70, "deep": [[[[]]]]}
    assert compact_json_bytes(huge) == _stdlib(huge).encode("utf-8")
    deep: list[Any] = []
    for _ in range(300):   # beyond orjson's 255 levels, within the interpreter's recursion limit
        deep = [deep]
    assert compact_json(deep) == _stdlib(deep)


def test_a_lone_surrogate_has_no_utf8_form() -> None:
    with pytest.raises(UnicodeEncodeError):
        compact_json_bytes({"text": "\ud800"})
    with pytest.raises(InvalidJson, match="lone surrogate"):
        decode_untrusted(b'{"text": "\\ud800"}')
