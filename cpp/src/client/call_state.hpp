#pragma once
// What a Call handle refers to: one call of the current user, its settings (kept here so that they
// survive until the media engine's call exists, and are applied to it then), its event callbacks, and
// the few things of its Client it reaches through CallHooks. Private to the core.
//
// Threads: Call's methods (any thread), the network thread (status, participants) and the audio
// thread (speaking) all go through `mutex`; the engine call's own setters are thread-safe.

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "platformpp/call.hpp"
#include "platformpp/client.hpp"
#include "platformpp/logging.hpp"

namespace platformpp::voice {
class VoiceCall;
}  // namespace platformpp::voice

namespace platformpp::detail {

struct VoiceStateData {
    uint64_t userId = 0;
    bool selfMute = false, selfDeaf = false;
};

// One channel's participants as the Gateway's voice states show them. Immutable once published.
struct CallInfoData {
    uint64_t channelId = 0, guildId = 0;
    std::map<uint64_t, std::shared_ptr<const VoiceStateData>> states;  // by user id
};

// The Client services a call uses; each one does nothing once the Client is gone.
struct CallHooks {
    std::function<void(std::function<void()>)> deliverEvent;  // queue for RunCallbacks()
    std::function<void(LoggingSeverity, const std::string&)> log;
    // Gateway opcode 4 for this call with these self mute / deaf flags (the Client's *All overrides added).
    std::function<void(uint64_t guildId, bool selfMute, bool selfDeaf)> sendVoiceState;
    // The call's participants now (the voice-state cache).
    std::function<std::shared_ptr<const CallInfoData>()> info;
};

struct CallState {
    CallState(uint64_t channel, CallHooks callHooks) noexcept : channelId(channel), hooks(std::move(callHooks)) {}

    const uint64_t channelId;
    std::atomic<uint64_t> guildId{0};  // 0 for lobby and DM calls; known once the channel is looked up
    const CallHooks hooks;
    // Set before the call starts, then only read (audio thread).
    Client::UserAudioReceivedCallback received;
    Client::UserAudioCapturedCallback captured;

    mutable std::mutex mutex;
    Call::Status status = Call::Status::Joining;
    std::shared_ptr<voice::VoiceCall> engineCall;  // once the voice server is known
    bool selfMute = false, selfDeaf = false;
    AudioModeType mode = AudioModeType::MODE_VAD;
    bool pttActive = false;
    uint32_t pttReleaseDelay = 0;
    bool vadAutomatic = false;
    float vadThreshold = -60.0f;
    std::map<uint64_t, bool> localMute;
    std::map<uint64_t, float> volume;
    std::shared_ptr<Call::OnStatusChanged> onStatus;
    std::shared_ptr<Call::OnParticipantChanged> onParticipant;
    std::shared_ptr<Call::OnSpeakingStatusChanged> onSpeaking;
    std::shared_ptr<Call::OnVoiceStateChanged> onVoiceState;

    // Changes the status and queues the status callback (when it changed, or with an error).
    void SetStatus(Call::Status next, Call::Error error, int32_t detail);
    // Pushes every setting above to the engine's call (network thread, once it exists).
    void ApplySettings(voice::VoiceCall& call);
    template <typename Callback, typename... Args>
    void Announce(std::shared_ptr<Callback> CallState::*slot, Args... args) {
        std::shared_ptr<Callback> callback;
        {
            std::lock_guard lock(mutex);
            callback = this->*slot;
        }
        if (callback) hooks.deliverEvent([callback, args...] { (*callback)(args...); });
    }
};

}  // namespace platformpp::detail
