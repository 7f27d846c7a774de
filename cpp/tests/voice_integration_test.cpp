// The media engine against the emulator's voice service (started standalone by voice_service_driver.py
// as a child process): C++ voice connections join one call over real loopback sockets, form a DAVE
// group, and one sends a 440 Hz tone through Opus that the others' received PCM callbacks measure.
#define BOOST_TEST_MODULE platformpp_voice_integration
#include <boost/test/included/unit_test.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <sys/resource.h>
#include <cstdio>
#include <numeric>
#include <sys/syscall.h>

#include "core/io_thread.hpp"
#include "voice/opus_codec.hpp"
#include "voice/voice_engine.hpp"
#include "voice_pulse_daemon.hpp"
#include "voice_tone.hpp"
#include "net/tls.hpp"
#include "support/tls_front.hpp"
#include <pulse/simple.h>

#ifndef PLATFORMPP_TEST_PYTHON
#error "PLATFORMPP_TEST_PYTHON must name the Python that has platformpp[emulator] installed"
#endif
#ifndef PLATFORMPP_VOICE_DRIVER
#error "PLATFORMPP_VOICE_DRIVER must name cpp/tests/voice_service_driver.py"
#endif

using namespace platformpp::voice;
namespace json = boost::json;
using namespace std::chrono_literals;

namespace {

constexpr std::uint64_t kChannel = 424242;

// The driver process and its JSON-lines pipe.
class VoiceServiceProcess {
public:
    VoiceServiceProcess() {
        int in[2], out[2];
        if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("pipe failed");
        pid_ = fork();
        if (pid_ < 0) throw std::runtime_error("fork failed");
        if (pid_ == 0) {
            dup2(in[0], STDIN_FILENO);
            dup2(out[1], STDOUT_FILENO);
            close(in[0]), close(in[1]), close(out[0]), close(out[1]);
            // PLATFORMPP_VOICE_TEST_PYTHON overrides the configured Python (e.g. a venv with the emulator).
            const char* python = std::getenv("PLATFORMPP_VOICE_TEST_PYTHON");
            if (python == nullptr || *python == 0) python = PLATFORMPP_TEST_PYTHON;
            execl(python, python, PLATFORMPP_VOICE_DRIVER, static_cast<char*>(nullptr));
            _exit(127);
        }
        close(in[0]);
        close(out[1]);
        toChild_ = in[1];
        fromChild_ = out[0];
        endpoint_ = std::string(ReadLine().at("endpoint").as_string());
    }
    ~VoiceServiceProcess() {
        close(toChild_);  // end of input stops the service
        int status = 0;
        for (int i = 0; i < 50 && waitpid(pid_, &status, WNOHANG) == 0; ++i) std::this_thread::sleep_for(100ms);
        if (waitpid(pid_, &status, WNOHANG) == 0) {
            kill(pid_, SIGKILL);
            waitpid(pid_, &status, 0);
        }
        close(fromChild_);
    }
    const std::string& Endpoint() const { return endpoint_; }

    json::object Call(const json::object& request) {
        std::lock_guard<std::mutex> lock(mutex_);
        const std::string line = json::serialize(request) + "\n";
        if (write(toChild_, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
            throw std::runtime_error("the voice driver is gone");
        return ReadLine();
    }

    VoiceConnectionOptions Allocate(std::uint64_t user) {
        const std::string session = "session-" + std::to_string(user);
        const auto answer = Call({{"cmd", "allocate"}, {"server_id", kChannel}, {"channel_id", kChannel},
                                  {"user_id", user}, {"session_id", session}});
        VoiceConnectionOptions options;
        options.endpoint = std::string(answer.at("endpoint").as_string());
        options.serverId = kChannel;
        options.channelId = kChannel;
        options.userId = user;
        options.sessionId = session;
        options.token = std::string(answer.at("token").as_string());
        options.initialBackoff = 50ms;
        options.rtcpInterval = 500ms;
        return options;
    }

private:
    json::object ReadLine() {
        std::string line;
        char c = 0;
        while (read(fromChild_, &c, 1) == 1 && c != '\n') line += c;
        if (line.empty()) throw std::runtime_error("the voice driver did not answer (is platformpp[emulator] installed?)");
        return json::parse(line).as_object();
    }

    pid_t pid_ = -1;
    int toChild_ = -1, fromChild_ = -1;
    std::string endpoint_;
    std::mutex mutex_;
};

// One participant: its own engine (null audio backend, so its own audio thread), one call, and what
// its callbacks saw.
struct Participant {
    Participant(boost::asio::io_context& io, VoiceServiceProcess& service, std::uint64_t user, bool sendTone,
                std::unique_ptr<AudioBackend> backend = MakeNullAudioBackend(), VoiceEngineOptions engineOptions = {},
                const std::string& endpoint = {})
        : engine(io, std::move(backend), nullptr, engineOptions), userId(user) {
        VoiceCallCallbacks callbacks;
        if (sendTone) {
            callbacks.captured = [this](std::int16_t* data, std::uint64_t frames, std::int32_t rate, std::uint64_t channels) {
                if (rate != 48000) captureShapeBad = true;
                if (toneOn) voice_test::FillTone(data, static_cast<int>(frames), static_cast<int>(channels), 440, 8000, phase);
            };
        }
        callbacks.received = [this](std::uint64_t from, std::int16_t* data, std::uint64_t frames, std::int32_t rate,
                                    std::uint64_t channels, bool& mute) {
            std::lock_guard<std::mutex> lock(mutex);
            ++framesFrom[from];
            if (rate != 48000 || channels != 2 || frames != 960) badShape = true;
            if (collectFrom == from)
                for (std::uint64_t i = 0; i < frames; ++i) collected.push_back(data[i * channels]);
            mute = muteOutput;
        };
        callbacks.speaking = [this](std::uint64_t who, bool speaking) {
            std::lock_guard<std::mutex> lock(mutex);
            if (speaking) ++speakingStarts[who];
        };
        callbacks.state = [this](VoiceConnectionState state, int, const std::string&) {
            std::lock_guard<std::mutex> lock(mutex);
            states.push_back(state);
        };
        auto options = service.Allocate(user);
        if (!endpoint.empty()) options.endpoint = endpoint;
        call = engine.StartCall(options, callbacks);
    }

    void Leave() { engine.EndCall(call); }
    bool Connected() { return call->Connection().State() == VoiceConnectionState::Connected; }
    std::optional<std::string> Code() { return call->Connection().E2ee().epochAuthenticatorCode; }
    std::uint64_t FramesFrom(std::uint64_t user) {
        std::lock_guard<std::mutex> lock(mutex);
        return framesFrom[user];
    }
    void Collect(std::uint64_t from) {
        std::lock_guard<std::mutex> lock(mutex);
        collectFrom = from;
        collected.clear();
    }
    std::vector<double> Collected() {
        std::lock_guard<std::mutex> lock(mutex);
        return collected;
    }

    VoiceEngine engine;
    std::uint64_t userId;
    std::shared_ptr<VoiceCall> call;
    std::atomic<bool> toneOn{true}, captureShapeBad{false};
    std::uint64_t phase = 0;  // audio thread only

    std::mutex mutex;
    std::map<std::uint64_t, std::uint64_t> framesFrom, speakingStarts;
    std::vector<VoiceConnectionState> states;
    std::uint64_t collectFrom = 0;
    std::vector<double> collected;
    bool badShape = false;
    bool muteOutput = false;
};

template <class F>
bool WaitFor(F&& done, std::chrono::milliseconds timeout = 10s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        if (done()) return true;
        std::this_thread::sleep_for(20ms);
    }
    return done();
}

// Collects 1 s of what `listener` receives from `speaker` and checks it is a 440 Hz tone.
void PrintStats(const char* who, Participant& p) {
    const auto s = p.call->Connection().Stats();
    BOOST_TEST_MESSAGE(who << ": sent " << s.packetsSent << ", received " << s.packetsReceived << ", transport failures "
                           << s.transportFailures << ", DAVE failures " << s.daveEncryptFailures << "/"
                           << s.daveDecryptFailures << ", unknown SSRC " << s.unknownSsrc << ", RTCP " << s.rtcpSent
                           << "/" << s.rtcpReceived);
}

void ExpectTone(Participant& listener, std::uint64_t speaker) {
    listener.Collect(speaker);
    const bool enough = WaitFor([&] { return listener.Collected().size() >= 48000; });
    if (!enough) PrintStats("listener", listener);
    BOOST_REQUIRE(enough);
    const auto samples = listener.Collected();
    // The median over ten 100 ms windows: a window with the decoder's start-up or a concealed frame
    // (at a key change or a resume) does not move it.
    std::vector<double> estimates;
    for (std::size_t w = 0; w + 4800 <= samples.size() && estimates.size() < 10; w += 4800)
        estimates.push_back(voice_test::EstimateFrequency(std::vector<double>(samples.begin() + w, samples.begin() + w + 4800)));
    std::sort(estimates.begin(), estimates.end());
    const double hz = estimates[estimates.size() / 2];
    BOOST_TEST_MESSAGE("user " << listener.userId << " hears " << hz << " Hz from user " << speaker);
    BOOST_TEST(std::abs(hz - 440.0) <= 5.0);
}

bool SameCode(std::initializer_list<Participant*> ps) {
    std::optional<std::string> first;
    for (auto* p : ps) {
        const auto code = p->Code();
        if (!code) return false;
        if (!first) first = code;
        if (*first != *code) return false;
    }
    return true;
}

}  // namespace

BOOST_AUTO_TEST_CASE(three_participants_hear_a_tone_end_to_end_encrypted_and_one_leaves) {
    VoiceServiceProcess service;
    platformpp::core::IoThread network;
    Participant a(network.Context(), service, 1001, true);
    Participant b(network.Context(), service, 1002, false);
    Participant c(network.Context(), service, 1003, false);
    BOOST_REQUIRE(WaitFor([&] { return a.Connected() && b.Connected() && c.Connected(); }));
    // One DAVE group: the same epoch authenticator on every side, protocol version 1.
    BOOST_REQUIRE(WaitFor([&] { return SameCode({&a, &b, &c}) && a.call->Connection().E2ee().members.size() == 3; }));
    BOOST_TEST(a.call->Connection().E2ee().protocolVersion == 1);
    BOOST_TEST(b.call->Connection().VerificationCode(1001).has_value());

    ExpectTone(b, 1001);
    ExpectTone(c, 1001);
    {
        std::lock_guard<std::mutex> lock(b.mutex);
        BOOST_TEST(b.speakingStarts[1001] >= 1u);
        BOOST_TEST(!b.badShape);
        BOOST_TEST(b.framesFrom[1003] == 0u);  // c is silent: VAD sends nothing
    }
    {
        std::lock_guard<std::mutex> lock(a.mutex);
        BOOST_TEST(a.speakingStarts[1001] >= 1u);  // our own speaking, from VAD
    }
    const auto sent = a.call->Connection().Stats();
    BOOST_TEST(sent.packetsSent > 50u);
    BOOST_TEST(sent.daveEncryptFailures == 0u);
    BOOST_TEST(b.call->Connection().Stats().daveDecryptFailures == 0u);

    // c leaves: the group re-keys to a new epoch without it; a and b keep hearing each other.
    const auto before = *a.Code();
    c.engine.EndCall(c.call);
    BOOST_REQUIRE(WaitFor([&] { return SameCode({&a, &b}) && *a.Code() != before; }));
    BOOST_TEST(a.call->Connection().E2ee().members.size() == 2u);
    ExpectTone(b, 1001);
    const auto relay = service.Call({{"cmd", "stats"}}).at("relay").as_object();
    BOOST_TEST(relay.at("forwarded").to_number<std::int64_t>() > 0);
    BOOST_TEST(!a.captureShapeBad);
    a.Leave();
    b.Leave();
    network.Stop(300ms);
}

BOOST_AUTO_TEST_CASE(a_dropped_voice_socket_resumes_and_media_goes_on) {
    VoiceServiceProcess service;
    platformpp::core::IoThread network;
    Participant a(network.Context(), service, 2001, true);
    Participant b(network.Context(), service, 2002, false);
    BOOST_REQUIRE(WaitFor([&] { return a.Connected() && b.Connected() && SameCode({&a, &b}); }));
    ExpectTone(b, 2001);

    service.Call({{"cmd", "close_gateway"}, {"server_id", kChannel}, {"user_id", 2001}});
    BOOST_REQUIRE(WaitFor([&] { return a.call->Connection().Stats().resumes == 1u && a.Connected(); }));
    {
        std::lock_guard<std::mutex> lock(a.mutex);
        BOOST_TEST((std::find(a.states.begin(), a.states.end(), VoiceConnectionState::Reconnecting) != a.states.end()));
        BOOST_TEST((a.states.back() == VoiceConnectionState::Connected));
    }
    BOOST_TEST(a.call->Connection().Stats().identifies == 1u);  // resumed, not identified again
    ExpectTone(b, 2001);
    a.Leave();
    b.Leave();
    network.Stop(300ms);
}

BOOST_AUTO_TEST_CASE(self_mute_stops_sending_and_self_deaf_stops_hearing_and_sending) {
    VoiceServiceProcess service;
    platformpp::core::IoThread network;
    Participant a(network.Context(), service, 3001, true);
    Participant b(network.Context(), service, 3002, false);
    BOOST_REQUIRE(WaitFor([&] { return a.Connected() && b.Connected() && SameCode({&a, &b}); }));
    BOOST_REQUIRE(WaitFor([&] { return b.FramesFrom(3001) > 10; }));

    a.call->SetSelfMute(true);
    std::this_thread::sleep_for(300ms);  // frames in flight, silence frames, jitter buffer drain
    const auto muted = b.FramesFrom(3001);
    std::this_thread::sleep_for(500ms);
    BOOST_TEST(b.FramesFrom(3001) == muted);
    BOOST_TEST(!b.call->Speaking(3001));

    a.call->SetSelfMute(false);
    BOOST_REQUIRE(WaitFor([&] { return b.FramesFrom(3001) > muted + 10; }));

    // b deafened: hears nothing.
    b.call->SetSelfDeaf(true);
    std::this_thread::sleep_for(300ms);
    const auto deaf = b.FramesFrom(3001);
    std::this_thread::sleep_for(500ms);
    BOOST_TEST(b.FramesFrom(3001) == deaf);
    b.call->SetSelfDeaf(false);
    BOOST_REQUIRE(WaitFor([&] { return b.FramesFrom(3001) > deaf + 10; }));

    // a deafened: does not send either.
    a.call->SetSelfDeaf(true);
    std::this_thread::sleep_for(300ms);
    const auto aDeaf = b.FramesFrom(3001);
    std::this_thread::sleep_for(500ms);
    BOOST_TEST(b.FramesFrom(3001) == aDeaf);
    a.Leave();
    b.Leave();
    network.Stop(300ms);
}

// Through real devices: a PulseAudio daemon with a "microphone" sink for a (a tone is played into it; a
// captures its monitor) and a "speaker" sink for b (the test records its monitor). What a's input device
// carries comes out of b's output device, through Opus, DAVE and the emulator's voice service.
BOOST_AUTO_TEST_CASE(what_one_input_device_captures_comes_out_of_another_output_device) {
    voice_test::PulseDaemon daemon({"mic_a", "speaker_a", "mic_b", "speaker_b"});
    if (!daemon.Available()) {
        BOOST_TEST_MESSAGE("SKIPPED: no /usr/bin/pulseaudio (apt-get install pulseaudio)");
        return;
    }
    auto backendA = MakePulseAudioBackend(nullptr), backendB = MakePulseAudioBackend(nullptr);
    BOOST_REQUIRE(backendA);
    BOOST_REQUIRE(backendB);
    BOOST_REQUIRE(backendA->SetInputDevice("mic_a.monitor"));
    BOOST_REQUIRE(backendA->SetOutputDevice("speaker_a"));
    BOOST_REQUIRE(backendB->SetInputDevice("mic_b.monitor"));
    BOOST_REQUIRE(backendB->SetOutputDevice("speaker_b"));

    std::atomic<bool> stop{false};
    const pa_sample_spec spec{PA_SAMPLE_S16LE, 48000, 2};
    std::thread mouth([&] {  // the tone into a's microphone
        int error = 0;
        pa_simple* play = pa_simple_new(nullptr, "test", PA_STREAM_PLAYBACK, "mic_a", "tone", &spec, nullptr, nullptr, &error);
        if (!play) return;
        std::vector<std::int16_t> frame(960 * 2);
        std::uint64_t phase = 0;
        while (!stop) {
            voice_test::FillTone(frame.data(), 960, 2, 440, 8000, phase);
            if (pa_simple_write(play, frame.data(), frame.size() * 2, &error) < 0) break;
        }
        pa_simple_free(play);
    });
    std::mutex earMutex;
    std::vector<double> heard;
    std::thread ear([&] {  // what b's speaker plays
        int error = 0;
        pa_buffer_attr attr{};
        attr.maxlength = static_cast<uint32_t>(-1);
        attr.fragsize = 960 * 4;
        pa_simple* rec = pa_simple_new(nullptr, "test", PA_STREAM_RECORD, "speaker_b.monitor", "ear", &spec, nullptr, &attr,
                                       &error);
        if (!rec) return;
        std::vector<std::int16_t> frame(960 * 2);
        while (!stop) {
            if (pa_simple_read(rec, frame.data(), frame.size() * 2, &error) < 0) break;
            std::lock_guard<std::mutex> lock(earMutex);
            for (int i = 0; i < 960; ++i) heard.push_back(frame[i * 2]);
        }
        pa_simple_free(rec);
    });

    VoiceServiceProcess service;
    platformpp::core::IoThread network;
    Participant a(network.Context(), service, 5001, false, std::move(backendA));
    Participant b(network.Context(), service, 5002, false, std::move(backendB));
    BOOST_REQUIRE(WaitFor([&] { return a.Connected() && b.Connected() && SameCode({&a, &b}); }));
    double hz = 0;
    WaitFor(
        [&] {
            std::lock_guard<std::mutex> lock(earMutex);
            if (heard.size() < 24000) return false;
            hz = voice_test::EstimateFrequency({heard.end() - 24000, heard.end()});
            return std::abs(hz - 440.0) <= 5.0;
        },
        20s);
    BOOST_TEST_MESSAGE("b's speaker plays " << hz << " Hz");
    BOOST_TEST(std::abs(hz - 440.0) <= 5.0);
    BOOST_TEST(b.FramesFrom(5001) > 0u);
    BOOST_TEST(a.call->Connection().Stats().daveEncryptFailures == 0u);
    BOOST_TEST(b.call->Connection().Stats().daveDecryptFailures == 0u);
    BOOST_TEST(a.call->Connection().E2ee().protocolVersion == 1);  // end-to-end encrypted (DAVE)
    stop = true;
    a.Leave();
    b.Leave();
    network.Stop(300ms);
    mouth.join();
    ear.join();
}

// A wss:// voice endpoint: the voice gateway through TLS (a TLS front on loopback with a throwaway
// certificate for localhost, trusted through the engine's TLS context; the emulator serves ws:// only).
// The server name is sent (SNI), and media goes on as over ws://. An engine that does not trust the
// certificate never connects.
BOOST_AUTO_TEST_CASE(a_wss_endpoint_connects_the_voice_gateway_over_tls) {
    VoiceServiceProcess service;
    const auto& plain = service.Endpoint();
    const auto port = static_cast<unsigned short>(std::stoi(plain.substr(plain.rfind(':') + 1)));
    platformpp::testing::Certificate certificate;
    platformpp::testing::TlsFront front(certificate, port);
    const std::string wss = "wss://localhost:" + std::to_string(front.Port());
    auto tls = platformpp::net::MakeClientTlsContext(certificate.caFile);
    VoiceEngineOptions trusting;
    trusting.tls = &tls;
    platformpp::core::IoThread network;
    Participant a(network.Context(), service, 6001, true, MakeNullAudioBackend(), trusting, wss);
    Participant b(network.Context(), service, 6002, false, MakeNullAudioBackend(), trusting, wss);
    BOOST_REQUIRE(WaitFor([&] { return a.Connected() && b.Connected() && SameCode({&a, &b}); }));
    BOOST_TEST(front.ServerName() == "localhost");
    ExpectTone(b, 6001);

    Participant untrusting(network.Context(), service, 6003, false, MakeNullAudioBackend(), {}, wss);
    std::this_thread::sleep_for(1500ms);
    BOOST_TEST(!untrusting.Connected());
    untrusting.Leave();
    a.Leave();
    b.Leave();
    network.Stop(300ms);
}

// The voice log: the engine's and its connection's lines reach the callbacks added (at their severity)
// and the log-file writer, the voice token never; the audio thread takes the priority asked.
BOOST_AUTO_TEST_CASE(voice_log_callbacks_file_writer_and_audio_thread_priority) {
    VoiceServiceProcess service;
    platformpp::core::IoThread network;
    VoiceEngine engine(network.Context(), MakeNullAudioBackend(), nullptr);
    std::mutex mutex;
    std::vector<std::string> infoLines, errorLines;
    engine.AddLogCallback(
        [&](platformpp::LoggingSeverity, const std::string& line) {
            std::lock_guard<std::mutex> lock(mutex);
            infoLines.push_back(line);
        },
        platformpp::LoggingSeverity::Info);
    engine.AddLogCallback(
        [&](platformpp::LoggingSeverity, const std::string& line) {
            std::lock_guard<std::mutex> lock(mutex);
            errorLines.push_back(line);
        },
        platformpp::LoggingSeverity::Error);
    std::vector<std::string> fileLines, replacedLines;
    engine.SetLogFileWriter(
        [&](platformpp::LoggingSeverity, const std::string& line) {
            std::lock_guard<std::mutex> lock(mutex);
            replacedLines.push_back(line);
        },
        platformpp::LoggingSeverity::Verbose);
    engine.SetLogFileWriter(  // replaces the one above
        [&](platformpp::LoggingSeverity, const std::string& line) {
            std::lock_guard<std::mutex> lock(mutex);
            fileLines.push_back(line);
        },
        platformpp::LoggingSeverity::Info);
    BOOST_TEST(engine.SetAudioThreadPriority(42) == 19);  // clamped
    BOOST_TEST(engine.SetAudioThreadPriority(7) == 7);

    std::atomic<int> seenNice{100};
    VoiceCallCallbacks callbacks;
    callbacks.captured = [&](std::int16_t*, std::uint64_t, std::int32_t, std::uint64_t) {
        seenNice = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
    };
    const auto options = service.Allocate(7001);
    auto call = engine.StartCall(options, callbacks);
    BOOST_REQUIRE(WaitFor([&] { return call->Connection().State() == VoiceConnectionState::Connected; }));
    BOOST_REQUIRE(WaitFor([&] { return seenNice.load() == 7; }));
    BOOST_TEST((engine.AudioThreadPriority() == std::optional<int>(7)));
    engine.EndCall(call);
    network.Stop(300ms);

    std::lock_guard<std::mutex> lock(mutex);
    auto has = [](const std::vector<std::string>& lines, const std::string& part) {
        return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(part) != std::string::npos; });
    };
    BOOST_TEST(has(infoLines, "voice: connecting to the voice gateway"));
    BOOST_TEST(has(infoLines, "the audio thread runs at nice 7"));
    BOOST_TEST(!has(errorLines, "voice: connecting"));  // below its severity
    BOOST_TEST(!has(infoLines, options.token));
    BOOST_TEST(has(fileLines, "voice: connecting to the voice gateway"));
    BOOST_TEST(replacedLines.empty());
}

// --- benchmark (benchmarks/bench_voice_sdk.py runs it; disabled in test runs) ------------------------

namespace {

// A microphone in a quiet room: low noise (about -60 dBFS), never digital silence, so the capture
// processing cannot be skipped (PLATFORMPP_VOICE_BENCH_MIC=noise). For the null backend's clock.
NullCaptureFn QuietRoom() {
    return [state = std::uint32_t{99991}](std::int16_t* frame, std::size_t samples) mutable {
        for (std::size_t i = 0; i < samples; ++i) {
            state = state * 1664525u + 1013904223u;
            frame[i] = static_cast<std::int16_t>(static_cast<int>((state >> 16) % 61) - 30);
        }
    };
}

}  // namespace

// 1 sender + N receivers (PLATFORMPP_VOICE_BENCH_RECEIVERS), each its own engine with its own audio
// thread (null backend), as N+1 games would be; the voice service in its own process. The sender's
// captured callback sends a tone that steps between 400, 700 and 1000 Hz every 200 ms; receiver 0's
// received callback timestamps each step: mouth-to-ear latency at the engine's boundary (capture
// callback to received callback). Prints one line "BENCH {json}": this process's CPU seconds over the
// measured window (getrusage), the window, frames received, latencies.
BOOST_AUTO_TEST_CASE(bench_sdk_voice, *boost::unit_test::disabled()) {
    const char* n = std::getenv("PLATFORMPP_VOICE_BENCH_RECEIVERS");
    const char* secs = std::getenv("PLATFORMPP_VOICE_BENCH_SECONDS");
    const char* processing = std::getenv("PLATFORMPP_VOICE_BENCH_PROCESSING");
    const int receivers = n ? std::atoi(n) : 1;
    const double seconds = secs ? std::atof(secs) : 10.0;
    const bool process = processing == nullptr || std::string(processing) != "0";
    const char* mic = std::getenv("PLATFORMPP_VOICE_BENCH_MIC");
    const bool noisyMic = mic != nullptr && std::string(mic) == "noise";
    using Clock = std::chrono::steady_clock;
    VoiceServiceProcess service;
    platformpp::core::IoThread network;
    constexpr double kSteps[3] = {400, 700, 1000};
    std::mutex mutex;
    std::vector<std::pair<int, Clock::time_point>> sentSteps, heardSteps;  // (step index mod 3, time)
    std::atomic<std::uint64_t> framesReceived{0};

    auto makeEngine = [&] {
        auto backend = MakeNullAudioBackend(noisyMic ? QuietRoom() : nullptr);
        auto engine = std::make_unique<VoiceEngine>(network.Context(), std::move(backend), nullptr);
        engine->SetEchoCancellation(process);
        engine->SetNoiseSuppression(process);
        engine->SetAutomaticGainControl(process);
        return engine;
    };
    auto sender = makeEngine();
    std::uint64_t frame = 0, phase = 0;
    VoiceCallCallbacks sendCallbacks;
    sendCallbacks.captured = [&](std::int16_t* data, std::uint64_t frames, std::int32_t, std::uint64_t channels) {
        const int step = static_cast<int>((frame / 10) % 3);
        if (frame % 10 == 0) {
            std::lock_guard<std::mutex> lock(mutex);
            sentSteps.emplace_back(step, Clock::now());
        }
        ++frame;
        voice_test::FillTone(data, static_cast<int>(frames), static_cast<int>(channels), kSteps[step], 8000, phase);
    };
    auto sendCall = sender->StartCall(service.Allocate(9000), sendCallbacks);
    std::vector<std::unique_ptr<VoiceEngine>> engines;
    std::vector<std::shared_ptr<VoiceCall>> calls;
    int lastHeard = -1;
    for (int r = 0; r < receivers; ++r) {
        engines.push_back(makeEngine());
        VoiceCallCallbacks callbacks;
        callbacks.received = [&, r](std::uint64_t, std::int16_t* data, std::uint64_t frames, std::int32_t, std::uint64_t channels,
                                    bool&) {
            ++framesReceived;
            if (r != 0) return;
            std::vector<double> mono(frames);
            for (std::uint64_t i = 0; i < frames; ++i) mono[i] = data[i * channels];
            const double hz = voice_test::EstimateFrequency(mono);
            for (int step = 0; step < 3; ++step) {
                if (std::abs(hz - kSteps[step]) < 15 && step != lastHeard) {
                    lastHeard = step;
                    std::lock_guard<std::mutex> lock(mutex);
                    heardSteps.emplace_back(step, Clock::now());
                }
            }
        };
        calls.push_back(engines.back()->StartCall(service.Allocate(9001 + r), callbacks));
    }
    auto ready = [&] {
        if (sendCall->Connection().State() != VoiceConnectionState::Connected) return false;
        const auto code = sendCall->Connection().E2ee().epochAuthenticatorCode;
        if (!code || sendCall->Connection().E2ee().members.size() != static_cast<std::size_t>(receivers + 1)) return false;
        for (auto& c : calls)
            if (c->Connection().State() != VoiceConnectionState::Connected || c->Connection().E2ee().epochAuthenticatorCode != code)
                return false;
        return true;
    };
    BOOST_REQUIRE(WaitFor(ready, 60s));
    std::this_thread::sleep_for(2s);  // warm-up: jitter buffers settle
    {
        std::lock_guard<std::mutex> lock(mutex);
        sentSteps.clear();
        heardSteps.clear();
    }
    auto processingCounters = [&] {
        AudioProcessor::Counters sum = sender->ProcessingCounters();
        for (auto& e : engines) {
            const auto c = e->ProcessingCounters();
            sum.processed += c.processed, sum.skippedSilent += c.skippedSilent, sum.idle += c.idle;
        }
        return sum;
    };
    const auto countersBefore = processingCounters();
    rusage before{}, after{};
    getrusage(RUSAGE_SELF, &before);
    const auto start = Clock::now();
    const auto framesBefore = framesReceived.load();
    std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int>(seconds * 1000)));
    getrusage(RUSAGE_SELF, &after);
    const auto countersAfter = processingCounters();
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    const auto framesIn = framesReceived.load() - framesBefore;
    auto cpu = [](const rusage& u) {
        return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
    };
    std::vector<double> latencies;
    {
        std::lock_guard<std::mutex> lock(mutex);
        for (const auto& [step, heardAt] : heardSteps) {
            // The latest step of that frequency sent before it was heard.
            const Clock::time_point* sentAt = nullptr;
            for (const auto& [s, t] : sentSteps)
                if (s == step && t <= heardAt) sentAt = &t;
            if (sentAt) latencies.push_back(std::chrono::duration<double, std::milli>(heardAt - *sentAt).count());
        }
    }
    std::sort(latencies.begin(), latencies.end());
    auto pct = [&](double p) { return latencies.empty() ? -1.0 : latencies[static_cast<std::size_t>(p * (latencies.size() - 1))]; };
    std::printf("BENCH {\"receivers\": %d, \"processing\": %s, \"cpu_s\": %.4f, \"wall_s\": %.4f, \"frames_received\": %llu, "
                "\"latency_samples\": %zu, \"latency_p50_ms\": %.2f, \"latency_p99_ms\": %.2f, \"latency_max_ms\": %.2f, "
                "\"dave_decrypt_failures\": %llu, \"mic\": \"%s\", \"frames_processed\": %llu, \"frames_skipped_silent\": %llu}\n",
                receivers, process ? "true" : "false", cpu(after) - cpu(before), wall,
                static_cast<unsigned long long>(framesIn), latencies.size(), pct(0.5), pct(0.99),
                latencies.empty() ? -1.0 : latencies.back(),
                static_cast<unsigned long long>(calls.front()->Connection().Stats().daveDecryptFailures),
                noisyMic ? "noise" : "silent",
                static_cast<unsigned long long>(countersAfter.processed - countersBefore.processed),
                static_cast<unsigned long long>(countersAfter.skippedSilent - countersBefore.skippedSilent));
    std::fflush(stdout);
    BOOST_TEST(framesIn > 0u);
    for (auto& c : calls) c->Connection().Stop();
    sendCall->Connection().Stop();
    network.Stop(300ms);
}
