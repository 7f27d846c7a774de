#pragma once
// Voice calls (Client::StartCall): a Call is the game's handle to one call the current user takes part
// in; CallInfoHandle and VoiceStateHandle are read-only snapshots of a call seen from outside it (a
// lobby's call, LobbyHandle::GetCallInfoHandle) and of one participant's voice state.
//
// Threads (docs/voice.md): the status, participant, speaking and voice-state callbacks run from
// RunCallbacks() on the game's thread. The audio callbacks of Client::StartCallWithAudioCallbacks run on
// the SDK's audio thread every 20 ms and must return quickly. Call's methods may be called from any
// thread.
//
// Values out of range are clamped to the documented range and the clamp is logged (Warning) through
// the Client's log callbacks; the Python binding raises ValidationError instead.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace platformpp {

// How a call decides when to transmit the microphone.
enum class AudioModeType : int32_t {
    MODE_UNINIT = 0,  // never returned by a call; SetAudioMode ignores it (logged)
    MODE_VAD = 1,     // voice activity detection (the VAD threshold)
    MODE_PTT = 2,     // push-to-talk (SetPTTActive)
};

namespace detail {
struct CallState;
struct VoiceStateData;
struct CallInfoData;
}  // namespace detail

// One participant's self mute and self deaf, as the Gateway last reported them. A snapshot.
class VoiceStateHandle {
public:
    static const VoiceStateHandle nullobj;

    explicit VoiceStateHandle(std::shared_ptr<const detail::VoiceStateData> data) noexcept;  // SDK-internal
    VoiceStateHandle(const VoiceStateHandle&) = default;
    VoiceStateHandle& operator=(const VoiceStateHandle&) = default;
    VoiceStateHandle(VoiceStateHandle&&) noexcept = default;
    VoiceStateHandle& operator=(VoiceStateHandle&&) noexcept = default;
    ~VoiceStateHandle() = default;

    explicit operator bool() const noexcept { return data_ != nullptr; }

    bool SelfDeaf() const;
    bool SelfMute() const;

private:
    const detail::VoiceStateData& Data() const;
    std::shared_ptr<const detail::VoiceStateData> data_;
};

// The voice activity threshold of a call: automatic (follows the noise floor) or fixed, in dBFS
// ([-100, 0]; default -60). Movable, not copyable (as the platform's SDK declares it).
class VADThresholdSettings {
public:
    static const VADThresholdSettings nullobj;

    VADThresholdSettings() = default;
    VADThresholdSettings(const VADThresholdSettings&) = delete;
    VADThresholdSettings& operator=(const VADThresholdSettings&) = delete;
    VADThresholdSettings(VADThresholdSettings&& other) noexcept;
    VADThresholdSettings& operator=(VADThresholdSettings&& other) noexcept;
    ~VADThresholdSettings() = default;

    explicit operator bool() const noexcept { return valid_; }

    float VadThreshold() const;
    void SetVadThreshold(float VadThreshold);
    bool Automatic() const;
    void SetAutomatic(bool Automatic);

private:
    struct NullTag {};
    explicit VADThresholdSettings(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    float threshold_ = -60.0f;
    bool automatic_ = false;
};

// A call seen from outside (LobbyHandle::GetCallInfoHandle): who is in it and their voice states.
// A snapshot of the Client's voice-state cache at the moment it was taken.
class CallInfoHandle {
public:
    static const CallInfoHandle nullobj;

    explicit CallInfoHandle(std::shared_ptr<const detail::CallInfoData> data) noexcept;  // SDK-internal
    CallInfoHandle(const CallInfoHandle&) = default;
    CallInfoHandle& operator=(const CallInfoHandle&) = default;
    CallInfoHandle(CallInfoHandle&&) noexcept = default;
    CallInfoHandle& operator=(CallInfoHandle&&) noexcept = default;
    ~CallInfoHandle() = default;

    explicit operator bool() const noexcept { return data_ != nullptr; }

    uint64_t ChannelId() const;  // the lobby id for a lobby's call
    uint64_t GuildId() const;    // 0 for lobby and DM calls
    std::vector<uint64_t> GetParticipants() const;
    std::optional<VoiceStateHandle> GetVoiceStateHandle(uint64_t userId) const;

private:
    const detail::CallInfoData& Data() const;
    std::shared_ptr<const detail::CallInfoData> data_;
};

// The current user's call in one channel (a lobby, a guild voice channel, a DM). A live handle: copies
// refer to the same call; after the call ended (Disconnected) the setters do nothing and the getters
// return the last values.
class Call {
public:
    enum class Status : int32_t {
        Disconnected = 0,
        Joining = 1,             // asked the Gateway to join (opcode 4), waiting for the voice server
        Connecting = 2,          // connecting to the voice server
        SignalingConnected = 3,  // the voice gateway answered; media not set up yet
        Connected = 4,           // media flows, end-to-end encrypted when the call offers it
        Reconnecting = 5,        // the voice connection dropped; resuming on its own
        Disconnecting = 6,
    };
    enum class Error : int32_t {
        None = 0,
        SignalingConnectionFailed = 1,  // the voice gateway could not be reached
        SignalingUnexpectedClose = 2,   // the voice gateway closed the call (errorDetail: the close code)
        VoiceConnectionFailed = 3,      // the media connection (UDP) could not be set up
        JoinTimeout = 4,                // the Gateway never answered the join (refused or unreachable)
        Forbidden = 5,                  // the voice server refused us (errorDetail: the close code)
    };

    using OnVoiceStateChanged = std::function<void(uint64_t userId)>;
    using OnParticipantChanged = std::function<void(uint64_t userId, bool added)>;
    using OnSpeakingStatusChanged = std::function<void(uint64_t userId, bool isPlayingSound)>;
    using OnStatusChanged = std::function<void(Call::Status status, Call::Error error, int32_t errorDetail)>;

    static const Call nullobj;

    explicit Call(std::shared_ptr<detail::CallState> state) noexcept;  // SDK-internal
    Call(const Call&) = default;
    Call& operator=(const Call&) = default;
    Call(Call&&) noexcept = default;
    Call& operator=(Call&&) noexcept = default;
    ~Call() = default;

    explicit operator bool() const noexcept { return state_ != nullptr; }

    static std::string StatusToString(Call::Status type);
    static std::string ErrorToString(Call::Error type);

    Call::Status GetStatus() const;
    // (status, error, errorDetail) on every change of status.
    void SetStatusChangedCallback(Call::OnStatusChanged cb);
    uint64_t GetChannelId() const;
    uint64_t GetGuildId() const;  // 0 for lobby and DM calls
    // The users in the call (the Gateway's voice states), the current user included once joined.
    std::vector<uint64_t> GetParticipants() const;
    void SetParticipantChangedCallback(Call::OnParticipantChanged cb);

    // Self mute: stop sending. Self deaf: stop sending and hearing. Both are shown to the others.
    bool GetSelfMute();
    void SetSelfMute(bool mute);
    bool GetSelfDeaf();
    void SetSelfDeaf(bool deaf);
    // Local mute: this Client stops playing userId's audio (the others still hear them).
    bool GetLocalMute(uint64_t userId);
    void SetLocalMute(uint64_t userId, bool mute);
    // Playback volume of one participant for this Client only, in percent [0, 200] (default 100).
    float GetParticipantVolume(uint64_t userId);
    void SetParticipantVolume(uint64_t userId, float volume);

    AudioModeType GetAudioMode();
    void SetAudioMode(AudioModeType audioMode);
    bool GetPTTActive();
    void SetPTTActive(bool active);
    // How long transmission goes on after push-to-talk is released, in ms [0, 2000].
    uint32_t GetPTTReleaseDelay();
    void SetPTTReleaseDelay(uint32_t releaseDelayMs);
    VADThresholdSettings GetVADThreshold() const;
    // threshold in dBFS [-100, 0]; automatic: follow the noise floor (threshold is kept for later).
    void SetVADThreshold(bool automatic, float threshold);

    // A participant (or the current user) started or stopped playing sound.
    void SetSpeakingStatusChangedCallback(Call::OnSpeakingStatusChanged cb);
    std::optional<VoiceStateHandle> GetVoiceStateHandle(uint64_t userId) const;
    // A participant's voice state (self mute, self deaf) changed.
    void SetOnVoiceStateChangedCallback(Call::OnVoiceStateChanged cb);

    // End-to-end encryption (DAVE): the protocol version in use (0 when the call is only transport
    // encrypted), the group's epoch authenticator (the same for every member when all see the same
    // group), and the pairwise 45-digit verification code with another member, to compare out of band.
    uint16_t GetE2eeProtocolVersion() const;
    std::optional<std::string> GetE2eeEpochAuthenticator() const;
    std::optional<std::string> GetE2eeVerificationCode(uint64_t userId) const;

private:
    detail::CallState& State() const;
    std::shared_ptr<detail::CallState> state_;
};

}  // namespace platformpp
