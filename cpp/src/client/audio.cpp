// AudioDevice and Client's audio members: devices and volumes go to the media engine (created on the
// network thread on first use: PulseAudio when a server answers, else the null backend); the settings
// with no meaning on desktop Linux are accepted and logged (docs/voice.md, "Audio settings").
#include "platformpp/audio.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "client/begin.hpp"
#include "client/client_impl.hpp"
#include "client/voice_layer.hpp"
#include "platformpp/errors.hpp"
#include "voice/voice_engine.hpp"

namespace platformpp {

// ---- AudioDevice --------------------------------------------------------------------------------

const AudioDevice AudioDevice::nullobj{NullTag{}};
AudioDevice::AudioDevice(AudioDevice&& other) noexcept
  : valid_(std::exchange(other.valid_, false)), id_(std::move(other.id_)), name_(std::move(other.name_)),
    isDefault_(other.isDefault_) {}
AudioDevice& AudioDevice::operator=(AudioDevice&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        id_ = std::move(other.id_);
        name_ = std::move(other.name_);
        isDefault_ = other.isDefault_;
    }
    return *this;
}
void AudioDevice::RequireValid() const {
    if (!valid_) throw NullHandleError("AudioDevice: the instance is null (nullobj or moved from)");
}
bool AudioDevice::Equals(AudioDevice rhs) {
    RequireValid();
    rhs.RequireValid();
    return id_ == rhs.id_ && name_ == rhs.name_ && isDefault_ == rhs.isDefault_;
}
std::string AudioDevice::Id() const { RequireValid(); return id_; }
void AudioDevice::SetId(std::string Id) { RequireValid(); id_ = std::move(Id); }
std::string AudioDevice::Name() const { RequireValid(); return name_; }
void AudioDevice::SetName(std::string Name) { RequireValid(); name_ = std::move(Name); }
bool AudioDevice::IsDefault() const { RequireValid(); return isDefault_; }
void AudioDevice::SetIsDefault(bool IsDefault) { RequireValid(); isDefault_ = IsDefault; }

namespace {

AudioDevice ToDevice(const voice::AudioDeviceInfo& info) {
    AudioDevice device;
    device.SetId(info.id);
    device.SetName(info.name);
    device.SetIsDefault(info.isDefault);
    return device;
}

std::vector<AudioDevice> ToDevices(const std::vector<voice::AudioDeviceInfo>& infos) {
    std::vector<AudioDevice> devices;
    for (const auto& info : infos) devices.push_back(ToDevice(info));
    return devices;
}

// The device with that id in the list; "default" (or an id no longer listed) as a bare device.
AudioDevice Find(const std::vector<voice::AudioDeviceInfo>& infos, const std::string& id) {
    for (const auto& info : infos) {
        if (info.id == id) return ToDevice(info);
    }
    AudioDevice device;
    device.SetId(id);
    device.SetName(id == voice::kDefaultDeviceId ? "Default" : id);
    device.SetIsDefault(id == voice::kDefaultDeviceId);
    return device;
}


float ClampLogged(Client::Impl& impl, const char* what, float value, float low, float high) {
    const float applied = std::isnan(value) ? high : std::clamp(value, low, high);
    if (applied != value) {
        impl.Log(LoggingSeverity::Warning, std::string("Client::") + what + ": " + std::to_string(value) +
                                               " is outside [" + std::to_string(low) + ", " + std::to_string(high) +
                                               "]; using " + std::to_string(applied));
    }
    return applied;
}

}  // namespace

std::string Client::GetDefaultAudioDeviceId() { return voice::kDefaultDeviceId; }

void Client::GetInputDevices(GetInputDevicesCallback cb) {
    Impl& impl = RequireImpl();
    auto callback = client::Share(std::move(cb));
    impl.voice->WithEngine([&impl, callback](voice::VoiceEngine& engine) {
        impl.Deliver([callback, devices = ToDevices(engine.Devices().InputDevices())] { (*callback)(devices); });
    });
}

void Client::GetOutputDevices(GetOutputDevicesCallback cb) {
    Impl& impl = RequireImpl();
    auto callback = client::Share(std::move(cb));
    impl.voice->WithEngine([&impl, callback](voice::VoiceEngine& engine) {
        impl.Deliver([callback, devices = ToDevices(engine.Devices().OutputDevices())] { (*callback)(devices); });
    });
}

void Client::GetCurrentInputDevice(GetCurrentInputDeviceCallback cb) {
    Impl& impl = RequireImpl();
    auto callback = client::Share(std::move(cb));
    impl.voice->WithEngine([&impl, callback](voice::VoiceEngine& engine) {
        auto device = Find(engine.Devices().InputDevices(), engine.Devices().CurrentInputDevice());
        impl.Deliver([callback, device = std::move(device)] { (*callback)(device); });
    });
}

void Client::GetCurrentOutputDevice(GetCurrentOutputDeviceCallback cb) {
    Impl& impl = RequireImpl();
    auto callback = client::Share(std::move(cb));
    impl.voice->WithEngine([&impl, callback](voice::VoiceEngine& engine) {
        auto device = Find(engine.Devices().OutputDevices(), engine.Devices().CurrentOutputDevice());
        impl.Deliver([callback, device = std::move(device)] { (*callback)(device); });
    });
}

void Client::SetInputDevice(std::string deviceId, SetInputDeviceCallback cb) {
    Impl& impl = RequireImpl();
    auto callback = client::Share(std::move(cb));
    impl.voice->WithEngine([&impl, callback, deviceId = std::move(deviceId)](voice::VoiceEngine& engine) {
        const bool known = engine.Devices().SetInputDevice(deviceId);
        const ClientResult result = known ? ClientResult::Success()
                                          : ClientResult::Failure(ErrorType::ValidationError,
                                                                  "deviceId: no input device has this id");
        impl.Deliver([callback, result] { (*callback)(result); });
    });
}

void Client::SetOutputDevice(std::string deviceId, SetOutputDeviceCallback cb) {
    Impl& impl = RequireImpl();
    auto callback = client::Share(std::move(cb));
    impl.voice->WithEngine([&impl, callback, deviceId = std::move(deviceId)](voice::VoiceEngine& engine) {
        const bool known = engine.Devices().SetOutputDevice(deviceId);
        const ClientResult result = known ? ClientResult::Success()
                                          : ClientResult::Failure(ErrorType::ValidationError,
                                                                  "deviceId: no output device has this id");
        impl.Deliver([callback, result] { (*callback)(result); });
    });
}

void Client::SetDeviceChangeCallback(DeviceChangeCallback callback) {
    RequireImpl().voice->SetDeviceChange(std::move(callback));
}

float Client::GetInputVolume() { return RequireImpl().voice->InputVolume(); }
void Client::SetInputVolume(float inputVolume) {
    Impl& impl = RequireImpl();
    impl.voice->SetInputVolume(ClampLogged(impl, "SetInputVolume", inputVolume, 0.0f, 100.0f));
}
float Client::GetOutputVolume() { return RequireImpl().voice->OutputVolume(); }
void Client::SetOutputVolume(float outputVolume) {
    Impl& impl = RequireImpl();
    impl.voice->SetOutputVolume(ClampLogged(impl, "SetOutputVolume", outputVolume, 0.0f, 200.0f));
}

// Capture processing of the media engine (libspeexdsp on the audio thread; docs/voice-engine.md).
void Client::SetAutomaticGainControl(bool on) {
    RequireImpl().voice->WithEngine([on](voice::VoiceEngine& engine) { engine.SetAutomaticGainControl(on); });
}
void Client::SetEchoCancellation(bool on) {
    RequireImpl().voice->WithEngine([on](voice::VoiceEngine& engine) { engine.SetEchoCancellation(on); });
}
void Client::SetNoiseSuppression(bool on) {
    RequireImpl().voice->WithEngine([on](voice::VoiceEngine& engine) { engine.SetNoiseSuppression(on); });
}
void Client::SetNoiseCancellation(bool on) {
    RequireImpl().voice->WithEngine([on](voice::VoiceEngine& engine) { engine.SetNoiseCancellation(on); });
}

void Client::SetNoAudioInputThreshold(float dBFSThreshold) {
    Impl& impl = RequireImpl();
    impl.voice->SetNoAudioInputThreshold(ClampLogged(impl, "SetNoAudioInputThreshold", dBFSThreshold, -100.0f, 100.0f));
}

void Client::SetNoAudioInputCallback(NoAudioInputCallback callback) {
    RequireImpl().voice->SetNoAudioInputCallback(std::move(callback));
}

void Client::SetOpusHardwareCoding(bool encode, bool decode) {
    RequireImpl().Log(LoggingSeverity::Info, std::string("Opus hardware coding requested (encode ") +
                                                 (encode ? "on" : "off") + ", decode " + (decode ? "on" : "off") +
                                                 "): accepted; Opus is coded in software (libopus)");
}

void Client::SetAecDump(bool on) {
    RequireImpl().Log(LoggingSeverity::Info, std::string("AEC dump ") + (on ? "on" : "off") +
                                                 ": accepted; the echo canceller writes no dump");
}

void Client::SetEngineManagedAudioSession(bool isEngineManaged) {
    RequireImpl().Log(LoggingSeverity::Info, std::string("engine-managed audio session ") +
                                                 (isEngineManaged ? "on" : "off") + ": mobile only, no effect here");
}

bool Client::SetSpeakerMode(bool speakerMode) {
    RequireImpl().Log(LoggingSeverity::Info, std::string("speaker mode ") + (speakerMode ? "on" : "off") +
                                                 ": mobile only, no effect here");
    return false;
}

bool Client::ShowAudioRoutePicker() {
    RequireImpl().Log(LoggingSeverity::Info, "audio route picker: mobile only, no effect here");
    return false;
}

}  // namespace platformpp
