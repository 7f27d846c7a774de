#include "voice/audio_devices.hpp"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include "voice/opus_codec.hpp"

namespace platformpp::voice {
namespace {

// Silence (or what `capture` makes) in, output discarded, clocked by the steady clock every 20 ms
// (sleep_until, so it does not drift).
class NullBackend final : public AudioBackend {
public:
    explicit NullBackend(NullCaptureFn capture) : capture_(std::move(capture)) {}
    ~NullBackend() override { Stop(); }
    const char* Name() const override { return "null"; }
    std::vector<AudioDeviceInfo> InputDevices() override { return {{kDefaultDeviceId, "Null input (silence)", true}}; }
    std::vector<AudioDeviceInfo> OutputDevices() override { return {{kDefaultDeviceId, "Null output (discard)", true}}; }
    bool SetInputDevice(const std::string& id) override { return id == kDefaultDeviceId; }
    bool SetOutputDevice(const std::string& id) override { return id == kDefaultDeviceId; }
    std::string CurrentInputDevice() const override { return kDefaultDeviceId; }
    std::string CurrentOutputDevice() const override { return kDefaultDeviceId; }
    void SetDeviceChangeCallback(DeviceChangeFn) override {}  // a null device never changes

    void Start(ProcessFn process) override {
        Stop();
        running_ = true;
        thread_ = std::thread([this, process = std::move(process)] {
            std::vector<std::int16_t> capture(kFrameSamples * kDeviceChannels, 0);
            std::vector<std::int16_t> playback(capture.size());
            auto next = std::chrono::steady_clock::now();
            while (running_.load()) {
                if (capture_) capture_(capture.data(), capture.size());
                std::fill(playback.begin(), playback.end(), 0);
                process(capture.data(), playback.data());
                next += std::chrono::milliseconds(kFrameMs);
                const auto now = std::chrono::steady_clock::now();
                if (next < now - std::chrono::milliseconds(200)) next = now;  // fell far behind: do not burst
                std::this_thread::sleep_until(next);
            }
        });
    }
    void Stop() override {
        running_ = false;
        if (thread_.joinable()) thread_.join();
    }

private:
    const NullCaptureFn capture_;
    std::atomic<bool> running_{false};
    std::thread thread_;
};

}  // namespace

std::unique_ptr<AudioBackend> MakeNullAudioBackend(NullCaptureFn capture) {
    return std::make_unique<NullBackend>(std::move(capture));
}

std::unique_ptr<AudioBackend> MakeAudioBackend(core::LogSink log) {
    const char* forced = std::getenv("PLATFORMPP_AUDIO_BACKEND");
    if (forced == nullptr || std::strcmp(forced, "null") != 0) {
        if (auto pulse = MakePulseAudioBackend(log)) return pulse;  // logged why not
    }
    return MakeNullAudioBackend();
}

}  // namespace platformpp::voice
