"""An application's role connection metadata records (its bot): at most 5, types 1–8, keys of
a-z 0-9 _ (1–50, unique), names and descriptions with valid localizations; a bad body is 50035
naming the field and leaves the records as they were."""

from __future__ import annotations

from typing import Any

import pytest
from platformpp.emulator import Emulator
from social_helpers import ALICE, APP_ID, api, bot, user_token

URL = f"/applications/{APP_ID}/role-connections/metadata"


def record(key: str = "level", kind: int = 2, **extra: Any) -> dict[str, Any]:
    return {"type": kind, "key": key, "name": "Level", "description": "Character level", **extra}


def test_records_are_replaced_whole_and_read_back(platformpp_emulator: Emulator) -> None:
    with bot(platformpp_emulator) as http:
        assert http.get(URL).json() == []
        sent = [record(), record("joined", 6, name_localizations={"fr": "Inscrit"}), record("verified", 7)]
        answered = http.put(URL, json=sent).json()
        assert [r["key"] for r in answered] == ["level", "joined", "verified"]
        assert answered[1]["name_localizations"] == {"fr": "Inscrit"} and answered[0]["name_localizations"] is None
        assert http.get(URL).json() == answered
        assert http.put(URL, json=[record("wins", 1)]).json()[0]["key"] == "wins"
        assert http.put(URL, content=b"null", headers={"Content-Type": "application/json"}).json() == []
        assert http.get(URL).json() == []


@pytest.mark.parametrize(("body", "path"), [
    ([record(k) for k in "abcdef"], None),                              # 6 records
    ({"type": 1}, None),                                                # not an array
    ([record(kind=9)], ("0", "type")),
    ([record(kind=0)], ("0", "type")),
    ([record("Level")], ("0", "key")),                                  # upper case
    ([record("a" * 51)], ("0", "key")),
    ([record("has space")], ("0", "key")),
    ([record("level"), record("level")], ("1", "key")),
    ([record(name="")], ("0", "name")),
    ([record(description="x" * 201)], ("0", "description")),
    ([{"type": 1, "key": "k", "name": "n"}], ("0", "description")),
    ([record(name_localizations={"xx": "n"})], ("0", "name_localizations", "xx")),
    ([record(description_localizations={"fr": "d" * 201})], ("0", "description_localizations", "fr")),
])
def test_bad_records_are_refused_and_keep_the_old_ones(platformpp_emulator: Emulator, body: Any,
                                                       path: tuple[str, ...] | None) -> None:
    with bot(platformpp_emulator) as http:
        kept = http.put(URL, json=[record()]).json()
        refused = http.put(URL, json=body)
        assert refused.status_code == 400 and refused.json()["code"] == 50035
        errors = refused.json()["errors"]
        for part in path or ():
            errors = errors[part]
        assert "_errors" in errors, refused.json()
        assert http.get(URL).json() == kept


def test_only_the_applications_own_bot_may_read_or_write(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as http:
        other = http.get("/applications/1234/role-connections/metadata")
        assert other.status_code == 403 and other.json()["code"] == 50001
    with api(emu, user_token(emu, ALICE, scopes="role_connections.write")) as http:
        assert http.get(URL).status_code == 401
