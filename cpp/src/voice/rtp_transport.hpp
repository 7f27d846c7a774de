// The media transport of a voice connection: RTP and RTCP headers, the voice server's IP discovery
// packets, and the transport AEAD modes the voice gateway offers (the "rtpsize" variants):
//
//   RTP:  [clear header: 12 bytes, CSRCs, 4-byte extension preamble if X] [AEAD ciphertext + 16-byte tag]
//         [4-byte big-endian nonce counter]
//   RTCP: the same with the first 8 bytes as the clear header.
//
// The counter fills the start of the mode's nonce (12 bytes for AES-256-GCM, 24 for XChaCha20-Poly1305)
// and the rest is zero; the clear header is the additional authenticated data. Both modes run on
// OpenSSL 3: AES-256-GCM directly, XChaCha20-Poly1305 as HChaCha20 (written here from
// draft-irtf-cfrg-xchacha, OpenSSL has no XChaCha) followed by OpenSSL's IETF ChaCha20-Poly1305.
// Private to the core. A TransportCipher is not thread-safe (one per network thread).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

typedef struct evp_cipher_ctx_st EVP_CIPHER_CTX;

namespace platformpp::voice {

constexpr std::size_t kRtpFixedHeaderSize = 12;
constexpr std::size_t kRtcpClearHeaderSize = 8;
constexpr std::size_t kTransportTagSize = 16;
constexpr std::size_t kTransportNonceSuffixSize = 4;
constexpr std::uint8_t kOpusPayloadType = 120;  // the payload type the platform's clients use for Opus
constexpr std::size_t kMaxDatagramSize = 1400;   // the relay drops anything larger
constexpr std::size_t kDiscoveryPacketSize = 74;

enum class TransportMode { Aes256GcmRtpSize, XChaCha20Poly1305RtpSize };

std::string_view ToString(TransportMode mode);
std::optional<TransportMode> ParseTransportMode(std::string_view name);
// The mode to select from the server's offer: AES-256-GCM when offered (the platform prefers it and it
// is hardware-accelerated), else XChaCha20-Poly1305; nullopt when neither is offered.
std::optional<TransportMode> ChooseTransportMode(const std::vector<std::string>& offered);

// --- RTP / RTCP -------------------------------------------------------------------------------------

struct RtpHeader {
    std::uint8_t payloadType = kOpusPayloadType;
    bool marker = false;
    std::uint16_t sequence = 0;
    std::uint32_t timestamp = 0;
    std::uint32_t ssrc = 0;
};

// Writes the 12-byte fixed header (version 2, no padding, extension or CSRC).
void WriteRtpHeader(const RtpHeader& header, std::uint8_t* out);

struct ParsedRtp {
    RtpHeader header;
    std::size_t clearHeaderSize = 0;  // 12 + 4 * CSRC count (+ 4 when the X bit is set)
    bool hasExtension = false;        // the extension body starts the decrypted payload
};
// nullopt when the packet is not RTP version 2 or is shorter than its clear header.
std::optional<ParsedRtp> ParseRtp(const std::uint8_t* packet, std::size_t size);
// RTCP packet types 200..204 sit where RTP has its marker and payload type.
bool IsRtcp(const std::uint8_t* packet, std::size_t size);
// The length in bytes of the extension body at the start of a decrypted payload, from the preamble
// (its last 2 bytes count 32-bit words); 0 when the packet has no extension.
std::size_t RtpExtensionBodySize(const std::uint8_t* packet, const ParsedRtp& parsed);

struct RtcpSenderInfo {
    std::uint32_t ssrc = 0;
    std::uint64_t ntpTime = 0;   // NTP timestamp (seconds << 32 | fraction)
    std::uint32_t rtpTimestamp = 0;
    std::uint32_t packetCount = 0;
    std::uint32_t octetCount = 0;
};
// A sender report with no report blocks (28 bytes, RFC 3550 section 6.4.1).
std::array<std::uint8_t, 28> MakeSenderReport(const RtcpSenderInfo& info);
std::uint8_t RtcpPacketType(const std::uint8_t* packet);
// The NTP timestamp of now (for sender reports).
std::uint64_t NtpNow();

// --- IP discovery -----------------------------------------------------------------------------------

std::array<std::uint8_t, kDiscoveryPacketSize> MakeDiscoveryRequest(std::uint32_t ssrc);
struct DiscoveredAddress {
    std::uint32_t ssrc = 0;
    std::string address;
    std::uint16_t port = 0;
};
// nullopt unless the packet is a 74-byte response (type 2, length 70) with a NUL-terminated address.
std::optional<DiscoveredAddress> ParseDiscoveryResponse(const std::uint8_t* packet, std::size_t size);

// --- transport encryption ---------------------------------------------------------------------------

// HChaCha20 (draft-irtf-cfrg-xchacha section 2.2): a 32-byte subkey from a key and a 16-byte nonce.
std::array<std::uint8_t, 32> HChaCha20(const std::uint8_t* key32, const std::uint8_t* nonce16);

class TransportCipher {
public:
    using Key = std::array<std::uint8_t, 32>;
    TransportCipher(TransportMode mode, const Key& key);
    ~TransportCipher();
    TransportCipher(const TransportCipher&) = delete;
    TransportCipher& operator=(const TransportCipher&) = delete;

    TransportMode Mode() const { return mode_; }
    // The bytes Seal adds to a payload.
    static constexpr std::size_t kOverhead = kTransportTagSize + kTransportNonceSuffixSize;

    // out = header || AEAD(payload) || nonce counter (the next value of this cipher's counter).
    // Returns the packet size, or 0 when out_capacity is too small.
    std::size_t Seal(const std::uint8_t* header, std::size_t headerSize, const std::uint8_t* payload,
                     std::size_t payloadSize, std::uint8_t* out, std::size_t outCapacity);
    // Decrypts the payload after headerSize clear bytes into out (capacity >= size). Returns the
    // plaintext size, or nullopt when the packet is too short or does not authenticate.
    std::optional<std::size_t> Open(const std::uint8_t* packet, std::size_t size, std::size_t headerSize,
                                    std::uint8_t* out, std::size_t outCapacity);

    // Test hook: the counter the next Seal increments from.
    void SetCounterForTest(std::uint32_t counter) { counter_ = counter; }

private:
    bool Run(bool encrypt, const std::uint8_t* nonce4, const std::uint8_t* aad, std::size_t aadSize,
             const std::uint8_t* in, std::size_t inSize, std::uint8_t* out, std::uint8_t* tag);

    TransportMode mode_;
    Key key_;
    std::uint32_t counter_ = 0;
    EVP_CIPHER_CTX* ctx_ = nullptr;
};

}  // namespace platformpp::voice
