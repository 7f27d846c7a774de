// The DAVE media frame layer: per-sender key ratchets, frame encryption and decryption with
// AES-128-GCM and a truncated 8-byte tag, and the supplemental data trailer
//
//   [interleaved media frame][tag 8][ULEB128 nonce][ULEB128 offset/size pairs][size 1][0xFA 0xFA]
//
// The frame path (FrameEncryptor::encrypt, FrameDecryptor::decrypt) allocates nothing once a key
// generation is in use: it reports failures as a FrameStatus, never by throwing, and reuses its
// OpenSSL contexts and scratch buffers. Objects are not thread-safe: one per thread of use.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "voice/e2ee/common.hpp"
#include "voice/e2ee/crypto.hpp"

namespace platformpp::voice::e2ee::dave {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kTruncatedTagSize = 8;
constexpr std::uint8_t kMagicMarkerByte = 0xFA;  // the marker is two of them
constexpr std::size_t kMagicMarkerSize = 2;
// Tag, a one-byte nonce, the size byte and the marker: the smallest trailer a frame can carry.
constexpr std::size_t kMinSupplementalSize = kTruncatedTagSize + 1 + 1 + kMagicMarkerSize;
// The trailer's size is one byte, so at most this many offset/size pairs fit in it.
constexpr std::size_t kMaxUnencryptedRanges = 124;
// How long keys of a replaced generation or epoch stay usable for media still in flight.
constexpr std::chrono::seconds kKeyRetention{10};
// The base secret of a sender's key ratchet (MLS-Exporter output length).
constexpr std::size_t kSenderBaseSecretSize = 16;
// A frame may name a generation at most this far past the newest one a ratchet has derived.
constexpr std::uint32_t kMaxGenerationGap = 64;
// The Opus silence frame: what a sender sends at the end of speech and the SFU synthesises for muted
// sources. It always travels in the clear: encrypt() copies it unchanged, decrypt() passes it through.
constexpr std::array<std::uint8_t, 3> kSilenceFrame{0xF8, 0xFF, 0xFE};

// The MLS exporter label of a sender's base secret, as the protocol defines it (24 ASCII bytes).
BytesView sender_key_exporter_label();
// The MLS exporter context of a sender's base secret: the user id, 8 bytes little-endian.
std::array<std::uint8_t, 8> sender_key_exporter_context(std::uint64_t user_id);

// --- ULEB128 ---------------------------------------------------------------------------------------

constexpr std::size_t kMaxUleb128Size = 10;  // a uint64_t
// Writes value at out (kMaxUleb128Size bytes available); returns the bytes written.
std::size_t write_uleb128(std::uint64_t value, std::uint8_t* out);
// Reads one value from [p, end); advances p. False when truncated, longer than 10 bytes or > 2^64-1.
bool read_uleb128(const std::uint8_t*& p, const std::uint8_t* end, std::uint64_t& value);

// --- The trailer -----------------------------------------------------------------------------------

struct UnencryptedRange {
  std::uint32_t offset = 0;
  std::uint32_t size = 0;
};

struct UnencryptedRanges {
  std::array<UnencryptedRange, kMaxUnencryptedRanges> items{};
  std::size_t count = 0;
};

// A frame that passed the protocol frame check: views into the frame it was parsed from.
struct ProtocolFrame {
  std::size_t media_size = 0;  // bytes of interleaved media before the trailer
  const std::uint8_t* tag = nullptr;
  std::uint32_t truncated_nonce = 0;
  UnencryptedRanges ranges;
};

// The protocol frame check: marker, plausible size, ULEB128 nonce (<= 32 bits) and ranges that are
// ascending, disjoint and inside the media. False (out unspecified) for anything else.
bool parse_protocol_frame(BytesView frame, ProtocolFrame& out);

// --- Codecs ----------------------------------------------------------------------------------------

// The codec of a frame handed to the encryptor, which leaves unencrypted only what the codec's
// packetizer must read. The decryptor needs no codec: the trailer names the ranges.
enum class Codec {
  Opus,  // fully encrypted
  VP8,   // payload header (1 byte) or, for a key frame, the uncompressed header (10 bytes) in clear
  VP9,   // fully encrypted: its payload descriptor travels outside the frame
};

// Ranges the encryptor leaves in clear for this codec and frame (empty: encrypt all of it).
void unencrypted_ranges_for(Codec codec, BytesView frame, UnencryptedRanges& out);

// --- Key ratchet -----------------------------------------------------------------------------------

// The per-sender, per-epoch ratchet (an MLS hash ratchet, RFC 9420 section 9.1, over the sender's
// base secret): generation g's key is DeriveTreeSecret(secret_g, "key", g, 16) and
// secret_{g+1} = DeriveTreeSecret(secret_g, "secret", g, 32). Keys of generations older than the
// newest used one stay for kKeyRetention, then are erased; an erased generation cannot come back.
class KeyRatchet {
 public:
  explicit KeyRatchet(BytesView base_secret);
  ~KeyRatchet();
  KeyRatchet(const KeyRatchet&) = delete;
  KeyRatchet& operator=(const KeyRatchet&) = delete;

  // The cipher of a cached generation, or nullptr (erased, never used, or expired at now).
  AesGcm128* cached(std::uint32_t generation, Clock::time_point now);
  // Derives generation's cipher without committing to it (nullptr when it is older than the
  // ratchet's head or more than kMaxGenerationGap past it). commit() then keeps it.
  struct Candidate {
    std::uint32_t generation = 0;
    std::optional<AesGcm128> cipher;
    // The generation just before, when the ratchet skips it: frames reordered around a generation
    // change still find its key.
    std::optional<AesGcm128> previous_cipher;
    Bytes next_secret;
  };
  bool derive(std::uint32_t generation, Candidate& out) const;
  AesGcm128* commit(Candidate&& candidate, Clock::time_point now);

  // The smallest generation still usable: frames are placed relative to it when the 8-bit
  // generation in their nonce wraps.
  std::uint32_t oldest_generation(Clock::time_point now);
  // The generation a frame's nonce names, widened past 8 bits: the first value >= oldest_generation
  // whose low byte is the nonce's most significant byte.
  std::uint32_t widen_generation(std::uint8_t low_byte, Clock::time_point now);

 private:
  struct Slot {
    bool used = false;
    std::uint32_t generation = 0;
    std::optional<AesGcm128> cipher;
    std::optional<Clock::time_point> expiry;  // set once a newer generation is in use
  };
  void erase_expired(Clock::time_point now);
  Slot& free_slot();

  Bytes next_secret_;  // secret of next_generation_
  std::uint32_t next_generation_ = 0;
  std::array<Slot, 4> slots_;
};

// --- Encryption ------------------------------------------------------------------------------------

enum class FrameStatus {
  Ok,
  Passthrough,         // copied unchanged (passthrough mode, or the SFU's silence frame)
  NoKey,               // no key ratchet yet (and not in passthrough mode)
  OutputTooSmall,      // the output buffer cannot hold the result
  FrameTooLarge,       // over 2^32 - 1 bytes, or a codec range the trailer cannot carry
  NotProtocolFrame,    // failed the protocol frame check while passthrough is off
  UnknownGeneration,   // the nonce names an erased, expired or too-distant generation
  Replayed,            // this key and nonce were already decrypted, or fell behind the window
  AuthenticationFailed,
};

const char* to_string(FrameStatus status);

struct FrameResult {
  FrameStatus status = FrameStatus::Ok;
  std::size_t size = 0;  // bytes written to the output
  bool ok() const { return status == FrameStatus::Ok || status == FrameStatus::Passthrough; }
};

// The largest protocol frame encrypt() makes from a frame of frame_size bytes.
std::size_t max_encrypted_size(std::size_t frame_size);

// Encrypts the local sender's frames. Nonces count up from 0 for each new key ratchet; the
// generation is the nonce counter >> 24, so the truncated 32-bit nonce may wrap while the
// generation keeps increasing.
class FrameEncryptor {
 public:
  FrameEncryptor() = default;

  // Starts a new epoch's ratchet: the nonce counter restarts at 0.
  void set_key_ratchet(std::unique_ptr<KeyRatchet> ratchet);
  // Passthrough (protocol version 0): frames are copied unchanged.
  void set_passthrough(bool passthrough) { passthrough_ = passthrough; }
  bool passthrough() const { return passthrough_; }
  bool has_key() const { return ratchet_ != nullptr; }

  // Writes the protocol frame of frame into out (capacity max_encrypted_size(frame.size)).
  FrameResult encrypt(Codec codec, BytesView frame, std::uint8_t* out, std::size_t out_capacity);

  // Test hook: the counter of the next frame (generation = counter >> 24).
  void set_nonce_counter_for_test(std::uint64_t counter) { counter_ = counter; }

 private:
  bool passthrough_ = false;
  std::unique_ptr<KeyRatchet> ratchet_;
  std::uint64_t counter_ = 0;
  AesGcm128* cipher_ = nullptr;  // owned by ratchet_, for cipher_generation_
  std::uint32_t cipher_generation_ = 0;
  UnencryptedRanges ranges_;
  Bytes aad_scratch_;
  Bytes text_scratch_;
};

// --- Decryption ------------------------------------------------------------------------------------

enum class MediaType { Audio, Video };

// Decrypts one remote sender's frames. Holds the current epoch's ratchet and, for kKeyRetention
// after each transition, the ratchets it replaced. Each ratchet decrypts a nonce at most once.
class FrameDecryptor {
 public:
  FrameDecryptor() = default;

  // The new epoch's ratchet becomes current; the previous one stays until now + kKeyRetention.
  void transition_to(std::unique_ptr<KeyRatchet> ratchet, Clock::time_point now);
  // Passthrough on: frames that are not protocol frames pass unchanged. Turning it off keeps
  // accepting them until now + retention (the transition window), then refuses them.
  void set_passthrough(bool passthrough, Clock::time_point now, std::chrono::seconds retention = kKeyRetention);
  bool accepts_passthrough(Clock::time_point now) const;
  bool has_key() const;

  // Writes the media frame of frame into out (capacity >= frame.size). out must not overlap frame:
  // a key tried and refused during a transition may already have written to it.
  FrameResult decrypt(MediaType media, BytesView frame, std::uint8_t* out, std::size_t out_capacity,
                      Clock::time_point now);

 private:
  // Which (generation << 24 | nonce low 24 bits) a ratchet has decrypted: the newest one seen and
  // a bitmap of the kReplayWindow before it.
  static constexpr std::size_t kReplayWindow = 1024;
  struct ReplayWindow {
    bool any = false;
    std::uint64_t newest = 0;
    std::array<std::uint64_t, kReplayWindow / 64> seen{};
    bool fresh(std::uint64_t counter) const;
    void mark(std::uint64_t counter);
  };
  struct Epoch {
    std::unique_ptr<KeyRatchet> ratchet;
    ReplayWindow window;
    std::optional<Clock::time_point> expiry;  // set once a newer epoch replaced it
  };
  FrameStatus try_epoch(Epoch& epoch, BytesView frame, const ProtocolFrame& parsed, std::uint8_t* out,
                        Clock::time_point now);

  std::array<Epoch, 4> epochs_;  // [0] is current
  bool passthrough_ = false;
  std::optional<Clock::time_point> passthrough_until_;
  ProtocolFrame parsed_;  // scratch: kept here, not on the stack, for its size
  KeyRatchet::Candidate candidate_;
  Bytes aad_scratch_;
  Bytes text_scratch_;
};

}  // namespace platformpp::voice::e2ee::dave
