#include "voice/e2ee/dave_codes.hpp"

#include <openssl/core_names.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include <algorithm>
#include <memory>

namespace platformpp::voice::e2ee::dave {

namespace {

constexpr std::uint8_t kFingerprintSalt[16] = {0x24, 0xca, 0xb1, 0x7a, 0x7a, 0xf8, 0xec, 0x2b,
                                               0x82, 0xb4, 0x12, 0xb9, 0x2d, 0xab, 0x19, 0x2e};
constexpr std::uint64_t kScryptN = 16384;
constexpr std::uint32_t kScryptR = 8;
constexpr std::uint32_t kScryptP = 2;
// scrypt needs 128 * r * N * (p + 1) bytes at most (16 MiB for one lane here); leave headroom.
constexpr std::uint64_t kScryptMaxMemory = 64ull * 1024 * 1024;

}  // namespace

std::string displayable_code(BytesView data, std::size_t length, std::size_t group_size) {
  if (group_size == 0 || group_size >= 8)
    throw Error(ErrorKind::Protocol, "displayable code: group_size must be 1 to 7");
  if (length % group_size != 0)
    throw Error(ErrorKind::Protocol, "displayable code: length must be a multiple of group_size");
  if (data.size < length) throw Error(ErrorKind::Protocol, "displayable code: data must hold at least length bytes");
  std::uint64_t modulus = 1;
  for (std::size_t i = 0; i < group_size; ++i) modulus *= 10;
  std::string code;
  code.reserve(length);
  for (std::size_t start = 0; start < length; start += group_size) {
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < group_size; ++i) value = (value << 8) | data.data[start + i];
    value %= modulus;
    std::string group(group_size, '0');
    for (std::size_t i = group_size; i-- > 0; value /= 10) group[i] = static_cast<char>('0' + value % 10);
    code += group;
  }
  return code;
}

std::string epoch_authenticator_code(BytesView epoch_authenticator) {
  return displayable_code(epoch_authenticator, kEpochAuthenticatorCodeLength, kCodeGroupSize);
}

Bytes key_fingerprint(std::uint16_t version, BytesView public_key, std::uint64_t user_id) {
  Bytes out;
  out.reserve(2 + public_key.size + 8);
  out.push_back(static_cast<std::uint8_t>(version >> 8));
  out.push_back(static_cast<std::uint8_t>(version));
  out.insert(out.end(), public_key.begin(), public_key.end());
  for (int i = 7; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(user_id >> (8 * i)));
  return out;
}

Bytes pairwise_fingerprint(std::uint16_t version, BytesView local_public_key, std::uint64_t local_user_id,
                           BytesView remote_public_key, std::uint64_t remote_user_id) {
  if (local_public_key.empty() || remote_public_key.empty())
    throw Error(ErrorKind::Protocol, "pairwise fingerprint: public keys must not be empty");
  Bytes a = key_fingerprint(version, local_public_key, local_user_id);
  Bytes b = key_fingerprint(version, remote_public_key, remote_user_id);
  if (b < a) std::swap(a, b);  // std::vector<uint8_t> compares bytewise, unsigned
  Bytes passphrase = std::move(a);
  passphrase.insert(passphrase.end(), b.begin(), b.end());

  std::unique_ptr<EVP_KDF, decltype(&EVP_KDF_free)> kdf(EVP_KDF_fetch(nullptr, "SCRYPT", nullptr), EVP_KDF_free);
  if (!kdf) throw Error(ErrorKind::Crypto, "pairwise fingerprint: OpenSSL has no scrypt");
  std::unique_ptr<EVP_KDF_CTX, decltype(&EVP_KDF_CTX_free)> ctx(EVP_KDF_CTX_new(kdf.get()), EVP_KDF_CTX_free);
  if (!ctx) throw Error(ErrorKind::Crypto, "pairwise fingerprint: scrypt context");
  std::uint64_t n = kScryptN, maxmem = kScryptMaxMemory;
  std::uint32_t r = kScryptR, p = kScryptP;
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PASSWORD, passphrase.data(), passphrase.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, const_cast<std::uint8_t*>(kFingerprintSalt),
                                        sizeof kFingerprintSalt),
      OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_N, &n),
      OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_R, &r),
      OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_P, &p),
      OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_MAXMEM, &maxmem),
      OSSL_PARAM_construct_end()};
  Bytes out(kFingerprintSize);
  if (EVP_KDF_derive(ctx.get(), out.data(), out.size(), params) != 1)
    throw Error(ErrorKind::Crypto, "pairwise fingerprint: scrypt failed");
  return out;
}

std::string fingerprint_code(BytesView fingerprint) {
  return displayable_code(fingerprint, kFingerprintCodeLength, kCodeGroupSize);
}

}  // namespace platformpp::voice::e2ee::dave
