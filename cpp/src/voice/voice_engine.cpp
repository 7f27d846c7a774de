#include "voice/voice_engine.hpp"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <limits>
#include <unordered_map>

#include "core/redact.hpp"
#include "net/tls.hpp"
#include "voice/mixer.hpp"
#include "voice/opus_codec.hpp"

namespace platformpp::voice {

// The voice log's destinations; connections keep it through their log sinks, so it outlives the engine
// as long as they do.
struct VoiceLog {
    core::LogSink main;  // the Client's log (redacts on its own)
    std::mutex mutex;
    std::vector<std::pair<core::LogSink, LoggingSeverity>> callbacks;
    std::pair<core::LogSink, LoggingSeverity> file;

    void Write(LoggingSeverity severity, const std::string& line) {
        if (main) main(severity, line);
        std::vector<std::pair<core::LogSink, LoggingSeverity>> targets;
        {
            std::lock_guard<std::mutex> lock(mutex);
            if (callbacks.empty() && !file.first) return;
            targets = callbacks;
            if (file.first) targets.push_back(file);
        }
        const std::string redacted = core::RedactSecrets(line);
        for (const auto& [callback, min] : targets)
            if (severity >= min) callback(severity, redacted);
    }
};

namespace {

constexpr std::size_t kDeviceFrame = static_cast<std::size_t>(kFrameSamples) * kDeviceChannels;
constexpr std::array<std::uint8_t, 3> kSilence{0xF8, 0xFF, 0xFE};
constexpr int kSilenceFramesAtEnd = 5;  // sent after speech ends, as the platform's clients do

// One remote sender: its jitter buffer (filled on the network thread) and its decoder (audio thread).
struct RemoteUser {
    JitterBuffer buffer;
    OpusFrameDecoder decoder{kDeviceChannels};
    JitterBuffer::Output pulled;
    SpeakingIndicator indicator;           // audio thread
    std::atomic<bool> speaking{false};     // the indicator, for Speaking() on any thread
};

class Call final : public VoiceCall, public std::enable_shared_from_this<Call> {
public:
    Call(const VoiceConnectionOptions& options, VoiceCallCallbacks callbacks, const VoiceEngineOptions& engine)
        : userId_(options.userId), channelId_(options.channelId), callbacks_(std::move(callbacks)),
          encoder_(OpusEncoderSettings{engine.encoderChannels, engine.bitrate, true, true, 10}) {
        pcm_.resize(kDeviceFrame);
        mono_.resize(kFrameSamples);
        local_.resize(kDeviceFrame);
    }

    void Attach(std::shared_ptr<VoiceConnection> connection) { connection_ = std::move(connection); }

    VoiceConnectionEvents Events(std::shared_ptr<VoiceLog> log) {
        std::weak_ptr<Call> weak = shared_from_this();
        VoiceConnectionEvents events;
        events.log = [log](LoggingSeverity severity, const std::string& line) { log->Write(severity, line); };
        events.onState = [weak](VoiceConnectionState s, int code, const std::string& detail) {
            if (auto self = weak.lock(); self && self->callbacks_.state) self->callbacks_.state(s, code, detail);
        };
        events.onParticipant = [weak](std::uint64_t user, bool joined) {
            auto self = weak.lock();
            if (!self) return;
            if (!joined) {
                std::lock_guard<std::mutex> lock(self->usersMutex_);
                self->users_.erase(user);
            }
            if (self->callbacks_.participant) self->callbacks_.participant(user, joined);
        };
        events.onAudioFrame = [weak](std::uint64_t user, std::uint16_t seq, std::uint32_t ts, const std::uint8_t* frame,
                                     std::size_t size) {
            if (auto self = weak.lock()) self->OnFrame(user, seq, ts, frame, size);
        };
        return events;
    }

    // --- VoiceCall ------------------------------------------------------------------------------
    std::uint64_t UserId() const override { return userId_; }
    std::uint64_t ChannelId() const override { return channelId_; }
    VoiceConnection& Connection() override { return *connection_; }
    void SetSelfMute(bool mute) override { selfMute_ = mute; }
    bool SelfMute() const override { return selfMute_; }
    void SetSelfDeaf(bool deaf) override { selfDeaf_ = deaf; }
    bool SelfDeaf() const override { return selfDeaf_; }
    void SetLocalMute(std::uint64_t user, bool mute) override { mixer_.SetLocalMute(user, mute); }
    bool LocalMute(std::uint64_t user) const override { return mixer_.LocalMute(user); }
    int SetParticipantVolume(std::uint64_t user, int percent) override { return mixer_.SetVolume(user, percent); }
    int ParticipantVolume(std::uint64_t user) const override { return mixer_.Volume(user); }
    void SetAudioMode(AudioMode mode) override { mode_ = mode; }
    AudioMode GetAudioMode() const override { return mode_; }
    void SetPttActive(bool active) override { ptt_.SetActive(active); }
    bool PttActive() const override { return ptt_.Active(); }
    std::uint32_t SetPttReleaseDelay(std::uint32_t ms) override { return ptt_.SetReleaseDelay(ms); }
    std::uint32_t PttReleaseDelay() const override { return ptt_.ReleaseDelay(); }
    std::pair<bool, float> SetVadThreshold(bool automatic, float threshold) override {
        const auto t = vad_.SetThreshold(automatic, threshold);
        return {t.automatic, t.dbfs};
    }
    std::pair<bool, float> VadThreshold() const override {
        const auto t = vad_.GetThreshold();
        return {t.automatic, t.dbfs};
    }
    int SetBitrate(int bitsPerSecond) override {
        const int applied = std::clamp(bitsPerSecond, kMinBitrate, kMaxBitrate);
        pendingBitrate_ = applied;
        return applied;
    }
    bool Speaking(std::uint64_t user) const override {
        if (user == userId_) return selfSpeaking_;
        std::lock_guard<std::mutex> lock(usersMutex_);
        auto it = users_.find(user);
        return it != users_.end() && it->second->speaking.load();
    }
    std::optional<JitterBuffer::Stats> ReceiveStats(std::uint64_t user) const override {
        std::lock_guard<std::mutex> lock(usersMutex_);
        auto it = users_.find(user);
        if (it == users_.end()) return std::nullopt;
        return it->second->buffer.GetStats();
    }

    // --- network thread -----------------------------------------------------------------------------
    void OnFrame(std::uint64_t user, std::uint16_t seq, std::uint32_t ts, const std::uint8_t* frame, std::size_t size) {
        std::shared_ptr<RemoteUser> remote;
        {
            std::lock_guard<std::mutex> lock(usersMutex_);
            auto& slot = users_[user];
            if (!slot) slot = std::make_shared<RemoteUser>();
            remote = slot;
        }
        remote->buffer.Push(seq, ts, frame, size, JitterBuffer::Clock::now());
    }

    // --- audio thread -------------------------------------------------------------------------------
    // Whether this tick's capture may be sent (self mute and deaf, the engine's or the call's).
    bool MaySend(bool muteAll, bool deafAll) const { return !(selfMute_ || muteAll) && !(selfDeaf_ || deafAll); }

    void Capture(const std::int16_t* capture, bool muteAll, bool deafAll) {
        if (const int bitrate = pendingBitrate_.exchange(0)) encoder_.SetBitrate(bitrate);
        std::copy(capture, capture + kDeviceFrame, local_.begin());
        if (callbacks_.captured) callbacks_.captured(local_.data(), kFrameSamples, kSampleRate, kDeviceChannels);
        const bool connected = connection_->State() == VoiceConnectionState::Connected;
        // Muted: nothing is sent whatever the detector says, so it is not run (its noise floor keeps the
        // levels of frames that were processed, not of the unprocessed ones a muted engine captures).
        const bool mute = !MaySend(muteAll, deafAll);
        const bool voice = !mute && (mode_.load() == AudioMode::VoiceActivity ? vad_.Process(local_.data(), local_.size())
                                                                              : ptt_.Transmitting());
        const bool transmit = voice && connected;
        if (transmit) {
            if (!selfSpeaking_) {
                selfSpeaking_ = true;
                connection_->SetSpeaking(true);
                if (callbacks_.speaking) callbacks_.speaking(userId_, true);
            }
            silenceLeft_ = kSilenceFramesAtEnd;
            const std::int16_t* pcm = local_.data();
            if (encoder_.Channels() == 1) {
                DownmixToMono(local_.data(), mono_.data());
                pcm = mono_.data();
            }
            const auto size = encoder_.Encode(pcm, packet_.data(), packet_.size());
            if (size == 0) return;
            connection_->SendOpusFrame(packet_.data(), size);
            return;
        }
        if (!selfSpeaking_) return;
        if (silenceLeft_ > 0 && connected) {
            --silenceLeft_;
            connection_->SendOpusFrame(kSilence.data(), kSilence.size());
            if (silenceLeft_ > 0) return;
        }
        selfSpeaking_ = false;
        silenceLeft_ = 0;
        connection_->SetSpeaking(false);
        if (callbacks_.speaking) callbacks_.speaking(userId_, false);
    }

    // Mixes this call's participants into out (kDeviceFrame samples, overwritten).
    void Playback(std::int16_t* out, bool deafAll) {
        const bool deaf = selfDeaf_ || deafAll;
        snapshot_.clear();
        {
            std::lock_guard<std::mutex> lock(usersMutex_);
            for (const auto& [user, remote] : users_) snapshot_.emplace_back(user, remote);
        }
        mixer_.Begin(kDeviceFrame);
        for (auto& [user, remote] : snapshot_) {
            auto& r = *remote;
            r.buffer.Pop(r.pulled);
            int decoded = -1;
            if (!deaf) {
                switch (r.pulled.kind) {
                    case JitterBuffer::Kind::Frame:
                        decoded = r.decoder.Decode(r.pulled.packet.data(), r.pulled.packet.size(), pcm_.data());
                        break;
                    case JitterBuffer::Kind::Fec:
                        decoded = r.decoder.Decode(r.pulled.packet.data(), r.pulled.packet.size(), pcm_.data(), true);
                        break;
                    case JitterBuffer::Kind::Conceal:
                        decoded = r.decoder.Conceal(pcm_.data());
                        break;
                    case JitterBuffer::Kind::Idle:
                        break;
                }
            }
            const bool playing = decoded > 0;
            // Speaking: speech frames only, held through short gaps (SpeakingIndicator).
            if (r.indicator.Tick(r.pulled, playing)) {
                const bool speaking = r.indicator.Speaking();
                r.speaking.store(speaking);
                if (callbacks_.speaking) callbacks_.speaking(user, speaking);
            }
            if (!playing) continue;
            bool shouldMute = false;
            if (callbacks_.received)
                callbacks_.received(user, pcm_.data(), kFrameSamples, kSampleRate, kDeviceChannels, shouldMute);
            if (!shouldMute) mixer_.Add(user, pcm_.data());
        }
        snapshot_.clear();
        mixer_.Finish(out, 100);
    }

    void Stop() {
        if (connection_) connection_->Stop();
    }

private:
    const std::uint64_t userId_, channelId_;
    VoiceCallCallbacks callbacks_;
    std::shared_ptr<VoiceConnection> connection_;
    std::atomic<bool> selfMute_{false}, selfDeaf_{false};
    std::atomic<AudioMode> mode_{AudioMode::VoiceActivity};
    std::atomic<int> pendingBitrate_{0};
    std::atomic<bool> selfSpeaking_{false};
    VoiceActivityDetector vad_;
    PushToTalk ptt_;
    Mixer mixer_;
    mutable std::mutex usersMutex_;
    std::unordered_map<std::uint64_t, std::shared_ptr<RemoteUser>> users_;
    // Audio thread only.
    OpusFrameEncoder encoder_;
    int silenceLeft_ = 0;
    std::vector<std::int16_t> pcm_, mono_, local_;
    std::array<std::uint8_t, kMaxOpusPacket> packet_{};
    std::vector<std::pair<std::uint64_t, std::shared_ptr<RemoteUser>>> snapshot_;
};

}  // namespace

VoiceEngine::VoiceEngine(boost::asio::io_context& io, std::unique_ptr<AudioBackend> backend, core::LogSink log,
                         VoiceEngineOptions options)
    : io_(io), backend_(std::move(backend)), log_(std::move(log)), options_(options),
      voiceLog_(std::make_shared<VoiceLog>()) {
    voiceLog_->main = log_;
    if (!backend_) backend_ = MakeNullAudioBackend();
    captureScratch_.resize(kDeviceFrame);
    callOut_.resize(kDeviceFrame);
    lastPlayback_.resize(kDeviceFrame);
    mix_.resize(kDeviceFrame);
}

VoiceEngine::~VoiceEngine() {
    backend_->Stop();
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& call : calls_) static_cast<Call&>(*call).Stop();
}

std::shared_ptr<VoiceCall> VoiceEngine::StartCall(const VoiceConnectionOptions& given, VoiceCallCallbacks callbacks) {
    VoiceConnectionOptions options = given;
    for (const auto& [scheme, secure] : {std::pair<std::string, bool>{"wss://", true}, {"ws://", false}}) {
        if (options.endpoint.rfind(scheme, 0) == 0) {
            options.endpoint.erase(0, scheme.size());
            options.secure = secure;
        }
    }
    if (!options.endpoint.empty() && options.endpoint.back() == '/') options.endpoint.pop_back();
    boost::asio::ssl::context* tls = nullptr;
    if (options.secure) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (options_.tls) tls = options_.tls;
        else {
            if (!ownTls_) ownTls_ = std::make_unique<boost::asio::ssl::context>(net::MakeClientTlsContext());
            tls = ownTls_.get();
        }
    }
    auto call = std::make_shared<Call>(options, std::move(callbacks), options_);
    auto connection = VoiceConnection::Create(io_, tls, options, call->Events(voiceLog_));
    call->Attach(connection);
    bool startAudio = false;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        calls_.push_back(call);
        startAudio = !audioRunning_;
        audioRunning_ = true;
    }
    connection->Start();
    if (startAudio) backend_->Start([this](const std::int16_t* capture, std::int16_t* playback) { Process(capture, playback); });
    return call;
}

void VoiceEngine::EndCall(const std::shared_ptr<VoiceCall>& call) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        calls_.erase(std::remove(calls_.begin(), calls_.end(), call), calls_.end());
    }
    static_cast<Call&>(*call).Stop();
}

std::vector<std::shared_ptr<VoiceCall>> VoiceEngine::Calls() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return calls_;
}

void VoiceEngine::Log(LoggingSeverity severity, const std::string& line) const { voiceLog_->Write(severity, "voice: " + line); }

void VoiceEngine::AddLogCallback(core::LogSink callback, LoggingSeverity minSeverity) {
    if (!callback) return;
    std::lock_guard<std::mutex> lock(voiceLog_->mutex);
    voiceLog_->callbacks.emplace_back(std::move(callback), minSeverity);
}

void VoiceEngine::SetLogFileWriter(core::LogSink writer, LoggingSeverity minSeverity) {
    std::lock_guard<std::mutex> lock(voiceLog_->mutex);
    voiceLog_->file = {std::move(writer), minSeverity};
}

int VoiceEngine::SetAudioThreadPriority(int nice) {
    const int applied = std::clamp(nice, -20, 19);
    audioNice_ = applied;
    return applied;
}

int VoiceEngine::SetInputVolume(int percent) {
    inputVolume_ = std::clamp(percent, 0, 100);
    return inputVolume_;
}

int VoiceEngine::SetOutputVolume(int percent) {
    outputVolume_ = std::clamp(percent, 0, 200);
    return outputVolume_;
}

void VoiceEngine::Process(const std::int16_t* capture, std::int16_t* playback) {
    // The audio thread sets its own priority (a thread's nice value is per kernel thread). A backend
    // restart makes a new thread: the thread id tells.
    thread_local int niceHere = kNoPriority;
    if (const int wanted = audioNice_; wanted != kNoPriority && wanted != niceHere) {
        niceHere = wanted;
        const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
        if (::setpriority(PRIO_PROCESS, tid, wanted) == 0) {
            appliedNice_ = wanted;
            Log(LoggingSeverity::Info, "the audio thread runs at nice " + std::to_string(wanted));
        } else {
            Log(LoggingSeverity::Warning, "the audio thread's priority (nice " + std::to_string(wanted) +
                                              ") was refused: " + std::strerror(errno));
        }
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        active_.assign(calls_.begin(), calls_.end());  // reuses the capacity: no allocation per tick
    }
    const bool muteAll = muteAll_, deafAll = deafAll_;
    bool sending = false;
    for (const auto& call : active_) sending = sending || static_cast<Call&>(*call).MaySend(muteAll, deafAll);
    std::copy(capture, capture + kDeviceFrame, captureScratch_.begin());
    // Echo reference: the frame played last tick (the capture cannot yet hold what this tick plays).
    // Every call muted: nothing captured is sent, so nothing is processed (the callbacks see the frame
    // as captured); the processor only remembers the far end.
    if (sending) processor_.Process(captureScratch_.data(), lastPlayback_.data());
    else processor_.Idle(lastPlayback_.data());
    ApplyGain(captureScratch_.data(), captureScratch_.size(), inputVolume_);
    std::fill(mix_.begin(), mix_.end(), 0);
    for (const auto& call : active_) {
        auto& c = static_cast<Call&>(*call);
        c.Capture(captureScratch_.data(), muteAll, deafAll);
        c.Playback(callOut_.data(), deafAll);
        for (std::size_t i = 0; i < kDeviceFrame; ++i) mix_[i] += callOut_[i];
    }
    const int gain = outputVolume_;
    for (std::size_t i = 0; i < kDeviceFrame; ++i) {
        const std::int64_t v = static_cast<std::int64_t>(mix_[i]) * gain / 100;
        playback[i] = static_cast<std::int16_t>(std::clamp<std::int64_t>(v, std::numeric_limits<std::int16_t>::min(),
                                                                         std::numeric_limits<std::int16_t>::max()));
    }
    std::copy(playback, playback + kDeviceFrame, lastPlayback_.begin());
    active_.clear();  // an ended call is released now, not a tick later
}

}  // namespace platformpp::voice
