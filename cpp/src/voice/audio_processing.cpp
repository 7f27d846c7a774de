#include "voice/audio_processing.hpp"

#include <speex/speex_echo.h>
#include <speex/speex_preprocess.h>

#include <algorithm>

#include "voice/audio_devices.hpp"
#include "voice/opus_codec.hpp"

namespace platformpp::voice {
namespace {

// The echo canceller's filter covers echo paths up to 200 ms: the playback buffer (60 ms), the capture
// side and the room. Longer tails adapt more slowly and cost more.
constexpr int kEchoTailSamples = kSampleRate / 5;
constexpr int kNoiseSuppressDb = -30;        // noise suppression
constexpr int kNoiseCancellationDb = -50;    // noise cancellation: the stronger level
constexpr int kAgcTargetLevel = 8000;        // RMS the gain control aims at (about -12 dBFS)
constexpr int kAgcMaxGainDb = 30;
constexpr int kAgcIncrementDbPerSecond = 20;  // how fast a quiet voice is raised (libspeexdsp: 12)

}  // namespace

AudioProcessor::AudioProcessor() : near_(kFrameSamples), far_(kFrameSamples), out_(kFrameSamples) {
    echo_ = speex_echo_state_init(kFrameSamples, kEchoTailSamples);
    int rate = kSampleRate;
    speex_echo_ctl(echo_, SPEEX_ECHO_SET_SAMPLING_RATE, &rate);
    pre_ = speex_preprocess_state_init(kFrameSamples, kSampleRate);
    // The preprocessor also removes the echo the linear filter leaves (residual echo suppression).
    speex_preprocess_ctl(pre_, SPEEX_PREPROCESS_SET_ECHO_STATE, echo_);
}

AudioProcessor::~AudioProcessor() {
    speex_preprocess_state_destroy(pre_);
    speex_echo_state_destroy(echo_);
}

void AudioProcessor::Configure(bool aec, bool ns, bool nc, bool agc) {
    if (configured_ && aec == aecOn_ && ns == nsOn_ && nc == ncOn_ && agc == agcOn_) return;
    if (aec && !aecOn_) speex_echo_state_reset(echo_);  // stale adaptation from before it was off
    int denoise = (ns || nc) ? 1 : 0;
    speex_preprocess_ctl(pre_, SPEEX_PREPROCESS_SET_DENOISE, &denoise);
    int suppress = nc ? kNoiseCancellationDb : kNoiseSuppressDb;
    speex_preprocess_ctl(pre_, SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, &suppress);
    int gain = agc ? 1 : 0;
    speex_preprocess_ctl(pre_, SPEEX_PREPROCESS_SET_AGC, &gain);
    if (agc) {
        float level = kAgcTargetLevel;
        speex_preprocess_ctl(pre_, SPEEX_PREPROCESS_SET_AGC_LEVEL, &level);
        int maxGain = kAgcMaxGainDb;
        speex_preprocess_ctl(pre_, SPEEX_PREPROCESS_SET_AGC_MAX_GAIN, &maxGain);
        int increment = kAgcIncrementDbPerSecond;
        speex_preprocess_ctl(pre_, SPEEX_PREPROCESS_SET_AGC_INCREMENT, &increment);
    }
    // Residual echo suppression only with the echo canceller.
    speex_preprocess_ctl(pre_, SPEEX_PREPROCESS_SET_ECHO_STATE, aec ? echo_ : nullptr);
    configured_ = true;
    aecOn_ = aec, nsOn_ = ns, ncOn_ = nc, agcOn_ = agc;
}

void AudioProcessor::Process(std::int16_t* capture, const std::int16_t* farEnd) {
    const bool aec = aec_, ns = ns_, nc = nc_, agc = agc_;
    Configure(aec, ns, nc, agc);
    if (!aec && !ns && !nc && !agc) return;
    for (int i = 0; i < kFrameSamples; ++i) {
        int nearSum = 0, farSum = 0;
        for (int c = 0; c < kDeviceChannels; ++c) {
            nearSum += capture[i * kDeviceChannels + c];
            farSum += farEnd[i * kDeviceChannels + c];
        }
        near_[i] = static_cast<std::int16_t>(nearSum / kDeviceChannels);
        far_[i] = static_cast<std::int16_t>(farSum / kDeviceChannels);
    }
    if (aec) speex_echo_cancellation(echo_, near_.data(), far_.data(), out_.data());
    else std::copy(near_.begin(), near_.end(), out_.begin());
    if (ns || nc || agc || aec) speex_preprocess_run(pre_, out_.data());
    for (int i = 0; i < kFrameSamples; ++i)
        for (int c = 0; c < kDeviceChannels; ++c) capture[i * kDeviceChannels + c] = out_[i];
}

}  // namespace platformpp::voice
