// Unit tests of the media engine's parts: RTP/RTCP and IP discovery packets, transport AEADs (checked
// against vectors made with independent implementations: Python's cryptography for AES-256-GCM and
// libsodium through PyNaCl for XChaCha20-Poly1305), Opus, the jitter buffer, VAD, push-to-talk, the
// mixer and the null audio backend.
#define BOOST_TEST_MODULE platformpp_voice
#include <boost/test/included/unit_test.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <malloc.h>
#include <map>
#include <numeric>
#include <cstring>
#include <new>
#include <thread>

#include "voice/audio_devices.hpp"
#include "voice/audio_processing.hpp"
#include "voice/frame_handoff.hpp"
#include "voice/jitter_buffer.hpp"
#include "voice/mixer.hpp"
#include "voice/opus_codec.hpp"
#include "voice/rtp_transport.hpp"
#include "voice/voice_engine.hpp"
#include "voice_tone.hpp"

// Heap allocations made by this thread (the replaced global operator new below counts them): the audio
// thread's per-frame work must make none.
namespace {
thread_local std::uint64_t tAllocations = 0;
}  // namespace

void* operator new(std::size_t size) {
    ++tAllocations;
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
// asio's handler memory comes from std::aligned_alloc: counted too (glibc's memalign underneath).
extern "C" void* aligned_alloc(std::size_t alignment, std::size_t size) noexcept {
    ++tAllocations;
    return memalign(alignment, size);
}

using namespace platformpp::voice;
using Bytes = std::vector<std::uint8_t>;

namespace {

Bytes FromHex(const std::string& hex) {
    Bytes out;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<std::uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    return out;
}

std::string ToHex(const std::uint8_t* p, std::size_t n) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < n; ++i) {
        out += digits[p[i] >> 4];
        out += digits[p[i] & 15];
    }
    return out;
}

TransportCipher::Key CountingKey() {
    TransportCipher::Key key{};
    for (int i = 0; i < 32; ++i) key[i] = static_cast<std::uint8_t>(i);
    return key;
}

std::vector<double> Left(const std::int16_t* pcm, int frames, int channels) {
    std::vector<double> mono(frames);
    for (int i = 0; i < frames; ++i) mono[i] = pcm[i * channels];
    return mono;
}

}  // namespace

// --- RTP, RTCP, discovery ---------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(rtp_header_round_trip) {
    std::uint8_t packet[12];
    WriteRtpHeader({kOpusPayloadType, true, 0xBEEF, 0x01020304, 0xCAFEBABE}, packet);
    BOOST_TEST(packet[0] == 0x80);
    BOOST_TEST(packet[1] == (0x80 | 120));
    const auto parsed = ParseRtp(packet, sizeof packet);
    BOOST_REQUIRE(parsed);
    BOOST_TEST(parsed->header.sequence == 0xBEEF);
    BOOST_TEST(parsed->header.timestamp == 0x01020304u);
    BOOST_TEST(parsed->header.ssrc == 0xCAFEBABEu);
    BOOST_TEST(parsed->header.marker);
    BOOST_TEST(parsed->clearHeaderSize == 12u);
    BOOST_TEST(!IsRtcp(packet, sizeof packet));
}

BOOST_AUTO_TEST_CASE(rtp_clear_header_counts_csrcs_and_extension_preamble) {
    // Two CSRCs and the X bit: 12 + 8 + 4 clear bytes; the preamble says 2 words of extension body.
    Bytes packet(40, 0);
    packet[0] = 0x80 | 0x10 | 2;
    packet[1] = 120;
    packet[22] = 0;
    packet[23] = 2;
    const auto parsed = ParseRtp(packet.data(), packet.size());
    BOOST_REQUIRE(parsed);
    BOOST_TEST(parsed->clearHeaderSize == 24u);
    BOOST_TEST(parsed->hasExtension);
    BOOST_TEST(RtpExtensionBodySize(packet.data(), *parsed) == 8u);
    BOOST_TEST(!ParseRtp(packet.data(), 20));  // shorter than its clear header
    packet[0] = 0x40;                          // version 1
    BOOST_TEST(!ParseRtp(packet.data(), packet.size()));
}

BOOST_AUTO_TEST_CASE(rtcp_sender_report_layout) {
    const auto sr = MakeSenderReport({0x11223344, 0xAABBCCDD00112233ull, 960, 5, 500});
    BOOST_TEST(IsRtcp(sr.data(), sr.size()));
    BOOST_TEST(RtcpPacketType(sr.data()) == 200);
    BOOST_TEST(sr[3] == 6);  // length in words minus one
    BOOST_TEST(ToHex(sr.data() + 4, 4) == "11223344");
    BOOST_TEST(ToHex(sr.data() + 8, 8) == "aabbccdd00112233");
    BOOST_TEST(sr[23] == 5);
}

BOOST_AUTO_TEST_CASE(ip_discovery_request_and_response) {
    const auto request = MakeDiscoveryRequest(0x01020304);
    BOOST_TEST(ToHex(request.data(), 8) == "0001004601020304");
    BOOST_TEST(std::all_of(request.begin() + 8, request.end(), [](std::uint8_t b) { return b == 0; }));

    std::array<std::uint8_t, 74> response{};
    response[1] = 2;
    response[3] = 70;
    response[7] = 4;
    std::memcpy(response.data() + 8, "127.0.0.1", 9);
    response[72] = 0xC3;
    response[73] = 0x50;
    const auto found = ParseDiscoveryResponse(response.data(), response.size());
    BOOST_REQUIRE(found);
    BOOST_TEST(found->address == "127.0.0.1");
    BOOST_TEST(found->port == 50000);
    BOOST_TEST(found->ssrc == 4u);
    BOOST_TEST(!ParseDiscoveryResponse(request.data(), request.size()));          // a request, not a response
    BOOST_TEST(!ParseDiscoveryResponse(response.data(), response.size() - 1));    // wrong size
    std::memset(response.data() + 8, 'x', 64);                                    // no NUL: not an address
    BOOST_TEST(!ParseDiscoveryResponse(response.data(), response.size()));
}

BOOST_AUTO_TEST_CASE(transport_mode_choice_prefers_aes) {
    BOOST_TEST((ChooseTransportMode({"aead_xchacha20_poly1305_rtpsize", "aead_aes256_gcm_rtpsize"}) ==
                TransportMode::Aes256GcmRtpSize));
    BOOST_TEST((ChooseTransportMode({"xsalsa20_poly1305", "aead_xchacha20_poly1305_rtpsize"}) ==
                TransportMode::XChaCha20Poly1305RtpSize));
    BOOST_TEST(!ChooseTransportMode({"xsalsa20_poly1305_lite"}));
}

// --- transport crypto -------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(hchacha20_matches_the_draft_vector) {
    // draft-irtf-cfrg-xchacha-03 section 2.2.1.
    const auto key = CountingKey();
    const Bytes nonce = FromHex("000000090000004a0000000031415927");
    const auto out = HChaCha20(key.data(), nonce.data());
    BOOST_TEST(ToHex(out.data(), out.size()) == "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc");
}

// Vectors: key 00..1f, counter 7 (nonce 00000007 then zeros), AAD "\x80\x78\x00\x01hdr", plaintext
// "hello voice"; made with cryptography's AESGCM and PyNaCl's crypto_aead_xchacha20poly1305_ietf_encrypt.
BOOST_AUTO_TEST_CASE(transport_ciphers_match_independent_implementations) {
    const std::string header("\x80\x78\x00\x01hdr", 7);  // holds a NUL
    const std::string text = "hello voice";
    const struct {
        TransportMode mode;
        const char* expected;
    } cases[] = {
        {TransportMode::Aes256GcmRtpSize, "3782b8ed150855e486b1f165e08fec2e87db250111860580e0f49c"},
        {TransportMode::XChaCha20Poly1305RtpSize, "ded2315b17e2df24be202049dfbb89b1d6120864f14e0fcb8707f6"},
    };
    for (const auto& c : cases) {
        TransportCipher cipher(c.mode, CountingKey());
        cipher.SetCounterForTest(6);
        std::uint8_t out[128];
        const auto size = cipher.Seal(reinterpret_cast<const std::uint8_t*>(header.data()), header.size(),
                                      reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), out, sizeof out);
        BOOST_REQUIRE(size == header.size() + text.size() + 20);
        BOOST_TEST(std::memcmp(out, header.data(), header.size()) == 0);
        BOOST_TEST(ToHex(out + header.size(), text.size() + 16) == c.expected);
        BOOST_TEST(ToHex(out + size - 4, 4) == "00000007");

        TransportCipher peer(c.mode, CountingKey());
        std::uint8_t plain[128];
        const auto opened = peer.Open(out, size, header.size(), plain, sizeof plain);
        BOOST_REQUIRE(opened);
        BOOST_TEST(std::string(reinterpret_cast<char*>(plain), *opened) == text);

        out[1] ^= 1;  // the header is authenticated
        BOOST_TEST(!peer.Open(out, size, header.size(), plain, sizeof plain));
        out[1] ^= 1;
        out[size - 1] ^= 1;  // so is the nonce
        BOOST_TEST(!peer.Open(out, size, header.size(), plain, sizeof plain));
        BOOST_TEST(!peer.Open(out, 10, header.size(), plain, sizeof plain));  // too short
    }
}

BOOST_AUTO_TEST_CASE(transport_seal_refuses_a_small_buffer_and_counts_up) {
    TransportCipher cipher(TransportMode::Aes256GcmRtpSize, CountingKey());
    std::uint8_t header[12] = {0x80, 120};
    std::uint8_t payload[10] = {};
    std::uint8_t out[64];
    BOOST_TEST(cipher.Seal(header, 12, payload, 10, out, 41) == 0u);
    BOOST_TEST(cipher.Seal(header, 12, payload, 10, out, sizeof out) == 42u);
    BOOST_TEST(ToHex(out + 38, 4) == "00000001");
    BOOST_TEST(cipher.Seal(header, 12, payload, 10, out, sizeof out) == 42u);
    BOOST_TEST(ToHex(out + 38, 4) == "00000002");
}

// --- Opus -------------------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(opus_keeps_a_440_hz_tone) {
    OpusFrameEncoder encoder({2, 64000, true, false, 10});
    OpusFrameDecoder decoder(2);
    std::vector<std::int16_t> pcm(kFrameSamples * 2), out(kFrameSamples * 2);
    std::uint8_t packet[kMaxOpusPacket];
    std::uint64_t phase = 0;
    std::vector<double> received;
    for (int frame = 0; frame < 50; ++frame) {
        voice_test::FillTone(pcm.data(), kFrameSamples, 2, 440, 8000, phase);
        const auto size = encoder.Encode(pcm.data(), packet, sizeof packet);
        BOOST_REQUIRE(size > 0u);
        BOOST_REQUIRE(decoder.Decode(packet, size, out.data()) == kFrameSamples);
        if (frame >= 5) {
            const auto left = Left(out.data(), kFrameSamples, 2);
            received.insert(received.end(), left.begin(), left.end());
        }
    }
    BOOST_TEST(std::abs(voice_test::EstimateFrequency(received) - 440.0) < 2.0);
    BOOST_TEST(LevelDbfs(out.data(), out.size()) > -20.0);
}

BOOST_AUTO_TEST_CASE(opus_recovers_a_lost_frame_from_fec_and_conceals) {
    OpusFrameEncoder encoder({1, 32000, true, false, 30});
    OpusFrameDecoder decoder(2);
    std::vector<std::int16_t> pcm(kFrameSamples), out(kFrameSamples * 2);
    std::uint64_t phase = 0;
    std::vector<Bytes> packets;
    for (int frame = 0; frame < 20; ++frame) {
        voice_test::FillTone(pcm.data(), kFrameSamples, 1, 300, 8000, phase);
        Bytes packet(kMaxOpusPacket);
        packet.resize(encoder.Encode(pcm.data(), packet.data(), packet.size()));
        packets.push_back(packet);
    }
    for (int i = 0; i < 10; ++i) BOOST_REQUIRE(decoder.Decode(packets[i].data(), packets[i].size(), out.data()) == kFrameSamples);
    // Packet 10 is lost: packet 11 carries it as FEC.
    BOOST_TEST(decoder.Decode(packets[11].data(), packets[11].size(), out.data(), true) == kFrameSamples);
    BOOST_TEST(LevelDbfs(out.data(), out.size()) > -30.0);
    BOOST_TEST(decoder.Decode(packets[11].data(), packets[11].size(), out.data()) == kFrameSamples);
    BOOST_TEST(decoder.Conceal(out.data()) == kFrameSamples);
    const std::uint8_t garbage[3] = {0xFF, 0xFF, 0xFF};
    BOOST_TEST(decoder.Decode(garbage, 0, out.data()) == kFrameSamples);  // a zero-length packet is a loss
    BOOST_CHECK_THROW(OpusFrameEncoder({3, 64000, true, true, 0}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(opus_dtx_makes_tiny_packets_in_silence) {
    OpusFrameEncoder encoder({2, 64000, true, true, 0});
    std::vector<std::int16_t> silence(kFrameSamples * 2, 0);
    std::uint8_t packet[kMaxOpusPacket];
    std::size_t last = 0;
    for (int i = 0; i < 30; ++i) last = encoder.Encode(silence.data(), packet, sizeof packet);
    BOOST_TEST(last <= 3u);
    BOOST_TEST(encoder.SetBitrate(1'000'000) == kMaxBitrate);
    BOOST_TEST(encoder.SetBitrate(1) == kMinBitrate);
}

// --- jitter buffer ----------------------------------------------------------------------------------

namespace {

void PushSeq(JitterBuffer& jb, std::uint16_t seq, JitterBuffer::Clock::time_point t, std::uint8_t tag = 0) {
    const std::uint8_t data[2] = {tag, static_cast<std::uint8_t>(seq)};
    jb.Push(seq, static_cast<std::uint32_t>(seq) * 960u, data, 2, t);
}

}  // namespace

BOOST_AUTO_TEST_CASE(jitter_buffer_plays_in_order_after_reordering) {
    JitterBuffer jb;
    const auto t0 = JitterBuffer::Clock::now();
    JitterBuffer::Output out;
    jb.Pop(out);
    BOOST_TEST((out.kind == JitterBuffer::Kind::Idle));
    PushSeq(jb, 65534, t0);
    PushSeq(jb, 0, t0);  // across the wrap, before 65535
    PushSeq(jb, 65535, t0);
    for (std::uint16_t expected : {65534, 65535, 0}) {
        jb.Pop(out);
        BOOST_REQUIRE((out.kind == JitterBuffer::Kind::Frame));
        BOOST_TEST(out.packet[1] == static_cast<std::uint8_t>(expected));
    }
    PushSeq(jb, 65535, t0);  // late: already played past it
    BOOST_TEST(jb.GetStats().late == 1u);
    PushSeq(jb, 1, t0);
    PushSeq(jb, 1, t0);
    BOOST_TEST(jb.GetStats().duplicate == 1u);
}

BOOST_AUTO_TEST_CASE(jitter_buffer_recovers_with_fec_then_conceals_then_stops) {
    JitterBuffer jb;
    const auto t0 = JitterBuffer::Clock::now();
    JitterBuffer::Output out;
    PushSeq(jb, 10, t0);
    jb.Pop(out);
    BOOST_TEST((out.kind == JitterBuffer::Kind::Frame));
    PushSeq(jb, 12, t0);  // 11 lost
    jb.Pop(out);
    BOOST_TEST((out.kind == JitterBuffer::Kind::Fec));
    BOOST_TEST(out.packet[1] == 12);  // the decoder reads 11 from 12's FEC data
    jb.Pop(out);
    BOOST_TEST((out.kind == JitterBuffer::Kind::Frame));
    BOOST_TEST(out.packet[1] == 12);
    // Nothing more arrives: a few concealed frames, then playout stops.
    int concealed = 0;
    for (int i = 0; i < 10; ++i) {
        jb.Pop(out);
        if (out.kind == JitterBuffer::Kind::Conceal) ++concealed;
    }
    BOOST_TEST(concealed == 5);
    BOOST_TEST((out.kind == JitterBuffer::Kind::Idle));
    BOOST_TEST(!jb.Playing());
    const auto stats = jb.GetStats();
    BOOST_TEST(stats.fecRecovered == 1u);
    BOOST_TEST(stats.concealed == 5u);
}

BOOST_AUTO_TEST_CASE(jitter_buffer_stops_after_a_silence_frame) {
    JitterBuffer jb;
    const auto t0 = JitterBuffer::Clock::now();
    JitterBuffer::Output out;
    PushSeq(jb, 1, t0);
    const std::uint8_t silence[3] = {0xF8, 0xFF, 0xFE};
    jb.Push(2, 1920, silence, 3, t0);
    jb.Pop(out);
    jb.Pop(out);
    BOOST_TEST((out.kind == JitterBuffer::Kind::Frame));
    BOOST_TEST(!jb.Playing());
    jb.Pop(out);
    BOOST_TEST((out.kind == JitterBuffer::Kind::Idle));  // no concealment after the end of speech
}

// The speaking indicator over a real jitter buffer, tick by tick as the engine drives it (every frame
// decodes to sound, as Opus decodes the silence frame too).
namespace {

struct RemoteSpeaker {
    JitterBuffer jb;
    SpeakingIndicator indicator;
    JitterBuffer::Output out;
    std::vector<std::pair<int, bool>> changes;  // (tick, speaking)
    int tick = 0;
    void Tick() {
        jb.Pop(out);
        if (indicator.Tick(out, out.kind != JitterBuffer::Kind::Idle)) changes.emplace_back(tick, indicator.Speaking());
        ++tick;
    }
};

const std::uint8_t kSilenceBytes[3] = {0xF8, 0xFF, 0xFE};

}  // namespace

BOOST_AUTO_TEST_CASE(speaking_after_push_to_talk_release_goes_off_once_without_flicker) {
    // Speech frames 1-20; after the release a one-tick gap, then the five trailing silence frames
    // 21-25 arrive late. Before: silent, speaking again for ~85 ms (the silence frames), silent.
    RemoteSpeaker r;
    const auto t0 = JitterBuffer::Clock::now();
    std::uint16_t seq = 1;
    for (; seq <= 20; ++seq) {
        PushSeq(r.jb, seq, t0 + std::chrono::milliseconds(20 * seq), 0x55);
        r.Tick();
    }
    r.Tick();  // the gap: nothing arrived
    for (; seq <= 25; ++seq) {
        r.jb.Push(seq, seq * 960u, kSilenceBytes, 3, t0 + std::chrono::milliseconds(20 * seq + 20));
        r.Tick();
    }
    for (int i = 0; i < 30; ++i) r.Tick();
    BOOST_REQUIRE(r.changes.size() == 2u);
    BOOST_TEST(r.changes[0].second);
    BOOST_TEST(!r.changes[1].second);
    // Off once, the hold time (200 ms) after the last tick that played speech.
    int lastSpeech = -1;
    {
        RemoteSpeaker replay;  // which tick played the last speech frame: the one that played seq 20
        for (std::uint16_t s = 1; s <= 20; ++s) {
            PushSeq(replay.jb, s, t0 + std::chrono::milliseconds(20 * s), 0x55);
            replay.jb.Pop(replay.out);
            if (replay.out.kind == JitterBuffer::Kind::Frame) lastSpeech = replay.tick;
            ++replay.tick;
        }
    }
    BOOST_TEST(r.changes[1].first == lastSpeech + SpeakingIndicator::kHoldFrames);
}

BOOST_AUTO_TEST_CASE(silence_frames_never_count_as_speech) {
    RemoteSpeaker r;
    const auto t0 = JitterBuffer::Clock::now();
    // A run of silence frames alone (a muted sender's), with a loss in it: no speaking at all,
    // concealment included.
    for (std::uint16_t seq = 1; seq <= 12; ++seq) {
        if (seq != 6) r.jb.Push(seq, seq * 960u, kSilenceBytes, 3, t0 + std::chrono::milliseconds(20 * seq));
        r.Tick();
    }
    for (int i = 0; i < 15; ++i) r.Tick();
    BOOST_TEST(r.changes.empty());
    // One tick of speech turns it on at once; a one-tick gap in speech keeps it on.
    SpeakingIndicator indicator;
    BOOST_TEST(indicator.Tick(true));
    BOOST_TEST(!indicator.Tick(false));
    BOOST_TEST(!indicator.Tick(true));
    for (int i = 1; i < SpeakingIndicator::kHoldFrames; ++i) BOOST_TEST(!indicator.Tick(false));
    BOOST_TEST(indicator.Speaking());
    BOOST_TEST(indicator.Tick(false));  // the hold time's last tick
    BOOST_TEST(!indicator.Speaking());
}

BOOST_AUTO_TEST_CASE(jitter_buffer_delay_grows_with_jitter) {
    JitterBuffer steady, jittery;
    const auto t0 = JitterBuffer::Clock::now();
    for (std::uint16_t i = 0; i < 100; ++i) {
        PushSeq(steady, i, t0 + std::chrono::milliseconds(20 * i));
        // Alternately 0 and 40 ms late.
        PushSeq(jittery, i, t0 + std::chrono::milliseconds(20 * i + (i % 2 ? 40 : 0)));
    }
    BOOST_TEST(steady.GetStats().targetDelayFrames == 1);
    BOOST_TEST(steady.GetStats().jitterMs < 1.0);
    BOOST_TEST(jittery.GetStats().jitterMs > 30.0);
    BOOST_TEST(jittery.GetStats().targetDelayFrames >= 6);
    BOOST_TEST(jittery.GetStats().targetDelayFrames <= 10);
    // The steady one had 100 frames queued for a 1-frame target: the first pop drops to catch up.
    JitterBuffer::Output out;
    steady.Pop(out);
    BOOST_TEST(steady.GetStats().dropped == 97u);
}

// --- VAD, PTT, mixer --------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(level_of_a_full_scale_sine_is_minus_3_dbfs) {
    std::vector<std::int16_t> pcm(kFrameSamples);
    std::uint64_t phase = 0;
    voice_test::FillTone(pcm.data(), kFrameSamples, 1, 1000, 32767, phase);
    BOOST_TEST(std::abs(LevelDbfs(pcm.data(), pcm.size()) + 3.01) < 0.05);
    std::vector<std::int16_t> silence(kFrameSamples, 0);
    BOOST_TEST(LevelDbfs(silence.data(), silence.size()) == -100.0);
}

BOOST_AUTO_TEST_CASE(vad_fixed_threshold_with_hangover) {
    VoiceActivityDetector vad;
    BOOST_TEST(vad.GetThreshold().automatic);
    BOOST_TEST(vad.GetThreshold().dbfs == -60.0f);
    vad.SetThreshold(false, -30.0f);
    std::vector<std::int16_t> loud(kFrameSamples), quiet(kFrameSamples);
    std::uint64_t p1 = 0, p2 = 0;
    voice_test::FillTone(loud.data(), kFrameSamples, 1, 440, 8000, p1);   // about -15 dBFS
    voice_test::FillTone(quiet.data(), kFrameSamples, 1, 440, 300, p2);   // about -43 dBFS
    BOOST_TEST(!vad.Process(quiet.data(), quiet.size()));
    BOOST_TEST(vad.Process(loud.data(), loud.size()));
    int held = 0;
    while (vad.Process(quiet.data(), quiet.size())) ++held;
    BOOST_TEST(held == 10);  // 200 ms of hangover
    vad.SetThreshold(false, -50.0f);
    BOOST_TEST(vad.Process(quiet.data(), quiet.size()));
    BOOST_TEST(vad.SetThreshold(false, 20.0f).dbfs == 0.0f);      // clamped
    BOOST_TEST(vad.SetThreshold(false, -300.0f).dbfs == -100.0f);
}

BOOST_AUTO_TEST_CASE(vad_automatic_follows_the_noise_floor) {
    VoiceActivityDetector vad;  // automatic by default
    std::vector<std::int16_t> noise(kFrameSamples), speech(kFrameSamples);
    std::uint64_t p1 = 0, p2 = 0;
    voice_test::FillTone(noise.data(), kFrameSamples, 1, 100, 100, p1);   // steady hum around -53 dBFS
    voice_test::FillTone(speech.data(), kFrameSamples, 1, 440, 12000, p2); // around -11 dBFS
    for (int i = 0; i < 30; ++i) vad.Process(noise.data(), noise.size());
    // A fixed -60 dBFS threshold would call the hum speech; the automatic one does not.
    BOOST_TEST(!vad.Process(noise.data(), noise.size()));
    BOOST_TEST(vad.EffectiveThreshold() > -45.0f);
    BOOST_TEST(vad.Process(speech.data(), speech.size()));
    // A steady loud signal (a tone a game feeds in) stays voice: the threshold never exceeds -40 dBFS.
    for (int i = 0; i < 300; ++i) vad.Process(speech.data(), speech.size());
    BOOST_TEST(vad.EffectiveThreshold() == -40.0f);
    BOOST_TEST(vad.Process(speech.data(), speech.size()));
}

BOOST_AUTO_TEST_CASE(push_to_talk_release_delay) {
    PushToTalk ptt;
    const auto t0 = PushToTalk::Clock::now();
    BOOST_TEST(!ptt.Transmitting(t0));
    BOOST_TEST(ptt.SetReleaseDelay(300) == 300u);
    BOOST_TEST(ptt.SetReleaseDelay(5000) == 2000u);  // clamped
    ptt.SetReleaseDelay(300);
    ptt.SetActive(true, t0);
    BOOST_TEST(ptt.Transmitting(t0 + std::chrono::seconds(10)));
    const auto up = t0 + std::chrono::seconds(1);
    ptt.SetActive(false, up);
    BOOST_TEST(ptt.Transmitting(up + std::chrono::milliseconds(299)));
    BOOST_TEST(!ptt.Transmitting(up + std::chrono::milliseconds(300)));
}

BOOST_AUTO_TEST_CASE(mixer_applies_volume_local_mute_and_saturates) {
    Mixer mixer;
    std::vector<std::int16_t> a(4, 10000), b(4, 30000), out(4);
    BOOST_TEST(mixer.SetVolume(1, 50) == 50);
    BOOST_TEST(mixer.SetVolume(2, 250) == 200);  // clamped
    BOOST_TEST(mixer.SetVolume(3, -5) == 0);
    BOOST_TEST(mixer.Volume(4) == 100);
    mixer.Begin(4);
    BOOST_TEST(mixer.Add(1, a.data()));
    mixer.Finish(out.data());
    BOOST_TEST(out[0] == 5000);
    mixer.Begin(4);
    mixer.Add(1, a.data());
    mixer.Add(2, b.data());  // 5000 + 60000: saturates
    mixer.Finish(out.data());
    BOOST_TEST(out[0] == 32767);
    mixer.SetLocalMute(2, true);
    BOOST_TEST(mixer.LocalMute(2));
    mixer.Begin(4);
    mixer.Add(1, a.data());
    BOOST_TEST(!mixer.Add(2, b.data()));
    mixer.Finish(out.data(), 200);  // output volume 200 %
    BOOST_TEST(out[0] == 10000);
    mixer.Forget(2);
    BOOST_TEST(!mixer.LocalMute(2));
}

// --- null backend -----------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(null_backend_clocks_20_ms_frames_of_silence) {
    auto backend = MakeNullAudioBackend();
    BOOST_TEST(std::string(backend->Name()) == "null");
    BOOST_TEST(backend->InputDevices().size() == 1u);
    BOOST_TEST(backend->InputDevices()[0].isDefault);
    BOOST_TEST(backend->SetInputDevice(kDefaultDeviceId));
    BOOST_TEST(!backend->SetOutputDevice("no-such-device"));
    std::atomic<int> frames{0};
    std::atomic<bool> silent{true};
    backend->Start([&](const std::int16_t* capture, std::int16_t* playback) {
        for (int i = 0; i < kFrameSamples * kDeviceChannels; ++i)
            if (capture[i] != 0) silent = false;
        playback[0] = 1;
        ++frames;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    backend->Stop();
    BOOST_TEST(frames.load() >= 20);  // 25 expected; a loaded machine may be a little late
    BOOST_TEST(frames.load() <= 27);
    BOOST_TEST(silent.load());
}

// --- capture processing (libspeexdsp) ---------------------------------------------------------------

namespace {

// Deterministic white-ish noise (a linear congruential generator), amplitude in [-amp, amp].
struct Noise {
    std::uint32_t state = 12345;
    std::int16_t Next(int amp) {
        state = state * 1664525u + 1013904223u;
        return static_cast<std::int16_t>(static_cast<int>((state >> 16) % (2 * amp + 1)) - amp);
    }
};

double Db(double energy) { return 10.0 * std::log10(energy + 1e-9); }

// Energy (mean square, first channel) of a stereo frame.
double Energy(const std::vector<std::int16_t>& frame) {
    double sum = 0;
    for (std::size_t i = 0; i < frame.size(); i += kDeviceChannels) sum += double(frame[i]) * frame[i];
    return sum / (frame.size() / kDeviceChannels);
}

AudioProcessor& Only(AudioProcessor& p, bool aec, bool ns, bool nc, bool agc) {
    p.SetEchoCancellation(aec);
    p.SetNoiseSuppression(ns);
    p.SetNoiseCancellation(nc);
    p.SetAutomaticGainControl(agc);
    return p;
}

constexpr std::size_t kStereoFrame = static_cast<std::size_t>(kFrameSamples) * kDeviceChannels;

}  // namespace

BOOST_AUTO_TEST_CASE(downmix_to_mono_averages_the_channels_rounding_toward_zero) {
    std::vector<std::int16_t> frame(static_cast<std::size_t>(kFrameSamples) * kDeviceChannels);
    for (int i = 0; i < kFrameSamples; ++i) {
        frame[2 * i] = static_cast<std::int16_t>(i % 2 ? -3 : 32767);
        frame[2 * i + 1] = static_cast<std::int16_t>(i % 2 ? 0 : 32767 - 2 * i);
    }
    std::vector<std::int16_t> mono(kFrameSamples);
    DownmixToMono(frame.data(), mono.data());
    BOOST_TEST(mono[0] == 32767);   // no overflow: summed in int
    BOOST_TEST(mono[1] == -1);      // -3 / 2
    BOOST_TEST(mono[2] == 32765);   // (32767 + 32763) / 2
    BOOST_TEST(mono[kFrameSamples - 1] == -1);
}

BOOST_AUTO_TEST_CASE(audio_processing_defaults_and_all_off_leaves_the_capture_untouched) {
    AudioProcessor p;
    BOOST_TEST(p.EchoCancellation());
    BOOST_TEST(p.NoiseSuppression());
    BOOST_TEST(!p.NoiseCancellation());
    BOOST_TEST(p.AutomaticGainControl());
    Only(p, false, false, false, false);
    Noise noise;
    std::vector<std::int16_t> frame(kStereoFrame), far(kStereoFrame, 0);
    for (auto& v : frame) v = noise.Next(3000);
    const auto before = frame;
    p.Process(frame.data(), far.data());
    BOOST_TEST(frame == before);
}

// The far end's voice (noise standing in for speech) played by the speaker comes back into the
// microphone 30 ms later at half amplitude; no one speaks near the microphone.
BOOST_AUTO_TEST_CASE(echo_cancellation_attenuates_the_far_end_in_the_capture) {
    auto run = [](bool aec) {
        AudioProcessor p;
        Only(p, aec, false, false, false);
        Noise noise;
        constexpr int kDelay = 48 * 30;
        std::vector<std::int16_t> history(kDelay + kFrameSamples, 0);  // mono far end, delayed
        double in = 0, out = 0;
        for (int f = 0; f < 250; ++f) {  // 5 s
            std::vector<std::int16_t> far(kStereoFrame), capture(kStereoFrame);
            for (int i = 0; i < kFrameSamples; ++i) {
                const std::int16_t v = noise.Next(8000);
                far[2 * i] = far[2 * i + 1] = v;
                history.push_back(v);
            }
            for (int i = 0; i < kFrameSamples; ++i) {
                const auto echo = static_cast<std::int16_t>(history[history.size() - kFrameSamples - kDelay + i] / 2);
                capture[2 * i] = capture[2 * i + 1] = echo;
            }
            const double echoEnergy = Energy(capture);
            p.Process(capture.data(), far.data());
            if (f >= 200) in += echoEnergy, out += Energy(capture);  // the last second, adapted
        }
        return Db(in) - Db(out);
    };
    const double off = run(false), on = run(true);
    BOOST_TEST_MESSAGE("echo attenuation: " << on << " dB with AEC on, " << off << " dB off");
    BOOST_TEST(std::abs(off) < 0.5);
    BOOST_TEST(on >= 25.0);
}

// Steady background noise (-30 dBFS) and nothing else: suppression lowers it, noise cancellation more.
BOOST_AUTO_TEST_CASE(noise_suppression_lowers_steady_noise_and_noise_cancellation_more) {
    auto run = [](bool ns, bool nc) {
        AudioProcessor p;
        Only(p, false, ns, nc, false);
        Noise noise;
        double in = 0, out = 0;
        std::vector<std::int16_t> far(kStereoFrame, 0);
        for (int f = 0; f < 150; ++f) {  // 3 s
            std::vector<std::int16_t> capture(kStereoFrame);
            for (int i = 0; i < kFrameSamples; ++i) capture[2 * i] = capture[2 * i + 1] = noise.Next(1800);
            const double e = Energy(capture);
            p.Process(capture.data(), far.data());
            if (f >= 100) in += e, out += Energy(capture);
        }
        return Db(in) - Db(out);
    };
    const double ns = run(true, false), nc = run(false, true);
    BOOST_TEST_MESSAGE("noise reduction: " << ns << " dB (suppression), " << nc << " dB (cancellation)");
    BOOST_TEST(ns >= 10.0);
    BOOST_TEST(nc >= ns + 5.0);
}

// A quiet voice (a 440 Hz tone at about -40 dBFS) is raised by gain control and left alone without it.
BOOST_AUTO_TEST_CASE(automatic_gain_control_raises_a_quiet_input) {
    auto run = [](bool agc) {
        AudioProcessor p;
        Only(p, false, false, false, agc);
        std::uint64_t phase = 0;
        double in = 0, out = 0;
        std::vector<std::int16_t> far(kStereoFrame, 0), capture(kStereoFrame);
        for (int f = 0; f < 250; ++f) {  // 5 s
            voice_test::FillTone(capture.data(), kFrameSamples, kDeviceChannels, 440, 330, phase);
            const double e = Energy(capture);
            p.Process(capture.data(), far.data());
            if (f >= 200) in += e, out += Energy(capture);
        }
        return Db(out) - Db(in);
    };
    const double on = run(true), off = run(false);
    BOOST_TEST_MESSAGE("gain: " << on << " dB with AGC, " << off << " dB without");
    BOOST_TEST(std::abs(off) < 0.5);
    BOOST_TEST(on >= 10.0);
}

// --- capture processing: what is skipped (CPU) must not change what is sent -------------------------

namespace {

// One tick of the echo scenario above: the far end plays noise; the microphone hears it back 30 ms
// later at half amplitude, or hears nothing at all (digital silence: a muted or absent microphone).
struct EchoRoom {
    static constexpr int kDelay = 48 * 30;
    Noise noise;
    std::vector<std::int16_t> history = std::vector<std::int16_t>(kDelay + kFrameSamples, 0);
    std::vector<std::int16_t> far = std::vector<std::int16_t>(kStereoFrame), capture = std::vector<std::int16_t>(kStereoFrame);

    void Tick(bool micOn) {
        for (int i = 0; i < kFrameSamples; ++i) {
            const std::int16_t v = noise.Next(8000);
            far[2 * i] = far[2 * i + 1] = v;
            history.push_back(v);
        }
        for (int i = 0; i < kFrameSamples; ++i) {
            const auto echo = micOn ? static_cast<std::int16_t>(history[history.size() - kFrameSamples - kDelay + i] / 2) : 0;
            capture[2 * i] = capture[2 * i + 1] = echo;
        }
    }
};

}  // namespace

// A silent microphone while the far end plays: the skipping processor leaves the frames as they are and
// the one that processes everything produces the very same samples (all zero); only the counters differ.
BOOST_AUTO_TEST_CASE(capture_processing_skips_digital_silence_with_the_same_output) {
    AudioProcessor skipping, full(AudioProcessor::Options{false});
    EchoRoom a, b;
    for (int f = 0; f < 100; ++f) {
        a.Tick(false), b.Tick(false);
        skipping.Process(a.capture.data(), a.far.data());
        full.Process(b.capture.data(), b.far.data());
        BOOST_TEST_REQUIRE((a.capture == b.capture));
        BOOST_TEST_REQUIRE(Energy(a.capture) == 0.0);
    }
    BOOST_TEST(skipping.GetCounters().skippedSilent == 100u);
    BOOST_TEST(skipping.GetCounters().processed == 0u);
    BOOST_TEST(full.GetCounters().processed == 100u);
}

// Silence means every sample: one sample of 1 LSB makes the frame go through the chain (noise
// suppression and gain control change it).
BOOST_AUTO_TEST_CASE(capture_processing_processes_a_frame_with_one_nonzero_sample) {
    AudioProcessor p;
    Only(p, false, true, false, true);
    std::vector<std::int16_t> far(kStereoFrame, 0), capture(kStereoFrame, 0);
    capture[kStereoFrame / 2] = 1;
    p.Process(capture.data(), far.data());
    BOOST_TEST(p.GetCounters().processed == 1u);
    BOOST_TEST(p.GetCounters().skippedSilent == 0u);
    Noise noise;
    for (int f = 0; f < 50; ++f) {
        for (auto& v : capture) v = noise.Next(1800);
        const auto before = capture;
        p.Process(capture.data(), far.data());
        BOOST_TEST_REQUIRE((capture != before));  // noise suppression at work on every frame
    }
    BOOST_TEST(p.GetCounters().processed == 51u);
}

// 3 s of echo (the canceller adapts), 1 s of a silent microphone while the far end goes on (skipped or
// idle ticks), then the echo again. The canceller is given the far end it missed (one tail of it) before
// the echo returns: the first 200 ms are cancelled by 9 dB or more (without that catch-up: about 5 dB),
// and better than by a processor that never skipped (a canceller fed a second of a silent microphone
// against a loud far end diverges and resets itself); a second later it is fully adapted again.
BOOST_AUTO_TEST_CASE(echo_cancellation_after_a_silent_stretch_is_as_good_as_without_skipping) {
    enum class Mode { Full, SkipSilence, Idle };
    struct Result {
        double first200ms, later;
        std::uint64_t replayed;
    };
    auto run = [](Mode mode) {
        AudioProcessor p(AudioProcessor::Options{mode != Mode::Full});
        Only(p, true, false, false, false);
        EchoRoom room;
        double in = 0, out = 0, inLater = 0, outLater = 0;
        std::uint64_t replayedBefore = 0;
        for (int f = 0; f < 260; ++f) {
            const bool micOn = f < 150 || f >= 200;
            room.Tick(micOn);
            const double e = Energy(room.capture);
            if (f == 200) replayedBefore = p.GetCounters().farEndReplayed;
            if (!micOn && mode == Mode::Idle) p.Idle(room.far.data());
            else p.Process(room.capture.data(), room.far.data());
            // Skipped: silence stays silence (processing it sends what the adapted filter predicts).
            if (!micOn && mode != Mode::Full) BOOST_TEST_REQUIRE(Energy(room.capture) == 0.0);
            if (f >= 200 && f < 210) in += e, out += Energy(room.capture);
            if (f >= 250) inLater += e, outLater += Energy(room.capture);
        }
        return Result{Db(in) - Db(out), Db(inLater) - Db(outLater), p.GetCounters().farEndReplayed - replayedBefore};
    };
    const auto full = run(Mode::Full), skip = run(Mode::SkipSilence), idle = run(Mode::Idle);
    BOOST_TEST_MESSAGE("echo attenuation in the 200 ms after 1 s of silence: " << full.first200ms << " dB processing it, "
                                                                              << skip.first200ms << " dB skipping it, "
                                                                              << idle.first200ms << " dB idle; 1 s later: "
                                                                              << full.later << ", " << skip.later << ", "
                                                                              << idle.later << " dB");
    BOOST_TEST(full.replayed == 0u);
    for (const auto& r : {skip, idle}) {
        BOOST_TEST(r.replayed == static_cast<std::uint64_t>(kEchoTailFrames));
        BOOST_TEST(r.first200ms >= 9.0);
        BOOST_TEST(r.first200ms >= full.first200ms - 3.0);
        BOOST_TEST(r.later >= 25.0);
    }
}

namespace {

// A backend whose "audio thread" is the test: Tick runs the engine's process function once.
class ManualBackend final : public AudioBackend {
public:
    const char* Name() const override { return "manual"; }
    std::vector<AudioDeviceInfo> InputDevices() override { return {}; }
    std::vector<AudioDeviceInfo> OutputDevices() override { return {}; }
    bool SetInputDevice(const std::string&) override { return false; }
    bool SetOutputDevice(const std::string&) override { return false; }
    std::string CurrentInputDevice() const override { return kDefaultDeviceId; }
    std::string CurrentOutputDevice() const override { return kDefaultDeviceId; }
    void SetDeviceChangeCallback(DeviceChangeFn) override {}
    void Start(ProcessFn process) override { process_ = std::move(process); }
    void Stop() override {}
    void Tick(const std::vector<std::int16_t>& capture) {
        std::vector<std::int16_t> playback(kStereoFrame);
        Tick(capture, playback);
    }
    void Tick(const std::vector<std::int16_t>& capture, std::vector<std::int16_t>& playback) {
        process_(capture.data(), playback.data());
    }

private:
    ProcessFn process_;
};

}  // namespace

// A self-muted call (or an engine muted or deafened for all) sends nothing: its capture is not processed
// (the processor only remembers the far end) and the captured callback still sees every frame. Unmuted,
// the same noise is processed again.
BOOST_AUTO_TEST_CASE(engine_does_not_process_the_capture_of_muted_calls) {
    boost::asio::io_context io;  // never run: the call stays unconnected, the audio path runs regardless
    auto owned = std::make_unique<ManualBackend>();
    ManualBackend& backend = *owned;
    VoiceEngine engine(io, std::move(owned), nullptr);
    int captured = 0;
    VoiceCallCallbacks callbacks;
    callbacks.captured = [&](std::int16_t*, std::uint64_t, std::int32_t, std::uint64_t) { ++captured; };
    VoiceConnectionOptions options;
    options.endpoint = "127.0.0.1:9";
    auto call = engine.StartCall(options, callbacks);
    Noise noise;
    std::vector<std::int16_t> capture(kStereoFrame);
    auto tick = [&] {
        for (auto& v : capture) v = noise.Next(1800);
        backend.Tick(capture);
    };
    tick();
    BOOST_TEST(engine.ProcessingCounters().processed == 1u);
    call->SetSelfMute(true);
    for (int i = 0; i < 5; ++i) tick();
    BOOST_TEST(engine.ProcessingCounters().processed == 1u);
    BOOST_TEST(engine.ProcessingCounters().idle == 5u);
    call->SetSelfMute(false);
    engine.SetSelfDeafAll(true);
    tick();
    BOOST_TEST(engine.ProcessingCounters().idle == 6u);
    engine.SetSelfDeafAll(false);
    tick();
    BOOST_TEST(engine.ProcessingCounters().processed == 2u);
    BOOST_TEST(engine.ProcessingCounters().farEndReplayed == 6u);  // the muted ticks, given to the canceller late
    BOOST_TEST(captured == 8);
    engine.EndCall(call);
}

// Steady state: pushing (network thread) and popping (audio thread) packets reuses the nodes and buffers
// of the ones played, so neither allocates per packet; the packets come out as they went in.
BOOST_AUTO_TEST_CASE(jitter_buffer_allocates_nothing_per_packet_in_steady_state) {
    JitterBuffer buffer;
    JitterBuffer::Output out;
    auto now = JitterBuffer::Clock::now();
    std::vector<std::uint8_t> packet(160);
    auto step = [&](std::uint16_t seq) {
        for (std::size_t i = 0; i < packet.size(); ++i) packet[i] = static_cast<std::uint8_t>(seq + i);
        buffer.Push(seq, seq * 960u, packet.data(), packet.size(), now);
        now += std::chrono::milliseconds(20);
        buffer.Pop(out);
    };
    std::uint16_t seq = 65500;  // wraps around during the test
    for (int i = 0; i < 50; ++i) step(seq++);
    const auto before = tAllocations;
    BOOST_TEST_REQUIRE(before > 0u);  // the counter counts (the first packets' nodes)
    for (int i = 0; i < 500; ++i) {
        step(seq++);
        BOOST_TEST_REQUIRE((out.kind == JitterBuffer::Kind::Frame));
        BOOST_TEST_REQUIRE(out.packet.size() == packet.size());
        BOOST_TEST_REQUIRE(out.packet[0] == static_cast<std::uint8_t>(seq - 1));  // no jitter: played at once
    }
    BOOST_TEST(tAllocations - before == 0u);
    BOOST_TEST(buffer.GetStats().played == 550u);
}

// The engine's audio tick with a call (unconnected here): capture, VAD, processing, mixing and playback
// allocate nothing once running.
BOOST_AUTO_TEST_CASE(engine_tick_allocates_nothing) {
    boost::asio::io_context io;
    auto owned = std::make_unique<ManualBackend>();
    ManualBackend& backend = *owned;
    VoiceEngine engine(io, std::move(owned), nullptr);
    VoiceConnectionOptions options;
    options.endpoint = "127.0.0.1:9";
    auto call = engine.StartCall(options, {});
    Noise noise;
    std::vector<std::int16_t> capture(kStereoFrame), playback(kStereoFrame);
    for (int i = 0; i < 5; ++i) backend.Tick(capture, playback);
    const auto before = tAllocations;
    BOOST_TEST_REQUIRE(before > 0u);  // the counter counts (setting the engine up allocated)
    for (int i = 0; i < 50; ++i) {
        for (auto& v : capture) v = i % 2 ? noise.Next(1800) : 0;  // processed and skipped ticks
        backend.Tick(capture, playback);
    }
    BOOST_TEST(tAllocations - before == 0u);
    BOOST_TEST(engine.ProcessingCounters().processed == 25u);
    engine.EndCall(call);
}

// --- the audio thread's hand-off of encoded frames to the network thread -----------------------------

BOOST_AUTO_TEST_CASE(frame_ring_keeps_order_refuses_when_full_and_crosses_threads) {
    FrameRing ring;
    std::uint8_t frame[FrameRing::kMaxFrame + 1] = {};
    for (std::size_t i = 0; i < FrameRing::kSlots; ++i) {
        frame[0] = static_cast<std::uint8_t>(i);
        BOOST_TEST(ring.Push(frame, 1 + i));
    }
    BOOST_TEST(!ring.Push(frame, 1));                          // full
    std::vector<std::pair<int, std::size_t>> drained;
    ring.Drain([&](const std::uint8_t* data, std::size_t size) { drained.emplace_back(data[0], size); });
    BOOST_TEST_REQUIRE(drained.size() == FrameRing::kSlots);
    for (std::size_t i = 0; i < drained.size(); ++i) BOOST_TEST((drained[i] == std::pair<int, std::size_t>(int(i), 1 + i)));
    BOOST_TEST(!ring.Push(frame, FrameRing::kMaxFrame + 1));  // larger than any Opus frame
    BOOST_TEST(ring.Push(frame, FrameRing::kMaxFrame));

    // A producer and a consumer thread: every frame arrives once, in order, intact.
    FrameRing shared;
    constexpr int kFrames = 20000;
    std::atomic<bool> done{false};
    std::thread producer([&] {
        std::uint8_t data[4];
        for (int n = 0; n < kFrames;) {
            std::memcpy(data, &n, sizeof n);
            if (shared.Push(data, sizeof data)) ++n;
            else std::this_thread::yield();
        }
        done = true;
    });
    int expected = 0;
    bool ordered = true;
    while (!done || expected < kFrames) {
        shared.Drain([&](const std::uint8_t* data, std::size_t size) {
            int n = -1;
            if (size == sizeof n) std::memcpy(&n, data, sizeof n);
            ordered = ordered && n == expected;
            ++expected;
        });
        if (done && expected >= kFrames) break;
    }
    producer.join();
    BOOST_TEST(ordered);
    BOOST_TEST(expected == kFrames);
}

// Posting from a thread that does not run the io_context: asio's default handler memory is operator
// new on every post; with HandlerSlotAllocator the posting thread allocates nothing.
BOOST_AUTO_TEST_CASE(handler_slot_allocator_posts_without_allocating) {
    boost::asio::io_context io;
    auto work = boost::asio::make_work_guard(io);
    std::thread network([&] { io.run(); });
    auto slot = std::make_shared<HandlerSlot>();
    std::atomic<int> ran{0};
    struct Handler {
        std::atomic<int>* ran;
        std::shared_ptr<HandlerSlot> slot;
        using allocator_type = HandlerSlotAllocator<void>;
        allocator_type get_allocator() const noexcept { return allocator_type(slot); }
        void operator()() const { ++*ran; }
    };
    auto waitFor = [&](int n) {
        while (ran.load() < n) std::this_thread::yield();
    };
    const auto beforeDefault = tAllocations;
    boost::asio::post(io, [&ran] { ++ran; });
    waitFor(1);
    BOOST_TEST(tAllocations - beforeDefault >= 1u);  // what the slot avoids (and proof the count works)
    const auto before = tAllocations;
    for (int i = 0; i < 100; ++i) {
        boost::asio::post(io, Handler{&ran, slot});
        waitFor(2 + i);
    }
    BOOST_TEST(tAllocations - before == 0u);
    BOOST_TEST(ran.load() == 101);
    work.reset();
    network.join();
}

// Hostile arrival orders (random sequence numbers near and far, duplicates, sizes from 2 bytes to more
// than the largest Opus frame) against the recycled nodes: every frame played carries, intact, the bytes
// pushed under its sequence number (never another packet's left in a reused buffer), and the counters
// add up.
BOOST_AUTO_TEST_CASE(jitter_buffer_recycling_survives_random_arrivals) {
    JitterBuffer buffer;
    JitterBuffer::Output out;
    std::uint32_t state = 424242;
    auto next = [&](std::uint32_t bound) {
        state = state * 1664525u + 1013904223u;
        return (state >> 8) % bound;
    };
    auto byteAt = [](std::uint16_t seq, std::size_t i) { return static_cast<std::uint8_t>(seq * 31u + i * 7u); };
    std::vector<std::uint8_t> packet;
    std::map<std::uint16_t, int> pushedTimes;
    std::uint16_t base = 65000;
    auto now = JitterBuffer::Clock::now();
    std::uint64_t frames = 0;
    for (int op = 0; op < 20000; ++op) {
        if (next(3) != 0) {
            const std::uint16_t seq = static_cast<std::uint16_t>(base + (next(10) == 0 ? next(65536) : next(8)));
            const std::size_t size = 2 + next(next(20) == 0 ? 1500 : 200);
            packet.resize(size);
            packet[0] = static_cast<std::uint8_t>(seq >> 8), packet[1] = static_cast<std::uint8_t>(seq);
            for (std::size_t i = 2; i < size; ++i) packet[i] = byteAt(seq, i);
            buffer.Push(seq, seq * 960u, packet.data(), packet.size(), now);
            ++pushedTimes[seq];
        } else {
            now += std::chrono::milliseconds(20);
            ++base;
            buffer.Pop(out);
            if (out.kind != JitterBuffer::Kind::Frame) continue;
            ++frames;
            BOOST_TEST_REQUIRE(out.packet.size() >= 2u);
            const auto seq = static_cast<std::uint16_t>(out.packet[0] << 8 | out.packet[1]);
            BOOST_TEST_REQUIRE(pushedTimes.count(seq) == 1u);
            bool intact = true;
            for (std::size_t i = 2; i < out.packet.size(); ++i) intact = intact && out.packet[i] == byteAt(seq, i);
            BOOST_TEST_REQUIRE(intact);
        }
    }
    const auto stats = buffer.GetStats();
    BOOST_TEST(stats.played == frames);
    BOOST_TEST(frames > 100u);
    BOOST_TEST(stats.received == std::accumulate(pushedTimes.begin(), pushedTimes.end(), std::uint64_t{0},
                                                 [](std::uint64_t sum, const auto& kv) { return sum + kv.second; }));
    BOOST_TEST(stats.duplicate > 0u);
}
