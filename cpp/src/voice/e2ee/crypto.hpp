// The primitives of MLS cipher suite 2 (MLS_128_DHKEMP256_AES128GCM_SHA256_P256), over OpenSSL 3 EVP.
// Every function throws Error (kind Crypto) when OpenSSL fails; none logs key material.
#pragma once

#include <memory>
#include <string>

#include "voice/e2ee/common.hpp"

namespace platformpp::voice::e2ee {

// Sizes fixed by cipher suite 2.
constexpr std::uint16_t kCipherSuite = 2;
constexpr std::size_t kHashSize = 32;        // Nh, SHA-256
constexpr std::size_t kAeadKeySize = 16;     // Nk, AES-128-GCM
constexpr std::size_t kAeadNonceSize = 12;   // Nn
constexpr std::size_t kAeadTagSize = 16;     // full GCM tag (DAVE truncates to 8 via AesGcm128)
constexpr std::size_t kPublicKeySize = 65;   // uncompressed P-256 point: 0x04 || X || Y
constexpr std::size_t kPrivateKeySize = 32;  // P-256 scalar, big-endian

// --- Hash, MAC, KDF -------------------------------------------------------------------------------

// SHA-256 of data.
Bytes sha256(BytesView data);
// HMAC-SHA256(key, data).
Bytes hmac_sha256(BytesView key, BytesView data);
// HKDF-Extract(salt, ikm) with SHA-256 (RFC 5869); an empty salt means Nh zero bytes.
Bytes hkdf_extract(BytesView salt, BytesView ikm);
// HKDF-Expand(prk, info, length) with SHA-256; length <= 255 * 32.
Bytes hkdf_expand(BytesView prk, BytesView info, std::size_t length);

// MLS ExpandWithLabel(secret, label, context, length): HKDF-Expand over KDFLabel with "MLS 1.0 " + label.
Bytes expand_with_label(BytesView secret, const std::string& label, BytesView context, std::size_t length);
// MLS DeriveSecret(secret, label) = ExpandWithLabel(secret, label, "", Nh).
Bytes derive_secret(BytesView secret, const std::string& label);
// MLS DeriveTreeSecret(secret, label, generation, length): context is the uint32 generation.
Bytes derive_tree_secret(BytesView secret, const std::string& label, std::uint32_t generation, std::size_t length);
// MLS RefHash(label, value) = SHA-256(RefHashInput{label<V>, value<V>}); label is used as given
// (e.g. "MLS 1.0 KeyPackage Reference").
Bytes ref_hash(const std::string& label, BytesView value);

// n bytes from OpenSSL's CSPRNG.
Bytes random_bytes(std::size_t n);

// --- AEAD ------------------------------------------------------------------------------------------

// AES-128-GCM with one key, reusing its OpenSSL context so a call allocates nothing (the DAVE frame
// path). Nonce is 12 bytes; tag_size is 4..16 (16 for MLS, 8 for DAVE's truncated tag).
class AesGcm128 {
 public:
  explicit AesGcm128(BytesView key);
  ~AesGcm128();
  AesGcm128(AesGcm128&&) noexcept;
  AesGcm128& operator=(AesGcm128&&) noexcept;
  AesGcm128(const AesGcm128&) = delete;
  AesGcm128& operator=(const AesGcm128&) = delete;

  // Encrypts plaintext into ciphertext_out (plaintext.size bytes; may alias plaintext) and writes
  // tag_size bytes of tag into tag_out.
  void seal(BytesView nonce, BytesView aad, BytesView plaintext, std::uint8_t* ciphertext_out,
            std::uint8_t* tag_out, std::size_t tag_size);
  // Decrypts into plaintext_out (ciphertext.size bytes; may alias). Returns false (and leaves
  // plaintext_out unspecified) when the tag does not verify.
  bool open(BytesView nonce, BytesView aad, BytesView ciphertext, BytesView tag, std::uint8_t* plaintext_out);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One-shot AES-128-GCM with a full 16-byte tag: returns ciphertext || tag.
Bytes aead_seal(BytesView key, BytesView nonce, BytesView aad, BytesView plaintext);
// One-shot open of ciphertext || tag; throws Error(Crypto) when the tag does not verify.
Bytes aead_open(BytesView key, BytesView nonce, BytesView aad, BytesView ciphertext_and_tag);

// --- Signatures: ECDSA P-256 with SHA-256, DER-encoded as MLS carries them -------------------------

struct SignatureKeyPair {
  Bytes private_key;  // 32-byte scalar
  Bytes public_key;   // 65-byte uncompressed point
};

// A fresh P-256 signature key pair.
SignatureKeyPair generate_signature_key_pair();
// The public key (65 bytes) for a 32-byte private scalar; throws Error(Crypto) when out of range.
Bytes signature_public_key(BytesView private_key);
// MLS SignWithLabel(priv, label, content): ECDSA over SignContent{"MLS 1.0 " + label, content}.
Bytes sign_with_label(BytesView private_key, const std::string& label, BytesView content);
// MLS VerifyWithLabel; false for a bad signature or an invalid public key, never throws for them.
bool verify_with_label(BytesView public_key, const std::string& label, BytesView content, BytesView signature);

// --- HPKE (RFC 9180) base mode: DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM ----------------

struct HpkeKeyPair {
  Bytes private_key;  // 32-byte scalar
  Bytes public_key;   // 65-byte uncompressed point
};

struct HpkeCiphertext {
  Bytes kem_output;  // enc: the ephemeral public key
  Bytes ciphertext;  // AEAD ciphertext || tag
};

// A fresh HPKE key pair.
HpkeKeyPair hpke_generate_key_pair();
// RFC 9180 DeriveKeyPair(ikm) for DHKEM(P-256): deterministic, as MLS uses for path secrets.
HpkeKeyPair hpke_derive_key_pair(BytesView ikm);
// The HPKE public key for a private scalar.
Bytes hpke_public_key(BytesView private_key);
// SetupBaseS + one Seal (sequence 0) to recipient_public_key.
HpkeCiphertext hpke_seal_base(BytesView recipient_public_key, BytesView info, BytesView aad, BytesView plaintext);
// SetupBaseR + one Open (sequence 0); throws Error(Crypto) when decapsulation or the tag fails.
Bytes hpke_open_base(BytesView recipient_private_key, BytesView kem_output, BytesView info, BytesView aad,
                     BytesView ciphertext);
// MLS EncryptWithLabel(pub, label, context, plaintext): HPKE base with info EncryptContext, empty aad.
HpkeCiphertext encrypt_with_label(BytesView public_key, const std::string& label, BytesView context,
                                  BytesView plaintext);
// MLS DecryptWithLabel; throws Error(Crypto) on failure.
Bytes decrypt_with_label(BytesView private_key, const std::string& label, BytesView context, BytesView kem_output,
                         BytesView ciphertext);

}  // namespace platformpp::voice::e2ee
