#include "voice/opus_codec.hpp"

#include <opus.h>

#include <algorithm>
#include <stdexcept>

namespace platformpp::voice {
namespace {

void Check(int error, const char* what) {
    if (error != OPUS_OK) throw std::runtime_error(std::string(what) + ": " + opus_strerror(error));
}

}  // namespace

OpusFrameEncoder::OpusFrameEncoder(const OpusEncoderSettings& settings) : channels_(settings.channels) {
    if (channels_ != 1 && channels_ != 2) throw std::invalid_argument("channels: must be 1 or 2");
    int error = OPUS_OK;
    encoder_ = opus_encoder_create(kSampleRate, channels_, OPUS_APPLICATION_VOIP, &error);
    Check(error, "opus_encoder_create");
    SetBitrate(settings.bitrate);
    Check(opus_encoder_ctl(encoder_, OPUS_SET_INBAND_FEC(settings.inbandFec ? 1 : 0)), "OPUS_SET_INBAND_FEC");
    Check(opus_encoder_ctl(encoder_, OPUS_SET_DTX(settings.dtx ? 1 : 0)), "OPUS_SET_DTX");
    Check(opus_encoder_ctl(encoder_, OPUS_SET_PACKET_LOSS_PERC(std::clamp(settings.expectedLossPercent, 0, 100))),
          "OPUS_SET_PACKET_LOSS_PERC");
    Check(opus_encoder_ctl(encoder_, OPUS_SET_SIGNAL(OPUS_SIGNAL_VOICE)), "OPUS_SET_SIGNAL");
}

OpusFrameEncoder::~OpusFrameEncoder() { opus_encoder_destroy(encoder_); }

int OpusFrameEncoder::SetBitrate(int bitsPerSecond) {
    const int applied = std::clamp(bitsPerSecond, kMinBitrate, kMaxBitrate);
    opus_encoder_ctl(encoder_, OPUS_SET_BITRATE(applied));
    return applied;
}

std::size_t OpusFrameEncoder::Encode(const std::int16_t* pcm, std::uint8_t* out, std::size_t outCapacity) {
    const int n = opus_encode(encoder_, pcm, kFrameSamples, out,
                              static_cast<opus_int32>(std::min(outCapacity, kMaxOpusPacket)));
    return n > 0 ? static_cast<std::size_t>(n) : 0;
}

OpusFrameDecoder::OpusFrameDecoder(int channels) : channels_(channels) {
    if (channels_ != 1 && channels_ != 2) throw std::invalid_argument("channels: must be 1 or 2");
    int error = OPUS_OK;
    decoder_ = opus_decoder_create(kSampleRate, channels_, &error);
    Check(error, "opus_decoder_create");
}

OpusFrameDecoder::~OpusFrameDecoder() { opus_decoder_destroy(decoder_); }

int OpusFrameDecoder::Decode(const std::uint8_t* packet, std::size_t size, std::int16_t* pcm, bool fec) {
    const int n = opus_decode(decoder_, packet, static_cast<opus_int32>(size), pcm, kFrameSamples, fec ? 1 : 0);
    return n < 0 ? -1 : n;
}

int OpusFrameDecoder::Conceal(std::int16_t* pcm) {
    const int n = opus_decode(decoder_, nullptr, 0, pcm, kFrameSamples, 0);
    return n < 0 ? -1 : n;
}

}  // namespace platformpp::voice
