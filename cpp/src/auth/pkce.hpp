#pragma once
// PKCE (RFC 7636) building blocks on OpenSSL. Private to the core.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::pkce {

// `count` bytes from OpenSSL's CSPRNG (RAND_bytes); throws std::runtime_error if it fails.
std::vector<uint8_t> RandomBytes(std::size_t count);
// RFC 4648 §5 alphabet, no '=' padding.
std::string Base64UrlNoPadding(const uint8_t* data, std::size_t size);
// base64url-no-padding(SHA-256(verifier)): the S256 code challenge.
std::string S256Challenge(std::string_view verifier);
// A verifier made of `byteCount` CSPRNG bytes (32 gives the 43-character verifier).
std::string NewVerifier(std::size_t byteCount = 32);

}  // namespace platformpp::pkce
