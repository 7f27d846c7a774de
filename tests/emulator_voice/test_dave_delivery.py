"""The DAVE delivery service's decisions, message by message (no sockets): recording members stand in
for connected clients; key packages, commits and welcomes come from real `davey` sessions."""

from __future__ import annotations

import davey
import pytest
from dave_harness import CHANNEL, Harness

from platformpp.emulator.voice import mls_wire as mls
from platformpp.emulator.voice.protocol import Op


def test_pending_members_get_each_others_add_and_a_leaver_is_revoked() -> None:
    h = Harness()
    a, b = h.join(1001), h.join(1002)
    assert a.take(Op.DAVE_MLS_EXTERNAL_SENDER) == [h.sender.package()]
    h.key_package(a)
    assert a.take(Op.DAVE_MLS_PROPOSALS) == []                # nobody else pending yet
    h.key_package(b)
    to_a, to_b = a.take(Op.DAVE_MLS_PROPOSALS), b.take(Op.DAVE_MLS_PROPOSALS)
    assert len(to_a) == 1 and len(to_b) == 1 and to_a[0][0] == 0 and to_b[0][0] == 0
    add_b = mls.parse_public_message(mls.Reader(to_a[0][1:]).opaque("v"))
    assert add_b.proposal is not None and add_b.proposal.key_package is not None
    assert add_b.proposal.key_package.leaf_node.credential.identity == mls.u64(1002)
    assert (add_b.group_id, add_b.epoch, add_b.sender_type) == (mls.u64(CHANNEL), 0, mls.SENDER_EXTERNAL)
    h.leave(b)
    revoke = a.take(Op.DAVE_MLS_PROPOSALS)
    assert len(revoke) == 1 and revoke[0][0] == 1
    assert mls.Reader(mls.Reader(revoke[0][1:]).opaque("refs")).opaque("ref") == add_b.proposal_ref


def test_a_key_package_for_another_user_is_refused_and_nothing_is_proposed() -> None:
    h = Harness()
    a, b = h.join(1001), h.join(1002)
    h.key_package(a)
    impostor = davey.DaveSession(1, 4242, CHANNEL)
    impostor.set_external_sender(h.sender.package())
    with pytest.raises(mls.MlsValidationError, match="credential.identity"):
        h.call.on_key_package(b, impostor.get_serialized_key_package())
    assert a.take(Op.DAVE_MLS_PROPOSALS) == [] and 1002 not in h.call.key_packages


def test_first_valid_commit_wins_others_are_late_and_execute_follows_all_ready() -> None:
    h = Harness()
    a, b = h.join(1001), h.join(1002)
    h.key_package(a)
    h.key_package(b)
    cw_a = a.session.process_proposals(davey.ProposalsOperationType.append,
                                       a.take(Op.DAVE_MLS_PROPOSALS)[0][1:], [1001, 1002])
    cw_b = b.session.process_proposals(davey.ProposalsOperationType.append,
                                       b.take(Op.DAVE_MLS_PROPOSALS)[0][1:], [1001, 1002])
    assert cw_a is not None and cw_b is not None and cw_a.welcome is not None and cw_b.welcome is not None
    h.call.on_commit_welcome(b, cw_b.commit + cw_b.welcome)        # b's commit arrives first and wins
    h.call.on_commit_welcome(a, cw_a.commit + cw_a.welcome)
    assert h.call.stats.commits_accepted == 1 and h.call.stats.commits_rejected == 1
    assert "late commit" in h.call.stats.last_rejection
    assert h.call.roster == {1002: 0, 1001: 1} and h.call.epoch == 1
    [announce] = b.take(Op.DAVE_MLS_ANNOUNCE_COMMIT_TRANSITION)
    [welcome] = a.take(Op.DAVE_MLS_WELCOME)
    transition_id = int.from_bytes(announce[:2], "big")
    assert transition_id == int.from_bytes(welcome[:2], "big") > 0
    b.session.process_commit(announce[2:])
    a.session.process_welcome(welcome[2:])
    assert a.session.epoch == b.session.epoch == 1
    h.call.on_transition_ready(a, transition_id)
    assert a.take(Op.DAVE_EXECUTE_TRANSITION) == []                 # still waiting for b
    h.call.on_transition_ready(b, transition_id)
    assert a.take(Op.DAVE_EXECUTE_TRANSITION) == [{"transition_id": transition_id}]
    assert b.take(Op.DAVE_EXECUTE_TRANSITION) == [{"transition_id": transition_id}]


def test_commits_that_break_the_rules_are_dropped() -> None:
    h = Harness()
    a, b = h.join(1001), h.join(1002)
    h.key_package(a)
    h.key_package(b)
    proposals = a.take(Op.DAVE_MLS_PROPOSALS)[0][1:]
    cw = a.session.process_proposals(davey.ProposalsOperationType.append, proposals, [1001, 1002])
    assert cw is not None and cw.welcome is not None
    h.call.on_commit_welcome(a, cw.commit)                         # adds b but carries no welcome
    assert "welcome: required" in h.call.stats.last_rejection
    h.call.on_commit_welcome(b, cw.commit + cw.welcome)            # b replays a's commit: not b's proposals
    assert h.call.stats.commits_rejected == 2 and h.call.epoch == 0
    h.call.on_commit_welcome(a, cw.commit + cw.welcome)
    assert h.call.epoch == 1


def test_sole_member_reset_when_the_other_leaves() -> None:
    h = Harness()
    a, b = h.join(1001), h.join(1002)
    h.key_package(a)
    h.key_package(b)
    cw = a.session.process_proposals(davey.ProposalsOperationType.append,
                                     a.take(Op.DAVE_MLS_PROPOSALS)[0][1:], [1001, 1002])
    assert cw is not None and cw.welcome is not None
    h.call.on_commit_welcome(a, cw.commit + cw.welcome)
    assert h.call.established
    a.sent.clear()
    h.leave(b)
    assert a.take(Op.DAVE_PREPARE_EPOCH) == [{"protocol_version": 1, "epoch": 1}]
    assert a.take(Op.DAVE_PREPARE_TRANSITION) == [{"protocol_version": 1, "transition_id": 0}]
    assert not h.call.established and h.call.roster == {}


def test_downgrade_only_before_e2ee_is_required() -> None:
    before = Harness(required=False)
    a = before.join(1001)
    legacy = before.join(1003, max_dave=0)
    [prepare] = a.take(Op.DAVE_PREPARE_TRANSITION)
    assert prepare["protocol_version"] == 0 and before.call.version == 0
    assert legacy.sent == []
    after = Harness(required=True)
    b = after.join(1001)
    after.join(1003, max_dave=0)           # admitted earlier; E2EE is now required: no downgrade
    assert b.take(Op.DAVE_PREPARE_TRANSITION) == [] and after.call.version == 1
