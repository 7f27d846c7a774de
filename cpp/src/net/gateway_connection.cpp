#include "net/gateway_connection.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <atomic>
#include <deque>
#include <optional>
#include <random>

#include "net/gateway_policy.hpp"
#include "net/json_websocket_session.hpp"
#include "net/url.hpp"
#include "net/zlib_stream.hpp"

namespace platformpp::net {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace json = boost::json;
using boost::system::error_code;

constexpr std::size_t kMaxPayloadBytes = 4096;  // docs/wire.md: larger client payloads are closed with 4002
constexpr uint16_t kResumableClose = 4000;      // our close when the session should stay resumable

constexpr int kDispatch = 0, kHeartbeat = 1, kIdentify = 2, kResume = 6, kReconnect = 7, kInvalidSession = 9,
              kHello = 10, kHeartbeatAck = 11;

// The Gateway's socket: its URL, its zlib stream, and the commands that wait for the send window.
struct Socket : SessionSocket {
    using SessionSocket::SessionSocket;

    Url url;
    ZlibStreamInflater inflater;
    std::deque<std::string> commands;  // commands waiting for the send window
    SendWindow window;
    std::size_t reserve = SendWindow::kLimit / 2;
};

class Gateway final : public GatewayConnection, public JsonWebSocketSession<Gateway, Socket> {
public:
    Gateway(asio::io_context& io, asio::ssl::context& tls, GatewayOptions options, GatewayEvents events)
        : JsonWebSocketSession(io, &tls, std::chrono::milliseconds(41'250)), options_(std::move(options)),
          events_(std::move(events)), retryTimer_(io), identifyTimer_(io), commandTimer_(io),
          random_(std::random_device{}()) {}

    void Start() override {
        asio::post(io_, [self = shared_from_this()] { self->DoStart(); });
    }
    void Stop() override {
        asio::post(io_, [self = shared_from_this()] { self->DoStop(); });
    }
    void UpdateToken(std::string token) override {
        asio::post(io_, [self = shared_from_this(), token = std::move(token)]() mutable {
            self->options_.token = std::move(token);
        });
    }
    void SendCommand(int op, json::value data) override {
        asio::post(io_, [self = shared_from_this(), op, data = std::move(data)]() mutable {
            self->DoSendCommand(op, std::move(data));
        });
    }
    GatewayState State() const override { return state_.load(); }

private:
    friend JsonWebSocketSession;

    // --- lifecycle ------------------------------------------------------------------------------
    void DoStart() {
        if (running_) return;
        running_ = true;
        backoffAttempt_ = 0;
        Connect();
    }

    void DoStop() {
        if (!running_ && !socket_) return;
        running_ = false;
        CancelTimers();
        ForgetSession();
        auto sock = std::exchange(socket_, nullptr);
        if (sock && sock->open) {
            SetState(GatewayState::Disconnecting, 1000, "stopped");
            Log(LoggingSeverity::Info, "Gateway: closing with 1000 (stopped)");
            CloseWith(sock, websocket::close_code::normal, [self = shared_from_this(), sock](error_code) {
                if (!self->running_) self->SetState(GatewayState::Disconnected, 1000, "stopped");
            });
            return;
        }
        if (sock) CloseTransport(*sock);
        SetState(GatewayState::Disconnected, 0, "stopped");
    }

    void Connect() {
        const bool resuming = !sessionId_.empty();
        const std::string& base = resuming && !resumeUrl_.empty() ? resumeUrl_ : options_.url;
        auto url = ParseUrl(base);
        if (!url || (url->scheme != "ws" && url->scheme != "wss")) {
            Fail(0, "the Gateway URL is not a ws:// or wss:// URL");
            return;
        }
        url->target += (url->target.find('?') == std::string::npos ? "?" : "&") + std::string("v=10&encoding=json");
        if (options_.compress) url->target += "&compress=zlib-stream";
        auto sock = NewSocket(url->Secure());
        sock->url = std::move(*url);
        SetState(GatewayState::Connecting, 0, resuming ? "resuming" : "identifying");
        Log(LoggingSeverity::Info, "Gateway: connecting to " + sock->url.scheme + "://" + sock->url.Authority() +
                                       (resuming ? " to resume" : ""));
        Open(sock, sock->url.host, std::to_string(sock->url.port), sock->url.Authority(), sock->url.target,
             options_.connectTimeout);
    }

    template <class Stream>
    void Configure(Stream& ws) {
        ws.set_option(websocket::stream_base::decorator([](websocket::request_type& request) {
            request.set(beast::http::field::user_agent, "platformpp");
        }));
    }

    void Opened(const SocketPtr&) { Log(LoggingSeverity::Info, "Gateway: connected"); }

    // --- reading --------------------------------------------------------------------------------
    void ReadFailed(const SocketPtr& sock, int code, const std::string& detail) {
        Log(LoggingSeverity::Info, (code ? "Gateway: closed by the server with code " + std::to_string(code)
                                         : std::string("Gateway: connection lost")) +
                                       (detail.empty() ? "" : " (" + detail + ")"));
        Lost(sock, code, detail);
    }

    void OnMessage(const SocketPtr& sock, std::string frame, bool binary) {
        std::optional<std::string> message = std::move(frame);
        if (binary && options_.compress) {
            error_code zec;
            message = sock->inflater.Feed(*message, zec);
            if (zec) return GiveUp(sock, "zlib-stream: " + zec.message());
        }
        if (!message) return;
        error_code ec;
        json::value payload = json::parse(*message, ec);
        if (ec || !payload.is_object()) return GiveUp(sock, "a Gateway payload is not a JSON object");
        Handle(sock, payload.as_object());
    }

    void Handle(const SocketPtr& sock, const json::object& payload) {
        const auto* opValue = payload.if_contains("op");
        if (!opValue || !opValue->is_int64()) return GiveUp(sock, "a Gateway payload has no op");
        static const json::value null;
        const auto* found = payload.if_contains("d");
        const json::value& d = found ? *found : null;
        switch (opValue->as_int64()) {
            case kHello: return OnHello(sock, d);
            case kHeartbeatAck: return Acknowledged();
            case kHeartbeat: return SendUrgent(sock, HeartbeatPayload());
            case kReconnect:
                Log(LoggingSeverity::Info, "Gateway: the server asked to reconnect");
                return Reconnect(kResumableClose, "reconnect requested", std::nullopt);
            case kInvalidSession: return OnInvalidSession(sock, d.is_bool() && d.as_bool());
            case kDispatch: return OnDispatch(payload, d);
            default: Log(LoggingSeverity::Verbose, "Gateway: ignored op " + std::to_string(opValue->as_int64()));
        }
    }

    void OnHello(const SocketPtr& sock, const json::value& d) {
        const auto* interval = d.is_object() ? d.as_object().if_contains("heartbeat_interval") : nullptr;
        error_code ec;
        const auto milliseconds = interval ? interval->to_number<int64_t>(ec) : 0;
        if (!interval || ec || milliseconds <= 0) return GiveUp(sock, "Hello without a valid heartbeat_interval");
        heartbeatInterval_ = std::chrono::milliseconds(milliseconds);
        HelloArrived();
        sock->reserve = SendWindow::HeartbeatReserve(heartbeatInterval_);
        // The first beat comes after interval × jitter, so that clients do not beat in step.
        std::uniform_real_distribution<double> jitter(0.0, 1.0);
        StartHeartbeats(sock, std::chrono::duration_cast<std::chrono::milliseconds>(heartbeatInterval_ * jitter(random_)));
        if (!sessionId_.empty()) SendResume(sock);
        else SendIdentify(sock);
    }

    void OnInvalidSession(const SocketPtr& sock, bool resumable) {
        std::uniform_int_distribution<int64_t> pick(options_.invalidSessionMinDelay.count(),
                                                    std::max(options_.invalidSessionMinDelay, options_.invalidSessionMaxDelay).count());
        const std::chrono::milliseconds wait(pick(random_));
        if (resumable) {
            Log(LoggingSeverity::Info, "Gateway: invalid session (resumable); resuming in " + std::to_string(wait.count()) + " ms");
            return Reconnect(kResumableClose, "invalid session, resumable", wait);
        }
        Log(LoggingSeverity::Info, "Gateway: invalid session (not resumable); identifying again in " +
                                       std::to_string(wait.count()) + " ms");
        ForgetSession();
        SetState(GatewayState::Connecting, 0, "invalid session");
        identifyTimer_.expires_after(wait);
        identifyTimer_.async_wait([self = shared_from_this(), sock](error_code ec) {
            if (!ec && sock == self->socket_) self->SendIdentify(sock);
        });
    }

    void OnDispatch(const json::object& payload, const json::value& d) {
        const auto* s = payload.if_contains("s");
        const auto* t = payload.if_contains("t");
        if (!t || !t->is_string()) return;
        const std::string_view type = t->as_string();
        if (s && s->is_int64()) {
            // A Resume replays what this side may already have delivered: each seq goes out once.
            if (s->as_int64() <= lastSeq_) return;
            lastSeq_ = s->as_int64();
        }
        if (type == "READY") {
            const auto& ready = d.is_object() ? d.as_object() : json::object();
            if (const auto* id = ready.if_contains("session_id"); id && id->is_string()) sessionId_ = id->as_string();
            if (const auto* url = ready.if_contains("resume_gateway_url"); url && url->is_string())
                resumeUrl_ = url->as_string();
            backoffAttempt_ = 0;
            Log(LoggingSeverity::Info, "Gateway: ready");
            // What READY carries (the current user first) is stored before anyone hears of Ready: a
            // status callback at Ready reads the user, never an empty slot.
            if (events_.onReady) events_.onReady(ready);
            SetState(GatewayState::Ready, 0, "ready");
            return;
        }
        if (type == "RESUMED") {
            backoffAttempt_ = 0;
            Log(LoggingSeverity::Info, "Gateway: resumed at seq " + std::to_string(lastSeq_));
            SetState(GatewayState::Ready, 0, "resumed");
            return;
        }
        if (events_.onDispatch) events_.onDispatch(type, d, lastSeq_);
    }

    // --- heartbeats -----------------------------------------------------------------------------
    void Beat(const SocketPtr& sock) { SendUrgent(sock, HeartbeatPayload()); }

    void Zombie(const SocketPtr&) {
        Log(LoggingSeverity::Warning, "Gateway: no heartbeat ACK since the last beat; the connection "
                                      "is a zombie, closing it and resuming");
        Reconnect(kResumableClose, "heartbeat not acknowledged", std::nullopt);
    }

    std::string HeartbeatPayload() const {
        json::object beat{{"op", kHeartbeat}, {"d", nullptr}};
        if (lastSeq_ > 0) beat["d"] = lastSeq_;
        return json::serialize(beat);
    }

    // --- sending --------------------------------------------------------------------------------
    void SendIdentify(const SocketPtr& sock) {
        json::object d{{"token", options_.token},
                       {"properties", {{"os", options_.os}, {"browser", options_.browser}, {"device", options_.device}}},
                       {"intents", options_.intents},
                       {"compress", false}};  // transport compression only
        Log(LoggingSeverity::Info, "Gateway: identifying (intents " + std::to_string(options_.intents) + ")");
        SendUrgent(sock, json::serialize(json::object{{"op", kIdentify}, {"d", std::move(d)}}));
    }

    void SendResume(const SocketPtr& sock) {
        json::object d{{"token", options_.token}, {"session_id", sessionId_}, {"seq", lastSeq_}};
        Log(LoggingSeverity::Info, "Gateway: resuming the session at seq " + std::to_string(lastSeq_));
        SendUrgent(sock, json::serialize(json::object{{"op", kResume}, {"d", std::move(d)}}));
    }

    void SendUrgent(const SocketPtr& sock, std::string payload) {
        if (payload.size() > kMaxPayloadBytes) {
            Log(LoggingSeverity::Error, "Gateway: a " + std::to_string(payload.size()) + "-byte payload exceeds 4096 bytes");
            return;
        }
        sock->window.Record(SendWindow::Clock::now());
        Send(sock, std::move(payload), false, true);
    }

    void DoSendCommand(int op, json::value data) {
        if (state_ != GatewayState::Ready || !socket_) {
            Log(LoggingSeverity::Warning, "Gateway: op " + std::to_string(op) + " dropped: not ready");
            return;
        }
        std::string payload = json::serialize(json::object{{"op", op}, {"d", std::move(data)}});
        if (payload.size() > kMaxPayloadBytes) {
            Log(LoggingSeverity::Error, "Gateway: op " + std::to_string(op) + " dropped: " +
                                            std::to_string(payload.size()) + " bytes exceed the 4096-byte limit");
            return;
        }
        socket_->commands.push_back(std::move(payload));
        PumpCommands(socket_);
    }

    // Moves waiting commands to the writer as the send window allows; waits for it otherwise.
    void PumpCommands(const SocketPtr& sock) {
        while (!sock->commands.empty()) {
            const auto now = SendWindow::Clock::now();
            const auto wait = sock->window.WaitForCommand(now, sock->reserve);
            if (wait > SendWindow::Clock::duration::zero()) {
                Log(LoggingSeverity::Verbose, "Gateway: " + std::to_string(sock->commands.size()) +
                                                  " command(s) wait for the 120-per-minute limit");
                commandTimer_.expires_after(wait);
                commandTimer_.async_wait([self = shared_from_this(), sock](error_code ec) {
                    if (!ec && sock == self->socket_) self->PumpCommands(sock);
                });
                return;
            }
            sock->window.Record(now);
            sock->normal.push_back({false, std::move(sock->commands.front())});
            sock->commands.pop_front();
        }
        Flush(sock);
    }

    // --- losing a connection --------------------------------------------------------------------
    // The socket failed or the server closed it: decide by the close code what comes next.
    void Lost(const SocketPtr& sock, int closeCode, const std::string& detail) {
        if (sock != socket_ || !running_) return;
        switch (ClassifyClose(closeCode)) {
            case CloseAction::Fatal:
                Log(LoggingSeverity::Error, "Gateway: fatal close code " + std::to_string(closeCode) + "; not reconnecting");
                return Fail(closeCode, detail);
            case CloseAction::Reidentify:
                Log(LoggingSeverity::Warning, "Gateway: close code " + std::to_string(closeCode) +
                                                  " ends the session; identifying again");
                ForgetSession();
                break;
            case CloseAction::Resume:
                break;
        }
        Reconnect(closeCode, detail, std::nullopt);
    }

    // A payload we cannot understand: close (keeping the session resumable) and start over.
    void GiveUp(const SocketPtr& sock, const std::string& detail) {
        if (sock != socket_) return;
        Log(LoggingSeverity::Error, "Gateway: " + detail);
        Reconnect(kResumableClose, detail, std::nullopt);
    }

    // Gives up the current socket (closing it with `closeCode` when open) and connects again after
    // `wait`, or after the backoff delay.
    void Reconnect(int closeCode, const std::string& detail, std::optional<std::chrono::milliseconds> wait) {
        Abandon(closeCode);
        const auto delay = wait ? *wait : BackoffDelay(options_.initialBackoff, options_.maxBackoff, backoffAttempt_, random_);
        ++backoffAttempt_;
        Log(LoggingSeverity::Info, "Gateway: reconnecting in " + std::to_string(delay.count()) + " ms (attempt " +
                                       std::to_string(backoffAttempt_) + ") after: " + detail);
        SetState(GatewayState::Reconnecting, closeCode, detail);
        retryTimer_.expires_after(delay);
        retryTimer_.async_wait([self = shared_from_this()](error_code ec) {
            if (!ec && self->running_ && !self->socket_) self->Connect();
        });
    }

    void Fail(int closeCode, const std::string& detail) {
        running_ = false;
        Abandon(1000);
        ForgetSession();
        SetState(GatewayState::Disconnected, closeCode, detail);
    }

    void Abandon(int closeCode) {
        CancelTimers();
        auto sock = std::exchange(socket_, nullptr);
        if (!sock) return;
        if (!sock->commands.empty() || !sock->normal.empty())
            Log(LoggingSeverity::Warning, "Gateway: " + std::to_string(sock->commands.size() + sock->normal.size()) +
                                              " unsent command(s) dropped with the connection");
        if (!CanClose(sock)) return CloseTransport(*sock);
        Log(LoggingSeverity::Info, "Gateway: closing with code " + std::to_string(closeCode));
        CloseWith(sock, websocket::close_reason(static_cast<uint16_t>(closeCode)), [sock](error_code) {});
    }

    void CancelTimers() {
        CancelConnecting();
        heartbeatTimer_.cancel();
        retryTimer_.cancel();
        identifyTimer_.cancel();
        commandTimer_.cancel();
    }

    void ForgetSession() {
        sessionId_.clear();
        resumeUrl_.clear();
        lastSeq_ = 0;
    }

    void SetState(GatewayState state, int closeCode, const std::string& detail) {
        if (state_.exchange(state) == state) return;
        if (events_.onState) events_.onState(state, closeCode, detail);
    }

    void Log(LoggingSeverity severity, const std::string& line) const {
        if (events_.log) events_.log(severity, line);
    }

    GatewayOptions options_;
    GatewayEvents events_;
    std::atomic<GatewayState> state_{GatewayState::Disconnected};

    asio::steady_timer retryTimer_, identifyTimer_, commandTimer_;
    std::mt19937_64 random_;
    bool running_ = false;
    unsigned backoffAttempt_ = 0;

    std::string sessionId_, resumeUrl_;
    int64_t lastSeq_ = 0;  // the highest seq delivered in this session
};

}  // namespace

std::shared_ptr<GatewayConnection> GatewayConnection::Create(asio::io_context& io, asio::ssl::context& tls,
                                                             GatewayOptions options, GatewayEvents events) {
    return std::make_shared<Gateway>(io, tls, std::move(options), std::move(events));
}

}  // namespace platformpp::net
