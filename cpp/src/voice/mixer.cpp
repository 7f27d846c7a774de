#include "voice/mixer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace platformpp::voice {

double LevelDbfs(const std::int16_t* samples, std::size_t count) {
    if (count == 0) return -100.0;
    double sum = 0;
    for (std::size_t i = 0; i < count; ++i) sum += static_cast<double>(samples[i]) * samples[i];
    const double rms = std::sqrt(sum / static_cast<double>(count)) / 32768.0;
    if (rms <= 1e-5) return -100.0;
    return std::max(-100.0, 20.0 * std::log10(rms));
}

// --- VAD ---------------------------------------------------------------------------------------------

VoiceActivityDetector::Threshold VoiceActivityDetector::SetThreshold(bool automatic, float dbfs) {
    std::lock_guard<std::mutex> lock(mutex_);
    threshold_.automatic = automatic;
    threshold_.dbfs = std::isnan(dbfs) ? kVadDefaultThreshold : std::clamp(dbfs, kVadMinThreshold, kVadMaxThreshold);
    return threshold_;
}

VoiceActivityDetector::Threshold VoiceActivityDetector::GetThreshold() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return threshold_;
}

float VoiceActivityDetector::AutomaticThresholdLocked() const {
    if (levels_.empty()) return -70.0f;
    return std::clamp(*std::min_element(levels_.begin(), levels_.end()) + 15.0f, -70.0f, -40.0f);
}

float VoiceActivityDetector::EffectiveThreshold() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return threshold_.automatic ? AutomaticThresholdLocked() : threshold_.dbfs;
}

bool VoiceActivityDetector::Process(const std::int16_t* samples, std::size_t count) {
    const auto level = static_cast<float>(LevelDbfs(samples, count));
    std::lock_guard<std::mutex> lock(mutex_);
    if (levels_.size() < kFloorWindow) {
        levels_.push_back(level);
    } else {
        levels_[next_] = level;
        next_ = (next_ + 1) % kFloorWindow;
    }
    const float threshold = threshold_.automatic ? AutomaticThresholdLocked() : threshold_.dbfs;
    if (level >= threshold && level > kVadMinThreshold) {
        hangover_ = kHangoverFrames;
        return true;
    }
    if (hangover_ > 0) {
        --hangover_;
        return true;
    }
    return false;
}

// --- the speaking indicator -----------------------------------------------------------------------

bool SpeakingIndicator::Tick(const JitterBuffer::Output& pulled, bool played) {
    // Speech is what the sender sent: a frame or its FEC, not the silence frame. Concealment invents
    // audio for a gap: the hold covers it, it neither starts nor prolongs speaking.
    const bool received = pulled.kind == JitterBuffer::Kind::Frame || pulled.kind == JitterBuffer::Kind::Fec;
    return Tick(played && received && !JitterBuffer::IsSilenceFrame(pulled.packet));
}

bool SpeakingIndicator::Tick(bool speech) {
    if (speech) {
        quietTicks_ = 0;
        if (speaking_) return false;
        speaking_ = true;
        return true;
    }
    if (!speaking_ || ++quietTicks_ < kHoldFrames) return false;
    speaking_ = false;
    quietTicks_ = 0;
    return true;
}

// --- PTT ---------------------------------------------------------------------------------------------

void PushToTalk::SetActive(bool active, Clock::time_point now) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (active_ && !active) releasedAt_ = now;
    if (active) everActive_ = true;
    active_ = active;
}

bool PushToTalk::Active() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return active_;
}

std::uint32_t PushToTalk::SetReleaseDelay(std::uint32_t ms) {
    std::lock_guard<std::mutex> lock(mutex_);
    releaseDelayMs_ = std::min<std::uint32_t>(ms, 2000);
    return releaseDelayMs_;
}

std::uint32_t PushToTalk::ReleaseDelay() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return releaseDelayMs_;
}

bool PushToTalk::Transmitting(Clock::time_point now) const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (active_) return true;
    if (!everActive_) return false;
    return now < releasedAt_ + std::chrono::milliseconds(releaseDelayMs_);
}

// --- Mixer -------------------------------------------------------------------------------------------

void Mixer::SetLocalMute(std::uint64_t userId, bool mute) {
    std::lock_guard<std::mutex> lock(mutex_);
    mute_[userId] = mute;
}

bool Mixer::LocalMute(std::uint64_t userId) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = mute_.find(userId);
    return it != mute_.end() && it->second;
}

int Mixer::SetVolume(std::uint64_t userId, int percent) {
    const int applied = std::clamp(percent, 0, kMaxParticipantVolume);
    std::lock_guard<std::mutex> lock(mutex_);
    volume_[userId] = applied;
    return applied;
}

int Mixer::Volume(std::uint64_t userId) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = volume_.find(userId);
    return it == volume_.end() ? 100 : it->second;
}

void Mixer::Forget(std::uint64_t userId) {
    std::lock_guard<std::mutex> lock(mutex_);
    mute_.erase(userId);
    volume_.erase(userId);
}

void Mixer::Begin(std::size_t samples) { accumulator_.assign(samples, 0); }

bool Mixer::Add(std::uint64_t userId, const std::int16_t* samples) {
    int volume = 100;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto m = mute_.find(userId);
        if (m != mute_.end() && m->second) return false;
        auto v = volume_.find(userId);
        if (v != volume_.end()) volume = v->second;
    }
    if (volume == 100) {  // the usual case: a plain sum (vectorised), the same result
        for (std::size_t i = 0; i < accumulator_.size(); ++i) accumulator_[i] += samples[i];
        return true;
    }
    for (std::size_t i = 0; i < accumulator_.size(); ++i) accumulator_[i] += samples[i] * volume / 100;
    return true;
}

void Mixer::Finish(std::int16_t* out, int outputPercent) {
    const int gain = std::clamp(outputPercent, 0, 200);
    for (std::size_t i = 0; i < accumulator_.size(); ++i) {
        const std::int64_t v = static_cast<std::int64_t>(accumulator_[i]) * gain / 100;
        out[i] = static_cast<std::int16_t>(std::clamp<std::int64_t>(v, std::numeric_limits<std::int16_t>::min(),
                                                                    std::numeric_limits<std::int16_t>::max()));
    }
}

void ApplyGain(std::int16_t* samples, std::size_t count, int percent) {
    if (percent == 100) return;
    for (std::size_t i = 0; i < count; ++i) {
        const int v = samples[i] * percent / 100;
        samples[i] = static_cast<std::int16_t>(std::clamp(v, -32768, 32767));
    }
}

}  // namespace platformpp::voice
