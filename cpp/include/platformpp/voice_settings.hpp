#pragma once
// The voice settings of the user signed in to the platform's desktop client (Client::GetVoiceSettings):
// the client's own settings, not any call's. A read-only snapshot: the setters change this copy only.

#include <cstdint>
#include <string>

namespace platformpp {

enum class VoiceInputModeType : int32_t {
    VoiceActivity = 0,
    PushToTalk = 1,
};

const char* EnumToString(VoiceInputModeType value);

class VoiceSettings {
public:
    static const VoiceSettings nullobj;

    VoiceSettings() = default;
    VoiceSettings(const VoiceSettings&) = default;
    VoiceSettings& operator=(const VoiceSettings&) = default;
    VoiceSettings(VoiceSettings&& other) noexcept;
    VoiceSettings& operator=(VoiceSettings&& other) noexcept;
    ~VoiceSettings() = default;

    explicit operator bool() const noexcept { return valid_; }

    bool SelfMute() const;
    void SetSelfMute(bool SelfMute);
    bool SelfDeaf() const;
    void SetSelfDeaf(bool SelfDeaf);
    VoiceInputModeType InputMode() const;
    void SetInputMode(VoiceInputModeType InputMode);
    // The push-to-talk key's label, such as "SHIFT + F"; empty when none is bound.
    std::string PttKey() const;
    void SetPttKey(std::string PttKey);
    // Microphone volume, 0 to 100.
    float InputVolume() const;
    void SetInputVolume(float InputVolume);
    // Output volume, 0 to 200.
    float OutputVolume() const;
    void SetOutputVolume(float OutputVolume);
    bool AutomaticGainControl() const;
    void SetAutomaticGainControl(bool AutomaticGainControl);
    bool EchoCancellation() const;
    void SetEchoCancellation(bool EchoCancellation);
    bool NoiseCancellation() const;
    void SetNoiseCancellation(bool NoiseCancellation);
    bool NoiseSuppression() const;
    void SetNoiseSuppression(bool NoiseSuppression);

private:
    struct NullTag {};
    explicit VoiceSettings(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    bool selfMute_ = false;
    bool selfDeaf_ = false;
    VoiceInputModeType inputMode_ = VoiceInputModeType::VoiceActivity;
    std::string pttKey_;
    float inputVolume_ = 100.0f;
    float outputVolume_ = 100.0f;
    bool automaticGainControl_ = true;
    bool echoCancellation_ = true;
    bool noiseCancellation_ = false;
    bool noiseSuppression_ = true;
};

}  // namespace platformpp
