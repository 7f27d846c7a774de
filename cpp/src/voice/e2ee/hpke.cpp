// HPKE (RFC 9180) base mode for one suite: DHKEM(P-256, HKDF-SHA256) 0x0010, HKDF-SHA256 0x0001,
// AES-128-GCM 0x0001. MLS only ever seals one message per context, so sequence number 0 is the nonce.
#include <openssl/crypto.h>

#include "voice/e2ee/crypto.hpp"
#include "voice/e2ee/crypto_internal.hpp"
#include "voice/e2ee/tls_codec.hpp"

namespace platformpp::voice::e2ee {

namespace {

const Bytes kKemSuiteId = {'K', 'E', 'M', 0x00, 0x10};
const Bytes kHpkeSuiteId = {'H', 'P', 'K', 'E', 0x00, 0x10, 0x00, 0x01, 0x00, 0x01};
const std::string kVersionLabel = "HPKE-v1";

Bytes labeled_extract(const Bytes& suite_id, BytesView salt, const std::string& label, BytesView ikm) {
  Bytes labeled(kVersionLabel.begin(), kVersionLabel.end());
  labeled.insert(labeled.end(), suite_id.begin(), suite_id.end());
  labeled.insert(labeled.end(), label.begin(), label.end());
  labeled.insert(labeled.end(), ikm.begin(), ikm.end());
  Bytes prk = hkdf_extract(salt, labeled);
  OPENSSL_cleanse(labeled.data(), labeled.size());
  return prk;
}

Bytes labeled_expand(const Bytes& suite_id, BytesView prk, const std::string& label, BytesView info,
                     std::size_t length) {
  Writer w;
  w.u16(static_cast<std::uint16_t>(length));
  w.raw(kVersionLabel);
  w.raw(suite_id);
  w.raw(label);
  w.raw(info);
  return hkdf_expand(prk, w.bytes(), length);
}

Bytes extract_and_expand(BytesView dh, BytesView kem_context) {
  const Bytes eae_prk = labeled_extract(kKemSuiteId, BytesView(), "eae_prk", dh);
  return labeled_expand(kKemSuiteId, eae_prk, "shared_secret", kem_context, kHashSize);
}

struct AeadContext {
  Bytes key;
  Bytes base_nonce;
};

// KeySchedule(mode_base, shared_secret, info, psk = "", psk_id = "").
AeadContext key_schedule_base(BytesView shared_secret, BytesView info) {
  const Bytes psk_id_hash = labeled_extract(kHpkeSuiteId, BytesView(), "psk_id_hash", BytesView());
  const Bytes info_hash = labeled_extract(kHpkeSuiteId, BytesView(), "info_hash", info);
  Bytes context{0x00};  // mode_base
  context.insert(context.end(), psk_id_hash.begin(), psk_id_hash.end());
  context.insert(context.end(), info_hash.begin(), info_hash.end());
  const Bytes secret = labeled_extract(kHpkeSuiteId, shared_secret, "secret", BytesView());
  return AeadContext{labeled_expand(kHpkeSuiteId, secret, "key", context, kAeadKeySize),
                     labeled_expand(kHpkeSuiteId, secret, "base_nonce", context, kAeadNonceSize)};
}

Bytes encrypt_context(const std::string& label, BytesView context) {
  Writer w;
  w.vec("MLS 1.0 " + label);
  w.vec(context);
  return w.take();
}

}  // namespace

HpkeKeyPair hpke_generate_key_pair() {
  HpkeKeyPair kp;
  kp.private_key = p256_random_private_key();
  kp.public_key = p256_public_key(kp.private_key);
  return kp;
}

HpkeKeyPair hpke_derive_key_pair(BytesView ikm) {
  const Bytes dkp_prk = labeled_extract(kKemSuiteId, BytesView(), "dkp_prk", ikm);
  for (int counter = 0; counter < 256; ++counter) {
    const Bytes counter_byte{static_cast<std::uint8_t>(counter)};
    Bytes candidate = labeled_expand(kKemSuiteId, dkp_prk, "candidate", counter_byte, kPrivateKeySize);
    // The P-256 bitmask is 0xff: every candidate byte is kept.
    if (p256_scalar_in_range(candidate)) {
      HpkeKeyPair kp;
      kp.public_key = p256_public_key(candidate);
      kp.private_key = std::move(candidate);
      return kp;
    }
  }
  crypto_fail("DeriveKeyPair found no valid P-256 scalar");
}

Bytes hpke_public_key(BytesView private_key) { return p256_public_key(private_key); }

HpkeCiphertext hpke_seal_base(BytesView recipient_public_key, BytesView info, BytesView aad, BytesView plaintext) {
  const HpkeKeyPair ephemeral = hpke_generate_key_pair();
  const Bytes dh = p256_dh(ephemeral.private_key, recipient_public_key);
  Bytes kem_context = ephemeral.public_key;
  kem_context.insert(kem_context.end(), recipient_public_key.begin(), recipient_public_key.end());
  const Bytes shared_secret = extract_and_expand(dh, kem_context);
  const AeadContext ctx = key_schedule_base(shared_secret, info);
  return HpkeCiphertext{ephemeral.public_key, aead_seal(ctx.key, ctx.base_nonce, aad, plaintext)};
}

Bytes hpke_open_base(BytesView recipient_private_key, BytesView kem_output, BytesView info, BytesView aad,
                     BytesView ciphertext) {
  const Bytes dh = p256_dh(recipient_private_key, kem_output);
  const Bytes recipient_public = p256_public_key(recipient_private_key);
  Bytes kem_context = kem_output.to_bytes();
  kem_context.insert(kem_context.end(), recipient_public.begin(), recipient_public.end());
  const Bytes shared_secret = extract_and_expand(dh, kem_context);
  const AeadContext ctx = key_schedule_base(shared_secret, info);
  return aead_open(ctx.key, ctx.base_nonce, aad, ciphertext);
}

HpkeCiphertext encrypt_with_label(BytesView public_key, const std::string& label, BytesView context,
                                  BytesView plaintext) {
  return hpke_seal_base(public_key, encrypt_context(label, context), BytesView(), plaintext);
}

Bytes decrypt_with_label(BytesView private_key, const std::string& label, BytesView context, BytesView kem_output,
                         BytesView ciphertext) {
  return hpke_open_base(private_key, kem_output, encrypt_context(label, context), BytesView(), ciphertext);
}

}  // namespace platformpp::voice::e2ee
