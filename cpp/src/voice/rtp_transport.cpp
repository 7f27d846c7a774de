#include "voice/rtp_transport.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <chrono>
#include <cstring>
#include <stdexcept>

namespace platformpp::voice {
namespace {

constexpr std::string_view kAesMode = "aead_aes256_gcm_rtpsize";
constexpr std::string_view kXChaChaMode = "aead_xchacha20_poly1305_rtpsize";

void PutU16(std::uint8_t* p, std::uint16_t v) {
    p[0] = static_cast<std::uint8_t>(v >> 8);
    p[1] = static_cast<std::uint8_t>(v);
}
void PutU32(std::uint8_t* p, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}
std::uint16_t GetU16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] << 8 | p[1]); }
std::uint32_t GetU32(const std::uint8_t* p) {
    return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | p[3];
}
std::uint32_t LoadLe32(const std::uint8_t* p) {
    return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}
void StoreLe32(std::uint8_t* p, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
std::uint32_t Rotl(std::uint32_t v, int n) { return v << n | v >> (32 - n); }
void QuarterRound(std::uint32_t* s, int a, int b, int c, int d) {
    s[a] += s[b]; s[d] ^= s[a]; s[d] = Rotl(s[d], 16);
    s[c] += s[d]; s[b] ^= s[c]; s[b] = Rotl(s[b], 12);
    s[a] += s[b]; s[d] ^= s[a]; s[d] = Rotl(s[d], 8);
    s[c] += s[d]; s[b] ^= s[c]; s[b] = Rotl(s[b], 7);
}

}  // namespace

std::string_view ToString(TransportMode mode) {
    return mode == TransportMode::Aes256GcmRtpSize ? kAesMode : kXChaChaMode;
}

std::optional<TransportMode> ParseTransportMode(std::string_view name) {
    if (name == kAesMode) return TransportMode::Aes256GcmRtpSize;
    if (name == kXChaChaMode) return TransportMode::XChaCha20Poly1305RtpSize;
    return std::nullopt;
}

std::optional<TransportMode> ChooseTransportMode(const std::vector<std::string>& offered) {
    std::optional<TransportMode> chosen;
    for (const auto& name : offered) {
        const auto mode = ParseTransportMode(name);
        if (mode == TransportMode::Aes256GcmRtpSize) return mode;
        if (mode) chosen = mode;
    }
    return chosen;
}

// --- RTP / RTCP -------------------------------------------------------------------------------------

void WriteRtpHeader(const RtpHeader& header, std::uint8_t* out) {
    out[0] = 0x80;  // version 2
    out[1] = static_cast<std::uint8_t>((header.marker ? 0x80 : 0) | (header.payloadType & 0x7F));
    PutU16(out + 2, header.sequence);
    PutU32(out + 4, header.timestamp);
    PutU32(out + 8, header.ssrc);
}

std::optional<ParsedRtp> ParseRtp(const std::uint8_t* packet, std::size_t size) {
    if (size < kRtpFixedHeaderSize || (packet[0] >> 6) != 2) return std::nullopt;
    ParsedRtp parsed;
    parsed.header.marker = (packet[1] & 0x80) != 0;
    parsed.header.payloadType = packet[1] & 0x7F;
    parsed.header.sequence = GetU16(packet + 2);
    parsed.header.timestamp = GetU32(packet + 4);
    parsed.header.ssrc = GetU32(packet + 8);
    parsed.hasExtension = (packet[0] & 0x10) != 0;
    parsed.clearHeaderSize = kRtpFixedHeaderSize + 4u * (packet[0] & 0x0F) + (parsed.hasExtension ? 4 : 0);
    if (size < parsed.clearHeaderSize) return std::nullopt;
    return parsed;
}

bool IsRtcp(const std::uint8_t* packet, std::size_t size) {
    return size >= 2 && packet[1] >= 200 && packet[1] <= 204;
}

std::size_t RtpExtensionBodySize(const std::uint8_t* packet, const ParsedRtp& parsed) {
    if (!parsed.hasExtension) return 0;
    return 4u * GetU16(packet + parsed.clearHeaderSize - 2);
}

std::array<std::uint8_t, 28> MakeSenderReport(const RtcpSenderInfo& info) {
    std::array<std::uint8_t, 28> out{};
    out[0] = 0x80;  // version 2, no report blocks
    out[1] = 200;
    PutU16(out.data() + 2, 6);  // length in 32-bit words minus one
    PutU32(out.data() + 4, info.ssrc);
    PutU32(out.data() + 8, static_cast<std::uint32_t>(info.ntpTime >> 32));
    PutU32(out.data() + 12, static_cast<std::uint32_t>(info.ntpTime));
    PutU32(out.data() + 16, info.rtpTimestamp);
    PutU32(out.data() + 20, info.packetCount);
    PutU32(out.data() + 24, info.octetCount);
    return out;
}

std::uint8_t RtcpPacketType(const std::uint8_t* packet) { return packet[1]; }

std::uint64_t NtpNow() {
    using namespace std::chrono;
    constexpr std::uint64_t kUnixToNtp = 2208988800ull;
    const auto since = system_clock::now().time_since_epoch();
    const auto secs = duration_cast<seconds>(since);
    const auto frac = duration_cast<nanoseconds>(since - secs).count();
    const std::uint64_t fraction = (static_cast<std::uint64_t>(frac) << 32) / 1'000'000'000ull;
    return (static_cast<std::uint64_t>(secs.count()) + kUnixToNtp) << 32 | fraction;
}

// --- IP discovery -----------------------------------------------------------------------------------

std::array<std::uint8_t, kDiscoveryPacketSize> MakeDiscoveryRequest(std::uint32_t ssrc) {
    std::array<std::uint8_t, kDiscoveryPacketSize> out{};
    PutU16(out.data(), 1);
    PutU16(out.data() + 2, 70);
    PutU32(out.data() + 4, ssrc);
    return out;
}

std::optional<DiscoveredAddress> ParseDiscoveryResponse(const std::uint8_t* packet, std::size_t size) {
    if (size != kDiscoveryPacketSize || GetU16(packet) != 2 || GetU16(packet + 2) != 70) return std::nullopt;
    const auto* address = packet + 8;
    const auto* nul = static_cast<const std::uint8_t*>(std::memchr(address, 0, 64));
    if (nul == nullptr || nul == address) return std::nullopt;
    DiscoveredAddress out;
    out.ssrc = GetU32(packet + 4);
    out.address.assign(reinterpret_cast<const char*>(address), static_cast<std::size_t>(nul - address));
    out.port = GetU16(packet + 72);
    return out;
}

// --- transport encryption ---------------------------------------------------------------------------

std::array<std::uint8_t, 32> HChaCha20(const std::uint8_t* key32, const std::uint8_t* nonce16) {
    std::uint32_t s[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};  // "expand 32-byte k"
    for (int i = 0; i < 8; ++i) s[4 + i] = LoadLe32(key32 + 4 * i);
    for (int i = 0; i < 4; ++i) s[12 + i] = LoadLe32(nonce16 + 4 * i);
    for (int round = 0; round < 10; ++round) {
        QuarterRound(s, 0, 4, 8, 12);
        QuarterRound(s, 1, 5, 9, 13);
        QuarterRound(s, 2, 6, 10, 14);
        QuarterRound(s, 3, 7, 11, 15);
        QuarterRound(s, 0, 5, 10, 15);
        QuarterRound(s, 1, 6, 11, 12);
        QuarterRound(s, 2, 7, 8, 13);
        QuarterRound(s, 3, 4, 9, 14);
    }
    std::array<std::uint8_t, 32> out{};
    for (int i = 0; i < 4; ++i) StoreLe32(out.data() + 4 * i, s[i]);
    for (int i = 0; i < 4; ++i) StoreLe32(out.data() + 16 + 4 * i, s[12 + i]);
    OPENSSL_cleanse(s, sizeof s);
    return out;
}

TransportCipher::TransportCipher(TransportMode mode, const Key& key) : mode_(mode), key_(key) {
    ctx_ = EVP_CIPHER_CTX_new();
    if (ctx_ == nullptr) throw std::bad_alloc();
}

TransportCipher::~TransportCipher() {
    EVP_CIPHER_CTX_free(ctx_);
    OPENSSL_cleanse(key_.data(), key_.size());
}

bool TransportCipher::Run(bool encrypt, const std::uint8_t* nonce4, const std::uint8_t* aad, std::size_t aadSize,
                          const std::uint8_t* in, std::size_t inSize, std::uint8_t* out, std::uint8_t* tag) {
    std::uint8_t iv[12] = {};
    const EVP_CIPHER* cipher = nullptr;
    std::array<std::uint8_t, 32> subkey{};
    const std::uint8_t* key = key_.data();
    if (mode_ == TransportMode::Aes256GcmRtpSize) {
        cipher = EVP_aes_256_gcm();
        std::memcpy(iv, nonce4, 4);
    } else {
        // XChaCha20: the 24-byte nonce is nonce4 followed by zeros; HChaCha20 takes its first 16 bytes
        // and the IETF ChaCha20 nonce is 4 zero bytes and its last 8 (all zero here).
        std::uint8_t nonce16[16] = {};
        std::memcpy(nonce16, nonce4, 4);
        subkey = HChaCha20(key_.data(), nonce16);
        key = subkey.data();
        cipher = EVP_chacha20_poly1305();
    }
    int len = 0;
    bool ok = EVP_CipherInit_ex(ctx_, cipher, nullptr, nullptr, nullptr, encrypt ? 1 : 0) == 1 &&
              EVP_CIPHER_CTX_ctrl(ctx_, EVP_CTRL_AEAD_SET_IVLEN, 12, nullptr) == 1 &&
              EVP_CipherInit_ex(ctx_, nullptr, nullptr, key, iv, encrypt ? 1 : 0) == 1 &&
              EVP_CipherUpdate(ctx_, nullptr, &len, aad, static_cast<int>(aadSize)) == 1;
    if (ok && inSize > 0) ok = EVP_CipherUpdate(ctx_, out, &len, in, static_cast<int>(inSize)) == 1;
    if (ok && !encrypt) ok = EVP_CIPHER_CTX_ctrl(ctx_, EVP_CTRL_AEAD_SET_TAG, kTransportTagSize, tag) == 1;
    if (ok) ok = EVP_CipherFinal_ex(ctx_, out + inSize, &len) == 1;
    if (ok && encrypt) ok = EVP_CIPHER_CTX_ctrl(ctx_, EVP_CTRL_AEAD_GET_TAG, kTransportTagSize, tag) == 1;
    OPENSSL_cleanse(subkey.data(), subkey.size());
    return ok;
}

std::size_t TransportCipher::Seal(const std::uint8_t* header, std::size_t headerSize, const std::uint8_t* payload,
                                  std::size_t payloadSize, std::uint8_t* out, std::size_t outCapacity) {
    const std::size_t total = headerSize + payloadSize + kOverhead;
    if (outCapacity < total) return 0;
    ++counter_;  // wraps at 2^32, as the relay's own counter does
    std::uint8_t nonce4[4];
    PutU32(nonce4, counter_);
    std::memmove(out, header, headerSize);
    if (!Run(true, nonce4, out, headerSize, payload, payloadSize, out + headerSize, out + headerSize + payloadSize))
        return 0;
    std::memcpy(out + total - kTransportNonceSuffixSize, nonce4, 4);
    return total;
}

std::optional<std::size_t> TransportCipher::Open(const std::uint8_t* packet, std::size_t size, std::size_t headerSize,
                                                 std::uint8_t* out, std::size_t outCapacity) {
    if (size < headerSize + kOverhead) return std::nullopt;
    const std::size_t bodySize = size - headerSize - kOverhead;
    if (outCapacity < bodySize) return std::nullopt;
    std::uint8_t tag[kTransportTagSize];
    std::memcpy(tag, packet + headerSize + bodySize, kTransportTagSize);
    if (!Run(false, packet + size - kTransportNonceSuffixSize, packet, headerSize, packet + headerSize, bodySize, out,
             tag))
        return std::nullopt;
    return bodySize;
}

}  // namespace platformpp::voice
