// The PulseAudio backend against a real PulseAudio daemon the test starts (null sinks, whose monitors
// are sources): device listing with defaults, device-change events, and audio through the chosen
// devices (a tone played into a sink comes back from its monitor). Skipped, with a message, when the
// pulseaudio binary is not installed (Debian: pulseaudio).
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <mutex>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "voice/audio_devices.hpp"
#include "voice/opus_codec.hpp"
#include "voice_pulse_daemon.hpp"
#include "voice_tone.hpp"

using namespace platformpp::voice;
using namespace std::chrono_literals;
using voice_test::PulseDaemon;

namespace {

bool Has(const std::vector<AudioDeviceInfo>& devices, const std::string& id) {
    for (const auto& d : devices)
        if (d.id == id) return true;
    return false;
}

}  // namespace

BOOST_AUTO_TEST_CASE(pulse_backend_lists_devices_and_follows_changes) {
    PulseDaemon daemon;
    if (!daemon.Available()) {
        BOOST_TEST_MESSAGE("SKIPPED: no /usr/bin/pulseaudio (apt-get install pulseaudio)");
        return;
    }
    auto backend = MakePulseAudioBackend(nullptr);
    BOOST_REQUIRE(backend);
    BOOST_TEST(std::string(backend->Name()) == "pulseaudio");
    const auto outputs = backend->OutputDevices();
    BOOST_TEST(Has(outputs, "voice_test_sink"));
    BOOST_TEST(Has(backend->InputDevices(), "voice_test_sink.monitor"));
    for (const auto& d : outputs)
        if (d.id == "voice_test_sink") {
            BOOST_TEST(d.isDefault);
            BOOST_TEST(d.name == "VoiceTestSink");
        }
    BOOST_TEST(!backend->SetOutputDevice("no-such-sink"));
    BOOST_TEST(backend->CurrentOutputDevice() == kDefaultDeviceId);

    // A new sink appears: the change callback sees it.
    std::mutex mutex;
    bool sawNewSink = false;
    backend->SetDeviceChangeCallback([&](const std::vector<AudioDeviceInfo>&, const std::vector<AudioDeviceInfo>& outs) {
        std::lock_guard<std::mutex> lock(mutex);
        if (Has(outs, "voice_second_sink")) sawNewSink = true;
    });
    BOOST_REQUIRE(daemon.Pactl("load-module module-null-sink sink_name=voice_second_sink") == 0);
    for (int i = 0; i < 100; ++i) {
        {
            std::lock_guard<std::mutex> lock(mutex);
            if (sawNewSink) break;
        }
        std::this_thread::sleep_for(20ms);
    }
    {
        std::lock_guard<std::mutex> lock(mutex);
        BOOST_TEST(sawNewSink);
    }
    BOOST_TEST(Has(backend->OutputDevices(), "voice_second_sink"));
}

// The backend's audio thread keeps its 20 ms clock whatever the devices do (a null sink's monitor is
// silent for up to 2 s after the streams connect), and what it plays into the chosen sink comes back
// from that sink's monitor, the chosen source.
BOOST_AUTO_TEST_CASE(pulse_backend_plays_through_chosen_devices) {
    PulseDaemon daemon;
    if (!daemon.Available()) {
        BOOST_TEST_MESSAGE("SKIPPED: no /usr/bin/pulseaudio (apt-get install pulseaudio)");
        return;
    }
    auto backend = MakePulseAudioBackend(nullptr);
    BOOST_REQUIRE(backend);
    BOOST_REQUIRE(daemon.Pactl("load-module module-null-sink sink_name=voice_second_sink") == 0);
    for (int i = 0; i < 100 && !Has(backend->OutputDevices(), "voice_second_sink"); ++i) std::this_thread::sleep_for(20ms);
    std::mutex mutex;
    // Audio: play a 440 Hz tone into the second sink and capture its monitor.
    BOOST_REQUIRE(backend->SetOutputDevice("voice_second_sink"));
    BOOST_REQUIRE(backend->SetInputDevice("voice_second_sink.monitor"));
    std::vector<double> captured;
    std::uint64_t phase = 0;
    std::atomic<int> frames{0};
    const auto started = std::chrono::steady_clock::now();
    backend->Start([&](const std::int16_t* capture, std::int16_t* playback) {
        voice_test::FillTone(playback, kFrameSamples, kDeviceChannels, 440, 8000, phase);
        std::lock_guard<std::mutex> lock(mutex);
        for (int i = 0; i < kFrameSamples; ++i) captured.push_back(capture[i * kDeviceChannels]);
        ++frames;
    });
    std::this_thread::sleep_for(2s);
    BOOST_TEST(frames.load() >= 80);  // 100 in 2 s: the thread is not held by a silent source
    // The tone comes back: the last 0.5 s of capture is 440 Hz (within 8 s).
    double hz = 0;
    while (std::chrono::steady_clock::now() - started < 8s) {
        {
            std::lock_guard<std::mutex> lock(mutex);
            if (captured.size() >= 24000) hz = voice_test::EstimateFrequency({captured.end() - 24000, captured.end()});
        }
        if (std::abs(hz - 440.0) <= 5.0) break;
        std::this_thread::sleep_for(100ms);
    }
    backend->Stop();
    BOOST_TEST_MESSAGE("the monitor of the chosen sink carries " << hz << " Hz after "
                       << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count()
                       << " ms");
    BOOST_TEST(std::abs(hz - 440.0) <= 5.0);
}

// libpulse is loaded at run time: where it cannot be loaded (no PulseAudio on the machine), the backend
// says why in the log and MakeAudioBackend falls back to the null backend.
BOOST_AUTO_TEST_CASE(without_libpulse_the_null_backend_is_used_and_logged) {
    std::vector<std::string> lines;
    const platformpp::core::LogSink log = [&](platformpp::LoggingSeverity, const std::string& line) {
        lines.push_back(line);
    };
    BOOST_TEST(!MakePulseAudioBackend(log, "libpulse-not-installed.so.0"));
    BOOST_REQUIRE(lines.size() == 1u);
    BOOST_TEST(lines[0].find("libpulse not loaded (libpulse-not-installed.so.0") != std::string::npos, lines[0]);
    BOOST_TEST(lines[0].find("using the null audio backend") != std::string::npos, lines[0]);

    lines.clear();
    const char* forced = std::getenv("PLATFORMPP_AUDIO_BACKEND");
    const std::string keepForced = forced ? forced : "";
    unsetenv("PLATFORMPP_AUDIO_BACKEND");
    setenv("PLATFORMPP_LIBPULSE", "/nonexistent/libpulse.so.0", 1);
    BOOST_TEST(PulseLibraryName() == "/nonexistent/libpulse.so.0");
    auto backend = MakeAudioBackend(log);
    unsetenv("PLATFORMPP_LIBPULSE");
    if (forced) setenv("PLATFORMPP_AUDIO_BACKEND", keepForced.c_str(), 1);
    BOOST_REQUIRE(backend);
    BOOST_TEST(std::string(backend->Name()) == "null");
    BOOST_REQUIRE(lines.size() == 1u);
    BOOST_TEST(lines[0].find("libpulse not loaded (/nonexistent/libpulse.so.0") != std::string::npos, lines[0]);
    BOOST_TEST(PulseLibraryName() == "libpulse.so.0");
}
