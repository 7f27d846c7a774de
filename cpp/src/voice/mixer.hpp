// The audio thread's signal decisions and mixing: level metering, voice activity detection (a fixed
// threshold in dBFS or automatic), push-to-talk with a release delay, and the mixer that sums the
// decoded participants with local mute and per-user volume. Ranges are clamped (the platform's C++ SDK
// clamps and logs); the clamped value is returned so the caller can log it.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "voice/jitter_buffer.hpp"

namespace platformpp::voice {

// RMS level of int16 samples in dBFS: 0 for a full-scale square wave, -100 for digital silence.
double LevelDbfs(const std::int16_t* samples, std::size_t count);

constexpr float kVadMinThreshold = -100.0f;
constexpr float kVadMaxThreshold = 0.0f;
constexpr float kVadDefaultThreshold = -60.0f;

// Decides per 20 ms frame whether the user is talking. Fixed mode: level >= threshold. Automatic mode:
// the threshold follows the background: the noise floor is the quietest frame of the last 5 s (speech
// has pauses, so the minimum finds the background under it), and the threshold is 15 dB above it,
// kept within [-70, -40] dBFS (anything louder than -40 dBFS is voice, however steady). Either way a hangover of 200 ms keeps the decision through the short dips between
// words. Thread-safe settings; Process() on the audio thread.
class VoiceActivityDetector {
public:
    struct Threshold {
        bool automatic = true;
        float dbfs = kVadDefaultThreshold;
    };
    VoiceActivityDetector() { levels_.reserve(kFloorWindow); }  // the audio thread never allocates
    Threshold SetThreshold(bool automatic, float dbfs);  // dbfs clamped to [-100, 0]
    Threshold GetThreshold() const;
    bool Process(const std::int16_t* samples, std::size_t count);
    float EffectiveThreshold() const;  // the fixed threshold, or the automatic one now

private:
    static constexpr int kHangoverFrames = 10;
    static constexpr std::size_t kFloorWindow = 250;  // frames: 5 s
    float AutomaticThresholdLocked() const;
    mutable std::mutex mutex_;
    Threshold threshold_;
    std::vector<float> levels_;  // the last kFloorWindow frame levels, a ring
    std::size_t next_ = 0;
    int hangover_ = 0;
};

// The speaking indicator of one remote sender, stepped once per 20 ms playout tick on the audio thread.
// A tick that plays speech the sender sent (a decoded frame or its FEC, never the Opus silence frame
// F8 FF FE) turns it on at once; it goes off only after the hold time without speech, the platform's
// 200 ms (10 ticks). Concealment of a gap neither starts nor prolongs it. So neither a late packet's
// one-tick gap nor the silence frames a sender appends after speech make the indicator flicker.
class SpeakingIndicator {
public:
    static constexpr int kHoldFrames = 10;  // 200 ms
    // One tick: what the jitter buffer gave and whether it was decoded into sound. True when
    // Speaking() changed.
    bool Tick(const JitterBuffer::Output& pulled, bool played);
    // One tick: whether it played speech. True when Speaking() changed.
    bool Tick(bool speech);
    bool Speaking() const { return speaking_; }

private:
    bool speaking_ = false;
    int quietTicks_ = 0;
};

// Push-to-talk: transmitting while the key is down and for the release delay after it goes up.
class PushToTalk {
public:
    using Clock = std::chrono::steady_clock;
    void SetActive(bool active, Clock::time_point now = Clock::now());
    bool Active() const;
    // Clamped to [0, 2000] ms; returns the applied value.
    std::uint32_t SetReleaseDelay(std::uint32_t ms);
    std::uint32_t ReleaseDelay() const;
    bool Transmitting(Clock::time_point now = Clock::now()) const;

private:
    mutable std::mutex mutex_;
    bool active_ = false;
    Clock::time_point releasedAt_{};
    bool everActive_ = false;
    std::uint32_t releaseDelayMs_ = 0;
};

constexpr int kMaxParticipantVolume = 200;  // percent; 100 is unchanged

// Sums per-user frames (int16 interleaved, same channel count) into one output frame with saturation.
// Local mute and per-user volume are thread-safe settings; Begin/Add/Finish run on the audio thread.
class Mixer {
public:
    void SetLocalMute(std::uint64_t userId, bool mute);
    bool LocalMute(std::uint64_t userId) const;
    int SetVolume(std::uint64_t userId, int percent);  // clamped to [0, 200]
    int Volume(std::uint64_t userId) const;             // 100 when never set
    void Forget(std::uint64_t userId);

    void Begin(std::size_t samples);
    // False when the user is locally muted (nothing added).
    bool Add(std::uint64_t userId, const std::int16_t* samples);
    // Writes the mix scaled by outputPercent (0..200) into out (the Begin size).
    void Finish(std::int16_t* out, int outputPercent = 100);

private:
    mutable std::mutex mutex_;
    std::unordered_map<std::uint64_t, bool> mute_;
    std::unordered_map<std::uint64_t, int> volume_;
    std::vector<std::int32_t> accumulator_;
};

// Scales int16 samples in place by percent/100 with saturation.
void ApplyGain(std::int16_t* samples, std::size_t count, int percent);

}  // namespace platformpp::voice
