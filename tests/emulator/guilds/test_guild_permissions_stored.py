"""The guild areas decide with the permission engine over what is stored: for random roles, member
roles, overwrites and timeouts written to the real database, ``access.standing`` + ``permissions_in``
agree with the engine fed the same plain values, and REST answers 50001 exactly when the engine
says VIEW_CHANNEL is missing."""

from __future__ import annotations

import json
from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from platformpp.emulator import Emulator
from platformpp.emulator.areas.guilds.access import permissions_in, standing
from platformpp.emulator.core.permissions import MemberContext, Overwrite, Permission, channel_permissions
from social_helpers import ALICE, BOT_ID, bot

BITS = [int(bit) for bit in Permission]
bit_sets = st.lists(st.sampled_from(BITS), max_size=6).map(lambda bits: sum(set(bits)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(everyone=bit_sets, roles=st.lists(st.tuples(bit_sets, st.booleans()), min_size=1, max_size=4),
       overwrites=st.lists(st.tuples(st.integers(0, 5), bit_sets, bit_sets), max_size=5), timed_out=st.booleans())
def test_stored_permissions_match_the_engine(platformpp_emulator: Emulator, everyone: int,
                                             roles: list[tuple[int, bool]],
                                             overwrites: list[tuple[int, int, int]], timed_out: bool) -> None:
    emu = platformpp_emulator
    state = emu.state
    guild_id = state.ids.next()
    role_ids = [state.ids.next() for _ in roles]
    channel_id = state.ids.next()
    now = state.clock.now()
    # Overwrite targets: 0 = @everyone, 1..4 = a role (if that many), 5 = the bot itself.
    targets = [(guild_id, 0), *[(r, 0) for r in role_ids], (BOT_ID, 1)]
    stored = [{"id": str(targets[t % len(targets)][0]), "type": targets[t % len(targets)][1],
               "allow": str(allow), "deny": str(deny)} for t, allow, deny in overwrites]
    stored = list({(o["id"], o["type"]): o for o in stored}.values())  # one overwrite per target
    mine = [r for r, (_, has) in zip(role_ids, roles) if has]
    until = (now + timedelta(hours=1)).isoformat() if timed_out else None
    with state.db.transaction() as conn:
        conn.execute("INSERT INTO guilds (id, name, owner_id, created_at) VALUES (?, 'g', ?, ?)",
                     (guild_id, ALICE, now.isoformat()))
        conn.execute("INSERT INTO roles (id, guild_id, name, permissions) VALUES (?, ?, '@everyone', ?)",
                     (guild_id, guild_id, str(everyone)))
        for position, (role_id, (bits, _)) in enumerate(zip(role_ids, roles), start=1):
            conn.execute("INSERT INTO roles (id, guild_id, name, permissions, position) VALUES (?, ?, 'r', ?, ?)",
                         (role_id, guild_id, str(bits), position))
        conn.execute("INSERT INTO members (guild_id, user_id, roles, joined_at, communication_disabled_until)"
                     " VALUES (?, ?, ?, ?, ?)", (guild_id, BOT_ID, json.dumps([str(r) for r in mine]),
                                                 now.isoformat(), until))
        conn.execute("INSERT INTO channels (id, guild_id, type, name, permission_overwrites) VALUES (?, ?, 0, 'c', ?)",
                     (channel_id, guild_id, json.dumps(stored)))
        who = standing(conn, guild_id, BOT_ID, now)
        row = conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()
        got = permissions_in(who, row)
    expected = channel_permissions(
        MemberContext(guild_id, ALICE, BOT_ID, everyone,
                      {r: bits for r, (bits, has) in zip(role_ids, roles) if has}, timed_out),
        [Overwrite(int(o["id"]), o["type"], int(o["allow"]), int(o["deny"])) for o in stored])
    assert got == expected
    with bot(emu) as http:
        status = http.get(f"/channels/{channel_id}").status_code
    assert status == (200 if expected & Permission.VIEW_CHANNEL else 403)
