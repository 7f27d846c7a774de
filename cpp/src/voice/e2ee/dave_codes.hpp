// Verification codes of a DAVE call, as the protocol's whitepaper defines them: the displayable code
// algorithm (a variant of Signal's), the epoch authenticator's 30-digit code and the pairwise
// fingerprint (scrypt over both members' versioned public keys and user ids) with its 45-digit code.
#pragma once

#include <cstdint>
#include <string>

#include "voice/e2ee/common.hpp"

namespace platformpp::voice::e2ee::dave {

constexpr std::size_t kCodeGroupSize = 5;
constexpr std::size_t kEpochAuthenticatorCodeLength = 30;  // 6 groups of 5 digits
constexpr std::size_t kFingerprintCodeLength = 45;          // 9 groups of 5 digits
constexpr std::uint16_t kFingerprintVersion = 0;
constexpr std::size_t kFingerprintSize = 64;

// Each group of group_size digits is the next group_size bytes of data read big-endian, modulo
// 10^group_size, zero-padded. Throws Error(Protocol) when data is shorter than length, length is not
// a multiple of group_size, or group_size is 0 or 8 and more.
std::string displayable_code(BytesView data, std::size_t length, std::size_t group_size);

// The code users compare to check they share one view of the group (MLS epoch authenticator, 32 bytes).
std::string epoch_authenticator_code(BytesView epoch_authenticator);

// version (2 bytes) || public key || user id (8 bytes), both big-endian: one side's input to the fingerprint.
Bytes key_fingerprint(std::uint16_t version, BytesView public_key, std::uint64_t user_id);

// scrypt(P = the two sides' key_fingerprint buffers sorted bytewise and joined, S = the protocol's
// salt, N = 16384, r = 8, p = 2, 64 bytes). The same on both sides whichever is local.
Bytes pairwise_fingerprint(std::uint16_t version, BytesView local_public_key, std::uint64_t local_user_id,
                           BytesView remote_public_key, std::uint64_t remote_user_id);

// The 45-digit code of a pairwise fingerprint.
std::string fingerprint_code(BytesView fingerprint);

}  // namespace platformpp::voice::e2ee::dave
