#pragma once
// Client's state and machinery. Private to the core.
//
// Threads: public Client methods run on the game's thread; network work runs on `io`'s thread.
// State read by both is under `mutex`. User callbacks only ever run through Deliver(), which queues
// them for platformpp::RunCallbacks().

#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json/value.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "client/api.hpp"
#include "client/social_layer.hpp"
#include "core/io_thread.hpp"
#include "core/log_file.hpp"
#include "net/gateway_connection.hpp"
#include "net/http_client.hpp"
#include "platformpp/client.hpp"

namespace platformpp {

namespace client {
struct DeviceAuthorization;  // a running GetTokenFromDevice (device_auth.cpp)
}  // namespace client
namespace ipc {
class DesktopClient;
}  // namespace ipc
namespace client {
class VoiceLayer;
}  // namespace client

struct PendingAuthorization {
    std::string state;
    std::string redirectUri;
    std::shared_ptr<Client::AuthorizationCallback> callback;
};

struct Client::Impl {
    Impl(std::string apiBase, std::string webBase);
    ~Impl();

    // ---- fixed at construction ----
    const std::string apiBase;  // ".../api/v10", no trailing slash
    const std::string webBase;  // scheme://host[:port], no trailing slash

    // ---- shared between threads (mutex) ----
    mutable std::mutex mutex;
    uint64_t applicationId = 0;
    std::string token;  // the token the Client acts with (UpdateToken), sent as a Bearer token
    bool authenticated = false;
    uint64_t currentUserId = 0;  // from UpdateToken's check, and READY
    Status status = Status::Disconnected;
    bool disconnectRequested = false;
    std::optional<PendingAuthorization> pendingAuthorization;
    std::shared_ptr<AuthorizeUrlOpener> opener;
    std::string emulatorConsentUser;
    std::string emulatorAdminSecret;  // a secret: never logged
    std::shared_ptr<StatusChangedCallback> statusCallback;
    std::shared_ptr<TokenExpirationCallback> tokenExpirationCallback;
    std::shared_ptr<AuthorizeRequestCallback> authorizeRequestCallback;
    std::shared_ptr<VoiceSettingsUpdatedCallback> voiceSettingsCallback;
    std::vector<std::pair<LoggingSeverity, std::shared_ptr<LogCallback>>> logCallbacks;
    // Expiry of tokens this Client obtained, so UpdateToken can schedule the expiration callback.
    std::vector<std::pair<std::string, std::chrono::steady_clock::time_point>> knownExpiries;
    std::atomic<bool> shuttingDown{false};
    const std::shared_ptr<std::atomic<bool>> alive = std::make_shared<std::atomic<bool>>(true);

    // ---- network (io thread) ----
    core::IoThread io;
    boost::asio::ssl::context tls;
    net::HttpClient http;
    std::shared_ptr<net::GatewayConnection> gateway;
    boost::asio::steady_timer expiryTimer;
    // The desktop client's IPC connection (src/client/desktop.cpp), opened on first use.
    std::shared_ptr<ipc::DesktopClient> desktop;

    // ---- social layer (src/social): its caches, fed by OnReady/OnDispatch; guarded by its own lock ----
    const social::SocialStatePtr social;
    // ---- voice layer (src/client/voice_layer.*): calls, voice states, the media engine ----
    const std::unique_ptr<client::VoiceLayer> voice;

    // The token the Client acts with, when UpdateToken has set one (and it was not revoked).
    std::optional<std::string> CurrentToken() const;

    // Queues `callback` for RunCallbacks(): the result of a call, which always runs.
    void Deliver(std::function<void()> callback);
    // Queues an event callback (status, log, token expiry...): skipped if the Client is destroyed
    // before it runs, so that an event never reaches a game that has let its Client go.
    void DeliverEvent(std::function<void()> callback);
    // Redacts, then queues the line for each log callback that wants it.
    void Log(LoggingSeverity severity, const std::string& line);
    core::LogSink Sink();

    // A call to the platform's API; `done` runs on the io thread with the mapped result and the
    // parsed JSON body (null when empty or not JSON).
    void Call(client::ApiRequest request, std::function<void(ClientResult, boost::json::value)> done);

    void SetStatus(Status next, Error error, int32_t detail);
    void OnGatewayState(net::GatewayState state, int closeCode, const std::string& detail);
    // Gateway events, on the io thread: READY of the user session, then every dispatch in order.
    void OnReady(const boost::json::object& ready);
    void OnDispatch(std::string_view type, const boost::json::value& data);
    void ScheduleTokenExpiry(const std::string& tokenValue);
    void TokenRejected();

    void OpenAuthorizeUrl(const std::string& url);
    // Checks a redirect against the pending authorization (its URI and state) and completes it.
    bool HandleRedirect(const std::string& url);
    // Completes the pending authorization (if any) with `result`; returns whether there was one.
    bool FinishAuthorization(ClientResult result, std::string code);

    // ---- the desktop client (src/client/desktop.cpp) ----
    using DesktopUse = std::function<void(std::shared_ptr<ipc::DesktopClient> desktop, ClientResult result)>;
    // On the io thread: `use` gets the connection for `applicationId` (opened if needed), or null and
    // the failure when no desktop client runs. With a token, the connection is AUTHENTICATEd with it.
    void WithDesktop(uint64_t applicationId, std::optional<std::string> token, DesktopUse use);
    // Subscribes the connection to `evt` when a desktop client runs (logs the outcome).
    void SubscribeDesktop(const std::string& evt, std::optional<std::string> token);
    // Authorize's request: over IPC when a desktop client runs, else `url` as usual.
    void AuthorizeThroughDesktop(uint64_t clientId, std::string scopes, std::string challenge, std::string nonce,
                                 std::string redirectUri, std::string url);
    void OnDesktopEvent(const std::string& evt, const boost::json::value& data);

    void Shutdown();

    // ---- options, log file, device authorization (under mutex) ----
    AudioSystem audioSystem = AudioSystem::Standard;
    bool preventCommsForBluetooth = false;
    std::optional<int32_t> voiceThreadPriority;  // for the voice engine's thread when it starts
    int32_t gameWindowPid = 0;
    std::shared_ptr<core::LogFile> logFile;  // SetLogDir; written by Log() on the logging thread
    std::shared_ptr<client::DeviceAuthorization> deviceAuthorization;
    bool deviceScreenOpen = false;
    std::shared_ptr<AuthorizeDeviceScreenClosedCallback> deviceScreenClosedCallback;
    // Completes the running device authorization (if any) with `result` and closes its screen.
    void FinishDeviceAuthorization(const std::shared_ptr<client::DeviceAuthorization>& which, ClientResult result,
                                   const boost::json::value& tokens);
    void CloseDeviceScreen();
};

}  // namespace platformpp
