"""Transport encryption of RTP/RTCP between one participant and the relay: the two "rtpsize" AEAD modes.

Packet layout for both modes: unencrypted header (used as AEAD additional data) || ciphertext with a
16-byte tag || a 4-byte big-endian nonce counter. The header is what SRTP leaves in the clear: 12 bytes,
the CSRCs, and the 4-byte extension preamble when the X bit is set (the extension body is encrypted).
For RTCP the clear header is the first 8 bytes. The 32-bit counter fills the start of the mode's nonce
(12 bytes for AES-256-GCM, 24 for XChaCha20-Poly1305); the rest is zero.
"""

from __future__ import annotations

import struct

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from nacl.bindings import (
    crypto_aead_xchacha20poly1305_ietf_decrypt,
    crypto_aead_xchacha20poly1305_ietf_encrypt,
)
from nacl.exceptions import CryptoError

MODE_AES256_GCM = "aead_aes256_gcm_rtpsize"
MODE_XCHACHA20 = "aead_xchacha20_poly1305_rtpsize"
SUPPORTED_MODES = (MODE_AES256_GCM, MODE_XCHACHA20)   # preferred first, as Ready lists them
NONCE_SUFFIX = 4
TAG_SIZE = 16
RTCP_HEADER = 8


class DecryptError(ValueError):
    """The packet does not authenticate under the session key (bad tag, wrong key or truncated)."""


def rtp_header_length(packet: bytes) -> int:
    """The clear header length of an RTP packet under the rtpsize rule; ValueError if it cannot hold one."""
    if len(packet) < 12:
        raise ValueError("RTP packet shorter than its 12-byte fixed header")
    length = 12 + 4 * (packet[0] & 0x0F)
    if packet[0] & 0x10:
        length += 4
    if len(packet) < length:
        raise ValueError("RTP packet shorter than its CSRC list and extension preamble")
    return length


def is_rtcp(packet: bytes) -> bool:
    """RTP and RTCP share the socket; RTCP packet types 200..204 sit where RTP has marker+payload type."""
    return len(packet) >= 2 and 200 <= packet[1] <= 204


class TransportCipher:
    """One participant's session key and mode; encrypts with its own nonce counter."""

    __slots__ = ("mode", "_encrypt", "_decrypt", "_counter")

    def __init__(self, mode: str, key: bytes) -> None:
        if mode not in SUPPORTED_MODES:
            raise ValueError(f"mode {mode!r} is not one of {', '.join(SUPPORTED_MODES)}")
        if len(key) != 32:
            raise ValueError("secret_key must be 32 bytes")
        self.mode = mode
        self._counter = 0
        if mode == MODE_AES256_GCM:
            aead = AESGCM(key)

            def encrypt(nonce4: bytes, plaintext: bytes, aad: bytes) -> bytes:
                return aead.encrypt(nonce4 + b"\0" * 8, plaintext, aad)

            def decrypt(nonce4: bytes, ciphertext: bytes, aad: bytes) -> bytes:
                try:
                    return aead.decrypt(nonce4 + b"\0" * 8, ciphertext, aad)
                except InvalidTag:
                    raise DecryptError("AES-GCM tag mismatch") from None
        else:
            def encrypt(nonce4: bytes, plaintext: bytes, aad: bytes) -> bytes:
                return crypto_aead_xchacha20poly1305_ietf_encrypt(plaintext, aad, nonce4 + b"\0" * 20, key)

            def decrypt(nonce4: bytes, ciphertext: bytes, aad: bytes) -> bytes:
                try:
                    return crypto_aead_xchacha20poly1305_ietf_decrypt(ciphertext, aad, nonce4 + b"\0" * 20, key)
                except CryptoError:
                    raise DecryptError("XChaCha20-Poly1305 tag mismatch") from None
        self._encrypt = encrypt
        self._decrypt = decrypt

    def __repr__(self) -> str:
        return f"TransportCipher(mode={self.mode!r})"

    def seal(self, header: bytes, plaintext: bytes) -> bytes:
        """header || AEAD(plaintext) || counter, with the next value of this cipher's counter."""
        self._counter = (self._counter + 1) & 0xFFFFFFFF
        nonce4 = struct.pack(">I", self._counter)
        return header + self._encrypt(nonce4, plaintext, header) + nonce4

    def open(self, packet: bytes, header_length: int) -> bytes:
        """The plaintext after `header_length` clear bytes; DecryptError when it does not authenticate."""
        if len(packet) < header_length + TAG_SIZE + NONCE_SUFFIX:
            raise DecryptError("packet too short for header, tag and nonce")
        header = packet[:header_length]
        return self._decrypt(packet[-NONCE_SUFFIX:], packet[header_length:-NONCE_SUFFIX], header)
