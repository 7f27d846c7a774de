#include "auth/pkce.hpp"

#include <openssl/rand.h>
#include <openssl/sha.h>

#include <climits>
#include <stdexcept>

namespace platformpp::pkce {

std::vector<uint8_t> RandomBytes(std::size_t count) {
    std::vector<uint8_t> bytes(count);
    if (count > static_cast<std::size_t>(INT_MAX) || RAND_bytes(bytes.data(), static_cast<int>(count)) != 1) {
        throw std::runtime_error("OpenSSL RAND_bytes failed: no secure random bytes available");
    }
    return bytes;
}

std::string Base64UrlNoPadding(const uint8_t* data, std::size_t size) {
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string out;
    out.reserve((size * 4 + 2) / 3);
    std::size_t i = 0;
    for (; i + 3 <= size; i += 3) {
        const uint32_t n = (uint32_t{data[i]} << 16) | (uint32_t{data[i + 1]} << 8) | data[i + 2];
        out += kAlphabet[(n >> 18) & 63];
        out += kAlphabet[(n >> 12) & 63];
        out += kAlphabet[(n >> 6) & 63];
        out += kAlphabet[n & 63];
    }
    const std::size_t rest = size - i;
    if (rest > 0) {
        uint32_t n = uint32_t{data[i]} << 16;
        if (rest == 2) n |= uint32_t{data[i + 1]} << 8;
        out += kAlphabet[(n >> 18) & 63];
        out += kAlphabet[(n >> 12) & 63];
        if (rest == 2) out += kAlphabet[(n >> 6) & 63];
    }
    return out;
}

std::string S256Challenge(std::string_view verifier) {
    uint8_t digest[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(verifier.data()), verifier.size(), digest);
    return Base64UrlNoPadding(digest, sizeof digest);
}

std::string NewVerifier(std::size_t byteCount) {
    const auto bytes = RandomBytes(byteCount);
    return Base64UrlNoPadding(bytes.data(), bytes.size());
}

}  // namespace platformpp::pkce
