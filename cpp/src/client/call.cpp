// Call (the current user's call in one channel), VoiceStateHandle, CallInfoHandle and
// VADThresholdSettings. Setters clamp out-of-range values to the documented range and log the clamp
// (docs/voice.md, "Values out of range").
#include "platformpp/call.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "client/call_state.hpp"
#include "platformpp/errors.hpp"
#include "voice/voice_engine.hpp"

namespace platformpp {
namespace {

constexpr float kMaxParticipantVolume = 200.0f;
constexpr uint32_t kMaxPttReleaseDelayMs = 2000;
constexpr float kMinVadThreshold = -100.0f, kMaxVadThreshold = 0.0f;

template <typename T>
const T& Require(const std::shared_ptr<T>& data, const char* type) {
    if (!data) throw NullHandleError(std::string(type) + ": the instance is null (nullobj or moved from)");
    return *data;
}

// SetSelfMute and SetSelfDeaf: the call's own flag, the engine's, and the voice state the others see
// (which carries both flags). Nothing once the call is Disconnected.
void SetSelfFlag(detail::CallState& s, bool detail::CallState::*flag, void (voice::VoiceCall::*apply)(bool),
                 bool on) {
    bool mute = false, deaf = false;
    std::shared_ptr<voice::VoiceCall> engine;
    {
        std::lock_guard lock(s.mutex);
        if (s.status == Call::Status::Disconnected) return;
        s.*flag = on;
        mute = s.selfMute;
        deaf = s.selfDeaf;
        engine = s.engineCall;
    }
    if (engine) ((*engine).*apply)(on);
    if (s.hooks.sendVoiceState) s.hooks.sendVoiceState(s.guildId, mute, deaf);
}

// The value within [low, high]; a clamp (or a NaN, which becomes `fallback`) is logged as a warning.
float Clamped(const detail::CallState& call, const char* what, float value, float low, float high, float fallback) {
    float applied = value;
    if (std::isnan(value)) {
        applied = fallback;
    } else {
        applied = std::clamp(value, low, high);
    }
    if (applied != value && call.hooks.log) {
        call.hooks.log(LoggingSeverity::Warning, std::string("Call::") + what + ": " + std::to_string(value) +
                                                     " is outside [" + std::to_string(low) + ", " +
                                                     std::to_string(high) + "]; using " + std::to_string(applied));
    }
    return applied;
}

}  // namespace

// ---- detail::CallState --------------------------------------------------------------------------

void detail::CallState::SetStatus(Call::Status next, Call::Error error, int32_t detail) {
    std::shared_ptr<Call::OnStatusChanged> callback;
    {
        std::lock_guard lock(mutex);
        if (status == next && error == Call::Error::None) return;
        status = next;
        callback = onStatus;
    }
    if (hooks.log) {
        hooks.log(error == Call::Error::None ? LoggingSeverity::Info : LoggingSeverity::Warning,
                  "call " + std::to_string(channelId) + ": " + Call::StatusToString(next) +
                      (error == Call::Error::None
                           ? std::string()
                           : " (" + Call::ErrorToString(error) + ", " + std::to_string(detail) + ")"));
    }
    if (callback) hooks.deliverEvent([callback, next, error, detail] { (*callback)(next, error, detail); });
}

void detail::CallState::ApplySettings(voice::VoiceCall& call) {
    std::lock_guard lock(this->mutex);
    call.SetSelfMute(selfMute);
    call.SetSelfDeaf(selfDeaf);
    call.SetAudioMode(mode == AudioModeType::MODE_PTT ? voice::AudioMode::PushToTalk : voice::AudioMode::VoiceActivity);
    call.SetPttActive(pttActive);
    call.SetPttReleaseDelay(pttReleaseDelay);
    call.SetVadThreshold(vadAutomatic, vadThreshold);
    for (const auto& [user, mute] : localMute) call.SetLocalMute(user, mute);
    for (const auto& [user, percent] : volume) call.SetParticipantVolume(user, static_cast<int>(std::lround(percent)));
}

// ---- VoiceStateHandle ---------------------------------------------------------------------------

const VoiceStateHandle VoiceStateHandle::nullobj{nullptr};
VoiceStateHandle::VoiceStateHandle(std::shared_ptr<const detail::VoiceStateData> data) noexcept
  : data_(std::move(data)) {}
const detail::VoiceStateData& VoiceStateHandle::Data() const { return Require(data_, "VoiceStateHandle"); }
bool VoiceStateHandle::SelfDeaf() const { return Data().selfDeaf; }
bool VoiceStateHandle::SelfMute() const { return Data().selfMute; }

// ---- VADThresholdSettings -----------------------------------------------------------------------

const VADThresholdSettings VADThresholdSettings::nullobj{NullTag{}};
VADThresholdSettings::VADThresholdSettings(VADThresholdSettings&& other) noexcept
  : valid_(std::exchange(other.valid_, false)), threshold_(other.threshold_), automatic_(other.automatic_) {}
VADThresholdSettings& VADThresholdSettings::operator=(VADThresholdSettings&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        threshold_ = other.threshold_;
        automatic_ = other.automatic_;
    }
    return *this;
}
void VADThresholdSettings::RequireValid() const {
    if (!valid_) throw NullHandleError("VADThresholdSettings: the instance is null (nullobj or moved from)");
}
float VADThresholdSettings::VadThreshold() const { RequireValid(); return threshold_; }
void VADThresholdSettings::SetVadThreshold(float VadThreshold) { RequireValid(); threshold_ = VadThreshold; }
bool VADThresholdSettings::Automatic() const { RequireValid(); return automatic_; }
void VADThresholdSettings::SetAutomatic(bool Automatic) { RequireValid(); automatic_ = Automatic; }

// ---- CallInfoHandle -----------------------------------------------------------------------------

const CallInfoHandle CallInfoHandle::nullobj{nullptr};
CallInfoHandle::CallInfoHandle(std::shared_ptr<const detail::CallInfoData> data) noexcept : data_(std::move(data)) {}
const detail::CallInfoData& CallInfoHandle::Data() const { return Require(data_, "CallInfoHandle"); }
uint64_t CallInfoHandle::ChannelId() const { return Data().channelId; }
uint64_t CallInfoHandle::GuildId() const { return Data().guildId; }
std::vector<uint64_t> CallInfoHandle::GetParticipants() const {
    std::vector<uint64_t> ids;
    for (const auto& [id, state] : Data().states) ids.push_back(id);
    return ids;
}
std::optional<VoiceStateHandle> CallInfoHandle::GetVoiceStateHandle(uint64_t userId) const {
    const auto& states = Data().states;
    const auto found = states.find(userId);
    if (found == states.end()) return std::nullopt;
    return VoiceStateHandle(found->second);
}

// ---- Call ---------------------------------------------------------------------------------------

const Call Call::nullobj{nullptr};
Call::Call(std::shared_ptr<detail::CallState> state) noexcept : state_(std::move(state)) {}
detail::CallState& Call::State() const {
    if (!state_) throw NullHandleError("Call: the instance is null (nullobj, moved from, or a call not started)");
    return *state_;
}

std::string Call::StatusToString(Call::Status type) {
    static constexpr const char* kNames[] = {"Disconnected", "Joining",      "Connecting",   "SignalingConnected",
                                             "Connected",    "Reconnecting", "Disconnecting"};
    const auto index = static_cast<std::size_t>(type);
    return index < std::size(kNames) ? kNames[index] : "Unknown";
}

std::string Call::ErrorToString(Call::Error type) {
    static constexpr const char* kNames[] = {"None",        "SignalingConnectionFailed", "SignalingUnexpectedClose",
                                             "VoiceConnectionFailed", "JoinTimeout",     "Forbidden"};
    const auto index = static_cast<std::size_t>(type);
    return index < std::size(kNames) ? kNames[index] : "Unknown";
}

Call::Status Call::GetStatus() const {
    auto& s = State();
    std::lock_guard lock(s.mutex);
    return s.status;
}

void Call::SetStatusChangedCallback(Call::OnStatusChanged cb) {
    auto& s = State();
    std::lock_guard lock(s.mutex);
    s.onStatus = cb ? std::make_shared<OnStatusChanged>(std::move(cb)) : nullptr;
}

uint64_t Call::GetChannelId() const { return State().channelId; }
uint64_t Call::GetGuildId() const { return State().guildId; }

std::vector<uint64_t> Call::GetParticipants() const {
    auto& s = State();
    std::vector<uint64_t> ids;
    if (const auto info = s.hooks.info ? s.hooks.info() : nullptr) {
        for (const auto& [id, state] : info->states) ids.push_back(id);
    }
    return ids;
}

void Call::SetParticipantChangedCallback(Call::OnParticipantChanged cb) {
    auto& s = State();
    std::lock_guard lock(s.mutex);
    s.onParticipant = cb ? std::make_shared<OnParticipantChanged>(std::move(cb)) : nullptr;
}

bool Call::GetSelfMute() {
    auto& s = State();
    std::lock_guard lock(s.mutex);
    return s.selfMute;
}

void Call::SetSelfMute(bool mute) { SetSelfFlag(State(), &detail::CallState::selfMute, &voice::VoiceCall::SetSelfMute, mute); }

bool Call::GetSelfDeaf() {
    auto& s = State();
    std::lock_guard lock(s.mutex);
    return s.selfDeaf;
}

void Call::SetSelfDeaf(bool deaf) { SetSelfFlag(State(), &detail::CallState::selfDeaf, &voice::VoiceCall::SetSelfDeaf, deaf); }

bool Call::GetLocalMute(uint64_t userId) {
    auto& s = State();
    std::lock_guard lock(s.mutex);
    const auto found = s.localMute.find(userId);
    return found != s.localMute.end() && found->second;
}

void Call::SetLocalMute(uint64_t userId, bool mute) {
    auto& s = State();
    std::lock_guard lock(s.mutex);
    s.localMute[userId] = mute;
    if (s.engineCall) s.engineCall->SetLocalMute(userId, mute);
}

float Call::GetParticipantVolume(uint64_t userId) {
    auto& s = State();
    std::lock_guard lock(s.mutex);
    const auto found = s.volume.find(userId);
    return found == s.volume.end() ? 100.0f : found->second;
}

void Call::SetParticipantVolume(uint64_t userId, float volume) {
    auto& s = State();
    const float applied = Clamped(s, "SetParticipantVolume", volume, 0.0f, kMaxParticipantVolume, 100.0f);
    std::lock_guard lock(s.mutex);
    s.volume[userId] = applied;
    if (s.engineCall) s.engineCall->SetParticipantVolume(userId, static_cast<int>(std::lround(applied)));
}

AudioModeType Call::GetAudioMode() {
    auto& s = State();
    std::lock_guard lock(s.mutex);
    return s.mode;
}

void Call::SetAudioMode(AudioModeType audioMode) {
    auto& s = State();
    if (audioMode != AudioModeType::MODE_VAD && audioMode != AudioModeType::MODE_PTT) {
        if (s.hooks.log) s.hooks.log(LoggingSeverity::Warning, "Call::SetAudioMode: only MODE_VAD and MODE_PTT; ignored");
        return;
    }
    std::lock_guard lock(s.mutex);
    s.mode = audioMode;
    if (s.engineCall) {
        s.engineCall->SetAudioMode(audioMode == AudioModeType::MODE_PTT ? voice::AudioMode::PushToTalk
                                                                         : voice::AudioMode::VoiceActivity);
    }
}

bool Call::GetPTTActive() {
    auto& s = State();
    std::lock_guard lock(s.mutex);
    return s.pttActive;
}

void Call::SetPTTActive(bool active) {
    auto& s = State();
    std::lock_guard lock(s.mutex);
    s.pttActive = active;
    if (s.engineCall) s.engineCall->SetPttActive(active);
}

uint32_t Call::GetPTTReleaseDelay() {
    auto& s = State();
    std::lock_guard lock(s.mutex);
    return s.pttReleaseDelay;
}

void Call::SetPTTReleaseDelay(uint32_t releaseDelayMs) {
    auto& s = State();
    const uint32_t applied = std::min(releaseDelayMs, kMaxPttReleaseDelayMs);
    if (applied != releaseDelayMs && s.hooks.log) {
        s.hooks.log(LoggingSeverity::Warning, "Call::SetPTTReleaseDelay: " + std::to_string(releaseDelayMs) +
                                                  " ms is above 2000; using 2000");
    }
    std::lock_guard lock(s.mutex);
    s.pttReleaseDelay = applied;
    if (s.engineCall) s.engineCall->SetPttReleaseDelay(applied);
}

VADThresholdSettings Call::GetVADThreshold() const {
    auto& s = State();
    std::lock_guard lock(s.mutex);
    VADThresholdSettings settings;
    settings.SetAutomatic(s.vadAutomatic);
    settings.SetVadThreshold(s.vadThreshold);
    return settings;
}

void Call::SetVADThreshold(bool automatic, float threshold) {
    auto& s = State();
    const float applied = Clamped(s, "SetVADThreshold", threshold, kMinVadThreshold, kMaxVadThreshold, -60.0f);
    std::lock_guard lock(s.mutex);
    s.vadAutomatic = automatic;
    s.vadThreshold = applied;
    if (s.engineCall) s.engineCall->SetVadThreshold(automatic, applied);
}

void Call::SetSpeakingStatusChangedCallback(Call::OnSpeakingStatusChanged cb) {
    auto& s = State();
    std::lock_guard lock(s.mutex);
    s.onSpeaking = cb ? std::make_shared<OnSpeakingStatusChanged>(std::move(cb)) : nullptr;
}

std::optional<VoiceStateHandle> Call::GetVoiceStateHandle(uint64_t userId) const {
    auto& s = State();
    const auto info = s.hooks.info ? s.hooks.info() : nullptr;
    if (!info) return std::nullopt;
    const auto found = info->states.find(userId);
    if (found == info->states.end()) return std::nullopt;
    return VoiceStateHandle(found->second);
}

void Call::SetOnVoiceStateChangedCallback(Call::OnVoiceStateChanged cb) {
    auto& s = State();
    std::lock_guard lock(s.mutex);
    s.onVoiceState = cb ? std::make_shared<OnVoiceStateChanged>(std::move(cb)) : nullptr;
}

namespace {
std::shared_ptr<voice::VoiceCall> EngineCallOf(detail::CallState& s) {
    std::lock_guard lock(s.mutex);
    return s.engineCall;
}
}  // namespace

uint16_t Call::GetE2eeProtocolVersion() const {
    const auto engine = EngineCallOf(State());
    return engine ? engine->Connection().E2ee().protocolVersion : 0;
}

std::optional<std::string> Call::GetE2eeEpochAuthenticator() const {
    const auto engine = EngineCallOf(State());
    if (!engine) return std::nullopt;
    return engine->Connection().E2ee().epochAuthenticatorCode;
}

std::optional<std::string> Call::GetE2eeVerificationCode(uint64_t userId) const {
    const auto engine = EngineCallOf(State());
    if (!engine) return std::nullopt;
    return engine->Connection().VerificationCode(userId);
}

}  // namespace platformpp
