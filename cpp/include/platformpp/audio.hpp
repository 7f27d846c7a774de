#pragma once
// Audio devices (Client::GetInputDevices and friends) and the audio system a Client plays through.

#include <cstdint>
#include <string>

namespace platformpp {

// Which audio session the voice engine uses on platforms that have several (consoles, mobile). Linux
// and desktop builds have one: the value is accepted and has no effect.
enum class AudioSystem : int32_t {
    Standard = 0,
    Game = 1,
};

// An input or output device. Id() is stable while the device exists; "default" (the value of
// Client::GetDefaultAudioDeviceId) always names the system's default device and follows it.
// Value class in the house style (see authorization.hpp).
class AudioDevice {
public:
    static const AudioDevice nullobj;

    AudioDevice() = default;
    AudioDevice(const AudioDevice&) = default;
    AudioDevice& operator=(const AudioDevice&) = default;
    AudioDevice(AudioDevice&& other) noexcept;
    AudioDevice& operator=(AudioDevice&& other) noexcept;
    ~AudioDevice() = default;

    explicit operator bool() const noexcept { return valid_; }

    // Same id, name and default flag.
    bool Equals(AudioDevice rhs);
    std::string Id() const;
    void SetId(std::string Id);
    std::string Name() const;
    void SetName(std::string Name);
    bool IsDefault() const;
    void SetIsDefault(bool IsDefault);

private:
    struct NullTag {};
    explicit AudioDevice(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    std::string id_, name_;
    bool isDefault_ = false;
};

}  // namespace platformpp
