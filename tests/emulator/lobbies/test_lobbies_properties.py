"""Property tests over real HTTP: whatever a client sends to the lobby member routes, the answer is
a success or a 400 naming fields — never a server error — and a refused request changes nothing."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from social_helpers import ALICE, BOB, CAROL, DAVE, api, bot, user_token

from platformpp.emulator import Emulator

USERS = [str(u) for u in (ALICE, BOB, CAROL, DAVE)] + ["42", "x", ""]
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-2, 3), st.text(max_size=3),
                   st.dictionaries(st.text(max_size=3), st.text(max_size=3) | st.integers(), max_size=2))
ENTRY = st.fixed_dictionaries({"id": st.sampled_from(USERS)}, optional={
    "metadata": VALUES, "flags": VALUES, "additional_name": VALUES, "remove_member": VALUES, "extra": VALUES})
SLOW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _unlimited(emu: Emulator) -> None:
    """Many quick requests: lift the per-route rate limit so that only validation answers."""
    emu.state.limits.configure(1_000_000, 1.0)


def _members(emu: Emulator) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in emu.state.db.query("SELECT * FROM lobby_members ORDER BY lobby_id, user_id")]


@SLOW
@given(body=st.one_of(st.lists(ENTRY, max_size=27), st.fixed_dictionaries({"members": st.lists(ENTRY, max_size=3)}),
                      VALUES))
def test_bulk_is_all_or_nothing(platformpp_emulator: Emulator, body: Any) -> None:
    emu = platformpp_emulator
    _unlimited(emu)
    with bot(emu) as http:
        lobby = emu.state.db.query_one("SELECT id FROM lobbies")
        lobby_id = lobby[0] if lobby else http.post("/lobbies", json={"members": [{"id": str(ALICE)}]}).json()["id"]
        before = _members(emu)
        response = http.post(f"/lobbies/{lobby_id}/members/bulk", json=body)
    assert response.status_code in (200, 400), response.text
    entries = body if isinstance(body, list) else body.get("members") if isinstance(body, dict) else None
    if entries is None or not 1 <= len(entries) <= 25 or any(e["id"] in ("x", "", "42") for e in entries):
        assert response.status_code == 400  # shape, count or unknown user ("extra" is ignored)
    if response.status_code == 400:
        # No JSON body at all (None) is "invalid JSON"; everything else is an invalid form body.
        assert response.json()["code"] == (50109 if body is None else 50035)
        assert _members(emu) == before


@SLOW
@given(body=st.dictionaries(st.sampled_from(["secret", "lobby_metadata", "member_metadata", "idle_timeout_seconds",
                                             "additional_name", "flags"]), VALUES, max_size=5))
def test_put_lobby_is_validated_whole(platformpp_emulator: Emulator, body: dict[str, Any]) -> None:
    emu = platformpp_emulator
    _unlimited(emu)
    before = emu.state.db.query_one("SELECT COUNT(*) FROM lobbies")[0], _members(emu)
    with api(emu, user_token(emu, BOB)) as http:
        response = http.put("/lobbies", json=body)
    assert response.status_code in (200, 400), response.text
    if response.status_code == 400:
        assert response.json()["code"] == 50035
        assert (emu.state.db.query_one("SELECT COUNT(*) FROM lobbies")[0], _members(emu)) == before
    else:
        # additional_name and flags are not the Bearer client's to set: ignored, whatever their value.
        assert isinstance(body.get("secret"), str)
