// The DAVE frame layer: trailer format, ratchets, generations and wrap-around, replay, transitions,
// passthrough, codec ranges, and the verification codes.
#include <boost/test/unit_test.hpp>

#include <cstring>

#include "vectors.hpp"
#include "voice/e2ee/dave_codes.hpp"
#include "voice/e2ee/dave_frame.hpp"

using namespace platformpp::voice::e2ee;
using namespace platformpp::voice::e2ee::dave;

namespace platformpp::voice::e2ee::dave {
// So Boost.Test prints a status in a failed comparison.
inline std::ostream& operator<<(std::ostream& os, FrameStatus s) { return os << to_string(s); }
}  // namespace platformpp::voice::e2ee::dave

namespace {

Bytes secret_of(std::uint8_t seed) {
  Bytes s(kSenderBaseSecretSize);
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<std::uint8_t>(seed + i);
  return s;
}

std::unique_ptr<KeyRatchet> ratchet_of(std::uint8_t seed) {
  const Bytes s = secret_of(seed);
  return std::make_unique<KeyRatchet>(s);
}

Bytes opus_frame(std::size_t n, std::uint8_t seed = 1) {
  Bytes f(n);
  for (std::size_t i = 0; i < n; ++i) f[i] = static_cast<std::uint8_t>(seed * 31 + i * 7);
  return f;
}

// One sender's encryptor and a receiver's decryptor sharing a base secret, with a test clock.
struct Pair {
  FrameEncryptor enc;
  FrameDecryptor dec;
  Clock::time_point now = Clock::time_point() + std::chrono::hours(1);

  explicit Pair(std::uint8_t seed = 7) {
    enc.set_key_ratchet(ratchet_of(seed));
    dec.transition_to(ratchet_of(seed), now);
  }
  Bytes encrypt(const Bytes& frame, Codec codec = Codec::Opus) {
    Bytes out(max_encrypted_size(frame.size()));
    const auto r = enc.encrypt(codec, frame, out.data(), out.size());
    BOOST_REQUIRE_MESSAGE(r.status == FrameStatus::Ok, to_string(r.status));
    out.resize(r.size);
    return out;
  }
  FrameResult decrypt(const Bytes& frame, Bytes& plain, MediaType media = MediaType::Audio) {
    plain.assign(frame.size(), 0);
    const auto r = dec.decrypt(media, frame, plain.data(), plain.size(), now);
    plain.resize(r.size);
    return r;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(dave_frame)

BOOST_AUTO_TEST_CASE(uleb128_round_trips_and_refuses_malformed_input) {
  for (std::uint64_t v : {0ull, 1ull, 127ull, 128ull, 300ull, 0xFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull}) {
    std::uint8_t buf[kMaxUleb128Size];
    const std::size_t n = write_uleb128(v, buf);
    const std::uint8_t* p = buf;
    std::uint64_t back = 0;
    BOOST_TEST(read_uleb128(p, buf + n, back));
    BOOST_TEST(back == v);
    BOOST_TEST(static_cast<std::size_t>(p - buf) == n);
  }
  std::uint8_t two[] = {0xAC, 0x02};  // 300, the whitepaper's encoding
  const std::uint8_t* p = two;
  std::uint64_t v = 0;
  BOOST_TEST(read_uleb128(p, two + 2, v));
  BOOST_TEST(v == 300u);
  p = two;
  BOOST_TEST(!read_uleb128(p, two + 1, v));  // truncated
  std::uint8_t too_long[11];
  std::memset(too_long, 0x80, sizeof too_long);
  too_long[10] = 0;
  p = too_long;
  BOOST_TEST(!read_uleb128(p, too_long + 11, v));
  std::uint8_t overflow[10];
  std::memset(overflow, 0xFF, 9);
  overflow[9] = 0x02;  // bit 64
  p = overflow;
  BOOST_TEST(!read_uleb128(p, overflow + 10, v));
}

BOOST_AUTO_TEST_CASE(opus_frame_is_fully_encrypted_with_the_protocol_trailer) {
  Pair pair;
  const Bytes frame = opus_frame(160);
  const Bytes e = pair.encrypt(frame);
  // media (160) + tag (8) + nonce 0 (1 byte) + size (1) + marker (2); no ranges for Opus.
  BOOST_TEST(e.size() == 160u + 8 + 1 + 1 + 2);
  BOOST_TEST(e[e.size() - 1] == 0xFA);
  BOOST_TEST(e[e.size() - 2] == 0xFA);
  BOOST_TEST(e[e.size() - 3] == 12);
  BOOST_TEST(e[160 + 8] == 0);  // the first nonce
  BOOST_TEST(std::memcmp(e.data(), frame.data(), 160) != 0);

  ProtocolFrame parsed;
  BOOST_TEST(parse_protocol_frame(e, parsed));
  BOOST_TEST(parsed.media_size == 160u);
  BOOST_TEST(parsed.ranges.count == 0u);

  Bytes plain;
  const auto r = pair.decrypt(e, plain);
  BOOST_TEST(r.status == FrameStatus::Ok);
  BOOST_TEST(plain == frame);

  // The next frame uses the next nonce.
  const Bytes e2 = pair.encrypt(frame);
  BOOST_TEST(e2[160 + 8] == 1);
  BOOST_TEST(pair.decrypt(e2, plain).status == FrameStatus::Ok);
  BOOST_TEST(plain == frame);
}

BOOST_AUTO_TEST_CASE(the_opus_silence_frame_is_sent_in_the_clear) {
  Pair pair;
  const Bytes silence(kSilenceFrame.begin(), kSilenceFrame.end());
  Bytes out(max_encrypted_size(silence.size()));
  const auto r = pair.enc.encrypt(Codec::Opus, silence, out.data(), out.size());
  BOOST_TEST(r.status == FrameStatus::Passthrough);
  out.resize(r.size);
  BOOST_TEST(out == silence);  // F8 FF FE, no trailer, no magic marker
  ProtocolFrame parsed;
  BOOST_TEST(!parse_protocol_frame(out, parsed));
  // The receiver passes it through, and it spends no nonce: the next speech frame has nonce 0.
  Bytes plain;
  BOOST_TEST(pair.decrypt(out, plain).status == FrameStatus::Passthrough);
  BOOST_TEST(plain == silence);
  const Bytes speech = pair.encrypt(opus_frame(160));
  BOOST_TEST(speech[160 + 8] == 0);
  // Before any key too (nothing to wait for), and only the exact three bytes of Opus: a longer frame
  // that starts with them, or the same bytes as video, are encrypted as any frame.
  FrameEncryptor keyless;
  Bytes keyless_out(silence.size());
  BOOST_TEST(keyless.encrypt(Codec::Opus, silence, keyless_out.data(), keyless_out.size()).status ==
             FrameStatus::Passthrough);
  const Bytes longer{0xF8, 0xFF, 0xFE, 0x00};
  const Bytes sealed = pair.encrypt(longer);
  BOOST_TEST(sealed.size() > longer.size());
  BOOST_TEST(pair.encrypt(silence, Codec::VP9).size() > silence.size());
}

BOOST_AUTO_TEST_CASE(tampering_and_wrong_keys_fail_authentication) {
  Pair pair;
  const Bytes frame = opus_frame(160);
  Bytes plain;
  for (std::size_t at : {std::size_t{0}, std::size_t{159}, std::size_t{160}, std::size_t{167}}) {
    Bytes e = pair.encrypt(frame);
    e[at] ^= 0x01;
    BOOST_TEST((pair.decrypt(e, plain).status == FrameStatus::AuthenticationFailed), "byte " << at);
  }
  Pair other(8);
  const Bytes foreign = other.encrypt(frame);
  BOOST_TEST((pair.decrypt(foreign, plain).status == FrameStatus::AuthenticationFailed));
  // A receiver without a ratchet says so.
  FrameDecryptor keyless;
  Bytes out(foreign.size());
  const auto keyless_result = keyless.decrypt(MediaType::Audio, foreign, out.data(), out.size(), pair.now);
  BOOST_TEST((keyless_result.status == FrameStatus::NoKey));
}

BOOST_AUTO_TEST_CASE(a_nonce_decrypts_once) {
  Pair pair;
  const Bytes frame = opus_frame(160);
  const Bytes first = pair.encrypt(frame);
  const Bytes second = pair.encrypt(frame);
  Bytes plain;
  BOOST_TEST(pair.decrypt(second, plain).status == FrameStatus::Ok);
  BOOST_TEST(pair.decrypt(first, plain).status == FrameStatus::Ok);  // out of order is fine
  BOOST_TEST((pair.decrypt(first, plain).status == FrameStatus::Replayed));
  BOOST_TEST((pair.decrypt(second, plain).status == FrameStatus::Replayed));
  // Far behind the newest nonce: refused rather than tracked forever.
  Pair far;
  const Bytes old_frame = far.encrypt(frame);
  far.enc.set_nonce_counter_for_test(5000);
  BOOST_TEST(far.decrypt(far.encrypt(frame), plain).status == FrameStatus::Ok);
  BOOST_TEST((far.decrypt(old_frame, plain).status == FrameStatus::Replayed));
}

BOOST_AUTO_TEST_CASE(generations_follow_the_nonce_and_old_ones_expire) {
  Pair pair;
  const Bytes frame = opus_frame(100);
  Bytes plain;
  pair.enc.set_nonce_counter_for_test((1u << 24) - 1);  // last nonce of generation 0
  const Bytes g0 = pair.encrypt(frame);
  const Bytes g1 = pair.encrypt(frame);  // nonce 2^24: generation 1
  ProtocolFrame parsed;
  BOOST_REQUIRE(parse_protocol_frame(g1, parsed));
  BOOST_TEST(parsed.truncated_nonce == (1u << 24));
  BOOST_TEST(pair.decrypt(g1, plain).status == FrameStatus::Ok);
  BOOST_TEST(plain == frame);
  // Generation 0 stays for in-flight frames, then is erased.
  BOOST_TEST(pair.decrypt(g0, plain).status == FrameStatus::Ok);
  const Bytes g0_late = [&] {
    Pair again;  // same seed: a second generation-0 frame with another nonce
    again.enc.set_nonce_counter_for_test((1u << 24) - 2);
    return again.encrypt(frame);
  }();
  pair.now += kKeyRetention + std::chrono::seconds(1);
  BOOST_TEST((pair.decrypt(g0_late, plain).status == FrameStatus::UnknownGeneration));
  BOOST_TEST(pair.decrypt(pair.encrypt(frame), plain).status == FrameStatus::Ok);
}

BOOST_AUTO_TEST_CASE(the_truncated_nonce_wraps_and_the_generation_keeps_counting) {
  Pair pair;
  const Bytes frame = opus_frame(64);
  Bytes plain;
  // Walk the sender through generations 0..256 in steps the receiver may ratchet over, then across
  // the 32-bit wrap: nonce 0xFFFFFFFF is generation 255, the next frame is nonce 0 of generation 256.
  for (std::uint64_t g = 0; g < 256; g += 32) {
    pair.enc.set_nonce_counter_for_test(g << 24);
    BOOST_TEST((pair.decrypt(pair.encrypt(frame), plain).status == FrameStatus::Ok), "generation " << g);
  }
  pair.enc.set_nonce_counter_for_test(0xFFFFFFFFull);
  const Bytes last = pair.encrypt(frame);
  const Bytes wrapped = pair.encrypt(frame);
  ProtocolFrame parsed;
  BOOST_REQUIRE(parse_protocol_frame(wrapped, parsed));
  BOOST_TEST(parsed.truncated_nonce == 0u);
  BOOST_TEST(pair.decrypt(last, plain).status == FrameStatus::Ok);
  BOOST_TEST(pair.decrypt(wrapped, plain).status == FrameStatus::Ok);
  BOOST_TEST(plain == frame);
  // The generation-0 key (same truncated nonce 0) is long gone: the wrapped frame did not reuse it.
  Pair fresh;
  BOOST_TEST((fresh.decrypt(wrapped, plain).status == FrameStatus::AuthenticationFailed));
}

BOOST_AUTO_TEST_CASE(a_forged_future_generation_does_not_move_the_ratchet) {
  Pair pair;
  const Bytes frame = opus_frame(80);
  Bytes plain;
  Bytes forged = pair.encrypt(frame);
  forged[80 + 8] = 0x80;  // nonce 2^24 * 5 as ULEB128: 80 80 80 28
  forged.insert(forged.begin() + 80 + 9, {0x80, 0x80, 0x28});
  forged[forged.size() - 3] = static_cast<std::uint8_t>(forged[forged.size() - 3] + 3);
  ProtocolFrame parsed;
  BOOST_REQUIRE(parse_protocol_frame(forged, parsed));
  BOOST_TEST(parsed.truncated_nonce == (5u << 24));
  BOOST_TEST((pair.decrypt(forged, plain).status == FrameStatus::AuthenticationFailed));
  pair.now += kKeyRetention + std::chrono::seconds(1);
  BOOST_TEST(pair.decrypt(pair.encrypt(frame), plain).status == FrameStatus::Ok);
}

BOOST_AUTO_TEST_CASE(previous_epoch_keys_last_for_the_transition_window) {
  Pair pair;
  const Bytes frame = opus_frame(120);
  Bytes plain;
  const Bytes old_epoch = pair.encrypt(frame);
  const Bytes old_epoch_later = pair.encrypt(frame);
  pair.enc.set_key_ratchet(ratchet_of(9));
  pair.dec.transition_to(ratchet_of(9), pair.now);
  const Bytes new_epoch = pair.encrypt(frame);
  BOOST_TEST(new_epoch[120 + 8] == 0);  // the nonce restarts with the epoch
  BOOST_TEST(pair.decrypt(new_epoch, plain).status == FrameStatus::Ok);
  BOOST_TEST(pair.decrypt(old_epoch, plain).status == FrameStatus::Ok);
  BOOST_TEST(plain == frame);
  pair.now += kKeyRetention;
  BOOST_TEST((pair.decrypt(old_epoch_later, plain).status == FrameStatus::AuthenticationFailed));
  BOOST_TEST(pair.decrypt(pair.encrypt(frame), plain).status == FrameStatus::Ok);
}

BOOST_AUTO_TEST_CASE(passthrough_mode_and_silence_frames) {
  Pair pair;
  const Bytes media = opus_frame(50);
  Bytes plain;
  BOOST_TEST((pair.decrypt(media, plain).status == FrameStatus::NotProtocolFrame));
  const Bytes silence(kSilenceFrame.begin(), kSilenceFrame.end());
  BOOST_TEST((pair.decrypt(silence, plain).status == FrameStatus::Passthrough));
  BOOST_TEST(plain == silence);
  BOOST_TEST((pair.decrypt(silence, plain, MediaType::Video).status == FrameStatus::NotProtocolFrame));

  pair.dec.set_passthrough(true, pair.now);
  BOOST_TEST((pair.decrypt(media, plain).status == FrameStatus::Passthrough));
  BOOST_TEST(plain == media);
  // Protocol frames are still decrypted in passthrough mode.
  BOOST_TEST(pair.decrypt(pair.encrypt(media), plain).status == FrameStatus::Ok);
  // Leaving passthrough keeps accepting clear frames for the transition window only.
  pair.dec.set_passthrough(false, pair.now);
  BOOST_TEST((pair.decrypt(media, plain).status == FrameStatus::Passthrough));
  pair.now += kKeyRetention;
  BOOST_TEST((pair.decrypt(media, plain).status == FrameStatus::NotProtocolFrame));

  // A sender in passthrough (protocol version 0) copies frames unchanged; without a key it refuses.
  pair.enc.set_passthrough(true);
  Bytes out(max_encrypted_size(media.size()));
  auto r = pair.enc.encrypt(Codec::Opus, media, out.data(), out.size());
  BOOST_TEST((r.status == FrameStatus::Passthrough));
  BOOST_TEST(Bytes(out.begin(), out.begin() + r.size) == media);
  FrameEncryptor keyless;
  BOOST_TEST((keyless.encrypt(Codec::Opus, media, out.data(), out.size()).status == FrameStatus::NoKey));
  BOOST_TEST((pair.enc.encrypt(Codec::Opus, media, out.data(), 10).status == FrameStatus::OutputTooSmall));
}

BOOST_AUTO_TEST_CASE(vp8_headers_stay_readable_and_authenticated) {
  Pair pair;
  Bytes key_frame = opus_frame(300);
  key_frame[0] = 0x10;  // P = 0: a key frame keeps 10 bytes in clear
  Bytes delta = opus_frame(200);
  delta[0] = 0x31;  // P = 1: one byte in clear
  Bytes plain;
  const Bytes ek = pair.encrypt(key_frame, Codec::VP8);
  const Bytes ed = pair.encrypt(delta, Codec::VP8);
  BOOST_TEST(std::memcmp(ek.data(), key_frame.data(), 10) == 0);
  BOOST_TEST(std::memcmp(ek.data() + 10, key_frame.data() + 10, 20) != 0);
  BOOST_TEST(ed[0] == delta[0]);
  BOOST_TEST(ed[1] != delta[1]);
  ProtocolFrame parsed;
  BOOST_REQUIRE(parse_protocol_frame(ek, parsed));
  BOOST_REQUIRE(parsed.ranges.count == 1u);
  BOOST_TEST(parsed.ranges.items[0].offset == 0u);
  BOOST_TEST(parsed.ranges.items[0].size == 10u);
  BOOST_TEST(pair.decrypt(ek, plain, MediaType::Video).status == FrameStatus::Ok);
  BOOST_TEST(plain == key_frame);
  BOOST_TEST(pair.decrypt(ed, plain, MediaType::Video).status == FrameStatus::Ok);
  BOOST_TEST(plain == delta);
  // The clear header is additional data: changing it fails authentication.
  Bytes tampered = pair.encrypt(key_frame, Codec::VP8);
  tampered[3] ^= 0x40;
  BOOST_TEST((pair.decrypt(tampered, plain, MediaType::Video).status == FrameStatus::AuthenticationFailed));
}

BOOST_AUTO_TEST_CASE(the_frame_check_refuses_malformed_trailers) {
  Pair pair;
  const Bytes good = pair.encrypt(opus_frame(40));
  ProtocolFrame parsed;
  BOOST_TEST(parse_protocol_frame(good, parsed));
  auto refused = [&](Bytes f) { return !parse_protocol_frame(f, parsed); };
  Bytes f = good;
  f.back() = 0xFB;
  BOOST_TEST(refused(f));
  f = good;
  f[f.size() - 3] = static_cast<std::uint8_t>(f.size() + 1);  // larger than the frame
  BOOST_TEST(refused(f));
  f = good;
  f[f.size() - 3] = 11;  // smaller than the minimum
  BOOST_TEST(refused(f));
  BOOST_TEST(refused(Bytes(good.end() - 11, good.end())));  // too short for a trailer
  // Hand-made trailers: [media][tag 8][nonce][ranges][size][FA FA].
  auto frame_with = [](std::size_t media, Bytes fields) {
    Bytes out(media + kTruncatedTagSize, 0x55);
    out.insert(out.end(), fields.begin(), fields.end());
    out.push_back(static_cast<std::uint8_t>(kTruncatedTagSize + fields.size() + 3));
    out.push_back(0xFA);
    out.push_back(0xFA);
    return out;
  };
  BOOST_TEST(!refused(frame_with(20, {0x00, 0x00, 0x02, 0x05, 0x03})));  // two ascending ranges
  BOOST_TEST(refused(frame_with(20, {0x00, 0x05, 0x03, 0x00, 0x02})));   // descending
  BOOST_TEST(refused(frame_with(20, {0x00, 0x00, 0x04, 0x03, 0x02})));   // overlapping
  BOOST_TEST(refused(frame_with(20, {0x00, 0x10, 0x05})));               // past the media
  BOOST_TEST(refused(frame_with(20, {0x00, 0x02})));                     // an offset without a size
  BOOST_TEST(refused(frame_with(20, {0x80, 0x80, 0x80, 0x80, 0x10})));   // nonce over 32 bits
  BOOST_TEST(refused(frame_with(20, {0x80})));                           // unterminated nonce
  BOOST_TEST(!refused(frame_with(0, {0x00})));                           // empty media is a frame
}

BOOST_AUTO_TEST_CASE(sender_key_exporter_inputs) {
  const BytesView label = sender_key_exporter_label();
  BOOST_TEST(label.size == 24u);
  BOOST_TEST(std::string(reinterpret_cast<const char*>(label.data) + 7, 17) == " Secure Frames v0");
  const auto ctx = sender_key_exporter_context(0x0102030405060708ull);
  BOOST_TEST(ctx[0] == 0x08);
  BOOST_TEST(ctx[7] == 0x01);
  BOOST_CHECK_THROW(KeyRatchet(Bytes(15)), Error);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(dave_codes)

// Expected values were computed with the independent DAVE implementation davey 0.1.7
// (generate_displayable_code, generate_pairwise_fingerprint) and checked by hand for the first group.
BOOST_AUTO_TEST_CASE(displayable_codes_match_davey) {
  Bytes data(32);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i);
  // 0x0001020304 = 16909060, mod 10^5 = 09060.
  BOOST_TEST(epoch_authenticator_code(data) == "090606058512110636351516066685");
  BOOST_TEST(displayable_code(data, 6, 3) == displayable_code(data, 6, 3));
  BOOST_CHECK_THROW(displayable_code(data, 33, 3), Error);  // longer than the data
  BOOST_CHECK_THROW(displayable_code(data, 10, 3), Error);  // not a multiple of the group
  BOOST_CHECK_THROW(displayable_code(data, 16, 8), Error);  // group too large
}

BOOST_AUTO_TEST_CASE(pairwise_fingerprint_matches_davey_and_is_symmetric) {
  Bytes a(65), b(65);
  a[0] = b[0] = 0x04;
  for (std::size_t i = 1; i < 65; ++i) {
    a[i] = static_cast<std::uint8_t>(i);
    b[i] = static_cast<std::uint8_t>(65 - i);
  }
  const Bytes kf = key_fingerprint(0, a, 1234);
  BOOST_TEST(kf.size() == 2u + 65 + 8);
  BOOST_TEST(kf[0] == 0);
  BOOST_TEST(kf[kf.size() - 2] == 0x04);
  BOOST_TEST(kf[kf.size() - 1] == 0xd2);
  const Bytes ab = pairwise_fingerprint(kFingerprintVersion, a, 1234, b, 5678);
  BOOST_TEST(e2ee_test::to_hex(ab) ==
             "e3c70ae4d09c2acdfa585e0f3daec6f04680cf6aec957835419dadf88886286174d2bd795a432bfa4ee573d05a008f2e64d9ab"
             "136306450d3d1544b517dca9a7");
  BOOST_TEST(pairwise_fingerprint(kFingerprintVersion, b, 5678, a, 1234) == ab);
  BOOST_TEST(pairwise_fingerprint(kFingerprintVersion, a, 1234, b, 5679) != ab);
  BOOST_TEST(fingerprint_code(ab).size() == kFingerprintCodeLength);
}

BOOST_AUTO_TEST_SUITE_END()
