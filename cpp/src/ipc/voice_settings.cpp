// VoiceSettings, the snapshot of the desktop client's voice settings, and reading it from the RPC object.
#include "ipc/voice_settings_json.hpp"

#include <type_traits>
#include <utility>

#include "core/json_fields.hpp"
#include "platformpp/errors.hpp"

namespace platformpp {

static_assert(std::is_nothrow_move_constructible_v<VoiceSettings>);
static_assert(std::is_nothrow_move_assignable_v<VoiceSettings>);

const VoiceSettings VoiceSettings::nullobj{NullTag{}};

const char* EnumToString(VoiceInputModeType value) {
    switch (value) {
        case VoiceInputModeType::VoiceActivity: return "VoiceActivity";
        case VoiceInputModeType::PushToTalk: return "PushToTalk";
    }
    return "unknown";
}

VoiceSettings::VoiceSettings(VoiceSettings&& other) noexcept
  : valid_(std::exchange(other.valid_, false)),
    selfMute_(other.selfMute_),
    selfDeaf_(other.selfDeaf_),
    inputMode_(other.inputMode_),
    pttKey_(std::move(other.pttKey_)),
    inputVolume_(other.inputVolume_),
    outputVolume_(other.outputVolume_),
    automaticGainControl_(other.automaticGainControl_),
    echoCancellation_(other.echoCancellation_),
    noiseCancellation_(other.noiseCancellation_),
    noiseSuppression_(other.noiseSuppression_) {}

VoiceSettings& VoiceSettings::operator=(VoiceSettings&& other) noexcept {
    if (this != &other) {
        VoiceSettings moved(std::move(other));
        *this = static_cast<const VoiceSettings&>(moved);
    }
    return *this;
}

void VoiceSettings::RequireValid() const {
    if (!valid_) throw NullHandleError("VoiceSettings: the instance is null (nullobj or moved from)");
}

bool VoiceSettings::SelfMute() const { RequireValid(); return selfMute_; }
void VoiceSettings::SetSelfMute(bool SelfMute) { RequireValid(); selfMute_ = SelfMute; }
bool VoiceSettings::SelfDeaf() const { RequireValid(); return selfDeaf_; }
void VoiceSettings::SetSelfDeaf(bool SelfDeaf) { RequireValid(); selfDeaf_ = SelfDeaf; }
VoiceInputModeType VoiceSettings::InputMode() const { RequireValid(); return inputMode_; }
void VoiceSettings::SetInputMode(VoiceInputModeType InputMode) { RequireValid(); inputMode_ = InputMode; }
std::string VoiceSettings::PttKey() const { RequireValid(); return pttKey_; }
void VoiceSettings::SetPttKey(std::string PttKey) { RequireValid(); pttKey_ = std::move(PttKey); }
float VoiceSettings::InputVolume() const { RequireValid(); return inputVolume_; }
void VoiceSettings::SetInputVolume(float InputVolume) { RequireValid(); inputVolume_ = InputVolume; }
float VoiceSettings::OutputVolume() const { RequireValid(); return outputVolume_; }
void VoiceSettings::SetOutputVolume(float OutputVolume) { RequireValid(); outputVolume_ = OutputVolume; }
bool VoiceSettings::AutomaticGainControl() const { RequireValid(); return automaticGainControl_; }
void VoiceSettings::SetAutomaticGainControl(bool AutomaticGainControl) { RequireValid(); automaticGainControl_ = AutomaticGainControl; }
bool VoiceSettings::EchoCancellation() const { RequireValid(); return echoCancellation_; }
void VoiceSettings::SetEchoCancellation(bool EchoCancellation) { RequireValid(); echoCancellation_ = EchoCancellation; }
bool VoiceSettings::NoiseCancellation() const { RequireValid(); return noiseCancellation_; }
void VoiceSettings::SetNoiseCancellation(bool NoiseCancellation) { RequireValid(); noiseCancellation_ = NoiseCancellation; }
bool VoiceSettings::NoiseSuppression() const { RequireValid(); return noiseSuppression_; }
void VoiceSettings::SetNoiseSuppression(bool NoiseSuppression) { RequireValid(); noiseSuppression_ = NoiseSuppression; }

namespace ipc {

namespace {

float Volume(const boost::json::value& data, const char* side) {
    const auto* object = data.if_object();
    const auto* sub = object ? object->if_contains(side) : nullptr;
    const auto* volume = sub && sub->is_object() ? sub->as_object().if_contains("volume") : nullptr;
    if (volume == nullptr) return 0.0f;
    if (volume->is_double()) return static_cast<float>(volume->as_double());
    if (volume->is_int64()) return static_cast<float>(volume->as_int64());
    if (volume->is_uint64()) return static_cast<float>(volume->as_uint64());
    return 0.0f;
}

bool Flag(const boost::json::value& data, const char* name) {
    const auto* object = data.if_object();
    const auto* value = object ? object->if_contains(name) : nullptr;
    return value != nullptr && value->is_bool() && value->as_bool();
}

}  // namespace

VoiceSettings VoiceSettingsFromRpc(const boost::json::value& data) {
    VoiceSettings settings;
    settings.SetSelfMute(Flag(data, "mute"));
    settings.SetSelfDeaf(Flag(data, "deaf"));
    settings.SetInputVolume(Volume(data, "input"));
    settings.SetOutputVolume(Volume(data, "output"));
    settings.SetAutomaticGainControl(Flag(data, "automatic_gain_control"));
    settings.SetEchoCancellation(Flag(data, "echo_cancellation"));
    settings.SetNoiseSuppression(Flag(data, "noise_suppression"));
    settings.SetNoiseCancellation(Flag(data, "noise_cancellation"));
    const auto* object = data.if_object();
    const auto* mode = object ? object->if_contains("mode") : nullptr;
    if (mode != nullptr && mode->is_object()) {
        settings.SetInputMode(json_fields::String(*mode, "type") == "PUSH_TO_TALK" ? VoiceInputModeType::PushToTalk
                                                                                    : VoiceInputModeType::VoiceActivity);
        settings.SetPttKey(json_fields::String(*mode, "ptt_key"));
    }
    return settings;
}

}  // namespace ipc
}  // namespace platformpp
