// One voice connection: the voice gateway (WebSocket, version 8) and the UDP media socket of one call,
// with transport encryption and DAVE end-to-end encryption (voice/e2ee). Private to the core.
//
// Gateway: Hello -> Identify (max_dave_protocol_version) -> Ready (ssrc, ip, port, modes) -> IP
// discovery over UDP -> Select Protocol -> Session Description (mode, secret_key, DAVE version); then
// heartbeats at the server's interval carrying seq_ack, Speaking, Clients Connect / Client Disconnect,
// and the DAVE opcodes 21-31 (JSON and binary) fed to a dave::Session. A dropped socket is resumed
// (Resume with seq_ack; the server replays what was missed) after a backoff with full jitter; a
// session the server no longer knows (4006, 4009) is identified afresh; 4004, 4011, 4014, 4016, 4017,
// 4022 and protocol errors stop the connection for good.
//
// Threads: all of its work runs on the io_context's thread (the core's network thread). Its public
// methods may be called from any thread; the events are called on the network thread and must not
// block.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/log_sink.hpp"

namespace platformpp::voice {

struct VoiceConnectionOptions {
    std::string endpoint;       // host:port, as VOICE_SERVER_UPDATE carries it (no scheme)
    bool secure = false;        // wss:// (the platform) or ws:// (the emulator on loopback)
    std::uint64_t serverId = 0;  // guild id, or the channel id for DMs and lobby calls
    std::uint64_t channelId = 0;
    std::uint64_t userId = 0;
    std::string sessionId;      // the Gateway session's id
    std::string token;          // the voice token (never logged)
    std::uint16_t maxDaveProtocolVersion = 1;
    std::chrono::milliseconds initialBackoff{250};
    std::chrono::milliseconds maxBackoff{10'000};
    std::chrono::milliseconds connectTimeout{5'000};
    std::chrono::milliseconds rtcpInterval{5'000};
};

enum class VoiceConnectionState {
    Disconnected,   // not started, stopped, or stopped for good (see the close code)
    Connecting,     // the first connection: handshake, Identify, discovery, until Session Description
    Connected,      // media flows (transport keys known)
    Reconnecting,   // lost: waiting out the backoff, resuming or identifying again
    Disconnecting,  // Stop(): closing with 1000
};
const char* ToString(VoiceConnectionState state);

struct VoiceConnectionEvents {
    // closeCode: the voice gateway's close code behind the change (0 if none); detail never holds secrets.
    std::function<void(VoiceConnectionState state, int closeCode, const std::string& detail)> onState;
    std::function<void(std::uint64_t userId, bool joined)> onParticipant;
    // Speaking (op 5) of another participant: flags 0 when they stopped.
    std::function<void(std::uint64_t userId, std::uint32_t ssrc, int flags)> onRemoteSpeaking;
    // One received media frame after transport and DAVE decryption: an Opus packet (or a silence frame).
    std::function<void(std::uint64_t userId, std::uint16_t sequence, std::uint32_t timestamp,
                       const std::uint8_t* frame, std::size_t size)>
        onAudioFrame;
    core::LogSink log;
};

struct VoiceConnectionStats {
    std::uint64_t packetsSent = 0, packetsReceived = 0, bytesSent = 0;
    std::uint64_t transportFailures = 0;  // packets that did not authenticate
    std::uint64_t daveWaitingForKey = 0;  // frames dropped before the DAVE group gave us a key
    std::uint64_t daveEncryptFailures = 0, daveDecryptFailures = 0;
    std::uint64_t unknownSsrc = 0;        // media from an SSRC no Speaking message named yet
    std::uint64_t rtcpSent = 0, rtcpReceived = 0;
    std::uint64_t resumes = 0, identifies = 0;
    std::uint64_t framesDroppedBehind = 0;  // frames to send dropped: the network thread was 160 ms behind
};

struct VoiceE2eeInfo {
    std::uint16_t protocolVersion = 0;          // 0: transport encryption only
    std::optional<std::uint64_t> epoch;
    std::optional<std::string> epochAuthenticatorCode;
    std::vector<std::uint64_t> members;
};

class VoiceConnection {
public:
    // tls: used when options.secure; may be nullptr otherwise; must outlive the connection.
    static std::shared_ptr<VoiceConnection> Create(boost::asio::io_context& io, boost::asio::ssl::context* tls,
                                                   VoiceConnectionOptions options, VoiceConnectionEvents events);
    virtual ~VoiceConnection() = default;

    virtual void Start() = 0;
    virtual void Stop() = 0;  // closes with 1000: the server ends the session; no reconnection
    // Queues one 20 ms Opus frame (or a silence frame) for sending: DAVE-encrypted, RTP-framed,
    // transport-sealed. Dropped (and counted) while not Connected or while DAVE has no key yet, and
    // when the network thread is 160 ms behind. Copies the frame; allocates nothing (audio thread).
    virtual void SendOpusFrame(const std::uint8_t* frame, std::size_t size) = 0;
    // Speaking (op 5) with the microphone flag, or 0. The relay forwards nothing before the first one.
    virtual void SetSpeaking(bool speaking) = 0;

    virtual VoiceConnectionState State() const = 0;
    virtual VoiceConnectionStats Stats() const = 0;
    virtual VoiceE2eeInfo E2ee() const = 0;
    // The 45-digit pairwise verification code with another member; nullopt when they are not one.
    virtual std::optional<std::string> VerificationCode(std::uint64_t userId) const = 0;
};

}  // namespace platformpp::voice
