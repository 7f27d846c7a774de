"""Application identity profiles: game stats written with a bot token, read by SDK users."""

from __future__ import annotations

from platformpp.emulator import Emulator
from social_helpers import ALICE, APP_ID, BOB, api, bot, user_token


def test_bot_writes_stats_and_the_user_reads_them(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with emu.state.db.transaction() as conn:
        conn.execute("INSERT INTO external_identities (application_id, auth_type, external_user_id, user_id,"
                     " created_at) VALUES (?, 'oidc', 'ext-alice', ?, '2026-01-01T00:00:00Z')", (APP_ID, ALICE))
    url = f"/applications/@me/users/{ALICE}/identity-profile"
    with bot(emu) as http:
        written = http.patch(url, json={"rank_name": "Gold", "total_wins": 10, "playtime_hours": 12.5,
                                        "favorite_map": "dust"}).json()
        assert written["stats"] == {"rank_name": "Gold", "total_wins": 10, "playtime_hours": 12.5,
                                    "favorite_map": "dust"}
        assert http.patch(url, json={"favorite_map": None, "total_wins": 11}).json()["stats"] == {
            "rank_name": "Gold", "total_wins": 11, "playtime_hours": 12.5}
        for bad in ({"total_wins": -1}, {"rank_name": 5}, {"nested": {"a": 1}}, {"playtime_hours": "long"}):
            response = http.patch(url, json=bad)
            assert response.status_code == 400 and set(bad) <= set(response.json()["errors"]), bad
        assert http.get(url).json()["stats"]["total_wins"] == 11  # the rejected writes changed nothing
        assert http.patch("/applications/@me/users/42/identity-profile", json={}).json()["code"] == 10013
    with api(emu, user_token(emu, ALICE)) as http:
        [profile] = http.get("/users/@me/application-profiles").json()
        assert profile["identities"] == [{"provider": "oidc", "external_user_id": "ext-alice", "provider_id": None,
                                          "username": "alice", "avatar": None}]
        assert profile["stats"]["rank_name"] == "Gold"
        assert http.patch(url, json={"rank_name": "Cheater"}).status_code == 401  # bot token only
        assert http.get(f"/users/{BOB}/application-profiles").status_code == 403  # not a friend
