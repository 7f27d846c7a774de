#pragma once
// The Client's voice layer: the calls of the current user (Client::StartCall), the voice-state cache
// behind CallInfoHandle and the participant callbacks, and the media engine (created on the network
// thread the first time something needs it). Private to the core.
//
// How a call starts (docs/voice.md): Gateway opcode 4 {guild_id, channel_id, self_mute, self_deaf};
// the Gateway answers VOICE_STATE_UPDATE (our voice state) and VOICE_SERVER_UPDATE {token, endpoint};
// the engine then connects to the voice server with the Gateway session's id. The engine's state
// changes become Call::Status; its speaking reports and the Gateway's voice states become the Call's
// callbacks, queued for RunCallbacks().
//
// Threads: the Gateway's events arrive on the network thread; Client's methods run on the game's
// thread (or any). Everything here is under `mutex_`, never held while calling the engine's call
// setters, the social layer or a user callback.

#include <boost/json/value.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "client/call_state.hpp"
#include "core/log_sink.hpp"
#include "platformpp/client.hpp"

namespace platformpp::core {
class LogFile;
}  // namespace platformpp::core

namespace platformpp::voice {
class VoiceEngine;
}  // namespace platformpp::voice

namespace platformpp::client {

class VoiceLayer {
public:
    explicit VoiceLayer(Client::Impl& impl);
    ~VoiceLayer();
    VoiceLayer(const VoiceLayer&) = delete;
    VoiceLayer& operator=(const VoiceLayer&) = delete;

    // ---- Gateway (network thread) ----
    void OnReady(const boost::json::object& ready);
    void OnDispatch(std::string_view type, const boost::json::value& data);
    // From Client::Impl::Shutdown, before the network thread stops: ends the media (joins the audio
    // thread). Idempotent.
    void Shutdown();

    // ---- calls ----
    Call Start(uint64_t channelId, Client::UserAudioReceivedCallback received,
               Client::UserAudioCapturedCallback captured);
    void End(uint64_t channelId, std::function<void()> done);
    void EndAll(std::function<void()> done);
    Call Get(uint64_t channelId) const;
    std::vector<Call> All() const;
    // The voice states of one channel's call (nullptr when nobody is in it).
    std::shared_ptr<const detail::CallInfoData> Info(uint64_t channelId) const;
    void SetParticipantChanged(Client::VoiceParticipantChangedCallback callback);
    bool MuteAll() const { return muteAll_; }
    void SetMuteAll(bool mute);
    bool DeafAll() const { return deafAll_; }
    void SetDeafAll(bool deaf);

    // ---- audio ----
    // Runs `use` on the network thread with the engine (created if needed).
    void WithEngine(std::function<void(voice::VoiceEngine& engine)> use);
    float InputVolume() const { return inputVolume_; }
    void SetInputVolume(float percent);
    float OutputVolume() const { return outputVolume_; }
    void SetOutputVolume(float percent);
    void SetDeviceChange(Client::DeviceChangeCallback callback);
    void SetNoAudioInputThreshold(float dbfs);
    void SetNoAudioInputCallback(Client::NoAudioInputCallback callback);
    // The voice log's destinations (AddVoiceLogCallback, SetVoiceLogDir): kept here, given to the
    // engine when it exists or is made.
    void AddLogSink(core::LogSink sink, LoggingSeverity minSeverity);
    void SetLogFile(std::shared_ptr<core::LogFile> file);

private:
    struct Place {  // where a user's voice state is, per guild (0: the private calls: lobbies, DMs)
        uint64_t guildId = 0, userId = 0;
        bool operator<(const Place& o) const { return std::tie(guildId, userId) < std::tie(o.guildId, o.userId); }
    };
    using Events = std::vector<std::function<void()>>;

    detail::CallHooks HooksFor(uint64_t channelId);
    void ResendVoiceStates();  // after a change of the *All overrides
    void SendVoiceState(uint64_t guildId, std::optional<uint64_t> channelId, bool selfMute, bool selfDeaf);
    void Join(const std::shared_ptr<detail::CallState>& call);  // network thread
    void OnVoiceState(const boost::json::object& state, Events& events);  // under mutex_
    void OnVoiceServer(const boost::json::object& server);
    void Connect(const std::shared_ptr<detail::CallState>& call, const std::string& endpoint,
                 const std::string& token);
    void OnEngineState(const std::shared_ptr<detail::CallState>& call, int state, int closeCode,
                       const std::string& detail);
    void Forget(const std::shared_ptr<detail::CallState>& call);
    voice::VoiceEngine& EngineLocked();  // network thread, under engineMutex_
    void MeasureInput(const int16_t* data, uint64_t samples);  // audio thread

    Client::Impl& impl_;
    mutable std::mutex mutex_;
    std::string sessionId_;
    uint64_t me_ = 0;
    std::map<uint64_t, std::shared_ptr<detail::CallState>> calls_;                // by channel id
    std::map<uint64_t, std::shared_ptr<const detail::CallInfoData>> channels_;  // by channel id
    std::map<Place, uint64_t> where_;                                           // channel of each voice state
    std::map<uint64_t, bool> lobbyChannels_;                                     // channel ids that are lobbies
    std::shared_ptr<Client::VoiceParticipantChangedCallback> participantChanged_;
    std::shared_ptr<Client::DeviceChangeCallback> deviceChange_;
    std::shared_ptr<Client::NoAudioInputCallback> noAudioInput_;

    std::mutex engineMutex_;
    std::unique_ptr<voice::VoiceEngine> engine_;
    std::vector<std::pair<core::LogSink, LoggingSeverity>> logSinks_;  // under engineMutex_
    std::shared_ptr<core::LogFile> logFile_;                           // under engineMutex_
    bool shutDown_ = false;
    std::atomic<bool> muteAll_{false}, deafAll_{false};
    std::atomic<float> inputVolume_{100.0f}, outputVolume_{100.0f};
    // No-audio-input detection (audio thread): frames below the threshold in a row, the last report.
    std::atomic<float> noInputThreshold_{-100.0f};
    int quietFrames_ = 0;
    int64_t lastMeasuredMs_ = 0;
    std::optional<bool> inputReported_;
};

}  // namespace platformpp::client
