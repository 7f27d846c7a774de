"""DAVE media frames: encrypt + decrypt of a 20 ms Opus frame (160 bytes), our C++ against davey.

Ours runs in the `dave_peer` driver (cpp/tests/e2ee/dave_peer.cpp, command frame_bench): one
FrameEncryptor and one FrameDecryptor over a sender key ratchet, the loop in C++. davey's runs from
Python on a real two-member group that our driver's external sender forms, so its time includes two
Python calls per frame (that is how davey is used; a call costs about 0.1 us of the microseconds a
frame takes). davey's own duration statistics are not used: they add whole microseconds per call, too
coarse for a frame. Rounds alternate between the two in the same run; the report gives medians and
ratio = ours / davey (below 1: ours is faster).

Run: `python benchmarks/bench_dave.py --dave-peer build/e2ee-b/cpp/tests/e2ee/dave_peer [--record]`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from machine import describe  # noqa: E402

import davey  # noqa: E402

FRAME_SIZE = 160  # about 20 ms of Opus at 64 kbit/s
CHANNEL_ID = 5150
SENDER, RECEIVER = 1001, 1002
APPEND = davey.ProposalsOperationType.append


class Peer:
    def __init__(self, path: str) -> None:
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def call(self, **request: object) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        if not answer.pop("ok"):
            raise RuntimeError(answer["error"])
        return answer

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=10)


def davey_pair(peer: Peer) -> tuple[davey.DaveSession, davey.DaveSession]:
    """Two davey members of one group, formed with our driver as the voice gateway."""
    gateway = peer.call(cmd="gateway_init", channel_id=CHANNEL_ID)
    sender = davey.DaveSession(1, SENDER, CHANNEL_ID)
    receiver = davey.DaveSession(1, RECEIVER, CHANNEL_ID)
    for session in (sender, receiver):
        session.set_external_sender(bytes.fromhex(gateway["external_sender"]))
    sender.get_serialized_key_package()
    add = peer.call(cmd="gateway_add", key_package=receiver.get_serialized_key_package().hex(), epoch=0)
    commit = sender.process_proposals(APPEND,
                                      bytes.fromhex(add["proposals_vector"]), [RECEIVER])
    assert commit is not None and commit.welcome is not None
    sender.process_commit(commit.commit)
    receiver.process_welcome(commit.welcome)
    assert sender.ready and receiver.ready
    return sender, receiver


def davey_round(sender: davey.DaveSession, receiver: davey.DaveSession, frame: bytes, n: int) -> float:
    encrypt, decrypt, audio = sender.encrypt_opus, receiver.decrypt, davey.MediaType.audio
    start = time.perf_counter_ns()
    for _ in range(n):
        decrypt(SENDER, audio, encrypt(frame))
    return (time.perf_counter_ns() - start) / n


def ours_round(peer: Peer, frame: bytes, n: int) -> float:
    answer = peer.call(cmd="frame_bench", base_secret=os.urandom(16).hex(), frame=frame.hex(), iterations=n)
    if answer["failures"]:
        raise RuntimeError(f"{answer['failures']} frames failed to round-trip")
    return answer["nanoseconds"] / n


class CommitBench:
    """One group with our session and davey member D, grown with davey key packages as filler.

    At each size, repeatedly: D commits the Add of one more member and ours processes that commit
    (timed in the driver), then ours commits an Add and D processes it (timed from Python, where a
    call costs about a microsecond against milliseconds of MLS work); each Add is removed again
    (untimed) so the size stays put.
    """

    OURS_ID, D_ID = 3001, 3002

    def __init__(self, peer: Peer) -> None:
        self.peer = peer
        self.next_user = 4000
        self.next_transition = 1
        gateway = peer.call(cmd="gateway_init", channel_id=CHANNEL_ID + 1)
        self.external_sender = bytes.fromhex(gateway["external_sender"])
        peer.call(cmd="member_new", name="bench", user_id=self.OURS_ID, channel_id=CHANNEL_ID + 1)
        peer.call(cmd="member_clients_connect", name="bench", user_ids=[self.D_ID, *range(4000, 5000)])
        peer.call(cmd="member_binary", name="bench", frame=gateway["opcode25"])
        out = peer.call(cmd="member_select_protocol", name="bench", protocol_version=1)["out"]
        self.d = davey.DaveSession(1, self.D_ID, CHANNEL_ID + 1)
        self.d.set_external_sender(self.external_sender)
        self.d.get_serialized_key_package()
        add = peer.call(cmd="gateway_add", key_package=out[0]["key_package"], epoch=0)
        commit = self.d.process_proposals(APPEND, bytes.fromhex(add["proposals_vector"]), [self.OURS_ID])
        assert commit is not None and commit.welcome is not None
        self.d.process_commit(commit.commit)
        self.ours_binary(self.frame(30, commit.welcome))
        self.execute()
        self.size = 2

    def frame(self, opcode: int, payload: bytes) -> str:
        self.transition = self.next_transition
        self.next_transition += 1
        return self.peer.call(cmd="gateway_frame", opcode=opcode, transition_id=self.transition,
                              payload=payload.hex())["frame"]

    def ours_binary(self, frame: str) -> dict:
        return self.peer.call(cmd="member_binary", name="bench", frame=frame)

    def execute(self) -> None:
        self.peer.call(cmd="member_execute_transition", name="bench", transition_id=self.transition)

    def new_key_package(self) -> bytes:
        joiner = davey.DaveSession(1, self.next_user, CHANNEL_ID + 1)
        self.next_user += 1
        joiner.set_external_sender(self.external_sender)
        return joiner.get_serialized_key_package()

    def proposals(self, add: dict) -> tuple[davey.CommitWelcome, dict]:
        """Both members get the proposal; each makes its commit. Returns (D's, ours)."""
        d_commit = self.d.process_proposals(APPEND, bytes.fromhex(add["proposals_vector"]))
        ours = self.ours_binary(add["opcode27"])["out"]
        assert d_commit is not None and len(ours) == 1
        return d_commit, ours[0]

    def add(self, d_commits: bool) -> tuple[float | None, float | None]:
        key_package = self.new_key_package()
        leaf_before = len(self.leaves())
        add = self.peer.call(cmd="gateway_add", key_package=key_package.hex(), epoch=self.d.epoch)
        d_commit, ours_commit = self.proposals(add)
        ours_ns = d_ns = None
        if d_commits:
            self.d.process_commit(d_commit.commit)
            ours_ns = self.ours_binary(self.frame(29, d_commit.commit))["elapsed_ns"]
        else:
            self.ours_binary(self.frame(29, bytes.fromhex(ours_commit["commit"])))
            start = time.perf_counter_ns()
            self.d.process_commit(bytes.fromhex(ours_commit["commit"]))
            d_ns = time.perf_counter_ns() - start
        self.execute()
        assert len(self.leaves()) == leaf_before + 1
        return ours_ns, d_ns

    def leaves(self) -> list[str]:
        return self.d.get_user_ids()

    def remove(self, leaf: int) -> None:
        remove = self.peer.call(cmd="gateway_remove", leaf=leaf, epoch=self.d.epoch)
        d_commit, _ = self.proposals(remove)
        self.d.process_commit(d_commit.commit)
        self.ours_binary(self.frame(29, d_commit.commit))
        self.execute()

    def grow_to(self, size: int) -> None:
        while self.size < size:
            self.add(d_commits=True)
            self.size += 1

    def measure(self, size: int, reps: int) -> tuple[float, float]:
        self.grow_to(size)
        ours, theirs = [], []
        for _ in range(reps):
            for d_commits in (True, False):
                ours_ns, d_ns = self.add(d_commits)
                if d_commits:
                    ours.append(ours_ns)
                else:
                    theirs.append(d_ns)
                # Leaves 0..size-1 are full, so the Add took leaf `size`: the gateway removes it again.
                self.remove(self.size)
        return statistics.median(ours), statistics.median(theirs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dave-peer",
                        default=os.environ.get("DAVE_PEER", "build/e2ee-b/cpp/tests/e2ee/dave_peer"))
    parser.add_argument("--iterations", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--commit-sizes", default="2,8,25", help="group sizes for the commit benchmark")
    parser.add_argument("--commit-reps", type=int, default=5)
    parser.add_argument("--record", action="store_true",
                        help="append the table to benchmarks/results/dave.md")
    args = parser.parse_args()

    peer = Peer(args.dave_peer)
    try:
        sender, receiver = davey_pair(peer)
        frame = os.urandom(FRAME_SIZE)
        assert receiver.decrypt(SENDER, davey.MediaType.audio, sender.encrypt_opus(frame)) == frame
        ours_round(peer, frame, 1000)  # warm-up
        davey_round(sender, receiver, frame, 1000)
        ours, theirs = [], []
        for _ in range(args.rounds):
            ours.append(ours_round(peer, frame, args.iterations))
            theirs.append(davey_round(sender, receiver, frame, args.iterations))

        decryption = receiver.get_decryption_stats(SENDER)
        assert decryption is not None and decryption.failures == 0
        assert sender.get_encryption_stats().failures == 0
        commits = CommitBench(peer)
        commit_rows = [(size, *commits.measure(size, args.commit_reps))
                       for size in (int(x) for x in args.commit_sizes.split(","))]
    finally:
        peer.close()

    ours_ns, theirs_ns = statistics.median(ours), statistics.median(theirs)
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    table = "\n".join([
        f"Machine: {describe()} · load (1/5/15 min) {load} · davey {davey.__version__}",
        "",
        "| operation | ours, C++ (ns, median) | davey from Python (ns, median) | ratio |",
        "|---|---:|---:|---:|",
        f"| encrypt + decrypt, {FRAME_SIZE}-byte Opus frame | {ours_ns:.0f} | {theirs_ns:.0f} | "
        f"{ours_ns / theirs_ns:.2f} |",
        "",
        f"{args.rounds} rounds of {args.iterations} frames each, alternating.",
        "",
        "| process a commit adding a member, group of N | ours, C++ (ms, median) | davey (ms, median) "
        "| ratio |",
        "|---|---:|---:|---:|",
        *(f"| N = {size} | {o / 1e6:.2f} | {t / 1e6:.2f} | {o / t:.2f} |" for size, o, t in commit_rows),
        "",
        f"Ours processes davey's commit and davey ours, {args.commit_reps} of each per size.",
    ])
    print(table)
    if args.record:
        results = Path(__file__).parent / "results" / "dave.md"
        with results.open("a") as out:
            out.write("\n" + table + "\n")


if __name__ == "__main__":
    main()
