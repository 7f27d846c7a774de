// Hash, HKDF with MLS labels, AES-128-GCM and ECDSA P-256 over OpenSSL 3 (HPKE is in hpke.cpp).
#include "voice/e2ee/crypto.hpp"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>

#include "voice/e2ee/crypto_internal.hpp"
#include "voice/e2ee/tls_codec.hpp"

namespace platformpp::voice::e2ee {

namespace {
const std::string kMlsLabelPrefix = "MLS 1.0 ";
}  // namespace

void crypto_fail(const char* what) {
  ERR_clear_error();
  throw Error(ErrorKind::Crypto, std::string("crypto: ") + what);
}

Bytes sha256(BytesView data) {
  Bytes out(kHashSize);
  unsigned int n = 0;
  if (EVP_Digest(data.data, data.size, out.data(), &n, EVP_sha256(), nullptr) != 1) crypto_fail("SHA-256 failed");
  return out;
}

Bytes hmac_sha256(BytesView key, BytesView data) {
  Bytes out(kHashSize);
  unsigned int n = 0;
  static const std::uint8_t kEmpty = 0;
  // HMAC() rejects a null key pointer even with length 0.
  if (HMAC(EVP_sha256(), key.data ? key.data : &kEmpty, static_cast<int>(key.size), data.data, data.size, out.data(),
           &n) == nullptr) {
    crypto_fail("HMAC-SHA256 failed");
  }
  return out;
}

Bytes hkdf_extract(BytesView salt, BytesView ikm) {
  const Bytes zero_salt(kHashSize, 0);
  return hmac_sha256(salt.empty() ? BytesView(zero_salt) : salt, ikm);
}

Bytes hkdf_expand(BytesView prk, BytesView info, std::size_t length) {
  if (length > 255 * kHashSize) crypto_fail("HKDF-Expand length over 255*Nh");
  Bytes out;
  out.reserve(length);
  Bytes t;
  Bytes block;
  for (std::uint8_t i = 1; out.size() < length; ++i) {
    block.assign(t.begin(), t.end());
    block.insert(block.end(), info.begin(), info.end());
    block.push_back(i);
    t = hmac_sha256(prk, block);
    const std::size_t take = std::min(t.size(), length - out.size());
    out.insert(out.end(), t.begin(), t.begin() + static_cast<std::ptrdiff_t>(take));
  }
  return out;
}

Bytes expand_with_label(BytesView secret, const std::string& label, BytesView context, std::size_t length) {
  if (length > 0xffff) crypto_fail("ExpandWithLabel length over 65535");
  Writer w;
  w.u16(static_cast<std::uint16_t>(length));
  w.vec(kMlsLabelPrefix + label);
  w.vec(context);
  return hkdf_expand(secret, w.bytes(), length);
}

Bytes derive_secret(BytesView secret, const std::string& label) {
  return expand_with_label(secret, label, BytesView(), kHashSize);
}

Bytes derive_tree_secret(BytesView secret, const std::string& label, std::uint32_t generation, std::size_t length) {
  Writer ctx;
  ctx.u32(generation);
  return expand_with_label(secret, label, ctx.bytes(), length);
}

Bytes ref_hash(const std::string& label, BytesView value) {
  Writer w;
  w.vec(label);
  w.vec(value);
  return sha256(w.bytes());
}

Bytes random_bytes(std::size_t n) {
  Bytes out(n);
  if (n > 0 && RAND_bytes(out.data(), static_cast<int>(n)) != 1) crypto_fail("RAND_bytes failed");
  return out;
}

// --- AES-128-GCM -----------------------------------------------------------------------------------

struct AesGcm128::Impl {
  EVP_CIPHER_CTX* enc = nullptr;
  EVP_CIPHER_CTX* dec = nullptr;
  ~Impl() {
    EVP_CIPHER_CTX_free(enc);
    EVP_CIPHER_CTX_free(dec);
  }
};

AesGcm128::AesGcm128(BytesView key) : impl_(std::make_unique<Impl>()) {
  if (key.size != kAeadKeySize) crypto_fail("AES-128-GCM key must be 16 bytes");
  impl_->enc = EVP_CIPHER_CTX_new();
  impl_->dec = EVP_CIPHER_CTX_new();
  if (!impl_->enc || !impl_->dec) crypto_fail("EVP_CIPHER_CTX_new failed");
  // The key schedule of AES runs once here; seal/open only set the nonce.
  if (EVP_EncryptInit_ex(impl_->enc, EVP_aes_128_gcm(), nullptr, key.data, nullptr) != 1 ||
      EVP_DecryptInit_ex(impl_->dec, EVP_aes_128_gcm(), nullptr, key.data, nullptr) != 1) {
    crypto_fail("AES-128-GCM init failed");
  }
}

AesGcm128::~AesGcm128() = default;
AesGcm128::AesGcm128(AesGcm128&&) noexcept = default;
AesGcm128& AesGcm128::operator=(AesGcm128&&) noexcept = default;

void AesGcm128::seal(BytesView nonce, BytesView aad, BytesView plaintext, std::uint8_t* ciphertext_out,
                     std::uint8_t* tag_out, std::size_t tag_size) {
  if (nonce.size != kAeadNonceSize) crypto_fail("AES-GCM nonce must be 12 bytes");
  if (tag_size < 4 || tag_size > kAeadTagSize) crypto_fail("AES-GCM tag size must be 4..16");
  EVP_CIPHER_CTX* c = impl_->enc;
  int n = 0;
  if (EVP_EncryptInit_ex(c, nullptr, nullptr, nullptr, nonce.data) != 1) crypto_fail("AES-GCM nonce set failed");
  if (aad.size > 0 && EVP_EncryptUpdate(c, nullptr, &n, aad.data, static_cast<int>(aad.size)) != 1) {
    crypto_fail("AES-GCM aad failed");
  }
  if (plaintext.size > 0 &&
      EVP_EncryptUpdate(c, ciphertext_out, &n, plaintext.data, static_cast<int>(plaintext.size)) != 1) {
    crypto_fail("AES-GCM encrypt failed");
  }
  std::uint8_t full_tag[kAeadTagSize];
  if (EVP_EncryptFinal_ex(c, ciphertext_out + plaintext.size, &n) != 1 ||
      EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, static_cast<int>(kAeadTagSize), full_tag) != 1) {
    crypto_fail("AES-GCM final failed");
  }
  // A truncated GCM tag is the leading bytes of the full tag.
  for (std::size_t i = 0; i < tag_size; ++i) tag_out[i] = full_tag[i];
}

bool AesGcm128::open(BytesView nonce, BytesView aad, BytesView ciphertext, BytesView tag,
                     std::uint8_t* plaintext_out) {
  if (nonce.size != kAeadNonceSize) crypto_fail("AES-GCM nonce must be 12 bytes");
  if (tag.size < 4 || tag.size > kAeadTagSize) return false;
  EVP_CIPHER_CTX* c = impl_->dec;
  int n = 0;
  if (EVP_DecryptInit_ex(c, nullptr, nullptr, nullptr, nonce.data) != 1) crypto_fail("AES-GCM nonce set failed");
  if (aad.size > 0 && EVP_DecryptUpdate(c, nullptr, &n, aad.data, static_cast<int>(aad.size)) != 1) return false;
  if (ciphertext.size > 0 &&
      EVP_DecryptUpdate(c, plaintext_out, &n, ciphertext.data, static_cast<int>(ciphertext.size)) != 1) {
    return false;
  }
  if (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, static_cast<int>(tag.size),
                          const_cast<std::uint8_t*>(tag.data)) != 1) {
    return false;
  }
  return EVP_DecryptFinal_ex(c, plaintext_out + ciphertext.size, &n) == 1;
}

Bytes aead_seal(BytesView key, BytesView nonce, BytesView aad, BytesView plaintext) {
  AesGcm128 gcm(key);
  Bytes out(plaintext.size + kAeadTagSize);
  gcm.seal(nonce, aad, plaintext, out.data(), out.data() + plaintext.size, kAeadTagSize);
  return out;
}

Bytes aead_open(BytesView key, BytesView nonce, BytesView aad, BytesView ciphertext_and_tag) {
  if (ciphertext_and_tag.size < kAeadTagSize) crypto_fail("AEAD ciphertext shorter than its tag");
  AesGcm128 gcm(key);
  const std::size_t n = ciphertext_and_tag.size - kAeadTagSize;
  Bytes out(n);
  if (!gcm.open(nonce, aad, BytesView(ciphertext_and_tag.data, n),
                BytesView(ciphertext_and_tag.data + n, kAeadTagSize), out.data())) {
    crypto_fail("AEAD tag does not verify");
  }
  return out;
}

// --- P-256 keys --------------------------------------------------------------------------------------

namespace {

struct BnCtxFree {
  void operator()(BN_CTX* c) const { BN_CTX_free(c); }
};
struct BnFree {
  void operator()(BIGNUM* b) const { BN_clear_free(b); }
};
struct GroupFree {
  void operator()(EC_GROUP* g) const { EC_GROUP_free(g); }
};
struct PointFree {
  void operator()(EC_POINT* p) const { EC_POINT_free(p); }
};
struct ParamBldFree {
  void operator()(OSSL_PARAM_BLD* b) const { OSSL_PARAM_BLD_free(b); }
};
struct ParamFree {
  void operator()(OSSL_PARAM* p) const { OSSL_PARAM_free(p); }
};
struct MdCtxFree {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};

const EC_GROUP* p256() {
  static const EC_GROUP* group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
  if (!group) crypto_fail("P-256 group unavailable");
  return group;
}

std::unique_ptr<BIGNUM, BnFree> scalar_from(BytesView private_key) {
  if (private_key.size != kPrivateKeySize) crypto_fail("P-256 private key must be 32 bytes");
  std::unique_ptr<BIGNUM, BnFree> bn(BN_bin2bn(private_key.data, static_cast<int>(private_key.size), nullptr));
  if (!bn) crypto_fail("BN_bin2bn failed");
  if (BN_is_zero(bn.get()) || BN_cmp(bn.get(), EC_GROUP_get0_order(p256())) >= 0) {
    crypto_fail("P-256 private key out of range");
  }
  return bn;
}

EvpPkeyPtr build_pkey(const BIGNUM* priv, BytesView public_key) {
  std::unique_ptr<OSSL_PARAM_BLD, ParamBldFree> bld(OSSL_PARAM_BLD_new());
  if (!bld || OSSL_PARAM_BLD_push_utf8_string(bld.get(), OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) != 1 ||
      OSSL_PARAM_BLD_push_octet_string(bld.get(), OSSL_PKEY_PARAM_PUB_KEY, public_key.data, public_key.size) != 1 ||
      (priv && OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_PRIV_KEY, priv) != 1)) {
    crypto_fail("building P-256 key parameters failed");
  }
  std::unique_ptr<OSSL_PARAM, ParamFree> params(OSSL_PARAM_BLD_to_param(bld.get()));
  std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree> ctx(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
  EVP_PKEY* pkey = nullptr;
  if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
      EVP_PKEY_fromdata(ctx.get(), &pkey, priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params.get()) != 1) {
    crypto_fail("P-256 key import failed");
  }
  return EvpPkeyPtr(pkey);
}

}  // namespace

Bytes p256_public_key(BytesView private_key) {
  auto scalar = scalar_from(private_key);
  std::unique_ptr<EC_POINT, PointFree> point(EC_POINT_new(p256()));
  std::unique_ptr<BN_CTX, BnCtxFree> bctx(BN_CTX_new());
  Bytes out(kPublicKeySize);
  if (!point || !bctx || EC_POINT_mul(p256(), point.get(), scalar.get(), nullptr, nullptr, bctx.get()) != 1 ||
      EC_POINT_point2oct(p256(), point.get(), POINT_CONVERSION_UNCOMPRESSED, out.data(), out.size(), bctx.get()) !=
          kPublicKeySize) {
    crypto_fail("P-256 public key computation failed");
  }
  return out;
}

Bytes p256_random_private_key() {
  std::unique_ptr<BIGNUM, BnFree> k(BN_secure_new());
  do {
    if (!k || BN_priv_rand_range(k.get(), EC_GROUP_get0_order(p256())) != 1) crypto_fail("P-256 key generation failed");
  } while (BN_is_zero(k.get()));
  Bytes out(kPrivateKeySize);
  if (BN_bn2binpad(k.get(), out.data(), static_cast<int>(out.size())) != static_cast<int>(kPrivateKeySize)) {
    crypto_fail("P-256 key serialization failed");
  }
  return out;
}

bool p256_scalar_in_range(BytesView candidate) {
  std::unique_ptr<BIGNUM, BnFree> bn(BN_bin2bn(candidate.data, static_cast<int>(candidate.size), nullptr));
  if (!bn) crypto_fail("BN_bin2bn failed");
  return !BN_is_zero(bn.get()) && BN_cmp(bn.get(), EC_GROUP_get0_order(p256())) < 0;
}

EvpPkeyPtr p256_private_pkey(BytesView private_key) {
  auto scalar = scalar_from(private_key);
  const Bytes pub = p256_public_key(private_key);
  return build_pkey(scalar.get(), pub);
}

EvpPkeyPtr p256_public_pkey(BytesView public_key) {
  if (public_key.size != kPublicKeySize || public_key.data[0] != 0x04) {
    throw Error(ErrorKind::Crypto, "crypto: P-256 public key must be a 65-byte uncompressed point");
  }
  return build_pkey(nullptr, public_key);
}

Bytes p256_dh(BytesView private_key, BytesView peer_public_key) {
  EvpPkeyPtr mine = p256_private_pkey(private_key);
  EvpPkeyPtr peer = p256_public_pkey(peer_public_key);
  std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree> ctx(EVP_PKEY_CTX_new(mine.get(), nullptr));
  std::size_t n = 0;
  if (!ctx || EVP_PKEY_derive_init(ctx.get()) != 1 || EVP_PKEY_derive_set_peer(ctx.get(), peer.get()) != 1 ||
      EVP_PKEY_derive(ctx.get(), nullptr, &n) != 1) {
    crypto_fail("P-256 ECDH failed");
  }
  Bytes out(n);
  if (EVP_PKEY_derive(ctx.get(), out.data(), &n) != 1 || n != 32) crypto_fail("P-256 ECDH failed");
  return out;
}

// --- Signatures --------------------------------------------------------------------------------------

namespace {
Bytes sign_content(const std::string& label, BytesView content) {
  Writer w;
  w.vec(kMlsLabelPrefix + label);
  w.vec(content);
  return w.take();
}
}  // namespace

SignatureKeyPair generate_signature_key_pair() {
  SignatureKeyPair kp;
  kp.private_key = p256_random_private_key();
  kp.public_key = p256_public_key(kp.private_key);
  return kp;
}

Bytes signature_public_key(BytesView private_key) { return p256_public_key(private_key); }

Bytes sign_with_label(BytesView private_key, const std::string& label, BytesView content) {
  EvpPkeyPtr key = p256_private_pkey(private_key);
  const Bytes tbs = sign_content(label, content);
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> md(EVP_MD_CTX_new());
  std::size_t n = 0;
  if (!md || EVP_DigestSignInit(md.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1 ||
      EVP_DigestSign(md.get(), nullptr, &n, tbs.data(), tbs.size()) != 1) {
    crypto_fail("ECDSA sign failed");
  }
  Bytes sig(n);
  if (EVP_DigestSign(md.get(), sig.data(), &n, tbs.data(), tbs.size()) != 1) crypto_fail("ECDSA sign failed");
  sig.resize(n);
  return sig;
}

bool verify_with_label(BytesView public_key, const std::string& label, BytesView content, BytesView signature) {
  EvpPkeyPtr key;
  try {
    key = p256_public_pkey(public_key);
  } catch (const Error&) {  // an invalid key cannot have signed anything
    return false;
  }
  const Bytes tbs = sign_content(label, content);
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> md(EVP_MD_CTX_new());
  if (!md || EVP_DigestVerifyInit(md.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1) {
    crypto_fail("ECDSA verify init failed");
  }
  const bool ok = EVP_DigestVerify(md.get(), signature.data, signature.size, tbs.data(), tbs.size()) == 1;
  ERR_clear_error();  // a bad signature leaves a decode error queued
  return ok;
}

}  // namespace platformpp::voice::e2ee
