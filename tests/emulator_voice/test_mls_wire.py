"""The voice gateway's MLS codec against the MLS working group's test vectors (cipher suite 2) and
against itself: varints, references, signatures, key packages, welcomes, external proposals."""

from __future__ import annotations

from typing import Any

import pytest

from platformpp.emulator.voice import mls_wire as mls

# From the MLS working group's test vectors (test-vectors.md, cipher suite 2): deserialization,
# crypto-basics (ref_hash, sign_with_label) and welcome (key_package, welcome).
VARINTS = [("00", 0), ("0d", 13), ("3f", 63), ("4040", 64), ("4185", 389), ("7fff", 16383),
           ("80004000", 16384), ("8000dead", 57005), ("bfffffff", 1073741823)]
REF_HASH: dict[str, Any] = {"label": b"RefHash", "value": "feb64672017685dc26d0b7fc41cd96d8bef40af09002eb5aa9a52580c80f0b2e",
            "out": "8f508c2f89d2797b6882ee487dc2832b2b6d59b27681293c2c2c3f1f0e6cd54f"}
SIGN = {"pub": "04448971fc06de011d780cf68fd27e2570322d04079f529c3deb48a2015fdd828162c570264e051b5856e8111171fb0341907173aefa665682c2549af982a31483",
        "content": "a0dda617ce4685d764c762b11186b6d60ff8de85ff01eca2413bd4ecfd3b3a57",
        "signature": "304402206042e397e1bb78951709790e3446b13bf17f9c641aaed92fb1768b5bc99dd98402202465153d91dd79e808286088768d8ed150381f3675498d6e150ae713be43387b"}
KEY_PACKAGE = (
    "00010005000100024041049e8568620803fb6a37c3167e2e6df927a58e46905aa339d067fa05d9bfb33d6bb22250f44c"
    "24bf8441f1924f60f7f281236de1c99c98cbb8ca1f5a26edf286e04041045b2f23e87fdd51c407478878689f647cfeca"
    "1e6ddf13bab8315af9485d124943fd297144d1934525ed49397628b2ead0e6bc6e51aa1be12cf1b7c9f24765966f4041"
    "041ff15b03864ec390007b543c6e244468a46dcc57378d468722a267db7371c49cb0a9a2e32e864f292b25c29674d7ed"
    "c37d637edbdf9b41ac8904dd8ca4ee77f1000120b640fbb0df8e646b29c83c5ed08aea89f72ab108922827ea76cd3b91"
    "7d6d99420200010c00010002000300040005000600000400010002010000000000000000ffffffffffffffff00404830"
    "46022100a1168a2d80fb099aba2f983c5c3e344127f0d57e4b57b841ec2dfacdd1be629602210099422833715ad86ed4"
    "02557d453e359f4c7c7a87dc2438f514047d6fcfb0b31a0040473045022100d973500369913a17440a0491c6119a50e0"
    "911d175b588f0cfde3ff41274aa9f5022043e06b3f7c32f2a40f68802b87743d6e1b0828efcedd182fe6363b45f9656e"
    "19")
WELCOME = (
    "000100030002409820e25365e70ce3dc73d96d38ff1969f3488e9999ab81403e26437c9332bf0f878d404104d0d23790"
    "7f851105d0317a02e3bc53006a0632d1e36398d511cc9b8a0847d4397276473fe7183c7c997de9ccd5500d82735c179e"
    "03db75cacc82129c37dc796133a9331de12bd6fe7c212b6ade3b2967feff8ed72b1dfbad54b07d7a9c13c9afe00c1c47"
    "186af40b33a07670827404f7cd99e86e40ef0bee12b48b86d125155b035f52e8a131469cf1b9645d70e270d3aa21c049"
    "45fa80b7fea30ccfceb436e4df23558cdc1a6cd435db3199314795b7c488b4bf0855cb589ad9c7eb43ea8bc9edef6b85"
    "ad1c97451b706e5de27aabe664dca132a288b3fc091b9100e470fb506833aaa4ab279a4480b6e01e9d9b502537197c12"
    "9b98aacbc52a7a440844c4fb153bf0ec32629eca3bf038cd2e89226e953f2cb36171d9f86df078e5bb12fabb90da79de"
    "ac8a207986089add4da2dd2ad9c7bb5407c80fd1e0e89ece6c328ee9bf27e79a56961e794b4b85d01befdde8e4255a80"
    "a62e58ac2b668485b9b3876afdc51e5a63")


@pytest.mark.parametrize("header,length", VARINTS)
def test_varints_round_trip(header: str, length: int) -> None:
    assert mls.encode_varint(length).hex() == header
    assert mls.Reader(bytes.fromhex(header)).varint("v") == length


def test_varint_rules() -> None:
    with pytest.raises(mls.MlsDecodeError, match="not minimally encoded"):
        mls.Reader(bytes.fromhex("4001")).varint("v")
    with pytest.raises(mls.MlsDecodeError, match="reserved"):
        mls.Reader(bytes.fromhex("c0000000")).varint("v")
    with pytest.raises(mls.MlsDecodeError, match="x.y: needs 5 bytes"):
        mls.Reader(bytes.fromhex("05aa")).opaque("x.y")


def test_ref_hash_and_sign_with_label_vectors() -> None:
    assert mls.ref_hash(REF_HASH["label"], bytes.fromhex(REF_HASH["value"])).hex() == REF_HASH["out"]
    pub, content = bytes.fromhex(SIGN["pub"]), bytes.fromhex(SIGN["content"])
    assert mls.verify_with_label(pub, b"SignWithLabel", content, bytes.fromhex(SIGN["signature"]))
    assert not mls.verify_with_label(pub, b"SignWithLabel", content + b"x", bytes.fromhex(SIGN["signature"]))


def test_key_package_vector_parses_verifies_and_its_ref_is_the_welcomes() -> None:
    package = mls.parse_key_package(bytes.fromhex(KEY_PACKAGE))
    assert (package.version, package.cipher_suite) == (1, 2)
    assert package.leaf_node.credential.credential_type == mls.CREDENTIAL_BASIC
    assert (package.leaf_node.not_before, package.leaf_node.not_after) == (0, mls.UINT64_MAX)
    assert mls.verify_with_label(package.leaf_node.signature_key, b"KeyPackageTBS", package.tbs, package.signature)
    welcome = mls.parse_welcome(bytes.fromhex(WELCOME))
    assert welcome.wrapped and welcome.member_refs() == {package.ref}
    assert welcome.for_member(package.ref).hex() == WELCOME
    with pytest.raises(mls.MlsValidationError, match="no entry"):
        welcome.for_member(bytes(32))
    # The vector's identity is not an 8-byte user id: DAVE validation refuses it, naming the field.
    with pytest.raises(mls.MlsValidationError, match="credential.identity"):
        mls.validate_key_package(package, user_id=1)


def test_tampered_key_package_fails_its_signature() -> None:
    data = bytearray(bytes.fromhex(KEY_PACKAGE))
    data[10] ^= 1                                     # inside init_key
    package = mls.parse_key_package(bytes(data))
    assert not mls.verify_with_label(package.leaf_node.signature_key, b"KeyPackageTBS", package.tbs,
                                     package.signature)


def test_truncated_structures_name_the_field() -> None:
    with pytest.raises(mls.MlsDecodeError, match="leaf_node|key_package"):
        mls.parse_key_package(bytes.fromhex(KEY_PACKAGE)[:200])
    with pytest.raises(mls.MlsDecodeError, match="trailing"):
        mls.parse_key_package(bytes.fromhex(KEY_PACKAGE) + b"\0")
    with pytest.raises(mls.MlsDecodeError, match="wire_format"):
        mls.parse_public_message(bytes.fromhex("00010005"))


def test_external_proposal_is_signed_by_the_external_sender_and_parses_back() -> None:
    sender = mls.ExternalSender()
    package = mls.parse_key_package(bytes.fromhex(KEY_PACKAGE))
    message, ref = sender.proposal_message(mls.u64(42), 3, mls.Proposal(mls.PROPOSAL_ADD, key_package=package))
    parsed = mls.parse_public_message(message)
    assert (parsed.group_id, parsed.epoch, parsed.sender_type, parsed.sender_index) == (mls.u64(42), 3, 2, 0)
    assert parsed.proposal is not None and parsed.proposal.key_package == package
    assert parsed.proposal_ref == ref
    tbs = mls.u16(1) + parsed.authenticated_content[:-len(mls.opaque(parsed.signature))]
    assert mls.verify_with_label(sender.public_key, b"FramedContentTBS", tbs, parsed.signature)
    remove, _ = sender.proposal_message(mls.u64(42), 3, mls.Proposal(mls.PROPOSAL_REMOVE, removed=7))
    assert mls.parse_public_message(remove).proposal == mls.Proposal(mls.PROPOSAL_REMOVE, removed=7)
    assert "private" not in repr(sender).lower() and repr(sender).startswith("ExternalSender(")
