"""Our DAVE session (C++, through the dave_peer driver) in one call with davey, an independent DAVE
implementation. The test is the voice gateway: dave_peer's external sender signs the Add and Remove
proposals (our C++ MLS), and the test relays key packages, commits and welcomes between the members
with the opcodes' frames, as the platform's voice gateway does.

Scenario: ours and davey A form the group (ours commits), davey B joins (A commits), each member
decrypts every other's Opus frames and all show the same verification codes; then B leaves and is
removed (ours commits), the group re-keys, and B can no longer decrypt; finally ours leaves and A
re-keys without it. Another test joins ours by a davey member's Welcome; a third breaks a Welcome on
purpose and follows the recovery (op 31, new key package, removal and re-add) back into the group, then
checks the E2EE-only date on version changes.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

davey = pytest.importorskip("davey")

CHANNEL_ID = 927_364_102_938_471_234
OURS, A, B = 1_090_123_456_789_012_345, 1_090_123_456_789_012_346, 1_090_123_456_789_012_347
AUDIO = davey.MediaType.audio
APPEND = davey.ProposalsOperationType.append


class Peer:
    """The dave_peer driver: one JSON line out, one JSON line back."""

    def __init__(self, path: Path) -> None:
        self.proc = subprocess.Popen([str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def call(self, **request: object) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, f"dave_peer exited on {request['cmd']}"
        answer = json.loads(line)
        if not answer.pop("ok"):
            raise PeerError(answer["error"])
        return answer

    def close(self) -> None:
        assert self.proc.stdin
        self.proc.stdin.close()
        assert self.proc.wait(timeout=10) == 0


class PeerError(Exception):
    pass


class Ours:
    """Our session inside the driver, by name."""

    def __init__(self, peer: Peer, name: str, user_id: int) -> None:
        self.peer, self.name, self.user_id = peer, name, user_id
        self.signature_key = bytes.fromhex(peer.call(cmd="member_new", name=name, user_id=user_id,
                                                     channel_id=CHANNEL_ID)["signature_key"])

    def __call__(self, cmd: str, **args: object) -> dict:
        return self.peer.call(cmd=f"member_{cmd}", name=self.name, **args)

    def binary(self, frame_hex: str) -> list[dict]:
        return self("binary", frame=frame_hex)["out"]

    def encrypt(self, frame: bytes) -> bytes:
        answer = self("encrypt", frame=frame.hex())
        assert answer["status"] == "ok", answer["status"]
        return bytes.fromhex(answer["frame"])

    def decrypt(self, user_id: int, frame: bytes) -> tuple[str, bytes]:
        answer = self("decrypt", user_id=user_id, frame=frame.hex())
        return answer["status"], bytes.fromhex(answer["frame"])

    def state(self) -> dict:
        return self("state")


def only(items: list[dict], kind: str) -> dict:
    matching = [item for item in items if item["kind"] == kind]
    assert len(matching) == 1, items
    return matching[0]


def opus(seed: int) -> bytes:
    return bytes((seed * 37 + i * 11) % 256 for i in range(160))


@pytest.fixture
def peer(dave_peer_path: Path) -> Iterator[Peer]:
    p = Peer(dave_peer_path)
    yield p
    p.close()


def check_frames(ours: Ours, daveys: dict[int, davey.DaveSession]) -> None:
    """Every member decrypts every other member's frames."""
    for n, (uid, session) in enumerate(daveys.items()):
        frame = opus(n)
        from_ours = ours.encrypt(frame)
        assert from_ours[-2:] == b"\xfa\xfa" and len(from_ours) > len(frame) + 8
        assert session.decrypt(ours.user_id, AUDIO, from_ours) == frame
        from_davey = session.encrypt_opus(frame)
        assert ours.decrypt(uid, from_davey) == ("ok", frame)
        for other_uid, other in daveys.items():
            if other_uid != uid:
                assert other.decrypt(uid, AUDIO, from_davey) == frame


def vp8(key_frame: bool, size: int = 900) -> bytes:
    # RFC 7741 payload header: P (bit 0) = 0 marks a key frame, whose 10-byte header stays in clear.
    first = 0x10 if key_frame else 0x11
    return bytes([first]) + bytes((i * 13 + 5) % 256 for i in range(size - 1))


def check_video(ours: Ours, uid: int, session: davey.DaveSession) -> None:
    """VP8 frames keep their payload header readable, and both sides decrypt each other's."""
    for key_frame in (True, False):
        frame = vp8(key_frame)
        clear = 10 if key_frame else 1
        answer = ours("encrypt", frame=frame.hex(), codec="vp8")
        assert answer["status"] == "ok"
        sealed = bytes.fromhex(answer["frame"])
        assert sealed[:clear] == frame[:clear] and sealed[clear:clear + 16] != frame[clear:clear + 16]
        assert session.decrypt(ours.user_id, davey.MediaType.video, sealed) == frame
        theirs = session.encrypt(davey.MediaType.video, davey.Codec.vp8, frame)
        assert theirs[:clear] == frame[:clear]
        back = ours("decrypt", user_id=uid, frame=theirs.hex(), codec="vp8")
        assert (back["status"], bytes.fromhex(back["frame"])) == ("ok", frame)


def check_codes(ours: Ours, daveys: dict[int, davey.DaveSession]) -> None:
    state = ours.state()
    for uid, session in daveys.items():
        assert session.voice_privacy_code == state["code"]
        assert len(state["code"]) == 30 and state["code"].isdigit()
        ours_fp = ours("fingerprint", user_id=uid)
        theirs = session.get_pairwise_fingerprint(0, ours.user_id)
        assert bytes.fromhex(ours_fp["fingerprint"]) == theirs
        assert ours_fp["code"] == session.get_verification_code(ours.user_id)
        assert len(ours_fp["code"]) == 45


def test_ours_and_davey_share_a_group_through_joins_and_leaves(peer: Peer) -> None:
    gateway = peer.call(cmd="gateway_init", channel_id=CHANNEL_ID)
    external_sender = bytes.fromhex(gateway["external_sender"])
    ours = Ours(peer, "ours", OURS)
    a = davey.DaveSession(1, A, CHANNEL_ID)
    b = davey.DaveSession(1, B, CHANNEL_ID)

    # --- ours and A: both pending, each gets the other's Add; ours's commit wins --------------------
    ours("clients_connect", user_ids=[A])
    assert ours.binary(gateway["opcode25"]) == []
    selected = ours("select_protocol", protocol_version=1)["out"]
    key_package_ours = bytes.fromhex(only(selected, "binary")["key_package"])
    assert ours.state()["status"] == "pending"
    a.set_external_sender(external_sender)
    key_package_a = a.get_serialized_key_package()

    to_ours = peer.call(cmd="gateway_add", key_package=key_package_a.hex(), epoch=0)
    to_a = peer.call(cmd="gateway_add", key_package=key_package_ours.hex(), epoch=0)
    commit = only(ours.binary(to_ours["opcode27"]), "binary")
    assert ours.state()["status"] == "awaiting_response"
    assert commit["welcome"], "a commit that adds a member carries a Welcome"
    a.process_proposals(APPEND, bytes.fromhex(to_a["proposals_vector"]), [OURS])  # A's commit loses

    announce = peer.call(cmd="gateway_frame", opcode=29, transition_id=1, payload=commit["commit"])["frame"]
    assert only(ours.binary(announce), "ready")["transition_id"] == 1
    a.process_welcome(bytes.fromhex(commit["welcome"]))
    assert ours("execute_transition", transition_id=1)["out"] == []
    state = ours.state()
    assert state["status"] == "active" and state["epoch"] == 1 and a.epoch == 1
    assert sorted(state["members"]) == sorted([OURS, A])
    check_frames(ours, {A: a})
    check_video(ours, A, a)
    check_codes(ours, {A: a})

    # --- B joins: A's commit wins; ours processes a commit it did not make -------------------------------
    ours("clients_connect", user_ids=[B])
    b.set_external_sender(external_sender)
    add_b = peer.call(cmd="gateway_add", key_package=b.get_serialized_key_package().hex(), epoch=1)
    ours_commit = only(ours.binary(add_b["opcode27"]), "binary")
    a_commit = a.process_proposals(APPEND, bytes.fromhex(add_b["proposals_vector"]), [OURS, A, B])
    assert a_commit is not None and a_commit.welcome is not None
    assert ours_commit["commit"] != a_commit.commit.hex()
    announce = peer.call(cmd="gateway_frame", opcode=29, transition_id=2,
                         payload=a_commit.commit.hex())["frame"]
    assert only(ours.binary(announce), "ready")["transition_id"] == 2
    a.process_commit(a_commit.commit)
    b.process_welcome(a_commit.welcome)
    # Until the transition executes our sender still uses epoch 1, which A (and only A) can still read.
    before_transition = ours.encrypt(opus(40))
    assert a.decrypt(OURS, AUDIO, before_transition) == opus(40)
    ours("execute_transition", transition_id=2)
    assert ours.state()["epoch"] == 2 and a.epoch == 2 and b.epoch == 2
    check_frames(ours, {A: a, B: b})
    check_codes(ours, {A: a, B: b})

    # --- B leaves and is removed; ours commits the removal ---------------------------------------------
    b_leaf = b.own_leaf_index
    old_epoch_from_b = b.encrypt_opus(opus(50))
    remove_b = peer.call(cmd="gateway_remove", leaf=b_leaf, epoch=2)
    commit = only(ours.binary(remove_b["opcode27"]), "binary")
    assert commit["welcome"] is None
    a.process_proposals(APPEND, bytes.fromhex(remove_b["proposals_vector"]), [OURS, A])
    announce = peer.call(cmd="gateway_frame", opcode=29, transition_id=3, payload=commit["commit"])["frame"]
    assert only(ours.binary(announce), "ready")["transition_id"] == 3
    a.process_commit(bytes.fromhex(commit["commit"]))
    ours("execute_transition", transition_id=3)
    assert sorted(ours.state()["members"]) == sorted([OURS, A]) and a.epoch == 3
    check_frames(ours, {A: a})
    check_codes(ours, {A: a})
    # The removed member can decrypt nothing of the new epoch, from ours or from A.
    with pytest.raises(Exception):
        b.decrypt(OURS, AUDIO, ours.encrypt(opus(60)))
    with pytest.raises(Exception):
        b.decrypt(A, AUDIO, a.encrypt_opus(opus(61)))
    # B's last frames of epoch 2 are readable for the transition window only.
    assert ours.decrypt(B, old_epoch_from_b) == ("ok", opus(50))
    late_from_b = b.encrypt_opus(opus(51))
    ours("advance", seconds=11)
    status, _ = ours.decrypt(B, late_from_b)
    assert status != "ok"

    # --- ours leaves: A alone re-keys (sole member) and ours cannot read A any more ---------------------
    # Ours made the group, so it holds leaf 0 (the gateway tracks leaves as members come and go).
    remove_ours = peer.call(cmd="gateway_remove", leaf=0, epoch=3)
    a_commit = a.process_proposals(APPEND, bytes.fromhex(remove_ours["proposals_vector"]), [A])
    assert a_commit is not None
    a.process_commit(a_commit.commit)
    assert a.epoch == 4
    status, _ = ours.decrypt(A, a.encrypt_opus(opus(70)))
    assert status != "ok"


def test_the_removed_member_fails_on_frames_of_later_epochs(peer: Peer) -> None:
    """Sanity check of the harness itself: a davey member outside the group cannot decrypt."""
    gateway = peer.call(cmd="gateway_init", channel_id=CHANNEL_ID)
    a = davey.DaveSession(1, A, CHANNEL_ID)
    outsider = davey.DaveSession(1, B, CHANNEL_ID)
    ours = Ours(peer, "ours", OURS)
    ours("clients_connect", user_ids=[A])
    ours.binary(gateway["opcode25"])
    kp = bytes.fromhex(only(ours("select_protocol", protocol_version=1)["out"], "binary")["key_package"])
    a.set_external_sender(bytes.fromhex(gateway["external_sender"]))
    a.get_serialized_key_package()
    add_ours = peer.call(cmd="gateway_add", key_package=kp.hex(), epoch=0)
    a_commit = a.process_proposals(APPEND, bytes.fromhex(add_ours["proposals_vector"]), [OURS])
    assert a_commit is not None and a_commit.welcome is not None
    a.process_commit(a_commit.commit)
    welcome = peer.call(cmd="gateway_frame", opcode=30, transition_id=7,
                        payload=a_commit.welcome.hex())["frame"]
    assert only(ours.binary(welcome), "ready")["transition_id"] == 7
    ours("execute_transition", transition_id=7)
    check_frames(ours, {A: a})
    check_codes(ours, {A: a})
    with pytest.raises(Exception):
        outsider.decrypt(OURS, AUDIO, ours.encrypt(opus(1)))


def test_recovery_from_an_invalid_welcome_and_version_changes(peer: Peer) -> None:
    gateway = peer.call(cmd="gateway_init", channel_id=CHANNEL_ID)
    ours = Ours(peer, "ours", OURS)
    ours.binary(gateway["opcode25"])
    before_cutoff = 1_767_225_600  # 2026-01-01T00:00:00Z
    # Version 0 is refused from 2026-03-01 on (the machine's clock is past it), allowed before.
    with pytest.raises(PeerError, match="2026-03-01"):
        ours("select_protocol", protocol_version=0)
    assert ours("select_protocol", protocol_version=0, wall=before_cutoff)["out"] == []
    assert ours.state()["status"] == "inactive"
    plain = opus(3)
    assert bytes.fromhex(ours("encrypt", frame=plain.hex())["frame"]) == plain  # passthrough sender

    # Upgrade: a new group for version 1 (epoch 1) sends a key package.
    out = ours("prepare_epoch", epoch=1, protocol_version=1)["out"]
    assert only(out, "binary")["key_package"]
    # A commit that cannot be processed is reported (31) with a fresh key package, and state resets.
    a = davey.DaveSession(1, A, CHANNEL_ID)
    a.set_external_sender(bytes.fromhex(gateway["external_sender"]))
    a.get_serialized_key_package()
    ours("clients_connect", user_ids=[A])
    kp = only(out, "binary")["key_package"]
    add_ours = peer.call(cmd="gateway_add", key_package=kp, epoch=0)
    a_commit = a.process_proposals(APPEND, bytes.fromhex(add_ours["proposals_vector"]), [OURS])
    assert a_commit is not None and a_commit.welcome is not None
    a.process_commit(a_commit.commit)  # the gateway announced A's commit: ours is at leaf 1 of A's group
    broken = bytearray(a_commit.welcome)
    broken[-5] ^= 0xFF
    welcome = peer.call(cmd="gateway_frame", opcode=30, transition_id=9, payload=bytes(broken).hex())["frame"]
    out = ours.binary(welcome)
    assert only(out, "invalid")["transition_id"] == 9
    new_kp = only(out, "binary")["key_package"]
    assert new_kp != kp
    assert ours.state()["status"] == "pending"
    # The gateway removes the stale leaf and adds the new key package; A commits both and ours, which
    # ignores proposals made for the group it is not in yet, is welcomed.
    remove_stale = peer.call(cmd="gateway_remove", leaf=1, epoch=1)
    assert ours.binary(remove_stale["opcode27"]) == []
    a.process_proposals(APPEND, bytes.fromhex(remove_stale["proposals_vector"]), [OURS])
    readd = peer.call(cmd="gateway_add", key_package=new_kp, epoch=1)
    assert ours.binary(readd["opcode27"]) == []
    a_commit = a.process_proposals(APPEND, bytes.fromhex(readd["proposals_vector"]), [OURS])
    assert a_commit is not None and a_commit.welcome is not None
    a.process_commit(a_commit.commit)
    welcome = peer.call(cmd="gateway_frame", opcode=30, transition_id=10,
                        payload=a_commit.welcome.hex())["frame"]
    assert only(ours.binary(welcome), "ready")["transition_id"] == 10
    ours("execute_transition", transition_id=10)
    assert ours.state()["status"] == "active" and ours.state()["epoch"] == a.epoch == 2
    check_frames(ours, {A: a})
    check_codes(ours, {A: a})
    # Proposals adding someone who is not in the call are refused.
    stranger = davey.DaveSession(1, 555, CHANNEL_ID)
    stranger.set_external_sender(bytes.fromhex(gateway["external_sender"]))
    add_stranger = peer.call(cmd="gateway_add", key_package=stranger.get_serialized_key_package().hex(),
                             epoch=a.epoch)
    with pytest.raises(PeerError, match="not in the call"):
        ours.binary(add_stranger["opcode27"])
    # A downgrade transition during the call is refused after the cutoff, and allowed before it.
    with pytest.raises(PeerError, match="2026-03-01"):
        ours("prepare_transition", transition_id=4, protocol_version=0)
    assert only(ours("prepare_transition", transition_id=4, protocol_version=0,
                     wall=before_cutoff)["out"], "ready")["transition_id"] == 4
    ours("execute_transition", transition_id=4)
    assert ours.state()["protocol_version"] == 0
    assert bytes.fromhex(ours("encrypt", frame=plain.hex())["frame"]) == plain
    assert ours.decrypt(A, plain) == ("passthrough", plain)
