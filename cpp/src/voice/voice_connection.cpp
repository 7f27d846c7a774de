#include "voice/voice_connection.hpp"

#include <boost/asio/ip/udp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <atomic>
#include <mutex>
#include <random>
#include <unordered_map>

#include "net/gateway_policy.hpp"
#include "net/json_websocket_session.hpp"
#include "voice/e2ee/dave_session.hpp"
#include "voice/frame_handoff.hpp"
#include "voice/rtp_transport.hpp"

namespace platformpp::voice {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace json = boost::json;
namespace dave = e2ee::dave;
using boost::system::error_code;
using udp = asio::ip::udp;

// Voice gateway opcodes (version 8).
enum Op : int {
    kIdentify = 0, kSelectProtocol = 1, kReady = 2, kHeartbeat = 3, kSessionDescription = 4, kSpeaking = 5,
    kHeartbeatAck = 6, kResume = 7, kHello = 8, kResumed = 9, kClientsConnect = 11, kClientDisconnect = 13,
    kDavePrepareTransition = 21, kDaveExecuteTransition = 22, kDaveTransitionReady = 23, kDavePrepareEpoch = 24,
    kDaveInvalidCommitWelcome = 31,
};
constexpr int kSpeakingMicrophone = 1;
constexpr int kDiscoveryAttempts = 5;
constexpr auto kDiscoveryRetry = std::chrono::milliseconds(500);
constexpr std::size_t kPacketBuffer = 2048;

// What the close code means for the next step.
enum class AfterClose { Resume, Identify, Stop };
AfterClose Classify(int code) {
    switch (code) {
        case 4006:  // session no longer valid
        case 4009:  // session timeout
            return AfterClose::Identify;
        case 4001: case 4002: case 4003: case 4004: case 4005: case 4011: case 4012: case 4014: case 4016:
        case 4017: case 4020: case 4021: case 4022:
            return AfterClose::Stop;
        default:  // 4015 (voice server crashed), abnormal closures, network errors
            return AfterClose::Resume;
    }
}

std::uint64_t ParseSnowflake(const json::value& v) {
    if (v.is_string()) return std::stoull(std::string(v.as_string()));
    if (v.is_int64()) return static_cast<std::uint64_t>(v.as_int64());
    if (v.is_uint64()) return v.as_uint64();
    throw std::invalid_argument("not a snowflake");
}

std::int64_t IntField(const json::object& o, const char* name) {
    const auto* v = o.if_contains(name);
    if (v == nullptr || !(v->is_int64() || v->is_uint64())) throw std::invalid_argument(std::string(name) + ": not an integer");
    return v->to_number<std::int64_t>();
}

class Connection final : public VoiceConnection, public net::JsonWebSocketSession<Connection> {
public:
    Connection(asio::io_context& io, asio::ssl::context* tls, VoiceConnectionOptions options,
               VoiceConnectionEvents events)
        : JsonWebSocketSession(io, tls, std::chrono::milliseconds(13750)), options_(std::move(options)),
          events_(std::move(events)), udp_(io), retryTimer_(io), discoveryTimer_(io), rtcpTimer_(io),
          random_(std::random_device{}()) {}

    void Start() override {
        asio::post(io_, [self = shared_from_this()] {
            if (self->running_) return;
            self->running_ = true;
            self->Connect();
        });
    }
    void Stop() override {
        asio::post(io_, [self = shared_from_this()] { self->DoStop(); });
    }
    void SendOpusFrame(const std::uint8_t* frame, std::size_t size) override {
        if (!outgoing_.Push(frame, size)) return Count([](auto& s) { ++s.framesDroppedBehind; });
        // One drain in flight at a time: it clears the flag before it reads, so a frame queued after
        // its last read posts the next one.
        if (!drainPosted_.exchange(true, std::memory_order_acq_rel)) asio::post(io_, DrainOutgoing{shared_from_this()});
    }
    void SetSpeaking(bool speaking) override {
        asio::post(io_, [self = shared_from_this(), speaking] {
            if (self->speaking_ == speaking) return;
            self->speaking_ = speaking;
            self->SendSpeaking();
        });
    }
    VoiceConnectionState State() const override { return state_.load(); }
    VoiceConnectionStats Stats() const override {
        std::lock_guard<std::mutex> lock(statsMutex_);
        return stats_;
    }
    VoiceE2eeInfo E2ee() const override {
        std::lock_guard<std::mutex> lock(sessionMutex_);
        VoiceE2eeInfo info;
        if (!session_) return info;
        info.protocolVersion = session_->protocol_version();
        info.epoch = session_->epoch();
        info.epochAuthenticatorCode = session_->epoch_authenticator_code();
        info.members = session_->member_user_ids();
        return info;
    }
    std::optional<std::string> VerificationCode(std::uint64_t userId) const override {
        std::lock_guard<std::mutex> lock(sessionMutex_);
        if (!session_) return std::nullopt;
        try {
            return session_->verification_code(userId);
        } catch (const e2ee::Error&) {
            return std::nullopt;
        }
    }

private:
    friend JsonWebSocketSession;

    void Log(LoggingSeverity severity, const std::string& line) const {
        if (events_.log) events_.log(severity, "voice: " + line);
    }
    template <class F>
    void Count(F&& f) {
        std::lock_guard<std::mutex> lock(statsMutex_);
        f(stats_);
    }
    void SetState(VoiceConnectionState state, int code, const std::string& detail) {
        if (state_.exchange(state) == state) return;
        if (events_.onState) events_.onState(state, code, detail);
    }

    // --- connecting -------------------------------------------------------------------------------
    void Connect() {
        const bool resuming = resumable_;
        auto sock = NewSocket(options_.secure);
        if (!everConnected_) SetState(VoiceConnectionState::Connecting, 0, "identifying");
        const auto colon = options_.endpoint.rfind(':');
        const std::string host = colon == std::string::npos ? options_.endpoint : options_.endpoint.substr(0, colon);
        const std::string port = colon == std::string::npos ? (options_.secure ? "443" : "80")
                                                            : options_.endpoint.substr(colon + 1);
        Log(LoggingSeverity::Info, std::string("connecting to the voice gateway at ") + options_.endpoint +
                                       (resuming ? " to resume" : ""));
        Open(sock, host, port, host, "/?v=8", options_.connectTimeout);
    }

    template <class Stream>
    void Configure(Stream& ws) {
        ws.read_message_max(1 << 20);
    }

    void Opened(const SocketPtr&) {}

    // --- reading the gateway ------------------------------------------------------------------------
    void ReadFailed(const SocketPtr& sock, int code, const std::string& detail) {
        Lost(sock, code, detail.empty() ? "closed" : detail);
    }

    void OnMessage(const SocketPtr& sock, const std::string& message, bool binary) {
        try {
            if (binary) {
                HandleBinary(message);
            } else {
                json::value payload = json::parse(message);
                if (!payload.is_object()) throw std::invalid_argument("a voice gateway payload is not a JSON object");
                Handle(sock, payload.as_object());
            }
        } catch (const std::exception& e) {
            // A message we cannot use is logged and skipped: the server stays the judge of the session.
            Log(LoggingSeverity::Warning, std::string("ignored a voice gateway message: ") + e.what());
        }
    }

    void Handle(const SocketPtr& sock, const json::object& payload) {
        const int op = static_cast<int>(IntField(payload, "op"));
        if (const auto* seq = payload.if_contains("seq"); seq && seq->is_number()) seqAck_ = seq->to_number<int>();
        static const json::object kEmpty;
        const json::value* dv = payload.if_contains("d");
        const json::object& d = dv && dv->is_object() ? dv->as_object() : kEmpty;
        switch (op) {
            case kHello: return OnHello(sock, d);
            case kReady: return OnReady(d);
            case kHeartbeatAck: return Acknowledged();
            case kSessionDescription: return OnSessionDescription(d);
            case kResumed:
                Log(LoggingSeverity::Info, "resumed");
                Count([](auto& s) { ++s.resumes; });
                backoffAttempt_ = 0;
                if (cipher_) SetState(VoiceConnectionState::Connected, 0, "resumed");
                return;
            case kSpeaking: {
                const auto user = ParseSnowflake(d.at("user_id"));
                const auto ssrc = static_cast<std::uint32_t>(IntField(d, "ssrc"));
                const int flags = static_cast<int>(IntField(d, "speaking"));
                {
                    std::lock_guard<std::mutex> lock(ssrcMutex_);
                    ssrcUsers_[ssrc] = user;
                }
                if (events_.onRemoteSpeaking) events_.onRemoteSpeaking(user, ssrc, flags);
                return;
            }
            case kClientsConnect: {
                std::vector<std::uint64_t> users;
                for (const auto& u : d.at("user_ids").as_array()) users.push_back(ParseSnowflake(u));
                {
                    std::lock_guard<std::mutex> lock(sessionMutex_);
                    if (session_) session_->on_clients_connect(users);
                }
                for (auto u : users)
                    if (events_.onParticipant) events_.onParticipant(u, true);
                return;
            }
            case kClientDisconnect: {
                const auto user = ParseSnowflake(d.at("user_id"));
                {
                    std::lock_guard<std::mutex> lock(sessionMutex_);
                    if (session_) session_->on_client_disconnect(user);
                }
                {
                    std::lock_guard<std::mutex> lock(ssrcMutex_);
                    for (auto it = ssrcUsers_.begin(); it != ssrcUsers_.end();)
                        it = it->second == user ? ssrcUsers_.erase(it) : std::next(it);
                }
                if (events_.onParticipant) events_.onParticipant(user, false);
                return;
            }
            case kDavePrepareTransition: {
                const auto id = static_cast<std::uint16_t>(IntField(d, "transition_id"));
                const auto version = static_cast<std::uint16_t>(IntField(d, "protocol_version"));
                return WithSession([&](dave::Session& s) {
                    return s.on_prepare_transition(id, version, dave::Clock::now(), std::chrono::system_clock::now());
                });
            }
            case kDaveExecuteTransition: {
                const auto id = static_cast<std::uint16_t>(IntField(d, "transition_id"));
                return WithSession([&](dave::Session& s) { return s.on_execute_transition(id, dave::Clock::now()); });
            }
            case kDavePrepareEpoch: {
                const auto epoch = static_cast<std::uint64_t>(IntField(d, "epoch"));
                const auto version = static_cast<std::uint16_t>(IntField(d, "protocol_version"));
                return WithSession([&](dave::Session& s) {
                    return s.on_prepare_epoch(epoch, version, std::chrono::system_clock::now());
                });
            }
            default:
                return;  // opcodes of other features (video, code version, ...) are not ours
        }
    }

    void HandleBinary(const std::string& message) {
        if (message.size() < 3) throw std::invalid_argument("a binary voice gateway frame shorter than 3 bytes");
        seqAck_ = static_cast<std::uint8_t>(message[0]) << 8 | static_cast<std::uint8_t>(message[1]);
        const e2ee::BytesView frame(reinterpret_cast<const std::uint8_t*>(message.data()), message.size());
        WithSession([&](dave::Session& s) { return s.on_binary(frame, dave::Clock::now()); });
    }

    template <class F>
    void WithSession(F&& f) {
        std::vector<dave::Outgoing> out;
        {
            std::lock_guard<std::mutex> lock(sessionMutex_);
            if (!session_) return;
            out = f(*session_);
        }
        for (auto& o : out) {
            switch (o.kind) {
                case dave::Outgoing::Kind::Binary:
                    Write(true, std::string(o.binary.begin(), o.binary.end()));
                    break;
                case dave::Outgoing::Kind::ReadyForTransition:
                    SendJson(kDaveTransitionReady, json::object{{"transition_id", o.transition_id}});
                    break;
                case dave::Outgoing::Kind::InvalidCommitWelcome:
                    SendJson(kDaveInvalidCommitWelcome, json::object{{"transition_id", o.transition_id}});
                    break;
            }
        }
    }

    void OnHello(const SocketPtr& sock, const json::object& d) {
        HelloArrived();
        const auto interval = d.if_contains("heartbeat_interval");
        heartbeatInterval_ = std::chrono::milliseconds(interval && interval->is_number() ? interval->to_number<std::int64_t>() : 13750);
        if (heartbeatInterval_ < std::chrono::milliseconds(100)) heartbeatInterval_ = std::chrono::milliseconds(100);
        StartHeartbeats(sock, heartbeatInterval_);
        if (resumable_) {
            Log(LoggingSeverity::Info, "resuming the voice session");
            SendJson(kResume, json::object{{"server_id", std::to_string(options_.serverId)},
                                           {"session_id", options_.sessionId},
                                           {"token", options_.token},
                                           {"seq_ack", seqAck_}});
            return;
        }
        // A fresh session: a new DAVE session and no transport key until Session Description.
        {
            std::lock_guard<std::mutex> lock(sessionMutex_);
            session_ = std::make_unique<dave::Session>(options_.userId, options_.channelId);
        }
        {
            std::lock_guard<std::mutex> lock(ssrcMutex_);
            ssrcUsers_.clear();
        }
        cipher_.reset();
        seqAck_ = -1;
        Count([](auto& s) { ++s.identifies; });
        SendJson(kIdentify, json::object{{"server_id", std::to_string(options_.serverId)},
                                         {"user_id", std::to_string(options_.userId)},
                                         {"session_id", options_.sessionId},
                                         {"token", options_.token},
                                         {"max_dave_protocol_version", options_.maxDaveProtocolVersion}});
    }

    void OnReady(const json::object& d) {
        ssrc_ = static_cast<std::uint32_t>(IntField(d, "ssrc"));
        std::vector<std::string> modes;
        for (const auto& m : d.at("modes").as_array())
            if (m.is_string()) modes.emplace_back(m.as_string());
        const auto mode = ChooseTransportMode(modes);
        if (!mode) {
            Log(LoggingSeverity::Error, "the voice server offers no transport encryption mode we support");
            return Fail(4016, "no supported encryption mode offered");
        }
        mode_ = *mode;
        resumable_ = true;
        const std::string ip(d.at("ip").as_string());
        const auto port = static_cast<std::uint16_t>(IntField(d, "port"));
        error_code ec;
        if (udp_.is_open()) udp_.close(ec);
        udp_.open(udp::v4(), ec);
        if (!ec) udp_.connect(udp::endpoint(asio::ip::make_address(ip, ec), port), ec);
        if (ec) return Fail(0, "UDP: " + ec.message());
        ++udpGeneration_;
        ReceiveUdp(udpGeneration_);
        discoveryAttempts_ = 0;
        SendDiscovery(udpGeneration_);
    }

    // --- UDP: discovery and media -------------------------------------------------------------------
    void SendDiscovery(std::uint64_t generation) {
        if (generation != udpGeneration_ || discovered_) return;
        if (++discoveryAttempts_ > kDiscoveryAttempts) return Lost(socket_, 0, "IP discovery: no answer");
        const auto request = MakeDiscoveryRequest(ssrc_);
        error_code ec;
        udp_.send(asio::buffer(request), 0, ec);
        discoveryTimer_.expires_after(kDiscoveryRetry);
        discoveryTimer_.async_wait([self = shared_from_this(), generation](error_code e) {
            if (!e) self->SendDiscovery(generation);
        });
    }

    void ReceiveUdp(std::uint64_t generation) {
        udp_.async_receive(asio::buffer(udpIn_), [self = shared_from_this(), generation](error_code ec, std::size_t n) {
            if (generation != self->udpGeneration_ || ec == asio::error::operation_aborted) return;
            if (!ec) self->OnDatagram(n);
            if (self->udp_.is_open()) self->ReceiveUdp(generation);
        });
    }

    void OnDatagram(std::size_t n) {
        const std::uint8_t* p = udpIn_.data();
        if (!discovered_ && n == kDiscoveryPacketSize) {
            const auto found = ParseDiscoveryResponse(p, n);
            if (!found || found->ssrc != ssrc_) return;
            discovered_ = true;
            discoveryTimer_.cancel();
            SendJson(kSelectProtocol, json::object{{"protocol", "udp"},
                                                   {"data", json::object{{"address", found->address},
                                                                         {"port", found->port},
                                                                         {"mode", std::string(ToString(mode_))}}}});
            return;
        }
        if (!cipher_) return;
        if (IsRtcp(p, n)) {
            if (cipher_->Open(p, n, kRtcpClearHeaderSize, plain_.data(), plain_.size()))
                Count([](auto& s) { ++s.rtcpReceived; });
            else
                Count([](auto& s) { ++s.transportFailures; });
            return;
        }
        const auto rtp = ParseRtp(p, n);
        if (!rtp) return;
        const auto opened = cipher_->Open(p, n, rtp->clearHeaderSize, plain_.data(), plain_.size());
        if (!opened) return Count([](auto& s) { ++s.transportFailures; });
        const std::size_t skip = RtpExtensionBodySize(p, *rtp);
        if (skip > *opened) return Count([](auto& s) { ++s.transportFailures; });
        std::uint64_t user = 0;
        {
            std::lock_guard<std::mutex> lock(ssrcMutex_);
            auto it = ssrcUsers_.find(rtp->header.ssrc);
            if (it != ssrcUsers_.end()) user = it->second;
        }
        if (user == 0) return Count([](auto& s) { ++s.unknownSsrc; });
        dave::FrameResult result;
        {
            std::lock_guard<std::mutex> lock(sessionMutex_);
            if (!session_) return;
            result = session_->decrypt(user, dave::MediaType::Audio, e2ee::BytesView(plain_.data() + skip, *opened - skip),
                                       frame_.data(), frame_.size(), dave::Clock::now());
        }
        if (!result.ok()) {
            Count([](auto& s) { ++s.daveDecryptFailures; });
            return;
        }
        Count([](auto& s) { ++s.packetsReceived; });
        if (events_.onAudioFrame)
            events_.onAudioFrame(user, rtp->header.sequence, rtp->header.timestamp, frame_.data(), result.size);
    }

    // The posted drain of outgoing_ (its memory: handlerSlot_).
    struct DrainOutgoing {
        std::shared_ptr<Connection> self;
        using allocator_type = HandlerSlotAllocator<void>;
        allocator_type get_allocator() const noexcept { return allocator_type(self->handlerSlot_); }
        void operator()() const {
            // A read-modify-write: it reads the producer's exchange, so every frame queued before that
            // exchange (which saw a drain pending and did not post) is visible to the Drain below.
            self->drainPosted_.exchange(false, std::memory_order_acq_rel);
            self->outgoing_.Drain([&](const std::uint8_t* frame, std::size_t size) { self->DoSendOpus(frame, size); });
        }
    };

    void DoSendOpus(const std::uint8_t* frame, std::size_t frameSize) {
        if (!cipher_ || state_.load() != VoiceConnectionState::Connected) return;
        dave::FrameResult result;
        {
            std::lock_guard<std::mutex> lock(sessionMutex_);
            if (!session_) return;
            result = session_->encrypt(dave::Codec::Opus, e2ee::BytesView(frame, frameSize), daveOut_.data(),
                                       daveOut_.size());
        }
        if (result.status == dave::FrameStatus::NoKey) return Count([](auto& s) { ++s.daveWaitingForKey; });
        if (!result.ok()) return Count([](auto& s) { ++s.daveEncryptFailures; });
        std::uint8_t header[kRtpFixedHeaderSize];
        WriteRtpHeader(RtpHeader{kOpusPayloadType, false, sequence_++, timestamp_, ssrc_}, header);
        timestamp_ += 960;
        const std::size_t size = cipher_->Seal(header, sizeof header, daveOut_.data(), result.size, packetOut_.data(),
                                               packetOut_.size());
        if (size == 0) return;
        error_code ec;
        udp_.send(asio::buffer(packetOut_.data(), size), 0, ec);
        if (ec) return;
        ++rtpPackets_;
        rtpOctets_ += static_cast<std::uint32_t>(result.size);
        Count([&](auto& s) {
            ++s.packetsSent;
            s.bytesSent += size;
        });
    }

    void ScheduleRtcp(std::uint64_t generation) {
        rtcpTimer_.expires_after(options_.rtcpInterval);
        rtcpTimer_.async_wait([self = shared_from_this(), generation](error_code ec) {
            if (ec || generation != self->udpGeneration_ || !self->cipher_) return;
            if (self->rtpPackets_ > 0) {
                const auto report = MakeSenderReport({self->ssrc_, NtpNow(), self->timestamp_, self->rtpPackets_,
                                                      self->rtpOctets_});
                std::array<std::uint8_t, 64> packet{};
                const auto size = self->cipher_->Seal(report.data(), kRtcpClearHeaderSize,
                                                      report.data() + kRtcpClearHeaderSize,
                                                      report.size() - kRtcpClearHeaderSize, packet.data(), packet.size());
                error_code e;
                if (size) self->udp_.send(asio::buffer(packet.data(), size), 0, e);
                if (size && !e) self->Count([](auto& s) { ++s.rtcpSent; });
            }
            self->ScheduleRtcp(generation);
        });
    }

    void OnSessionDescription(const json::object& d) {
        const auto& keyArray = d.at("secret_key").as_array();
        if (keyArray.size() != 32) throw std::invalid_argument("secret_key: must hold 32 numbers");
        TransportCipher::Key key{};
        for (std::size_t i = 0; i < 32; ++i) key[i] = static_cast<std::uint8_t>(keyArray[i].to_number<int>());
        const auto mode = ParseTransportMode(std::string(d.at("mode").as_string()));
        if (!mode) throw std::invalid_argument("mode: not one we selected");
        cipher_ = std::make_unique<TransportCipher>(*mode, key);
        key.fill(0);
        const auto* version = d.if_contains("dave_protocol_version");
        const auto daveVersion = static_cast<std::uint16_t>(version && version->is_number() ? version->to_number<int>() : 0);
        WithSession([&](dave::Session& s) { return s.on_select_protocol_ack(daveVersion, std::chrono::system_clock::now()); });
        backoffAttempt_ = 0;
        everConnected_ = true;
        ScheduleRtcp(udpGeneration_);
        if (speaking_) SendSpeaking();  // a new session: the relay forwards nothing before Speaking
        Log(LoggingSeverity::Info, std::string("connected: ") + std::string(ToString(*mode)) + ", DAVE version " +
                                       std::to_string(daveVersion));
        SetState(VoiceConnectionState::Connected, 0, "session description");
    }

    // --- writing ------------------------------------------------------------------------------------
    void SendJson(int op, json::value d) { Write(false, json::serialize(json::object{{"op", op}, {"d", std::move(d)}})); }

    void SendSpeaking() {
        if (!socket_ || !socket_->open || !cipher_) return;
        SendJson(kSpeaking, json::object{{"speaking", speaking_ ? kSpeakingMicrophone : 0}, {"delay", 0}, {"ssrc", ssrc_}});
    }

    void Write(bool binary, std::string payload) {
        auto sock = socket_;
        if (!sock || !sock->open) return;
        Send(sock, std::move(payload), binary, false);
    }

    void Beat(const SocketPtr&) {
        const auto nonce = std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::steady_clock::now().time_since_epoch()).count();
        SendJson(kHeartbeat, json::object{{"t", nonce}, {"seq_ack", seqAck_}});
    }

    void Zombie(const SocketPtr& sock) { Lost(sock, 0, "no heartbeat ACK (zombie connection)"); }

    // --- losing and stopping --------------------------------------------------------------------------

    void Lost(const SocketPtr& sock, int code, const std::string& detail) {
        if (!sock || sock != socket_) return;
        socket_.reset();
        CloseTransport(*sock);
        heartbeatTimer_.cancel();
        connectTimer_.cancel();
        if (!running_) return;
        const auto next = code == 0 ? AfterClose::Resume : Classify(code);
        Log(LoggingSeverity::Info, "voice gateway lost (" + std::to_string(code) + ": " + detail + ")");
        if (next == AfterClose::Stop) return Fail(code, detail);
        if (next == AfterClose::Identify || !resumable_) ForgetSession();
        SetState(VoiceConnectionState::Reconnecting, code, detail);
        const auto wait = net::BackoffDelay(options_.initialBackoff, options_.maxBackoff, backoffAttempt_, random_);
        ++backoffAttempt_;
        retryTimer_.expires_after(wait);
        retryTimer_.async_wait([self = shared_from_this()](error_code ec) {
            if (!ec && self->running_ && !self->socket_) self->Connect();
        });
    }

    void ForgetSession() {
        resumable_ = false;
        discovered_ = false;
        cipher_.reset();
        ++udpGeneration_;
        discoveryTimer_.cancel();
        rtcpTimer_.cancel();
        error_code ec;
        if (udp_.is_open()) udp_.close(ec);
    }

    void Fail(int code, const std::string& detail) {
        running_ = false;
        if (socket_) {
            auto sock = std::exchange(socket_, nullptr);
            CloseTransport(*sock);
        }
        retryTimer_.cancel();
        heartbeatTimer_.cancel();
        connectTimer_.cancel();
        ForgetSession();
        Log(LoggingSeverity::Warning, "voice connection ended (" + std::to_string(code) + ": " + detail + ")");
        SetState(VoiceConnectionState::Disconnected, code, detail);
    }

    void DoStop() {
        if (!running_) return;
        running_ = false;
        retryTimer_.cancel();
        heartbeatTimer_.cancel();
        connectTimer_.cancel();
        ForgetSession();
        auto sock = std::exchange(socket_, nullptr);
        if (sock && sock->open) {
            SetState(VoiceConnectionState::Disconnecting, 1000, "stopped");
            CloseWith(sock, websocket::close_code::normal, [self = shared_from_this(), sock](error_code) {
                CloseTransport(*sock);
                self->SetState(VoiceConnectionState::Disconnected, 1000, "stopped");
            });
            return;
        }
        if (sock) CloseTransport(*sock);
        SetState(VoiceConnectionState::Disconnected, 1000, "stopped");
    }

    VoiceConnectionOptions options_;
    VoiceConnectionEvents events_;
    udp::socket udp_;
    asio::steady_timer retryTimer_, discoveryTimer_, rtcpTimer_;
    std::mt19937_64 random_;

    // Network thread only.
    bool running_ = false, resumable_ = false, discovered_ = false;
    bool everConnected_ = false, speaking_ = false;
    unsigned backoffAttempt_ = 0;
    int discoveryAttempts_ = 0;
    int seqAck_ = -1;
    std::uint32_t ssrc_ = 0, timestamp_ = 0, rtpPackets_ = 0, rtpOctets_ = 0;
    std::uint16_t sequence_ = 0;
    TransportMode mode_ = TransportMode::Aes256GcmRtpSize;
    std::unique_ptr<TransportCipher> cipher_;
    std::uint64_t udpGeneration_ = 0;
    std::array<std::uint8_t, kPacketBuffer> udpIn_{}, plain_{}, frame_{}, daveOut_{}, packetOut_{};
    // Audio thread -> network thread (SendOpusFrame).
    FrameRing outgoing_;
    std::atomic<bool> drainPosted_{false};
    std::shared_ptr<HandlerSlot> handlerSlot_ = std::make_shared<HandlerSlot>();

    // Shared with other threads.
    std::atomic<VoiceConnectionState> state_{VoiceConnectionState::Disconnected};
    mutable std::mutex sessionMutex_;  // session_: verification codes are read from other threads
    std::unique_ptr<dave::Session> session_;
    mutable std::mutex ssrcMutex_;
    std::unordered_map<std::uint32_t, std::uint64_t> ssrcUsers_;
    mutable std::mutex statsMutex_;
    VoiceConnectionStats stats_;
};

}  // namespace

const char* ToString(VoiceConnectionState state) {
    switch (state) {
        case VoiceConnectionState::Disconnected: return "Disconnected";
        case VoiceConnectionState::Connecting: return "Connecting";
        case VoiceConnectionState::Connected: return "Connected";
        case VoiceConnectionState::Reconnecting: return "Reconnecting";
        case VoiceConnectionState::Disconnecting: return "Disconnecting";
    }
    return "Unknown";
}

std::shared_ptr<VoiceConnection> VoiceConnection::Create(asio::io_context& io, asio::ssl::context* tls,
                                                         VoiceConnectionOptions options, VoiceConnectionEvents events) {
    if (options.secure && tls == nullptr) throw std::invalid_argument("tls: required for a secure voice endpoint");
    return std::make_shared<Connection>(io, tls, std::move(options), std::move(events));
}

}  // namespace platformpp::voice
