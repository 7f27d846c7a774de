// Opus through libopus, as voice calls use it: 48 kHz, 20 ms frames (960 samples per channel), mono or
// stereo, in-band FEC and DTX on the encoder, packet-loss concealment and FEC recovery on the decoder.
// PCM is int16 interleaved. Objects are not thread-safe (the audio thread owns them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

struct OpusEncoder;
struct OpusDecoder;

namespace platformpp::voice {

constexpr int kSampleRate = 48000;
constexpr int kFrameMs = 20;
constexpr int kFrameSamples = kSampleRate * kFrameMs / 1000;  // per channel
constexpr std::size_t kMaxOpusPacket = 1275;                   // RFC 6716's largest frame
constexpr int kMinBitrate = 8000;
constexpr int kMaxBitrate = 510000;
constexpr int kDefaultBitrate = 64000;  // the platform's default voice channel bitrate

struct OpusEncoderSettings {
    int channels = 2;                // 1 or 2
    int bitrate = kDefaultBitrate;   // bits per second, clamped to [kMinBitrate, kMaxBitrate]
    bool inbandFec = true;
    bool dtx = true;
    int expectedLossPercent = 10;    // makes the encoder spend bits on FEC
};

class OpusFrameEncoder {
public:
    // Throws std::runtime_error naming the libopus error when the settings are refused.
    explicit OpusFrameEncoder(const OpusEncoderSettings& settings);
    ~OpusFrameEncoder();
    OpusFrameEncoder(const OpusFrameEncoder&) = delete;
    OpusFrameEncoder& operator=(const OpusFrameEncoder&) = delete;

    int Channels() const { return channels_; }
    // Clamps to [kMinBitrate, kMaxBitrate] and returns what was applied.
    int SetBitrate(int bitsPerSecond);
    // Encodes one 20 ms frame (kFrameSamples * Channels() samples). Returns the packet size (1-2 bytes
    // during DTX silence), or 0 on failure.
    std::size_t Encode(const std::int16_t* pcm, std::uint8_t* out, std::size_t outCapacity);

private:
    ::OpusEncoder* encoder_ = nullptr;
    int channels_ = 2;
};

class OpusFrameDecoder {
public:
    explicit OpusFrameDecoder(int channels = 2);
    ~OpusFrameDecoder();
    OpusFrameDecoder(const OpusFrameDecoder&) = delete;
    OpusFrameDecoder& operator=(const OpusFrameDecoder&) = delete;

    int Channels() const { return channels_; }
    // Decodes a packet into pcm (kFrameSamples * Channels() samples). With fec, decodes the previous
    // frame from the in-band FEC data this packet carries (for a lost packet). Returns the samples per
    // channel written (kFrameSamples), or -1 when the packet is corrupt.
    int Decode(const std::uint8_t* packet, std::size_t size, std::int16_t* pcm, bool fec = false);
    // Packet-loss concealment: a frame extrapolated from the decoder's state.
    int Conceal(std::int16_t* pcm);

private:
    ::OpusDecoder* decoder_ = nullptr;
    int channels_ = 2;
};

}  // namespace platformpp::voice
