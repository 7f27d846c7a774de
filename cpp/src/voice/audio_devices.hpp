// The audio device abstraction of the media engine. A backend owns the audio thread: it calls the
// engine's process function every 20 ms with one frame captured from the input device and a frame to
// fill for the output device (48 kHz, stereo, int16 interleaved, kFrameSamples per channel).
//
// Backends: PulseAudio (also PipeWire's pulse server) through libpulse (loaded at run time), and a null backend — a timer
// clocks the thread, capture is silence and playback is discarded — used when no sound server answers,
// so calls work on headless machines and in CI. MakeAudioBackend picks one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/log_sink.hpp"

namespace platformpp::voice {

constexpr int kDeviceChannels = 2;
constexpr const char* kDefaultDeviceId = "default";  // follows the system's default device

struct AudioDeviceInfo {
    std::string id;     // stable while the device exists; kDefaultDeviceId is always accepted
    std::string name;   // human-readable
    bool isDefault = false;
    bool operator==(const AudioDeviceInfo& o) const { return id == o.id && name == o.name && isDefault == o.isDefault; }
};

class AudioBackend {
public:
    // capture: kFrameSamples * kDeviceChannels samples; playback: the same count, to be filled.
    using ProcessFn = std::function<void(const std::int16_t* capture, std::int16_t* playback)>;
    using DeviceChangeFn =
        std::function<void(const std::vector<AudioDeviceInfo>& inputs, const std::vector<AudioDeviceInfo>& outputs)>;

    virtual ~AudioBackend() = default;
    virtual const char* Name() const = 0;  // "pulseaudio" or "null"
    virtual std::vector<AudioDeviceInfo> InputDevices() = 0;
    virtual std::vector<AudioDeviceInfo> OutputDevices() = 0;
    // False (and nothing changes) when no device has that id. The running streams move to it.
    virtual bool SetInputDevice(const std::string& id) = 0;
    virtual bool SetOutputDevice(const std::string& id) = 0;
    virtual std::string CurrentInputDevice() const = 0;
    virtual std::string CurrentOutputDevice() const = 0;
    // Called (on a backend thread) when devices appear, disappear or the default changes.
    virtual void SetDeviceChangeCallback(DeviceChangeFn fn) = 0;
    // Starts the audio thread; Stop joins it. Start after Stop is allowed.
    virtual void Start(ProcessFn process) = 0;
    virtual void Stop() = 0;
};

// What the null backend's microphone hears: fills one frame (kFrameSamples x kDeviceChannels
// interleaved) on its audio thread before each tick. Empty: digital silence.
using NullCaptureFn = std::function<void(std::int16_t* frame, std::size_t samples)>;
// No devices: `capture` in (silence by default), output discarded, ticking every 20 ms.
std::unique_ptr<AudioBackend> MakeNullAudioBackend(NullCaptureFn capture = {});
// The libpulse the PulseAudio backend loads at run time (dlopen): PLATFORMPP_LIBPULSE when set (a file
// name or path), else "libpulse.so.0". The SDK never links libpulse.
std::string PulseLibraryName();
// nullptr, and why in the log, when `library` cannot be loaded or no PulseAudio server answers (within
// about a second).
std::unique_ptr<AudioBackend> MakePulseAudioBackend(core::LogSink log, const std::string& library = PulseLibraryName());
// PulseAudio when libpulse loads and a server answers, else the null backend (logged).
// PLATFORMPP_AUDIO_BACKEND=null forces the null backend.
std::unique_ptr<AudioBackend> MakeAudioBackend(core::LogSink log);

}  // namespace platformpp::voice
