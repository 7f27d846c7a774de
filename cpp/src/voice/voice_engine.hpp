// The media engine: calls (one VoiceConnection each) and the audio thread that captures, encodes,
// decodes, mixes and plays. This is the internal interface the public Call API sits on
// (docs/voice-engine.md); private to the core.
//
// Threads:
// - network thread (the io_context given): the voice gateway, UDP, transport and DAVE crypto. Received
//   frames go into each sender's jitter buffer; frames to send arrive from the audio thread by post.
// - audio thread (owned by the AudioBackend): every 20 ms one captured frame in, one frame out. It runs
//   the captured and received PCM callbacks, VAD / push-to-talk, Opus encode/decode, concealment and
//   the mixer, and reports speaking changes.
// - any thread: the setters below (atomics and small locks).
// Callbacks of VoiceCallCallbacks run on the thread named with each; none may block. The Call API
// forwards the status, participant and speaking ones to the game's RunCallbacks queue.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "core/log_sink.hpp"
#include "voice/audio_devices.hpp"
#include "voice/audio_processing.hpp"
#include "voice/jitter_buffer.hpp"
#include "voice/voice_connection.hpp"

namespace platformpp::voice {

enum class AudioMode { VoiceActivity, PushToTalk };

struct VoiceCallCallbacks {
    // Audio thread. data: int16 interleaved, samplesPerChannel per channel; modifiable in place; set
    // outShouldMute to keep this user's frame out of the mix.
    std::function<void(std::uint64_t userId, std::int16_t* data, std::uint64_t samplesPerChannel, std::int32_t sampleRate,
                       std::uint64_t channels, bool& outShouldMute)>
        received;
    // Audio thread. The captured frame before VAD and encoding; modifiable in place (what it leaves is sent).
    std::function<void(std::int16_t* data, std::uint64_t samplesPerChannel, std::int32_t sampleRate, std::uint64_t channels)>
        captured;
    // Audio thread. A participant (or we, userId = our own) started or stopped playing sound.
    std::function<void(std::uint64_t userId, bool speaking)> speaking;
    // Network thread: the connection's state and participants joining or leaving.
    std::function<void(VoiceConnectionState state, int closeCode, const std::string& detail)> state;
    std::function<void(std::uint64_t userId, bool joined)> participant;
};

struct VoiceEngineOptions {
    int encoderChannels = 2;  // 1: the capture is downmixed to mono before encoding
    int bitrate = 64000;      // the channel's bitrate; SetBitrate changes it per call
    // TLS for secure (wss) voice endpoints: the Client's context (its trust store and extra CA).
    // nullptr: the engine makes its own (system trust store, peer and host name verified). Must
    // outlive the engine.
    boost::asio::ssl::context* tls = nullptr;
};

class VoiceCall {
public:
    virtual ~VoiceCall() = default;
    virtual std::uint64_t UserId() const = 0;
    virtual std::uint64_t ChannelId() const = 0;
    virtual VoiceConnection& Connection() = 0;

    virtual void SetSelfMute(bool mute) = 0;
    virtual bool SelfMute() const = 0;
    // Deaf implies not hearing and not sending.
    virtual void SetSelfDeaf(bool deaf) = 0;
    virtual bool SelfDeaf() const = 0;
    virtual void SetLocalMute(std::uint64_t userId, bool mute) = 0;
    virtual bool LocalMute(std::uint64_t userId) const = 0;
    virtual int SetParticipantVolume(std::uint64_t userId, int percent) = 0;  // clamped to [0, 200]; returns it
    virtual int ParticipantVolume(std::uint64_t userId) const = 0;
    virtual void SetAudioMode(AudioMode mode) = 0;
    virtual AudioMode GetAudioMode() const = 0;
    virtual void SetPttActive(bool active) = 0;
    virtual bool PttActive() const = 0;
    virtual std::uint32_t SetPttReleaseDelay(std::uint32_t ms) = 0;  // clamped to [0, 2000]; returns it
    virtual std::uint32_t PttReleaseDelay() const = 0;
    // threshold clamped to [-100, 0] dBFS; returns what was applied.
    virtual std::pair<bool, float> SetVadThreshold(bool automatic, float threshold) = 0;
    virtual std::pair<bool, float> VadThreshold() const = 0;
    virtual int SetBitrate(int bitsPerSecond) = 0;  // clamped to Opus's range; returns it
    virtual bool Speaking(std::uint64_t userId) const = 0;  // playing sound now (userId may be ours)
    virtual std::optional<JitterBuffer::Stats> ReceiveStats(std::uint64_t userId) const = 0;
};

struct VoiceLog;  // voice_engine.cpp

class VoiceEngine {
public:
    VoiceEngine(boost::asio::io_context& io, std::unique_ptr<AudioBackend> backend, core::LogSink log,
                VoiceEngineOptions options = {});
    ~VoiceEngine();  // stops the audio thread, then every call (close 1000)
    VoiceEngine(const VoiceEngine&) = delete;
    VoiceEngine& operator=(const VoiceEngine&) = delete;

    // Connects the call (the audio thread starts with the first one). options.endpoint may carry a
    // scheme: "wss://host:port" connects over TLS (options.secure set), "ws://host:port" without;
    // without a scheme options.secure decides.
    std::shared_ptr<VoiceCall> StartCall(const VoiceConnectionOptions& options, VoiceCallCallbacks callbacks);
    void EndCall(const std::shared_ptr<VoiceCall>& call);
    std::vector<std::shared_ptr<VoiceCall>> Calls() const;

    // Override the per-call settings while set.
    void SetSelfMuteAll(bool mute) { muteAll_ = mute; }
    bool SelfMuteAll() const { return muteAll_; }
    void SetSelfDeafAll(bool deaf) { deafAll_ = deaf; }
    bool SelfDeafAll() const { return deafAll_; }
    int SetInputVolume(int percent);   // [0, 100], clamped; returns it
    int InputVolume() const { return inputVolume_; }
    int SetOutputVolume(int percent);  // [0, 200], clamped; returns it
    int OutputVolume() const { return outputVolume_; }

    AudioBackend& Devices() { return *backend_; }

    // The voice log (Client::AddVoiceLogCallback, SetVoiceLogDir): the engine's lines and its
    // connections' ("voice: ..."), secrets redacted, go to the sink given at construction (the Client's
    // log), to each callback added here at or above its severity, and to the one replaceable log-file
    // writer (SetVoiceLogDir: the Client opens the file, e.g. a core::LogFile, and passes its Write;
    // an empty writer stops it). Callbacks and the writer run on the thread that logs (network or
    // audio) and must not block. Any thread.
    void AddLogCallback(core::LogSink callback, LoggingSeverity minSeverity);
    void SetLogFileWriter(core::LogSink writer, LoggingSeverity minSeverity);

    // The audio thread's nice value (-20 highest .. 19 lowest; Client::SetThreadPriority(Voice)): applied
    // by the audio thread itself before its next frame, and again whenever it starts. Raising it above
    // the default needs CAP_SYS_NICE: refused, a warning is logged and the thread keeps its priority.
    // Clamped to [-20, 19]; returns the value applied.
    int SetAudioThreadPriority(int nice);
    // The nice value the audio thread last applied; nullopt before any was applied.
    std::optional<int> AudioThreadPriority() const {
        const int v = appliedNice_;
        return v == kNoPriority ? std::nullopt : std::optional<int>(v);
    }

    // Capture processing (libspeexdsp), any thread, effective from the next frame. Defaults: echo
    // cancellation, noise suppression and gain control on, noise cancellation off.
    void SetEchoCancellation(bool on) { processor_.SetEchoCancellation(on); }
    bool EchoCancellation() const { return processor_.EchoCancellation(); }
    void SetNoiseSuppression(bool on) { processor_.SetNoiseSuppression(on); }
    bool NoiseSuppression() const { return processor_.NoiseSuppression(); }
    void SetNoiseCancellation(bool on) { processor_.SetNoiseCancellation(on); }
    bool NoiseCancellation() const { return processor_.NoiseCancellation(); }
    void SetAutomaticGainControl(bool on) { processor_.SetAutomaticGainControl(on); }
    bool AutomaticGainControl() const { return processor_.AutomaticGainControl(); }
    // What the capture processing did (frames processed, digital silence skipped, idle): any thread.
    AudioProcessor::Counters ProcessingCounters() const { return processor_.GetCounters(); }

private:
    void Process(const std::int16_t* capture, std::int16_t* playback);
    void Log(LoggingSeverity severity, const std::string& line) const;

    boost::asio::io_context& io_;
    std::unique_ptr<AudioBackend> backend_;
    core::LogSink log_;
    VoiceEngineOptions options_;
    mutable std::mutex mutex_;
    std::vector<std::shared_ptr<VoiceCall>> calls_;
    bool audioRunning_ = false;
    std::atomic<bool> muteAll_{false}, deafAll_{false};
    std::atomic<int> inputVolume_{100}, outputVolume_{100};
    AudioProcessor processor_;
    std::unique_ptr<boost::asio::ssl::context> ownTls_;
    std::shared_ptr<VoiceLog> voiceLog_;  // shared with the connections' log sinks
    static constexpr int kNoPriority = 100;
    std::atomic<int> audioNice_{kNoPriority}, appliedNice_{kNoPriority};  // made on the first secure call without options_.tls
    // Audio thread only.
    std::vector<std::int16_t> captureScratch_, callOut_, lastPlayback_;
    std::vector<std::shared_ptr<VoiceCall>> active_;  // this tick's calls
    std::vector<std::int32_t> mix_;
};

}  // namespace platformpp::voice
