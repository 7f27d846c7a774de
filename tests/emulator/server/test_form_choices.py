"""Form.choice tells booleans from the integers they equal, whatever was read before: True == 1 and
(True, False) == (1, 0) in Python, so a per-tuple cache once made an integer choice refuse 0 after a
boolean choice had been read in the same process."""

from __future__ import annotations

from platformpp.emulator.core.validation import Form


def read(data: dict[str, object], choices: tuple[object, ...]) -> tuple[object, list[str]]:
    form = Form(data)
    value = form.choice("response", choices)
    return value, list(form.errors.tree)


def test_integer_and_boolean_choices_stay_apart_in_either_order() -> None:
    for _ in range(2):   # boolean choices read first, then integer ones, then again
        assert read({"response": True}, (True, False)) == (True, [])
        assert read({"response": 1}, (True, False))[1] == ["response"]
        assert read({"response": 0}, (1, 0)) == (0, [])
        assert read({"response": 1}, (1, 0)) == (1, [])
        assert read({"response": False}, (1, 0))[1] == ["response"]
