// P-256 helpers shared by crypto.cpp and hpke.cpp; not for use outside the crypto layer.
#pragma once

#include <openssl/evp.h>

#include <memory>

#include "voice/e2ee/common.hpp"

namespace platformpp::voice::e2ee {

struct PkeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct PkeyCtxFree {
  void operator()(EVP_PKEY_CTX* c) const { EVP_PKEY_CTX_free(c); }
};
using EvpPkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;

// Throws Error(Crypto) "crypto: <what>" after clearing OpenSSL's error queue.
[[noreturn]] void crypto_fail(const char* what);

Bytes p256_public_key(BytesView private_key);       // 65-byte uncompressed point
Bytes p256_random_private_key();                    // uniform in [1, n-1]
bool p256_scalar_in_range(BytesView candidate);     // 0 < candidate < n
EvpPkeyPtr p256_private_pkey(BytesView private_key);
EvpPkeyPtr p256_public_pkey(BytesView public_key);  // validates the point
Bytes p256_dh(BytesView private_key, BytesView peer_public_key);  // the shared x-coordinate

}  // namespace platformpp::voice::e2ee
