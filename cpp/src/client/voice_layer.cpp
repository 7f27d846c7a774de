// The Client's voice layer (voice_layer.hpp): calls through the Gateway and the media engine, and the
// voice-state cache.
#include "client/voice_layer.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json.hpp>

#include <chrono>
#include <cmath>
#include <tuple>

#include "client/client_impl.hpp"
#include "core/json_fields.hpp"
#include "core/log_file.hpp"
#include "voice/voice_engine.hpp"

namespace platformpp::client {
namespace json = boost::json;
using json_fields::Snowflake;

namespace {

// The platform answers opcode 4 with VOICE_SERVER_UPDATE at once; a refused join answers nothing.
constexpr auto kJoinTimeout = std::chrono::seconds(10);
// The microphone counts as silent after this many quiet 20 ms frames in a row (2 s).
constexpr int kQuietFramesForNoInput = 100;

int64_t NowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// A voice gateway close code that means the server refuses us, rather than a lost connection.
bool IsRefusal(int closeCode) { return closeCode == 4004 || closeCode == 4011 || closeCode == 4017; }

core::LogSink FileWriter(std::shared_ptr<core::LogFile> file) {
    return [file = std::move(file)](LoggingSeverity severity, const std::string& line) { file->Write(severity, line); };
}

bool Flag(const json::object& object, std::string_view name) {
    const auto* value = object.if_contains(name);
    return value != nullptr && value->is_bool() && value->as_bool();
}

}  // namespace

VoiceLayer::VoiceLayer(Client::Impl& impl) : impl_(impl) {}
VoiceLayer::~VoiceLayer() { Shutdown(); }

void VoiceLayer::Shutdown() {
    std::unique_ptr<voice::VoiceEngine> engine;
    {
        std::lock_guard lock(engineMutex_);
        shutDown_ = true;
        engine = std::move(engine_);
    }
    engine.reset();  // stops the audio thread, then closes every voice connection with 1000
    std::lock_guard lock(mutex_);
    calls_.clear();
}

// ---- the engine ---------------------------------------------------------------------------------

voice::VoiceEngine& VoiceLayer::EngineLocked() {
    if (!engine_) {
        voice::VoiceEngineOptions options;
        options.tls = &impl_.tls;  // wss voice endpoints trust what the Client's HTTP and Gateway trust
        engine_ = std::make_unique<voice::VoiceEngine>(impl_.io.Context(), voice::MakeAudioBackend(impl_.Sink()),
                                                       impl_.Sink(), options);
        engine_->SetInputVolume(static_cast<int>(std::lround(inputVolume_.load())));
        engine_->SetOutputVolume(static_cast<int>(std::lround(outputVolume_.load())));
        engine_->SetSelfMuteAll(muteAll_);
        engine_->SetSelfDeafAll(deafAll_);
        for (const auto& [sink, minimum] : logSinks_) engine_->AddLogCallback(sink, minimum);
        if (logFile_) engine_->SetLogFileWriter(FileWriter(logFile_), LoggingSeverity::Verbose);
        engine_->Devices().SetDeviceChangeCallback(
            [this, alive = impl_.alive](const std::vector<voice::AudioDeviceInfo>& inputs,
                                        const std::vector<voice::AudioDeviceInfo>& outputs) {
                if (!alive->load()) return;
                std::shared_ptr<Client::DeviceChangeCallback> callback;
                {
                    std::lock_guard lock(mutex_);
                    callback = deviceChange_;
                }
                if (!callback) return;
                auto convert = [](const std::vector<voice::AudioDeviceInfo>& devices) {
                    std::vector<AudioDevice> out;
                    for (const auto& info : devices) {
                        AudioDevice device;
                        device.SetId(info.id);
                        device.SetName(info.name);
                        device.SetIsDefault(info.isDefault);
                        out.push_back(std::move(device));
                    }
                    return out;
                };
                impl_.DeliverEvent([callback, in = convert(inputs), out = convert(outputs)] { (*callback)(in, out); });
            });
    }
    return *engine_;
}

void VoiceLayer::AddLogSink(core::LogSink sink, LoggingSeverity minSeverity) {
    std::lock_guard lock(engineMutex_);
    logSinks_.emplace_back(sink, minSeverity);
    if (engine_) engine_->AddLogCallback(std::move(sink), minSeverity);
}

void VoiceLayer::SetLogFile(std::shared_ptr<core::LogFile> file) {
    std::lock_guard lock(engineMutex_);
    logFile_ = std::move(file);
    // The file applies its own minimum severity.
    if (engine_) engine_->SetLogFileWriter(logFile_ ? FileWriter(logFile_) : nullptr, LoggingSeverity::Verbose);
}

void VoiceLayer::WithEngine(std::function<void(voice::VoiceEngine& engine)> use) {
    boost::asio::post(impl_.io.Context(), [this, use = std::move(use)] {
        std::lock_guard lock(engineMutex_);
        if (shutDown_) return;
        use(EngineLocked());
    });
}

void VoiceLayer::SetInputVolume(float percent) {
    inputVolume_ = percent;
    WithEngine([percent](voice::VoiceEngine& e) { e.SetInputVolume(static_cast<int>(std::lround(percent))); });
}

void VoiceLayer::SetOutputVolume(float percent) {
    outputVolume_ = percent;
    WithEngine([percent](voice::VoiceEngine& e) { e.SetOutputVolume(static_cast<int>(std::lround(percent))); });
}

void VoiceLayer::SetMuteAll(bool mute) {
    muteAll_ = mute;
    WithEngine([mute](voice::VoiceEngine& e) { e.SetSelfMuteAll(mute); });
    ResendVoiceStates();
}

void VoiceLayer::SetDeafAll(bool deaf) {
    deafAll_ = deaf;
    WithEngine([deaf](voice::VoiceEngine& e) { e.SetSelfDeafAll(deaf); });
    ResendVoiceStates();
}

void VoiceLayer::ResendVoiceStates() {
    std::vector<std::shared_ptr<detail::CallState>> states;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, state] : calls_) states.push_back(state);
    }
    for (const auto& state : states) {
        bool mute = false, deaf = false;
        {
            std::lock_guard lock(state->mutex);
            mute = state->selfMute;
            deaf = state->selfDeaf;
        }
        state->hooks.sendVoiceState(state->guildId, mute, deaf);
    }
}

void VoiceLayer::SetDeviceChange(Client::DeviceChangeCallback callback) {
    {
        std::lock_guard lock(mutex_);
        deviceChange_ = callback ? std::make_shared<Client::DeviceChangeCallback>(std::move(callback)) : nullptr;
    }
    WithEngine([](voice::VoiceEngine&) {});  // the engine follows device changes from its creation on
}

void VoiceLayer::SetNoAudioInputThreshold(float dbfs) { noInputThreshold_ = dbfs; }

void VoiceLayer::SetNoAudioInputCallback(Client::NoAudioInputCallback callback) {
    std::lock_guard lock(mutex_);
    noAudioInput_ = callback ? std::make_shared<Client::NoAudioInputCallback>(std::move(callback)) : nullptr;
}

void VoiceLayer::MeasureInput(const int16_t* data, uint64_t samples) {
    const float threshold = noInputThreshold_;
    if (threshold <= -100.0f) return;  // off
    // Every call sees the same captured frame: measure it once per 20 ms.
    const int64_t now = NowMs();
    if (now - lastMeasuredMs_ < 15) return;
    lastMeasuredMs_ = now;
    double sum = 0;
    for (uint64_t i = 0; i < samples; ++i) sum += static_cast<double>(data[i]) * data[i];
    const double rms = samples ? std::sqrt(sum / static_cast<double>(samples)) : 0.0;
    const double dbfs = rms > 0 ? 20.0 * std::log10(rms / 32768.0) : -200.0;
    quietFrames_ = dbfs < threshold ? quietFrames_ + 1 : 0;
    std::optional<bool> report;
    if (quietFrames_ >= kQuietFramesForNoInput && inputReported_ != false) report = false;
    if (quietFrames_ == 0 && inputReported_ == false) report = true;
    if (!report) return;
    inputReported_ = report;
    std::shared_ptr<Client::NoAudioInputCallback> callback;
    {
        std::lock_guard lock(mutex_);
        callback = noAudioInput_;
    }
    if (callback) impl_.DeliverEvent([callback, detected = *report] { (*callback)(detected); });
}

// ---- calls --------------------------------------------------------------------------------------

detail::CallHooks VoiceLayer::HooksFor(uint64_t channelId) {
    detail::CallHooks hooks;
    auto alive = impl_.alive;
    hooks.deliverEvent = [this, alive](std::function<void()> event) {
        if (alive->load()) impl_.DeliverEvent(std::move(event));
    };
    hooks.log = [this, alive](LoggingSeverity severity, const std::string& line) {
        if (alive->load()) impl_.Log(severity, line);
    };
    hooks.sendVoiceState = [this, alive, channelId](uint64_t guildId, bool mute, bool deaf) {
        if (alive->load()) SendVoiceState(guildId, channelId, mute || muteAll_, deaf || deafAll_);
    };
    hooks.info = [this, alive, channelId]() -> std::shared_ptr<const detail::CallInfoData> {
        return alive->load() ? Info(channelId) : nullptr;
    };
    return hooks;
}

void VoiceLayer::SendVoiceState(uint64_t guildId, std::optional<uint64_t> channelId, bool selfMute, bool selfDeaf) {
    json::object d;
    d["guild_id"] = guildId ? json::value(std::to_string(guildId)) : json::value(nullptr);
    d["channel_id"] = channelId ? json::value(std::to_string(*channelId)) : json::value(nullptr);
    d["self_mute"] = selfMute;
    d["self_deaf"] = selfDeaf;
    boost::asio::post(impl_.io.Context(), [this, d = std::move(d)]() mutable {
        if (impl_.gateway) {
            impl_.gateway->SendCommand(4, std::move(d));
        } else {
            impl_.Log(LoggingSeverity::Warning, "voice: the Gateway is not connected (call Connect() first)");
        }
    });
}

Call VoiceLayer::Start(uint64_t channelId, Client::UserAudioReceivedCallback received,
                       Client::UserAudioCapturedCallback captured) {
    if (channelId == 0) {
        impl_.Log(LoggingSeverity::Error, "StartCall: channelId must not be 0");
        return Call::nullobj;
    }
    if (!impl_.CurrentToken()) {
        impl_.Log(LoggingSeverity::Error, "StartCall: the Client has no token (UpdateToken and Connect first)");
        return Call::nullobj;
    }
    const bool lobby = social::HasLobby(*impl_.social, channelId);
    auto state = std::make_shared<detail::CallState>(channelId, HooksFor(channelId));
    state->received = std::move(received);
    state->captured = std::move(captured);
    {
        std::lock_guard lock(mutex_);
        if (calls_.count(channelId)) return Call::nullobj;  // already in that call: GetCall has it
        if (lobby) lobbyChannels_[channelId] = true;
        calls_[channelId] = state;
    }
    state->SetStatus(Call::Status::Joining, Call::Error::None, 0);
    if (lobby) {
        // A lobby's call has no guild.
        boost::asio::post(impl_.io.Context(), [this, state] { Join(state); });
        return Call(state);
    }
    // A guild voice channel or a DM: its guild (none for a DM) is opcode 4's guild_id.
    auto request = client::Request("GET", "/channels/" + std::to_string(channelId), nullptr, "GET /channels/{id}");
    request.token = *impl_.CurrentToken();
    impl_.Call(std::move(request), [this, state](ClientResult result, json::value body) {
        if (!result.Successful()) {
            impl_.Log(LoggingSeverity::Error, "StartCall: channel " + std::to_string(state->channelId) +
                                                  " is not one the user can see: " + result.ToString());
            Forget(state);
            return state->SetStatus(Call::Status::Disconnected, Call::Error::Forbidden,
                                    static_cast<int32_t>(result.Status()));
        }
        state->guildId = json_fields::Snowflake(body, "guild_id");
        Join(state);
    });
    return Call(state);
}

void VoiceLayer::Join(const std::shared_ptr<detail::CallState>& call) {
    bool mute = false, deaf = false;
    {
        std::lock_guard lock(call->mutex);
        mute = call->selfMute;
        deaf = call->selfDeaf;
    }
    call->hooks.sendVoiceState(call->guildId, mute, deaf);
    auto timer = std::make_shared<boost::asio::steady_timer>(impl_.io.Context(), kJoinTimeout);
    timer->async_wait([this, call, timer, alive = impl_.alive](const boost::system::error_code& ec) {
        if (ec || !alive->load()) return;
        bool waiting = false;
        {
            std::lock_guard lock(call->mutex);
            waiting = call->status == Call::Status::Joining;
        }
        if (!waiting) return;
        Forget(call);
        call->SetStatus(Call::Status::Disconnected, Call::Error::JoinTimeout, 0);
    });
}

void VoiceLayer::Forget(const std::shared_ptr<detail::CallState>& call) {
    std::lock_guard lock(mutex_);
    const auto found = calls_.find(call->channelId);
    if (found != calls_.end() && found->second == call) calls_.erase(found);
}

void VoiceLayer::End(uint64_t channelId, std::function<void()> done) {
    std::shared_ptr<detail::CallState> call;
    {
        std::lock_guard lock(mutex_);
        const auto found = calls_.find(channelId);
        if (found != calls_.end()) {
            call = found->second;
            calls_.erase(found);
        }
    }
    if (call) {
        call->SetStatus(Call::Status::Disconnecting, Call::Error::None, 0);
        std::shared_ptr<voice::VoiceCall> engineCall;
        {
            std::lock_guard lock(call->mutex);
            engineCall = std::exchange(call->engineCall, nullptr);
        }
        SendVoiceState(call->guildId, std::nullopt, false, false);
        if (engineCall) {
            WithEngine([engineCall](voice::VoiceEngine& engine) { engine.EndCall(engineCall); });
        }
        call->SetStatus(Call::Status::Disconnected, Call::Error::None, 0);
    }
    impl_.Deliver(std::move(done));
}

void VoiceLayer::EndAll(std::function<void()> done) {
    std::vector<uint64_t> ids;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, call] : calls_) ids.push_back(id);
    }
    for (uint64_t id : ids) End(id, [] {});
    impl_.Deliver(std::move(done));
}

Call VoiceLayer::Get(uint64_t channelId) const {
    std::lock_guard lock(mutex_);
    const auto found = calls_.find(channelId);
    return found == calls_.end() ? Call::nullobj : Call(found->second);
}

std::vector<Call> VoiceLayer::All() const {
    std::lock_guard lock(mutex_);
    std::vector<Call> out;
    for (const auto& [id, call] : calls_) out.emplace_back(call);
    return out;
}

std::shared_ptr<const detail::CallInfoData> VoiceLayer::Info(uint64_t channelId) const {
    std::lock_guard lock(mutex_);
    const auto found = channels_.find(channelId);
    return found == channels_.end() ? nullptr : found->second;
}

void VoiceLayer::SetParticipantChanged(Client::VoiceParticipantChangedCallback callback) {
    std::lock_guard lock(mutex_);
    participantChanged_ =
        callback ? std::make_shared<Client::VoiceParticipantChangedCallback>(std::move(callback)) : nullptr;
}

// ---- the Gateway --------------------------------------------------------------------------------

void VoiceLayer::OnReady(const json::object& ready) {
    Events events;
    {
        std::lock_guard lock(mutex_);
        sessionId_ = json_fields::String(ready, "session_id");
        if (const auto* user = json_fields::Object(ready, "user")) me_ = Snowflake(*user, "id");
        // A new session: the voice states it lists replace what was known.
        channels_.clear();
        where_.clear();
        if (const auto* states = json_fields::Array(ready, "voice_states")) {
            for (const auto& state : *states) {
                if (const auto* object = json_fields::Object(state)) OnVoiceState(*object, events);
            }
        }
    }
    for (auto& event : events) impl_.DeliverEvent(std::move(event));
}

void VoiceLayer::OnDispatch(std::string_view type, const json::value& data) {
    const auto* object = json_fields::Object(data);
    if (object == nullptr) return;
    if (type == "VOICE_STATE_UPDATE") {
        Events events;
        {
            std::lock_guard lock(mutex_);
            OnVoiceState(*object, events);
        }
        for (auto& event : events) impl_.DeliverEvent(std::move(event));
    } else if (type == "VOICE_SERVER_UPDATE") {
        OnVoiceServer(*object);
    }
}

void VoiceLayer::OnVoiceState(const json::object& state, Events& events) {
    const uint64_t userId = Snowflake(state, "user_id");
    if (userId == 0) return;
    const uint64_t guildId = Snowflake(state, "guild_id");
    const uint64_t lobbyId = Snowflake(state, "lobby_id");
    const uint64_t channelId = Snowflake(state, "channel_id");  // 0: left
    if (lobbyId) lobbyChannels_[lobbyId] = true;
    const Place place{guildId, userId};
    const auto previous = where_.find(place);
    const uint64_t from = previous == where_.end() ? 0 : previous->second;

    auto announce = [&](uint64_t channel, bool added) {
        const auto call = calls_.find(channel);
        if (call != calls_.end()) {
            std::lock_guard lock(call->second->mutex);
            if (auto cb = call->second->onParticipant) events.push_back([cb, userId, added] { (*cb)(userId, added); });
        }
        if (lobbyChannels_.count(channel) && participantChanged_) {
            events.push_back([cb = participantChanged_, channel, userId, added] { (*cb)(channel, userId, added); });
        }
    };
    auto republish = [&](uint64_t channel, auto&& change) {
        auto next = std::make_shared<detail::CallInfoData>();
        if (const auto found = channels_.find(channel); found != channels_.end()) *next = *found->second;
        next->channelId = channel;
        next->guildId = guildId;
        change(*next);
        if (next->states.empty()) {
            channels_.erase(channel);
        } else {
            channels_[channel] = std::move(next);
        }
    };

    if (from != 0 && from != channelId) {
        republish(from, [&](detail::CallInfoData& info) { info.states.erase(userId); });
        where_.erase(place);
        announce(from, false);
    }
    if (channelId == 0) return;
    auto voiceState = std::make_shared<detail::VoiceStateData>();
    voiceState->userId = userId;
    voiceState->selfMute = Flag(state, "self_mute");
    voiceState->selfDeaf = Flag(state, "self_deaf");
    bool changed = false;
    republish(channelId, [&](detail::CallInfoData& info) {
        const auto old = info.states.find(userId);
        changed = old != info.states.end() &&
                  (old->second->selfMute != voiceState->selfMute || old->second->selfDeaf != voiceState->selfDeaf);
        info.states[userId] = voiceState;
    });
    where_[place] = channelId;
    if (from != channelId) {
        announce(channelId, true);
    } else if (changed) {
        const auto call = calls_.find(channelId);
        if (call != calls_.end()) {
            std::lock_guard lock(call->second->mutex);
            if (auto cb = call->second->onVoiceState) events.push_back([cb, userId] { (*cb)(userId); });
        }
    }
}

void VoiceLayer::OnVoiceServer(const json::object& server) {
    const uint64_t guildId = Snowflake(server, "guild_id");
    const uint64_t channelId = Snowflake(server, "channel_id");
    const std::string token = json_fields::String(server, "token");
    const std::string endpoint = json_fields::String(server, "endpoint");
    std::shared_ptr<detail::CallState> call;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, candidate] : calls_) {
            if (guildId ? candidate->guildId == guildId : candidate->channelId == channelId) call = candidate;
        }
    }
    if (!call) return;  // a call ended meanwhile
    if (token.empty() || endpoint.empty()) {
        impl_.Log(LoggingSeverity::Error, "voice: VOICE_SERVER_UPDATE without token or endpoint");
        Forget(call);
        return call->SetStatus(Call::Status::Disconnected, Call::Error::VoiceConnectionFailed, 0);
    }
    Connect(call, endpoint, token);
}

void VoiceLayer::Connect(const std::shared_ptr<detail::CallState>& call, const std::string& endpoint,
                         const std::string& token) {
    voice::VoiceConnectionOptions options;
    options.endpoint = endpoint;
    options.secure = impl_.apiBase.rfind("https://", 0) == 0;  // the voice server speaks what the API speaks
    options.serverId = call->guildId ? call->guildId.load() : call->channelId;
    options.channelId = call->channelId;
    {
        std::lock_guard lock(mutex_);
        options.userId = me_;
        options.sessionId = sessionId_;
    }
    options.token = token;

    std::weak_ptr<detail::CallState> weak = call;
    voice::VoiceCallCallbacks callbacks;
    if (call->received) {
        callbacks.received = [weak](uint64_t user, int16_t* data, uint64_t samples, int32_t rate, uint64_t channels,
                                    bool& outShouldMute) {
            if (auto self = weak.lock()) self->received(user, data, samples, rate, channels, outShouldMute);
        };
    }
    callbacks.captured = [this, weak](int16_t* data, uint64_t samples, int32_t rate, uint64_t channels) {
        auto self = weak.lock();
        if (!self) return;
        if (self->captured) self->captured(data, samples, rate, channels);
        MeasureInput(data, samples * channels);
    };
    callbacks.speaking = [weak](uint64_t user, bool speaking) {
        if (auto self = weak.lock()) self->Announce(&detail::CallState::onSpeaking, user, speaking);
    };
    callbacks.state = [this, weak](voice::VoiceConnectionState state, int closeCode, const std::string& detail) {
        if (auto self = weak.lock()) OnEngineState(self, static_cast<int>(state), closeCode, detail);
    };

    std::shared_ptr<voice::VoiceCall> previous;
    {
        std::lock_guard lock(call->mutex);
        previous = std::exchange(call->engineCall, nullptr);
    }
    std::lock_guard lock(engineMutex_);
    if (shutDown_) return;
    auto& engine = EngineLocked();
    if (previous) engine.EndCall(previous);  // a new voice server for the same call: start again
    call->SetStatus(Call::Status::Connecting, Call::Error::None, 0);
    auto engineCall = engine.StartCall(options, std::move(callbacks));
    call->ApplySettings(*engineCall);
    std::lock_guard callLock(call->mutex);
    call->engineCall = std::move(engineCall);
}

void VoiceLayer::OnEngineState(const std::shared_ptr<detail::CallState>& call, int stateValue, int closeCode,
                               const std::string& detail) {
    const auto state = static_cast<voice::VoiceConnectionState>(stateValue);
    {
        std::lock_guard lock(call->mutex);
        if (call->status == Call::Status::Disconnected || call->status == Call::Status::Disconnecting) return;
    }
    switch (state) {
        case voice::VoiceConnectionState::Connecting: return call->SetStatus(Call::Status::Connecting, Call::Error::None, 0);
        case voice::VoiceConnectionState::Connected: return call->SetStatus(Call::Status::Connected, Call::Error::None, 0);
        case voice::VoiceConnectionState::Reconnecting:
            return call->SetStatus(Call::Status::Reconnecting, Call::Error::None, closeCode);
        case voice::VoiceConnectionState::Disconnecting:
            return call->SetStatus(Call::Status::Disconnecting, Call::Error::None, 0);
        case voice::VoiceConnectionState::Disconnected: {
            bool wasConnected = false;
            std::shared_ptr<voice::VoiceCall> engineCall;
            {
                std::lock_guard lock(call->mutex);
                wasConnected = call->status != Call::Status::Connecting;
                engineCall = std::exchange(call->engineCall, nullptr);
            }
            Forget(call);
            if (engineCall) WithEngine([engineCall](voice::VoiceEngine& engine) { engine.EndCall(engineCall); });
            Call::Error error = Call::Error::None;
            if (IsRefusal(closeCode)) {
                error = Call::Error::Forbidden;
            } else if (closeCode == 0) {
                error = wasConnected ? Call::Error::VoiceConnectionFailed : Call::Error::SignalingConnectionFailed;
            } else if (closeCode != 1000) {
                error = Call::Error::SignalingUnexpectedClose;
            }
            impl_.Log(LoggingSeverity::Info, "voice: call " + std::to_string(call->channelId) + " ended: " + detail);
            return call->SetStatus(Call::Status::Disconnected, error, closeCode);
        }
    }
}

}  // namespace platformpp::client
