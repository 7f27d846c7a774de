"""GET /users/@me/guilds pages as on the platform (clients walk it with ``after`` / ``before`` until an
empty page) and adds the approximate counts with ``with_counts``; answers validate against the schema."""

from __future__ import annotations

from emulator_world import BOT_ID, GUILD_ID
from platformpp.emulator import Emulator
from social_helpers import bot


def test_my_guilds_pages_by_id_and_counts_members(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    extra = [GUILD_ID + 1000 * n for n in (1, 2, 3)]
    emu.admin.seed({"guilds": [{"id": str(g), "name": f"Guild {n}", "owner_id": str(BOT_ID),
                                "members": [{"user_id": str(BOT_ID)}]} for n, g in enumerate(extra)]})
    everyone = [str(g) for g in [GUILD_ID, *extra]]
    with bot(emu) as http:
        assert [g["id"] for g in http.get("/users/@me/guilds").json()] == everyone
        # forwards: a page after the last id seen, until an empty page
        first = http.get("/users/@me/guilds", params={"limit": 2}).json()
        second = http.get("/users/@me/guilds", params={"limit": 2, "after": first[-1]["id"]}).json()
        assert [g["id"] for g in first + second] == everyone
        assert http.get("/users/@me/guilds", params={"after": everyone[-1]}).json() == []
        # backwards: the last ``limit`` before an id, still in ascending order
        before = http.get("/users/@me/guilds", params={"limit": 2, "before": everyone[-1]}).json()
        assert [g["id"] for g in before] == everyone[1:3]
        assert http.get("/users/@me/guilds", params={"after": GUILD_ID, "before": extra[1]}).json()[0]["id"] \
            == str(extra[0])
        counted = http.get("/users/@me/guilds", params={"with_counts": "true", "limit": 1}).json()
        assert counted[0]["approximate_member_count"] == 5 and counted[0]["approximate_presence_count"] == 0
        assert "approximate_member_count" not in http.get("/users/@me/guilds").json()[0]
        for bad in ({"limit": "0"}, {"limit": "201"}, {"limit": "x"}, {"after": "abc"}):
            refused = http.get("/users/@me/guilds", params=bad)
            assert refused.status_code == 400 and next(iter(bad)) in refused.json()["errors"], refused.text
