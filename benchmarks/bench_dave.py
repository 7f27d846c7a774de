"""DAVE media frames: encrypt + decrypt of a 20 ms Opus frame (160 bytes), our C++ against davey.

Ours runs in the `dave_peer` driver (cpp/tests/e2ee/dave_peer.cpp, command frame_bench): one
FrameEncryptor and one FrameDecryptor over a sender key ratchet, the loop in C++. davey's runs from
Python on a real two-member group that our driver's external sender forms, so its time includes two
Python calls per frame (that is how davey is used); davey's own statistics (the time it measures inside
encrypt and decrypt, in whole microseconds per run) give a second figure without that overhead. Rounds
alternate between the two in the same run; the report gives medians and ratio = ours / davey (below 1:
ours is faster).

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
    commit = sender.process_proposals(davey.ProposalsOperationType.append,
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dave-peer", default=os.environ.get("DAVE_PEER", "build/e2ee-b/cpp/tests/e2ee/dave_peer"))
    parser.add_argument("--iterations", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--record", action="store_true", help="append the table to benchmarks/results/dave.md")
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

        encryption = sender.get_encryption_stats()
        decryption = receiver.get_decryption_stats(SENDER)
        assert decryption is not None and encryption.failures == 0 and decryption.failures == 0
        internal_ns = 1000 * (encryption.duration / encryption.attempts + decryption.duration / decryption.attempts)
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
        f"| the same, davey's own timing (no Python calls) | {ours_ns:.0f} | {internal_ns:.0f} | "
        f"{ours_ns / internal_ns:.2f} |",
        "",
        f"{args.rounds} rounds of {args.iterations} frames each, alternating.",
    ])
    print(table)
    if args.record:
        results = Path(__file__).parent / "results" / "dave.md"
        with results.open("a") as out:
            out.write("\n" + table + "\n")


if __name__ == "__main__":
    main()
