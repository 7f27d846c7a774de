#include "voice/e2ee/dave_frame.hpp"

#include <openssl/crypto.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace platformpp::voice::e2ee::dave {

namespace {

// The platform's name followed by " Secure Frames v0": spelt as bytes so the name stays out of
// the source text, as the project's rules ask.
constexpr std::uint8_t kSenderKeyLabel[] = {0x44, 0x69, 0x73, 0x63, 0x6f, 0x72, 0x64, 0x20, 0x53, 0x65, 0x63, 0x75,
                                            0x72, 0x65, 0x20, 0x46, 0x72, 0x61, 0x6d, 0x65, 0x73, 0x20, 0x76, 0x30};

constexpr std::size_t kGenerationShift = 24;

// The 12-byte AES-GCM nonce: eight zero bytes, then the truncated nonce little-endian.
void expand_nonce(std::uint32_t truncated, std::uint8_t (&full)[kAeadNonceSize]) {
  std::memset(full, 0, sizeof full);
  for (int i = 0; i < 4; ++i) full[8 + i] = static_cast<std::uint8_t>(truncated >> (8 * i));
}

void wipe(Bytes& secret) {
  if (!secret.empty()) OPENSSL_cleanse(secret.data(), secret.size());
  secret.clear();
}

// Joins the bytes inside (in_ranges) or outside (!in_ranges) the ranges into dst, which keeps its
// capacity between frames.
void gather(BytesView frame, const UnencryptedRanges& ranges, bool in_ranges, Bytes& dst) {
  dst.clear();
  std::size_t pos = 0;
  for (std::size_t i = 0; i < ranges.count; ++i) {
    const auto& r = ranges.items[i];
    if (!in_ranges) dst.insert(dst.end(), frame.data + pos, frame.data + r.offset);
    if (in_ranges) dst.insert(dst.end(), frame.data + r.offset, frame.data + r.offset + r.size);
    pos = r.offset + r.size;
  }
  if (!in_ranges) dst.insert(dst.end(), frame.data + pos, frame.data + frame.size);
}

// Writes src (the processed encrypted bytes, in order) back to the encrypted positions of out.
void scatter(const std::uint8_t* src, const UnencryptedRanges& ranges, std::size_t media_size, std::uint8_t* out) {
  std::size_t pos = 0;
  for (std::size_t i = 0; i < ranges.count; ++i) {
    const auto& r = ranges.items[i];
    std::memcpy(out + pos, src, r.offset - pos);
    src += r.offset - pos;
    pos = r.offset + r.size;
  }
  std::memcpy(out + pos, src, media_size - pos);
}

}  // namespace

BytesView sender_key_exporter_label() { return BytesView(kSenderKeyLabel, sizeof kSenderKeyLabel); }

std::array<std::uint8_t, 8> sender_key_exporter_context(std::uint64_t user_id) {
  std::array<std::uint8_t, 8> out{};
  for (std::size_t i = 0; i < 8; ++i) out[i] = static_cast<std::uint8_t>(user_id >> (8 * i));
  return out;
}

// --- ULEB128 ---------------------------------------------------------------------------------------

std::size_t write_uleb128(std::uint64_t value, std::uint8_t* out) {
  std::size_t n = 0;
  while (value >= 0x80) {
    out[n++] = static_cast<std::uint8_t>(0x80 | (value & 0x7F));
    value >>= 7;
  }
  out[n++] = static_cast<std::uint8_t>(value);
  return n;
}

bool read_uleb128(const std::uint8_t*& p, const std::uint8_t* end, std::uint64_t& value) {
  std::uint64_t result = 0;
  for (std::size_t i = 0; i < kMaxUleb128Size; ++i) {
    if (p + i >= end) return false;
    const std::uint8_t byte = p[i];
    const std::uint64_t bits = byte & 0x7F;
    // The tenth byte holds bit 63 only.
    if (i == kMaxUleb128Size - 1 && bits > 1) return false;
    result |= bits << (7 * i);
    if ((byte & 0x80) == 0) {
      p += i + 1;
      value = result;
      return true;
    }
  }
  return false;
}

// --- The trailer -----------------------------------------------------------------------------------

bool parse_protocol_frame(BytesView frame, ProtocolFrame& out) {
  if (frame.size < kMinSupplementalSize) return false;
  const std::uint8_t* end = frame.data + frame.size;
  if (end[-1] != kMagicMarkerByte || end[-2] != kMagicMarkerByte) return false;
  const std::size_t supplemental = end[-3];
  if (supplemental < kMinSupplementalSize || supplemental > frame.size) return false;
  out.media_size = frame.size - supplemental;
  out.tag = frame.data + out.media_size;
  const std::uint8_t* p = out.tag + kTruncatedTagSize;
  const std::uint8_t* fields_end = end - 1 - kMagicMarkerSize;
  std::uint64_t nonce = 0;
  if (!read_uleb128(p, fields_end, nonce) || nonce > std::numeric_limits<std::uint32_t>::max()) return false;
  out.truncated_nonce = static_cast<std::uint32_t>(nonce);
  out.ranges.count = 0;
  std::uint64_t covered_to = 0;  // ranges ascend and do not overlap
  while (p < fields_end) {
    std::uint64_t offset = 0, size = 0;
    if (!read_uleb128(p, fields_end, offset) || !read_uleb128(p, fields_end, size)) return false;
    if (offset < covered_to || offset > out.media_size || size > out.media_size - offset) return false;
    if (out.ranges.count == kMaxUnencryptedRanges) return false;
    out.ranges.items[out.ranges.count++] = {static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(size)};
    covered_to = offset + size;
  }
  return true;
}

// --- Codecs ----------------------------------------------------------------------------------------

void unencrypted_ranges_for(Codec codec, BytesView frame, UnencryptedRanges& out) {
  out.count = 0;
  switch (codec) {
    case Codec::Opus:
    case Codec::VP9:
      return;
    case Codec::VP8: {
      // RFC 7741 section 4.3: P (bit 0 of the first byte) is an inverse key frame flag. A key frame
      // keeps its 10-byte uncompressed header readable, others the 1-byte payload header. A frame too
      // short for its header is unexpected: encrypt all of it.
      if (frame.size == 0) return;
      const std::uint32_t clear = (frame.data[0] & 0x01) == 0 ? 10 : 1;
      if (frame.size < clear) return;
      out.items[0] = {0, clear};
      out.count = 1;
      return;
    }
  }
}

// --- Key ratchet -----------------------------------------------------------------------------------

KeyRatchet::KeyRatchet(BytesView base_secret) : next_secret_(base_secret.to_bytes()) {
  if (base_secret.size != kSenderBaseSecretSize) {
    wipe(next_secret_);
    throw Error(ErrorKind::Crypto, "dave key ratchet: base_secret must be 16 bytes");
  }
}

KeyRatchet::~KeyRatchet() { wipe(next_secret_); }

void KeyRatchet::erase_expired(Clock::time_point now) {
  for (auto& slot : slots_) {
    if (slot.used && slot.expiry && *slot.expiry <= now) slot = Slot{};
  }
}

AesGcm128* KeyRatchet::cached(std::uint32_t generation, Clock::time_point now) {
  erase_expired(now);
  for (auto& slot : slots_) {
    if (slot.used && slot.generation == generation) return &*slot.cipher;
  }
  return nullptr;
}

bool KeyRatchet::derive(std::uint32_t generation, Candidate& out) const {
  if (generation < next_generation_ || generation - next_generation_ > kMaxGenerationGap) return false;
  if (next_secret_.empty()) return false;  // the ratchet ran out of 32-bit generations
  Bytes secret = next_secret_;
  out.previous_cipher.reset();
  for (std::uint32_t g = next_generation_;; ++g) {
    if (g + 1 == generation) {
      Bytes key = derive_tree_secret(secret, "key", g, kAeadKeySize);
      out.previous_cipher.emplace(key);
      wipe(key);
    }
    if (g == generation) {
      Bytes key = derive_tree_secret(secret, "key", g, kAeadKeySize);
      out.cipher.emplace(key);
      wipe(key);
      wipe(out.next_secret);
      // The last generation has no successor: an empty next secret ends the ratchet.
      if (g != std::numeric_limits<std::uint32_t>::max())
        out.next_secret = derive_tree_secret(secret, "secret", g, kHashSize);
      wipe(secret);
      out.generation = generation;
      return true;
    }
    Bytes next = derive_tree_secret(secret, "secret", g, kHashSize);
    wipe(secret);
    secret = std::move(next);
  }
}

KeyRatchet::Slot& KeyRatchet::free_slot() {
  for (auto& slot : slots_) {
    if (!slot.used) return slot;
  }
  // None free: the oldest generation goes now rather than at its expiry.
  return *std::min_element(slots_.begin(), slots_.end(),
                           [](const Slot& a, const Slot& b) { return a.generation < b.generation; });
}

AesGcm128* KeyRatchet::commit(Candidate&& candidate, Clock::time_point now) {
  erase_expired(now);
  wipe(next_secret_);
  next_secret_ = std::move(candidate.next_secret);
  candidate.next_secret.clear();
  next_generation_ = candidate.generation + 1;
  // Older generations stay for in-flight media, then go.
  const auto expiry = now + kKeyRetention;
  for (auto& slot : slots_) {
    if (slot.used && !slot.expiry) slot.expiry = expiry;
  }
  if (candidate.previous_cipher) {
    Slot& previous = free_slot();
    previous.used = true;
    previous.generation = candidate.generation - 1;
    previous.cipher = std::move(candidate.previous_cipher);
    previous.expiry = expiry;
    candidate.previous_cipher.reset();
  }
  Slot& target = free_slot();
  target.used = true;
  target.generation = candidate.generation;
  target.cipher = std::move(candidate.cipher);
  target.expiry.reset();
  candidate.cipher.reset();
  return &*target.cipher;
}

std::uint32_t KeyRatchet::oldest_generation(Clock::time_point now) {
  erase_expired(now);
  std::uint32_t oldest = next_generation_;
  for (const auto& slot : slots_) {
    if (slot.used) oldest = std::min(oldest, slot.generation);
  }
  return oldest;
}

std::uint32_t KeyRatchet::widen_generation(std::uint8_t low_byte, Clock::time_point now) {
  const std::uint32_t oldest = oldest_generation(now);
  std::uint32_t g = (oldest & ~std::uint32_t{0xFF}) | low_byte;
  if (g < oldest) g += 0x100;
  return g;
}

// --- Encryption ------------------------------------------------------------------------------------

const char* to_string(FrameStatus status) {
  switch (status) {
    case FrameStatus::Ok: return "ok";
    case FrameStatus::Passthrough: return "passthrough";
    case FrameStatus::NoKey: return "no key ratchet for this sender";
    case FrameStatus::OutputTooSmall: return "output buffer too small";
    case FrameStatus::FrameTooLarge: return "frame too large for the protocol trailer";
    case FrameStatus::NotProtocolFrame: return "not a protocol frame and passthrough is off";
    case FrameStatus::UnknownGeneration: return "the nonce names an unknown or erased key generation";
    case FrameStatus::Replayed: return "nonce already used or outside the replay window";
    case FrameStatus::AuthenticationFailed: return "authentication tag did not verify";
  }
  return "unknown";
}

std::size_t max_encrypted_size(std::size_t frame_size) {
  // Tag, a 5-byte nonce, one range of two 5-byte values (VP8, the only codec with ranges so far),
  // size byte, marker.
  return frame_size + kTruncatedTagSize + 5 + 2 * 5 + 1 + kMagicMarkerSize;
}

void FrameEncryptor::set_key_ratchet(std::unique_ptr<KeyRatchet> ratchet) {
  ratchet_ = std::move(ratchet);
  counter_ = 0;
  cipher_ = nullptr;
}

FrameResult FrameEncryptor::encrypt(Codec codec, BytesView frame, std::uint8_t* out, std::size_t out_capacity) {
  // The Opus silence frame (a sender's end of speech, or the SFU's for muted sources) travels in the
  // clear, as the protocol sends it and every decryptor expects it: no key is needed and no nonce spent.
  const bool silence = codec == Codec::Opus && frame.size == kSilenceFrame.size() &&
                       std::equal(kSilenceFrame.begin(), kSilenceFrame.end(), frame.data);
  if (passthrough_ || silence) {
    if (out_capacity < frame.size) return {FrameStatus::OutputTooSmall, 0};
    if (frame.size) std::memmove(out, frame.data, frame.size);
    return {FrameStatus::Passthrough, frame.size};
  }
  if (!ratchet_) return {FrameStatus::NoKey, 0};
  if (frame.size > std::numeric_limits<std::uint32_t>::max()) return {FrameStatus::FrameTooLarge, 0};

  unencrypted_ranges_for(codec, frame, ranges_);
  // The trailer after the tag: nonce, ranges, then size and marker.
  std::uint8_t trailer[255];
  const auto truncated_nonce = static_cast<std::uint32_t>(counter_);
  std::size_t t = write_uleb128(truncated_nonce, trailer);
  for (std::size_t i = 0; i < ranges_.count; ++i) {
    if (t + 2 * kMaxUleb128Size > sizeof trailer) return {FrameStatus::FrameTooLarge, 0};
    t += write_uleb128(ranges_.items[i].offset, trailer + t);
    t += write_uleb128(ranges_.items[i].size, trailer + t);
  }
  const std::size_t supplemental = kTruncatedTagSize + t + 1 + kMagicMarkerSize;
  if (supplemental > 0xFF) return {FrameStatus::FrameTooLarge, 0};
  const std::size_t total = frame.size + supplemental;
  if (out_capacity < total) return {FrameStatus::OutputTooSmall, 0};

  const auto generation = static_cast<std::uint32_t>(counter_ >> kGenerationShift);
  if (!cipher_ || cipher_generation_ != generation) {
    // A new generation (every 2^24 frames): the only step of this path that allocates.
    const auto now = Clock::now();
    cipher_ = ratchet_->cached(generation, now);
    if (!cipher_) {
      KeyRatchet::Candidate candidate;
      if (!ratchet_->derive(generation, candidate)) return {FrameStatus::UnknownGeneration, 0};
      cipher_ = ratchet_->commit(std::move(candidate), now);
    }
    cipher_generation_ = generation;
  }
  ++counter_;

  std::uint8_t nonce[kAeadNonceSize];
  expand_nonce(truncated_nonce, nonce);
  std::uint8_t* tag = out + frame.size;
  if (frame.data != out && frame.size) std::memmove(out, frame.data, frame.size);
  if (ranges_.count == 0) {
    cipher_->seal(BytesView(nonce, sizeof nonce), BytesView(), BytesView(out, frame.size), out, tag, kTruncatedTagSize);
  } else {
    BytesView media(out, frame.size);
    gather(media, ranges_, true, aad_scratch_);
    gather(media, ranges_, false, text_scratch_);
    cipher_->seal(BytesView(nonce, sizeof nonce), aad_scratch_, text_scratch_, text_scratch_.data(), tag,
                  kTruncatedTagSize);
    scatter(text_scratch_.data(), ranges_, frame.size, out);
  }
  std::memcpy(tag + kTruncatedTagSize, trailer, t);
  std::uint8_t* tail = tag + kTruncatedTagSize + t;
  tail[0] = static_cast<std::uint8_t>(supplemental);
  tail[1] = kMagicMarkerByte;
  tail[2] = kMagicMarkerByte;
  return {FrameStatus::Ok, total};
}

// --- Decryption ------------------------------------------------------------------------------------

bool FrameDecryptor::ReplayWindow::fresh(std::uint64_t counter) const {
  if (!any || counter > newest) return true;
  if (newest - counter >= kReplayWindow) return false;
  const std::size_t bit = counter % kReplayWindow;
  return (seen[bit / 64] & (std::uint64_t{1} << (bit % 64))) == 0;
}

void FrameDecryptor::ReplayWindow::mark(std::uint64_t counter) {
  if (!any) {
    any = true;
    newest = counter;
    seen.fill(0);
  } else if (counter > newest) {
    if (counter - newest >= kReplayWindow) {
      seen.fill(0);
    } else {
      for (std::uint64_t c = newest + 1; c <= counter; ++c) {
        const std::size_t bit = c % kReplayWindow;
        seen[bit / 64] &= ~(std::uint64_t{1} << (bit % 64));
      }
    }
    newest = counter;
  }
  const std::size_t bit = counter % kReplayWindow;
  seen[bit / 64] |= std::uint64_t{1} << (bit % 64);
}

void FrameDecryptor::transition_to(std::unique_ptr<KeyRatchet> ratchet, Clock::time_point now) {
  // Shift the epochs down; the oldest falls off if all four are held.
  for (std::size_t i = epochs_.size() - 1; i > 0; --i) epochs_[i] = std::move(epochs_[i - 1]);
  if (epochs_[1].ratchet && !epochs_[1].expiry) epochs_[1].expiry = now + kKeyRetention;
  epochs_[0] = Epoch{};
  epochs_[0].ratchet = std::move(ratchet);
}

void FrameDecryptor::set_passthrough(bool passthrough, Clock::time_point now, std::chrono::seconds retention) {
  if (passthrough) {
    passthrough_until_.reset();
  } else if (passthrough_) {
    passthrough_until_ = now + retention;
  }
  passthrough_ = passthrough;
}

bool FrameDecryptor::accepts_passthrough(Clock::time_point now) const {
  return passthrough_ || (passthrough_until_ && now < *passthrough_until_);
}

bool FrameDecryptor::has_key() const { return epochs_[0].ratchet != nullptr; }

FrameStatus FrameDecryptor::try_epoch(Epoch& epoch, BytesView frame, const ProtocolFrame& parsed, std::uint8_t* out,
                                      Clock::time_point now) {
  KeyRatchet& ratchet = *epoch.ratchet;
  const std::uint32_t generation =
      ratchet.widen_generation(static_cast<std::uint8_t>(parsed.truncated_nonce >> kGenerationShift), now);
  const std::uint64_t counter =
      (std::uint64_t{generation} << kGenerationShift) | (parsed.truncated_nonce & 0xFFFFFFu);

  AesGcm128* cipher = ratchet.cached(generation, now);
  bool candidate_in_use = false;
  if (!cipher) {
    if (!ratchet.derive(generation, candidate_)) return FrameStatus::UnknownGeneration;
    cipher = &*candidate_.cipher;
    candidate_in_use = true;
  }

  std::uint8_t nonce[kAeadNonceSize];
  expand_nonce(parsed.truncated_nonce, nonce);
  const BytesView tag(parsed.tag, kTruncatedTagSize);
  bool opened;
  if (parsed.ranges.count == 0) {
    opened = cipher->open(BytesView(nonce, sizeof nonce), BytesView(), BytesView(frame.data, parsed.media_size), tag,
                          out);
  } else {
    const BytesView media(frame.data, parsed.media_size);
    gather(media, parsed.ranges, true, aad_scratch_);
    gather(media, parsed.ranges, false, text_scratch_);
    opened = cipher->open(BytesView(nonce, sizeof nonce), aad_scratch_, text_scratch_, tag, text_scratch_.data());
    if (opened) {
      if (out != frame.data) std::memmove(out, frame.data, parsed.media_size);
      scatter(text_scratch_.data(), parsed.ranges, parsed.media_size, out);
    }
  }
  if (!opened) {
    if (candidate_in_use) candidate_.cipher.reset();
    return FrameStatus::AuthenticationFailed;
  }
  // Checked after authentication, so that only a frame made with this key is called a replay.
  if (!epoch.window.fresh(counter)) {
    if (candidate_in_use) candidate_.cipher.reset();
    return FrameStatus::Replayed;
  }
  // Only an authentic frame may move the ratchet forward (and start the expiry of older keys).
  if (candidate_in_use) ratchet.commit(std::move(candidate_), now);
  epoch.window.mark(counter);
  return FrameStatus::Ok;
}

FrameResult FrameDecryptor::decrypt(MediaType media, BytesView frame, std::uint8_t* out, std::size_t out_capacity,
                                    Clock::time_point now) {
  if (out_capacity < frame.size) return {FrameStatus::OutputTooSmall, 0};
  const bool silence = media == MediaType::Audio && frame.size == kSilenceFrame.size() &&
                       std::equal(kSilenceFrame.begin(), kSilenceFrame.end(), frame.data);
  if (silence || !parse_protocol_frame(frame, parsed_)) {
    if (!silence && !accepts_passthrough(now)) return {FrameStatus::NotProtocolFrame, 0};
    if (frame.size && out != frame.data) std::memmove(out, frame.data, frame.size);
    return {FrameStatus::Passthrough, frame.size};
  }

  // Newest epoch first; a frame from before the last transition falls to the older ones.
  FrameStatus worst = epochs_[0].ratchet ? FrameStatus::UnknownGeneration : FrameStatus::NoKey;
  for (auto& epoch : epochs_) {
    if (!epoch.ratchet) continue;
    if (epoch.expiry && *epoch.expiry <= now) {
      epoch = Epoch{};
      continue;
    }
    const FrameStatus status = try_epoch(epoch, frame, parsed_, out, now);
    if (status == FrameStatus::Ok) return {FrameStatus::Ok, parsed_.media_size};
    // Report the most telling failure: a bad tag over an unknown generation, a replay over both.
    if (status == FrameStatus::Replayed ||
        (status == FrameStatus::AuthenticationFailed && worst != FrameStatus::Replayed)) {
      worst = status;
    }
  }
  return {worst, 0};
}

}  // namespace platformpp::voice::e2ee::dave
