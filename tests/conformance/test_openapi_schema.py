"""The schema validator itself: it must find operations, pick responses and reject bad bodies,
or the conformance tests built on it prove nothing."""

from __future__ import annotations

import pytest

from openapi_schema import PublishedApi, UnknownOperation


@pytest.fixture(scope="module")
def api() -> PublishedApi:
    return PublishedApi()


def test_literal_segments_win_over_parameters(api: PublishedApi) -> None:
    assert api.operation("GET", "/api/v10/users/@me").template == "/users/@me"
    assert api.operation("GET", "/api/v10/users/123").template == "/users/{user_id}"
    assert api.operation("HEAD", "/users/123?x=1").method == "GET"


def test_unknown_operations_are_named(api: PublishedApi) -> None:
    with pytest.raises(UnknownOperation, match="DELETE /users/@me"):
        api.operation("DELETE", "/api/v10/users/@me")


def test_a_conforming_error_body_passes_and_a_broken_one_is_reported(api: PublishedApi) -> None:
    assert api.check("GET", "/api/v10/users/@me", 401, {"code": 0, "message": "401: Unauthorized"}) == []
    problems = api.check("GET", "/api/v10/users/@me", 401, {"message": 7})
    assert any("'code' is a required property" in p for p in problems), problems
    assert any("7 is not of type 'string'" in p for p in problems), problems


def test_a_user_body_missing_required_fields_is_reported(api: PublishedApi) -> None:
    problems = api.check("GET", "/api/v10/users/1", 200, {"id": "1", "username": "a"})
    assert problems and all(p.startswith("GET /users/{user_id} 200: at $") for p in problems)
    assert any("'primary_guild' is a required property" in p for p in problems), problems


def test_bodiless_answers_and_undeclared_statuses(api: PublishedApi) -> None:
    assert api.check("DELETE", "/api/v10/lobbies/1", 204, None) == []
    with pytest.raises(AssertionError, match="declares no response 302"):
        api.check("GET", "/api/v10/users/@me", 302, None)
