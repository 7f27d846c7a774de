"""The small part of MLS (RFC 9420) the voice gateway needs as DAVE delivery service and external sender.

The gateway never joins the group, so it needs no HPKE, key schedule or tree hashing. It needs to:
read and validate key packages (credential, lifetime, signatures), compute key package and proposal
references, sign external Add/Remove proposals as PublicMessages, read commits far enough to check
which proposals they reference and who sent them, and split a Welcome per new member.

Wire rules (RFC 9420 section 2): big-endian integers, vectors with a variable-size length header
(1, 2 or 4 bytes, the top two bits of the first byte giving the size, minimal encoding required),
`optional<T>` as a presence byte. Cipher suite 2 (P-256, SHA-256, ECDSA with DER signatures) only.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass, field
from typing import NamedTuple

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

MLS_VERSION_10 = 1
CIPHER_SUITE_P256 = 2          # MLS_128_DHKEMP256_AES128GCM_SHA256_P256, the DAVE v1 suite

# WireFormat (uint16)
WIRE_PUBLIC_MESSAGE = 1
WIRE_PRIVATE_MESSAGE = 2
WIRE_WELCOME = 3
WIRE_GROUP_INFO = 4
WIRE_KEY_PACKAGE = 5

# SenderType (uint8)
SENDER_MEMBER = 1
SENDER_EXTERNAL = 2
SENDER_NEW_MEMBER_PROPOSAL = 3
SENDER_NEW_MEMBER_COMMIT = 4

# ContentType (uint8)
CONTENT_APPLICATION = 1
CONTENT_PROPOSAL = 2
CONTENT_COMMIT = 3

# ProposalType (uint16)
PROPOSAL_ADD = 1
PROPOSAL_REMOVE = 3

# ProposalOrRefType (uint8)
PROPOSAL_INLINE = 1
PROPOSAL_REFERENCE = 2

CREDENTIAL_BASIC = 1
LEAF_SOURCE_KEY_PACKAGE = 1
LEAF_SOURCE_UPDATE = 2
LEAF_SOURCE_COMMIT = 3

UINT64_MAX = (1 << 64) - 1
_MAX_VARINT = (1 << 30) - 1


class MlsDecodeError(ValueError):
    """Bytes that are not the MLS structure expected; the message names the field and the rule."""


class MlsValidationError(ValueError):
    """A well-formed MLS structure that breaks a DAVE or MLS rule; the message names the rule."""


# ---------------------------------------------------------------- encoding

def encode_varint(value: int) -> bytes:
    if value < 0 or value > _MAX_VARINT:
        raise ValueError(f"vector length {value} is outside 0..2^30-1")
    if value < 0x40:
        return bytes([value])
    if value < 0x4000:
        return struct.pack(">H", 0x4000 | value)
    return struct.pack(">I", 0x80000000 | value)


def opaque(data: bytes) -> bytes:
    """`opaque x<V>`: a varint length then the bytes."""
    return encode_varint(len(data)) + data


def u8(value: int) -> bytes:
    return struct.pack(">B", value)


def u16(value: int) -> bytes:
    return struct.pack(">H", value)


def u32(value: int) -> bytes:
    return struct.pack(">I", value)


def u64(value: int) -> bytes:
    return struct.pack(">Q", value)


# ---------------------------------------------------------------- decoding

class Reader:
    """A cursor over bytes; every read names the field it was reading when the input runs out."""

    __slots__ = ("data", "pos")

    def __init__(self, data: bytes, pos: int = 0) -> None:
        self.data = data
        self.pos = pos

    def _take(self, count: int, what: str) -> bytes:
        end = self.pos + count
        if end > len(self.data):
            raise MlsDecodeError(f"{what}: needs {count} bytes at offset {self.pos}, "
                                 f"only {len(self.data) - self.pos} remain")
        chunk = self.data[self.pos:end]
        self.pos = end
        return chunk

    def u8(self, what: str) -> int:
        return self._take(1, what)[0]

    def u16(self, what: str) -> int:
        return struct.unpack(">H", self._take(2, what))[0]

    def u32(self, what: str) -> int:
        return struct.unpack(">I", self._take(4, what))[0]

    def u64(self, what: str) -> int:
        return struct.unpack(">Q", self._take(8, what))[0]

    def varint(self, what: str) -> int:
        first = self.u8(what)
        prefix = first >> 6
        if prefix == 0:
            return first & 0x3F
        if prefix == 1:
            value = ((first & 0x3F) << 8) | self.u8(what)
            if value < 0x40:
                raise MlsDecodeError(f"{what}: length {value} is not minimally encoded")
            return value
        if prefix == 2:
            rest = self._take(3, what)
            value = ((first & 0x3F) << 24) | (rest[0] << 16) | (rest[1] << 8) | rest[2]
            if value < 0x4000:
                raise MlsDecodeError(f"{what}: length {value} is not minimally encoded")
            return value
        raise MlsDecodeError(f"{what}: length prefix 0b11 is reserved")

    def opaque(self, what: str) -> bytes:
        return self._take(self.varint(what), what)

    def vector(self, what: str) -> "Reader":
        """A sub-reader over the body of a `T items<V>` vector."""
        return Reader(self.opaque(what))

    def at_end(self) -> bool:
        return self.pos == len(self.data)

    def expect_end(self, what: str) -> None:
        if self.pos != len(self.data):
            raise MlsDecodeError(f"{what}: {len(self.data) - self.pos} unexpected trailing bytes")


# ---------------------------------------------------------------- structures

class Credential(NamedTuple):
    credential_type: int
    identity: bytes

    def encode(self) -> bytes:
        return u16(self.credential_type) + opaque(self.identity)


def _read_credential(reader: Reader) -> Credential:
    credential_type = reader.u16("credential.credential_type")
    if credential_type == CREDENTIAL_BASIC:
        return Credential(credential_type, reader.opaque("credential.identity"))
    if credential_type == 2:  # x509: certificates<V>, kept only to skip it
        return Credential(credential_type, reader.opaque("credential.certificates"))
    raise MlsDecodeError(f"credential.credential_type: {credential_type} is not basic (1) or x509 (2)")


class LeafNode(NamedTuple):
    encryption_key: bytes
    signature_key: bytes
    credential: Credential
    source: int
    not_before: int | None
    not_after: int | None
    signature: bytes
    tbs: bytes            # the LeafNode bytes before the signature (LeafNodeTBS for key packages)


def _read_leaf_node(reader: Reader) -> LeafNode:
    start = reader.pos
    encryption_key = reader.opaque("leaf_node.encryption_key")
    signature_key = reader.opaque("leaf_node.signature_key")
    credential = _read_credential(reader)
    for name in ("versions", "cipher_suites", "extensions", "proposals", "credentials"):
        reader.opaque(f"leaf_node.capabilities.{name}")
    source = reader.u8("leaf_node.leaf_node_source")
    not_before = not_after = None
    if source == LEAF_SOURCE_KEY_PACKAGE:
        not_before = reader.u64("leaf_node.lifetime.not_before")
        not_after = reader.u64("leaf_node.lifetime.not_after")
    elif source == LEAF_SOURCE_COMMIT:
        reader.opaque("leaf_node.parent_hash")
    elif source != LEAF_SOURCE_UPDATE:
        raise MlsDecodeError(f"leaf_node.leaf_node_source: {source} is not 1, 2 or 3")
    reader.opaque("leaf_node.extensions")
    tbs = reader.data[start:reader.pos]
    signature = reader.opaque("leaf_node.signature")
    return LeafNode(encryption_key, signature_key, credential, source, not_before, not_after, signature, tbs)


class KeyPackage(NamedTuple):
    version: int
    cipher_suite: int
    init_key: bytes
    leaf_node: LeafNode
    signature: bytes
    tbs: bytes            # KeyPackageTBS
    encoded: bytes        # the whole KeyPackage (what KeyPackageRef hashes)

    @property
    def ref(self) -> bytes:
        return ref_hash(b"MLS 1.0 KeyPackage Reference", self.encoded)


def _read_key_package(reader: Reader) -> KeyPackage:
    start = reader.pos
    version = reader.u16("key_package.version")
    cipher_suite = reader.u16("key_package.cipher_suite")
    init_key = reader.opaque("key_package.init_key")
    leaf_node = _read_leaf_node(reader)
    reader.opaque("key_package.extensions")
    tbs = reader.data[start:reader.pos]
    signature = reader.opaque("key_package.signature")
    return KeyPackage(version, cipher_suite, init_key, leaf_node, signature, tbs, reader.data[start:reader.pos])


def parse_key_package(data: bytes) -> KeyPackage:
    """A KeyPackage, bare or wrapped in an MLSMessage (DAVE clients send either form)."""
    reader = Reader(data)
    if len(data) >= 4 and struct.unpack(">H", data[2:4])[0] == WIRE_KEY_PACKAGE:
        version = reader.u16("mls_message.version")
        if version != MLS_VERSION_10:
            raise MlsDecodeError(f"mls_message.version: {version} is not mls10 (1)")
        reader.u16("mls_message.wire_format")
    package = _read_key_package(reader)
    reader.expect_end("key_package")
    return package


def validate_key_package(package: KeyPackage, *, user_id: int) -> None:
    """DAVE's checks before proposing an Add: suite, basic credential holding the big-endian user id,
    the widest lifetime, and both signatures (key package and leaf node) by the leaf's key."""
    if package.version != MLS_VERSION_10:
        raise MlsValidationError(f"key_package.version: {package.version} is not mls10 (1)")
    if package.cipher_suite != CIPHER_SUITE_P256:
        raise MlsValidationError(f"key_package.cipher_suite: {package.cipher_suite} is not 2 (P-256)")
    leaf = package.leaf_node
    if leaf.source != LEAF_SOURCE_KEY_PACKAGE:
        raise MlsValidationError("leaf_node.leaf_node_source: must be key_package (1)")
    if leaf.credential.credential_type != CREDENTIAL_BASIC:
        raise MlsValidationError("leaf_node.credential: must be a basic credential")
    if leaf.credential.identity != u64(user_id):
        raise MlsValidationError("leaf_node.credential.identity: must be the session's user id, "
                                 "64-bit big-endian")
    if (leaf.not_before, leaf.not_after) != (0, UINT64_MAX):
        raise MlsValidationError("leaf_node.lifetime: must be not_before=0, not_after=2^64-1")
    if not verify_with_label(leaf.signature_key, b"LeafNodeTBS", leaf.tbs, leaf.signature):
        raise MlsValidationError("leaf_node.signature: does not verify with the leaf's signature key")
    if not verify_with_label(leaf.signature_key, b"KeyPackageTBS", package.tbs, package.signature):
        raise MlsValidationError("key_package.signature: does not verify with the leaf's signature key")


class Proposal(NamedTuple):
    proposal_type: int
    key_package: KeyPackage | None = None     # Add
    removed: int | None = None                # Remove: the leaf index

    def encode(self) -> bytes:
        if self.proposal_type == PROPOSAL_ADD and self.key_package is not None:
            return u16(PROPOSAL_ADD) + self.key_package.encoded
        if self.proposal_type == PROPOSAL_REMOVE and self.removed is not None:
            return u16(PROPOSAL_REMOVE) + u32(self.removed)
        raise ValueError("only Add and Remove proposals are encoded by the gateway")


def _read_proposal(reader: Reader) -> Proposal:
    proposal_type = reader.u16("proposal.proposal_type")
    if proposal_type == PROPOSAL_ADD:
        return Proposal(PROPOSAL_ADD, key_package=_read_key_package(reader))
    if proposal_type == PROPOSAL_REMOVE:
        return Proposal(PROPOSAL_REMOVE, removed=reader.u32("proposal.remove.removed"))
    raise MlsDecodeError(f"proposal.proposal_type: {proposal_type} is not Add (1) or Remove (3), "
                         "the only types DAVE allows")


class Commit(NamedTuple):
    proposal_refs: tuple[bytes, ...]
    inline_proposals: int                      # count; DAVE commits must carry none
    path_leaf: LeafNode | None


def _read_commit(reader: Reader) -> Commit:
    refs: list[bytes] = []
    inline = 0
    items = reader.vector("commit.proposals")
    while not items.at_end():
        kind = items.u8("proposal_or_ref.type")
        if kind == PROPOSAL_REFERENCE:
            refs.append(items.opaque("proposal_or_ref.reference"))
        elif kind == PROPOSAL_INLINE:
            _read_proposal(items)
            inline += 1
        else:
            raise MlsDecodeError(f"proposal_or_ref.type: {kind} is not proposal (1) or reference (2)")
    path_leaf = None
    present = reader.u8("commit.path (optional presence)")
    if present == 1:
        path_leaf = _read_leaf_node(reader)
        reader.opaque("commit.path.nodes")
    elif present != 0:
        raise MlsDecodeError(f"commit.path: presence byte {present} is not 0 or 1")
    return Commit(tuple(refs), inline, path_leaf)


class PublicMessage(NamedTuple):
    group_id: bytes
    epoch: int
    sender_type: int
    sender_index: int | None
    content_type: int
    proposal: Proposal | None
    commit: Commit | None
    signature: bytes
    authenticated_content: bytes   # wire_format || FramedContent || FramedContentAuthData

    @property
    def proposal_ref(self) -> bytes:
        return ref_hash(b"MLS 1.0 Proposal Reference", self.authenticated_content)


def parse_public_message(data: bytes) -> PublicMessage:
    """An MLSMessage that must hold a PublicMessage (DAVE handshake messages are never private)."""
    reader = Reader(data)
    version = reader.u16("mls_message.version")
    if version != MLS_VERSION_10:
        raise MlsDecodeError(f"mls_message.version: {version} is not mls10 (1)")
    wire_format = reader.u16("mls_message.wire_format")
    if wire_format != WIRE_PUBLIC_MESSAGE:
        raise MlsDecodeError(f"mls_message.wire_format: {wire_format} is not mls_public_message (1)")
    message, end = _read_public_message(reader)
    reader.expect_end("mls_message")
    return message


def _read_public_message(reader: Reader) -> tuple[PublicMessage, int]:
    content_start = reader.pos
    group_id = reader.opaque("framed_content.group_id")
    epoch = reader.u64("framed_content.epoch")
    sender_type = reader.u8("framed_content.sender.sender_type")
    sender_index = None
    if sender_type in (SENDER_MEMBER, SENDER_EXTERNAL):
        sender_index = reader.u32("framed_content.sender.index")
    elif sender_type not in (SENDER_NEW_MEMBER_PROPOSAL, SENDER_NEW_MEMBER_COMMIT):
        raise MlsDecodeError(f"framed_content.sender.sender_type: {sender_type} is not 1..4")
    reader.opaque("framed_content.authenticated_data")
    content_type = reader.u8("framed_content.content_type")
    proposal = commit = None
    if content_type == CONTENT_PROPOSAL:
        proposal = _read_proposal(reader)
    elif content_type == CONTENT_COMMIT:
        commit = _read_commit(reader)
    elif content_type == CONTENT_APPLICATION:
        raise MlsDecodeError("framed_content.content_type: application data is never public")
    else:
        raise MlsDecodeError(f"framed_content.content_type: {content_type} is not 1, 2 or 3")
    signature = reader.opaque("auth.signature")
    if content_type == CONTENT_COMMIT:
        reader.opaque("auth.confirmation_tag")
    auth_end = reader.pos
    if sender_type == SENDER_MEMBER:
        reader.opaque("public_message.membership_tag")
    authenticated = u16(WIRE_PUBLIC_MESSAGE) + reader.data[content_start:auth_end]
    return PublicMessage(group_id, epoch, sender_type, sender_index, content_type, proposal, commit,
                         signature, authenticated), auth_end


class EncryptedGroupSecrets(NamedTuple):
    new_member: bytes          # KeyPackageRef
    encoded: bytes


class Welcome(NamedTuple):
    cipher_suite: int
    secrets: tuple[EncryptedGroupSecrets, ...]
    encrypted_group_info: bytes
    wrapped: bool = False      # arrived inside an MLSMessage; answered in the same form

    def for_member(self, ref: bytes) -> bytes:
        """The Welcome holding only the group secrets encrypted to one new member."""
        chosen = [entry.encoded for entry in self.secrets if entry.new_member == ref]
        if not chosen:
            raise MlsValidationError("welcome.secrets: no entry for the member's key package")
        body = u16(self.cipher_suite) + opaque(b"".join(chosen)) + opaque(self.encrypted_group_info)
        return (u16(MLS_VERSION_10) + u16(WIRE_WELCOME) + body) if self.wrapped else body

    def member_refs(self) -> set[bytes]:
        return {entry.new_member for entry in self.secrets}


def parse_welcome(data: bytes) -> Welcome:
    """A Welcome, bare (DAVE 1.1.2) or inside an MLSMessage (earlier clients)."""
    reader = Reader(data)
    wrapped = len(data) >= 4 and data[:4] == u16(MLS_VERSION_10) + u16(WIRE_WELCOME)
    if wrapped:
        reader.pos = 4
    welcome, _ = _read_welcome(reader, wrapped)
    reader.expect_end("welcome")
    return welcome


def _read_welcome(reader: Reader, wrapped: bool) -> tuple[Welcome, int]:
    cipher_suite = reader.u16("welcome.cipher_suite")
    entries = []
    items = reader.vector("welcome.secrets")
    while not items.at_end():
        start = items.pos
        new_member = items.opaque("encrypted_group_secrets.new_member")
        items.opaque("encrypted_group_secrets.kem_output")
        items.opaque("encrypted_group_secrets.ciphertext")
        entries.append(EncryptedGroupSecrets(new_member, items.data[start:items.pos]))
    info = reader.opaque("welcome.encrypted_group_info")
    return Welcome(cipher_suite, tuple(entries), info, wrapped), reader.pos


def split_commit_welcome(data: bytes) -> tuple[PublicMessage, bytes, Welcome | None]:
    """Op 28's payload: an MLSMessage commit then, when the commit adds members, a Welcome."""
    reader = Reader(data)
    version = reader.u16("commit_message.version")
    if version != MLS_VERSION_10:
        raise MlsDecodeError(f"commit_message.version: {version} is not mls10 (1)")
    wire_format = reader.u16("commit_message.wire_format")
    if wire_format != WIRE_PUBLIC_MESSAGE:
        raise MlsDecodeError(f"commit_message.wire_format: {wire_format} is not mls_public_message (1)")
    message, _ = _read_public_message(reader)
    commit_bytes = data[:reader.pos]
    if message.commit is None:
        raise MlsDecodeError("commit_message: the PublicMessage does not carry a commit")
    if reader.at_end():
        return message, commit_bytes, None
    rest = data[reader.pos:]
    welcome = parse_welcome(rest)
    return message, commit_bytes, welcome


# ---------------------------------------------------------------- crypto helpers

def ref_hash(label: bytes, value: bytes) -> bytes:
    return hashlib.sha256(opaque(label) + opaque(value)).digest()


def _sign_content(label: bytes, content: bytes) -> bytes:
    return opaque(b"MLS 1.0 " + label) + opaque(content)


def sign_with_label(private_key: ec.EllipticCurvePrivateKey, label: bytes, content: bytes) -> bytes:
    return private_key.sign(_sign_content(label, content), ec.ECDSA(hashes.SHA256()))


def verify_with_label(public_key: bytes, label: bytes, content: bytes, signature: bytes) -> bool:
    try:
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), public_key)
        key.verify(signature, _sign_content(label, content), ec.ECDSA(hashes.SHA256()))
        return True
    except (InvalidSignature, ValueError):
        return False


@dataclass
class ExternalSender:
    """The voice gateway's MLS external sender identity: a P-256 key and a basic credential."""

    identity: bytes = b"voice-gateway"
    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()), repr=False)

    @property
    def public_key(self) -> bytes:
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
        return self.private_key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)

    def package(self) -> bytes:
        """The ExternalSender struct of op 25 (and of the group's external_senders extension)."""
        return opaque(self.public_key) + Credential(CREDENTIAL_BASIC, self.identity).encode()

    def __repr__(self) -> str:
        return f"ExternalSender(identity={self.identity!r})"

    def proposal_message(self, group_id: bytes, epoch: int, proposal: Proposal) -> tuple[bytes, bytes]:
        """An MLSMessage(PublicMessage) carrying `proposal` from external sender 0, and its ProposalRef."""
        content = (opaque(group_id) + u64(epoch) + u8(SENDER_EXTERNAL) + u32(0) + opaque(b"")
                   + u8(CONTENT_PROPOSAL) + proposal.encode())
        tbs = u16(MLS_VERSION_10) + u16(WIRE_PUBLIC_MESSAGE) + content
        signature = sign_with_label(self.private_key, b"FramedContentTBS", tbs)
        auth = opaque(signature)
        message = u16(MLS_VERSION_10) + u16(WIRE_PUBLIC_MESSAGE) + content + auth
        ref = ref_hash(b"MLS 1.0 Proposal Reference", u16(WIRE_PUBLIC_MESSAGE) + content + auth)
        return message, ref
