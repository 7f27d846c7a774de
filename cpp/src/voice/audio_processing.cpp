#include "voice/audio_processing.hpp"

#include <speex/speex_echo.h>
#include <speex/speex_preprocess.h>

#include <algorithm>

#include "voice/audio_devices.hpp"
#include "voice/opus_codec.hpp"

namespace platformpp::voice {
namespace {

constexpr int kEchoTailSamples = kEchoTailFrames * kFrameSamples;
constexpr int kNoiseSuppressDb = -30;        // noise suppression
constexpr int kNoiseCancellationDb = -50;    // noise cancellation: the stronger level
constexpr int kAgcTargetLevel = 8000;        // RMS the gain control aims at (about -12 dBFS)
constexpr int kAgcMaxGainDb = 30;
constexpr int kAgcIncrementDbPerSecond = 20;  // how fast a quiet voice is raised (libspeexdsp: 12)
constexpr std::size_t kDeviceFrame = static_cast<std::size_t>(kFrameSamples) * kDeviceChannels;

bool DigitalSilence(const std::int16_t* frame) {
    // OR of every sample: no early exit, so the compiler vectorises it (about 0.1 us a frame).
    std::int16_t any = 0;
    for (std::size_t i = 0; i < kDeviceFrame; ++i) any |= frame[i];
    return any == 0;
}

}  // namespace

void DownmixToMono(const std::int16_t* deviceFrame, std::int16_t* mono) {
    for (int i = 0; i < kFrameSamples; ++i) {
        int sum = 0;
        for (int c = 0; c < kDeviceChannels; ++c) sum += deviceFrame[i * kDeviceChannels + c];
        mono[i] = static_cast<std::int16_t>(sum / kDeviceChannels);
    }
}

AudioProcessor::AudioProcessor(Options options)
    : options_(options), near_(kFrameSamples), far_(kFrameSamples), out_(kFrameSamples),
      farRing_(static_cast<std::size_t>(kEchoTailFrames) * kFrameSamples), zeros_(kFrameSamples, 0) {
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
    if (aec && !aecOn_) {
        speex_echo_state_reset(echo_);  // stale adaptation from before it was off
        missed_ = 0;                    // nothing remembered while it was off; the reset history is silent
    }
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

void AudioProcessor::Remember(const std::int16_t* farEnd) {
    if (!aecOn_) return;  // turning it on resets it: nothing to catch up
    DownmixToMono(farEnd, farRing_.data() + static_cast<std::size_t>(ringNext_) * kFrameSamples);
    ringNext_ = (ringNext_ + 1) % kEchoTailFrames;
    missed_ = std::min(missed_ + 1, kEchoTailFrames);
}

// The ticks the echo canceller missed, oldest first, with the silent capture they had: its far-end
// history is then what it would have been, and its filter has seen the near end's silence. Older missed
// ticks fall outside the tail: the history no longer holds them.
void AudioProcessor::CatchUpEchoCanceller() {
    for (int k = missed_; k > 0; --k) {
        const int slot = (ringNext_ - k + kEchoTailFrames) % kEchoTailFrames;
        speex_echo_cancellation(echo_, zeros_.data(), farRing_.data() + static_cast<std::size_t>(slot) * kFrameSamples,
                                out_.data());
    }
    replayed_.fetch_add(static_cast<std::uint64_t>(missed_), std::memory_order_relaxed);
    missed_ = 0;
}

void AudioProcessor::Idle(const std::int16_t* farEnd) {
    Configure(aec_, ns_, nc_, agc_);
    Remember(farEnd);
    idle_.fetch_add(1, std::memory_order_relaxed);
}

void AudioProcessor::Process(std::int16_t* capture, const std::int16_t* farEnd) {
    const bool aec = aec_, ns = ns_, nc = nc_, agc = agc_;
    Configure(aec, ns, nc, agc);
    if (!aec && !ns && !nc && !agc) return;
    if (options_.skipDigitalSilence && DigitalSilence(capture)) {
        Remember(farEnd);
        skippedSilent_.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    if (aec && missed_ > 0) CatchUpEchoCanceller();
    DownmixToMono(capture, near_.data());
    DownmixToMono(farEnd, far_.data());
    if (aec) speex_echo_cancellation(echo_, near_.data(), far_.data(), out_.data());
    else std::copy(near_.begin(), near_.end(), out_.begin());
    speex_preprocess_run(pre_, out_.data());
    for (int i = 0; i < kFrameSamples; ++i)
        for (int c = 0; c < kDeviceChannels; ++c) capture[i * kDeviceChannels + c] = out_[i];
    processed_.fetch_add(1, std::memory_order_relaxed);
}

AudioProcessor::Counters AudioProcessor::GetCounters() const {
    return {processed_.load(std::memory_order_relaxed), skippedSilent_.load(std::memory_order_relaxed),
            idle_.load(std::memory_order_relaxed), replayed_.load(std::memory_order_relaxed)};
}

}  // namespace platformpp::voice
