"""Property tests (hypothesis, bounded) of the voice gateway's MLS decoders, every entry point of
mls_wire that reads a client's bytes: arbitrary bytes, and truncated or altered real messages (the
MLS test vectors, `davey`'s key packages, commits and welcomes, the gateway's own proposals), give a
value or MlsDecodeError (MlsValidationError for the checks after decoding), never another exception;
what the encoders write decodes back to the same values; and the DAVE delivery service keeps its
state when a client's bytes are refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import davey
import pytest
from dave_harness import CHANNEL, Harness
from hypothesis import given, settings
from hypothesis import strategies as st
from test_mls_wire import KEY_PACKAGE, WELCOME

from platformpp.emulator.voice import mls_wire as mls
from platformpp.emulator.voice.protocol import Op

KEY_PACKAGE_BYTES = bytes.fromhex(KEY_PACKAGE)
WELCOME_BYTES = bytes.fromhex(WELCOME)
SENDER = mls.ExternalSender()
ADD_MESSAGE, _ = SENDER.proposal_message(mls.u64(CHANNEL), 0,
                                         mls.Proposal(mls.PROPOSAL_ADD,
                                                      key_package=mls.parse_key_package(KEY_PACKAGE_BYTES)))
REMOVE_MESSAGE, _ = SENDER.proposal_message(mls.u64(CHANNEL), 4, mls.Proposal(mls.PROPOSAL_REMOVE, removed=3))
DECODERS: dict[str, Callable[[bytes], Any]] = {
    "parse_key_package": mls.parse_key_package,
    "parse_public_message": mls.parse_public_message,
    "parse_welcome": mls.parse_welcome,
    "split_commit_welcome": mls.split_commit_welcome,
}


def _commit_and_welcome() -> tuple[bytes, bytes]:
    """A real two-member commit (from `davey`) adding the other member, and its welcome."""
    h = Harness()
    a, b = h.join(1001), h.join(1002)
    h.key_package(a)
    h.key_package(b)
    cw = a.session.process_proposals(davey.ProposalsOperationType.append,
                                     a.take(Op.DAVE_MLS_PROPOSALS)[0][1:], [1001, 1002])
    assert cw is not None and cw.welcome is not None
    return cw.commit, cw.welcome


COMMIT, COMMIT_WELCOME = _commit_and_welcome()
SEEDS = [KEY_PACKAGE_BYTES, WELCOME_BYTES, ADD_MESSAGE, REMOVE_MESSAGE, COMMIT, COMMIT + COMMIT_WELCOME,
         mls.u16(1) + mls.u16(mls.WIRE_KEY_PACKAGE) + KEY_PACKAGE_BYTES, COMMIT_WELCOME]


def alter(draw: Callable[[st.SearchStrategy[Any]], Any], seed: bytes) -> bytes:
    """``seed`` cut short, with bytes replaced, inserted or removed."""
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["cut", "replace", "insert", "delete"]))
        # A position relative to the length: the same draws whatever the seed's length (a fresh
        # `davey` commit differs in length from run to run).
        at = draw(st.integers(0, 1 << 16)) * len(data) >> 16
        if kind == "cut":
            del data[at:]
        elif kind == "replace" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=6))
        elif kind == "delete":
            del data[at:at + draw(st.integers(1, 6))]
    return bytes(data)


@st.composite
def altered(draw: st.DrawFn, seeds: list[bytes] = SEEDS) -> bytes:
    """A real message, altered."""
    return alter(draw, draw(st.sampled_from(seeds)))


untrusted = st.one_of(st.binary(max_size=400), altered())


def decode_or_refuse(decode: Callable[[bytes], Any], data: bytes) -> Any:
    try:
        return decode(data)
    except mls.MlsDecodeError as exc:
        assert str(exc), "a decode error names the field"
        return None


@pytest.mark.parametrize("name", sorted(DECODERS))
def test_seeds_decode(name: str) -> None:
    """The unaltered messages are what their decoder reads (so the altered ones start from valid input)."""
    readable = [seed for seed in SEEDS if decode_or_refuse(DECODERS[name], seed) is not None]
    assert readable, f"no seed is a valid input of {name}"


@pytest.mark.parametrize("name", sorted(DECODERS))
@settings(max_examples=300, deadline=None)
@given(data=untrusted)
def test_every_decoder_gives_a_value_or_a_decode_error(name: str, data: bytes) -> None:
    value = decode_or_refuse(DECODERS[name], data)
    if isinstance(value, mls.KeyPackage):
        try:
            mls.validate_key_package(value, user_id=1001)
        except mls.MlsValidationError:
            pass
        assert value.encoded in data


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=40), st.sampled_from(["varint", "opaque", "vector", "u8", "u16", "u32", "u64"]))
def test_reader_primitives_read_or_refuse(data: bytes, read: str) -> None:
    reader = mls.Reader(data)
    try:
        value = getattr(reader, read)("field.name")
    except mls.MlsDecodeError as exc:
        assert str(exc).startswith("field.name:")
        return
    assert 0 <= reader.pos <= len(data)
    if read == "varint":
        assert reader.pos in (1, 2, 4) and mls.encode_varint(value) == data[:reader.pos]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, (1 << 30) - 1), st.binary(max_size=300))
def test_varint_and_opaque_round_trip(length: int, body: bytes) -> None:
    assert mls.Reader(mls.encode_varint(length)).varint("v") == length
    reader = mls.Reader(mls.opaque(body) + b"tail")
    assert reader.opaque("v") == body and reader.data[reader.pos:] == b"tail"


def test_varint_encoder_refuses_lengths_it_cannot_write() -> None:
    for bad in (-1, 1 << 30):
        with pytest.raises(ValueError, match="outside"):
            mls.encode_varint(bad)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=40), st.integers(0, (1 << 64) - 1), st.integers(0, (1 << 32) - 1), st.booleans())
def test_external_proposals_decode_to_what_was_signed(group_id: bytes, epoch: int, leaf: int,
                                                       add: bool) -> None:
    proposal = (mls.Proposal(mls.PROPOSAL_ADD, key_package=mls.parse_key_package(KEY_PACKAGE_BYTES)) if add
                else mls.Proposal(mls.PROPOSAL_REMOVE, removed=leaf))
    message, ref = SENDER.proposal_message(group_id, epoch, proposal)
    parsed = mls.parse_public_message(message)
    got = (parsed.group_id, parsed.epoch, parsed.proposal, parsed.proposal_ref)
    assert got == (group_id, epoch, proposal, ref)


secrets_entries = st.lists(st.tuples(st.binary(min_size=1, max_size=32), st.binary(max_size=40),
                                     st.binary(max_size=60)), max_size=4, unique_by=lambda e: e[0])


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 0xFFFF), secrets_entries, st.binary(max_size=100), st.booleans())
def test_welcomes_decode_to_their_parts_and_split_per_member(
        suite: int, entries: list[tuple[bytes, bytes, bytes]], info: bytes, wrapped: bool) -> None:
    encoded = [mls.opaque(ref) + mls.opaque(kem) + mls.opaque(ct) for ref, kem, ct in entries]
    body = mls.u16(suite) + mls.opaque(b"".join(encoded)) + mls.opaque(info)
    data = (mls.u16(1) + mls.u16(mls.WIRE_WELCOME) + body) if wrapped else body
    welcome = mls.parse_welcome(data)
    if not wrapped and data[:4] == mls.u16(1) + mls.u16(mls.WIRE_WELCOME):
        return      # a bare welcome that happens to start like the wrapped form is read as one
    assert (welcome.cipher_suite, welcome.encrypted_group_info, welcome.wrapped) == (suite, info, wrapped)
    assert [e.new_member for e in welcome.secrets] == [ref for ref, _, _ in entries]
    for (ref, _, _), part in zip(entries, encoded):
        single = mls.parse_welcome(welcome.for_member(ref))
        assert [e.encoded for e in single.secrets] == [part] and single.encrypted_group_info == info
    with pytest.raises(mls.MlsValidationError):
        welcome.for_member(b"\xff" * 33)


def _dave_state(h: Harness) -> tuple[Any, ...]:
    call = h.call
    return (call.version, call.epoch, dict(call.roster), sorted(call.key_packages),
            [p.ref for p in call.proposals], call.transition, dict(call.leaf_keys))


@settings(max_examples=80, deadline=None)
@given(data=st.one_of(st.binary(max_size=400), altered([COMMIT + COMMIT_WELCOME, COMMIT, KEY_PACKAGE_BYTES])))
def test_refused_key_packages_and_commits_leave_the_delivery_service_as_it_was(data: bytes) -> None:
    h = Harness()
    a, b = h.join(1001), h.join(1002)
    h.key_package(a)
    h.key_package(b)
    before = _dave_state(h)
    with pytest.raises((mls.MlsDecodeError, mls.MlsValidationError)):
        h.call.on_key_package(a, data)     # never a valid key package of a: its signatures cover every byte
    assert _dave_state(h) == before
    rejected = h.call.stats.commits_rejected
    h.call.on_commit_welcome(b, data)      # b's commit would reference other proposals: always refused
    assert h.call.stats.commits_rejected == rejected + 1 and _dave_state(h) == before


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_an_altered_commit_is_either_taken_whole_or_refused_without_a_trace(data: st.DataObject) -> None:
    h = Harness()
    a, b = h.join(1001), h.join(1002)
    h.key_package(a)
    h.key_package(b)
    proposals = a.take(Op.DAVE_MLS_PROPOSALS)[0][1:]
    cw = a.session.process_proposals(davey.ProposalsOperationType.append, proposals, [1001, 1002])
    assert cw is not None and cw.welcome is not None
    before = _dave_state(h)
    h.call.on_commit_welcome(a, alter(data.draw, cw.commit + cw.welcome))
    if h.call.stats.commits_accepted:
        assert h.call.epoch == 1 and sorted(h.call.roster) == [1001, 1002] and h.call.transition is not None
    else:
        assert h.call.stats.commits_rejected == 1 and _dave_state(h) == before
