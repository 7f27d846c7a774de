"""The release calendar (seed: Versioning)."""

from datetime import date, datetime, timezone

import pytest

import platformpp
from platformpp import versioning


def test_three_minors_a_year_april_july_november():
    assert versioning.release_date(1, 10) == date(2026, 7, 1)  # seed: 1.10 (July 2026)
    assert versioning.release_date(1, 11) == date(2026, 11, 1)
    assert versioning.release_date(1, 9) == date(2026, 4, 1)
    assert versioning.release_date(1, 8) == date(2025, 11, 1)
    assert versioning.release_date(1, 12) == date(2027, 4, 1)
    months = {versioning.release_date(1, m).month for m in range(0, 20)}
    assert months == {4, 7, 11}
    for minor in range(0, 20):
        assert versioning.release_date(1, minor) < versioning.release_date(1, minor + 1)


def test_supported_window_with_1_10_is_1_6_through_1_10():
    assert versioning.supported_minors(date(2026, 7, 15)) == [(1, 6), (1, 7), (1, 8), (1, 9), (1, 10)]


def test_supported_window_today_is_1_7_through_1_11():
    assert versioning.supported_minors(date(2026, 11, 21)) == [(1, 7), (1, 8), (1, 9), (1, 10), (1, 11)]


def test_default_date_is_today():
    today = datetime.now(timezone.utc).date()
    assert versioning.supported_minors() == versioning.supported_minors(today)
    assert len(versioning.supported_minors()) == versioning.SUPPORTED_MINOR_COUNT == 5


def test_1_5_and_earlier_are_end_of_life_from_july_2026():
    july = date(2026, 7, 15)
    assert not versioning.is_supported((1, 5), on=july)
    assert not versioning.is_supported((1, 0), on=july)
    assert versioning.is_supported((1, 5), on=date(2026, 6, 30))
    assert versioning.end_of_life(1, 5) == date(2026, 7, 1)
    assert all(versioning.is_supported(v, on=july) for v in [(1, 6), (1, 7), (1, 8), (1, 9), (1, 10)])


def test_unreleased_minor_is_not_supported():
    assert not versioning.is_supported((1, 12), on=date(2026, 11, 21))


def test_bad_input():
    with pytest.raises(platformpp.ValidationError) as raised:
        versioning.release_date(2, 0)
    assert raised.value.field == "major"
    with pytest.raises(platformpp.ValidationError):
        versioning.release_date(1, -1)
    with pytest.raises(TypeError):
        versioning.supported_minors("2026-07-15")
    with pytest.raises(TypeError):
        versioning.is_supported("1.6")
