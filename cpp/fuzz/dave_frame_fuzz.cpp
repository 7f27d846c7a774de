// libFuzzer target: the DAVE frame trailer decoder and the decryptor behind it, on untrusted frames.
// Checks, besides "no crash": a parsed trailer lies inside the frame with ascending disjoint ranges;
// the decryptor never succeeds on a forged frame; and our own encryption of the input round-trips.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "voice/e2ee/dave_frame.hpp"

using namespace platformpp::voice::e2ee;
using namespace platformpp::voice::e2ee::dave;

namespace {

[[noreturn]] void fail() { std::abort(); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Bytes secret(kSenderBaseSecretSize, 0x5a);
  static FrameEncryptor encryptor = [] {
    FrameEncryptor e;
    e.set_key_ratchet(std::make_unique<KeyRatchet>(secret));
    return e;
  }();
  static FrameDecryptor decryptor = [] {
    FrameDecryptor d;
    d.transition_to(std::make_unique<KeyRatchet>(secret), Clock::now());
    return d;
  }();
  static ProtocolFrame parsed;

  const BytesView frame(data, size);
  if (parse_protocol_frame(frame, parsed)) {
    if (parsed.media_size + kMinSupplementalSize > size) fail();
    std::uint64_t end = 0;
    for (std::size_t i = 0; i < parsed.ranges.count; ++i) {
      const auto& r = parsed.ranges.items[i];
      if (r.offset < end || std::uint64_t{r.offset} + r.size > parsed.media_size) fail();
      end = std::uint64_t{r.offset} + r.size;
    }
  }

  Bytes out(size + 1);
  const auto d = decryptor.decrypt(MediaType::Audio, frame, out.data(), out.size(), Clock::now());
  const bool silence = size == kSilenceFrame.size() && std::memcmp(data, kSilenceFrame.data(), size) == 0;
  // Without our key no input may authenticate (2^-64 per try); only the silence frame passes in the clear.
  if ((d.status == FrameStatus::Ok || d.status == FrameStatus::Passthrough) && !silence) fail();

  // Our own protocol frame of the input, as Opus and as VP8, decrypts back to it. Opus silence is sent in
  // the clear, as the protocol sends it, and an audio decryptor passes it through.
  for (Codec codec : {Codec::Opus, Codec::VP8}) {
    Bytes wire(max_encrypted_size(size));
    const auto e = encryptor.encrypt(codec, frame, wire.data(), wire.size());
    const bool clear = silence && codec == Codec::Opus;
    if (e.status != (clear ? FrameStatus::Passthrough : FrameStatus::Ok)) fail();
    Bytes plain(e.size);
    const auto back = decryptor.decrypt(clear ? MediaType::Audio : MediaType::Video, BytesView(wire.data(), e.size),
                                        plain.data(), plain.size(), Clock::now());
    if (clear) {
      if (back.status != FrameStatus::Passthrough || back.size != size || std::memcmp(plain.data(), data, size) != 0)
        fail();
      continue;
    }
    if (back.status != FrameStatus::Ok || back.size != size || (size && std::memcmp(plain.data(), data, size) != 0))
      fail();
  }
  return 0;
}
