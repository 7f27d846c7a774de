// The DAVE frame path allocates nothing per frame after warm-up. This translation unit replaces the
// global operator new and OpenSSL's allocator with counting ones, so it sees C++ and OpenSSL heap use
// alike; the counters only matter as differences around the measured loop.
#include <boost/test/unit_test.hpp>

#include <openssl/crypto.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "dave_alloc_counter.hpp"
#include "voice/e2ee/dave_frame.hpp"

namespace {

std::atomic<std::size_t> g_allocations{0};

void* counting_malloc(std::size_t n, const char*, int) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n);
}
void* counting_realloc(void* p, std::size_t n, const char*, int) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::realloc(p, n);
}
void counting_free(void* p, const char*, int) { std::free(p); }

// Must run before OpenSSL allocates anything, so it is a static initialiser of this test binary.
const bool g_openssl_counted = CRYPTO_set_mem_functions(counting_malloc, counting_realloc, counting_free) == 1;

}  // namespace

namespace e2ee_test {
std::size_t allocations_so_far() { return g_allocations.load(); }
bool openssl_allocations_counted() { return g_openssl_counted; }
}  // namespace e2ee_test

void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

using namespace platformpp::voice::e2ee;
using namespace platformpp::voice::e2ee::dave;

BOOST_AUTO_TEST_SUITE(dave_frame_allocations)

BOOST_AUTO_TEST_CASE(encrypt_and_decrypt_allocate_nothing_after_warm_up) {
  BOOST_REQUIRE_MESSAGE(g_openssl_counted, "OpenSSL allocated before the counting allocator was installed");
  const Bytes secret(kSenderBaseSecretSize, 0x42);
  FrameEncryptor enc;
  FrameDecryptor dec;
  const auto now = Clock::now();
  enc.set_key_ratchet(std::make_unique<KeyRatchet>(secret));
  dec.transition_to(std::make_unique<KeyRatchet>(secret), now);
  Bytes opus(160, 0x11), vp8(1200, 0x22);
  vp8[0] = 0x10;  // a key frame: one unencrypted range, the scatter/gather path
  Bytes wire(max_encrypted_size(vp8.size())), plain(wire.size());

  auto round_trip = [&](Codec codec, const Bytes& frame, MediaType media) {
    const auto e = enc.encrypt(codec, frame, wire.data(), wire.size());
    const auto d = dec.decrypt(media, BytesView(wire.data(), e.size), plain.data(), plain.size(), now);
    return e.status == FrameStatus::Ok && d.status == FrameStatus::Ok && d.size == frame.size();
  };
  for (int i = 0; i < 10; ++i) {  // warm-up: first generation's key, scratch buffers
    BOOST_REQUIRE(round_trip(Codec::Opus, opus, MediaType::Audio));
    BOOST_REQUIRE(round_trip(Codec::VP8, vp8, MediaType::Video));
  }
  const std::size_t before = g_allocations.load();
  bool all_ok = true;
  for (int i = 0; i < 1000; ++i) {
    all_ok = round_trip(Codec::Opus, opus, MediaType::Audio) && all_ok;
    opus[i % opus.size()] ^= static_cast<std::uint8_t>(i);
  }
  for (int i = 0; i < 100; ++i) all_ok = round_trip(Codec::VP8, vp8, MediaType::Video) && all_ok;
  const std::size_t allocations = g_allocations.load() - before;
  BOOST_TEST(all_ok);
  BOOST_TEST(allocations == 0u);

  // The counter does see allocations: a new key generation allocates (its cipher context).
  enc.set_nonce_counter_for_test(std::uint64_t{1} << 24);
  const std::size_t before_generation = g_allocations.load();
  BOOST_TEST(round_trip(Codec::Opus, opus, MediaType::Audio));
  BOOST_TEST(g_allocations.load() > before_generation);
}

BOOST_AUTO_TEST_SUITE_END()
