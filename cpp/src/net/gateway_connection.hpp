#pragma once
// The Gateway session of one Client (docs/wire.md: Gateway). Private to the core.
//
// It owns one WebSocket to the Gateway and keeps it alive: Hello → Identify (or Resume), heartbeats
// at the server's interval with jitter on the first one, missed-ACK detection (a zombie connection
// is closed and resumed), reconnection with exponential backoff and full jitter, Resume with the
// last sequence, re-Identify after an unresumable Invalid Session, and a stop on fatal close codes
// (4004, 4010–4014). `compress=zlib-stream` is inflated with Beast's zlib. All of its work and all
// of its callbacks run on the io_context's thread; its public methods may be called from any thread.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/log_sink.hpp"

namespace platformpp::net {

enum class GatewayState {
    Disconnected,   // not started, stopped, or stopped for good after a fatal close code
    Connecting,     // TCP/TLS/WebSocket handshake, waiting for Hello, Identify or Resume sent
    Ready,          // READY (or RESUMED) received
    Reconnecting,   // lost; waiting out the backoff before connecting again
    Disconnecting,  // Stop() called; closing with 1000
};

struct GatewayOptions {
    std::string url;          // e.g. ws://127.0.0.1:5123/gateway — query parameters are added
    std::string token;        // a bot token (sent as is) or an OAuth2 access token
    uint64_t intents = 0;
    bool compress = true;     // compress=zlib-stream
    std::string os = "linux", browser = "platformpp", device = "platformpp";
    std::chrono::milliseconds initialBackoff{250};
    std::chrono::milliseconds maxBackoff{30'000};
    std::chrono::milliseconds connectTimeout{10'000};
    // The random wait before acting on an Invalid Session (the platform's docs: 1–5 s); tests shorten it.
    std::chrono::milliseconds invalidSessionMinDelay{1'000};
    std::chrono::milliseconds invalidSessionMaxDelay{5'000};
};

struct GatewayEvents {
    // State changes. closeCode is the WebSocket close code that caused it (0 if none); detail is a
    // readable reason (never a token).
    std::function<void(GatewayState state, int closeCode, const std::string& detail)> onState;
    // The READY payload (`d`), once per Identify; a Resume gives no READY but RESUMED, reported as
    // onState(Ready) only.
    std::function<void(const boost::json::object& ready)> onReady;
    // Every dispatch (op 0) other than READY and RESUMED, in sequence order, once each.
    std::function<void(std::string_view type, const boost::json::value& data, int64_t seq)> onDispatch;
    core::LogSink log;
};

class GatewayConnection {
public:
    // `tls` is used for wss:// URLs and must outlive the connection.
    static std::shared_ptr<GatewayConnection> Create(boost::asio::io_context& io, boost::asio::ssl::context& tls,
                                                     GatewayOptions options, GatewayEvents events);
    virtual ~GatewayConnection() = default;

    virtual void Start() = 0;  // connect; reconnects on its own until Stop() or a fatal close code
    virtual void Stop() = 0;   // close with 1000 (the session is not resumable afterwards), no reconnect
    // The token for the next Identify or Resume (after re-authentication).
    virtual void UpdateToken(std::string token) = 0;
    // Sends a Gateway command (op, d), e.g. op 3 Presence Update; dropped with a log line while not Ready.
    virtual void SendCommand(int op, boost::json::value data) = 0;
    virtual GatewayState State() const = 0;
};

}  // namespace platformpp::net
