#include "client/client_impl.hpp"

#include "client/voice_layer.hpp"

#include <boost/asio/post.hpp>
#include <boost/json/parse.hpp>

#include "core/callback_queue.hpp"
#include "core/json_fields.hpp"
#include "core/redact.hpp"
#include "ipc/desktop_client.hpp"
#include "net/gateway_policy.hpp"
#include "net/tls.hpp"

namespace platformpp {
namespace {

constexpr auto kShutdownGrace = std::chrono::milliseconds(2000);
// The expiration callback fires this long before a token's expiry (or at 90% of a short lifetime).
constexpr auto kExpiryWarning = std::chrono::minutes(5);

}  // namespace

Client::Impl::Impl(std::string apiBaseIn, std::string webBaseIn)
  : apiBase(std::move(apiBaseIn)),
    webBase(std::move(webBaseIn)),
    tls(net::MakeClientTlsContext()),
    http(io.Context(), tls, Sink()),
    expiryTimer(io.Context()),
    social(social::MakeSocialState([this](uint64_t lobbyId) { return voice->Info(lobbyId); })),
    voice(std::make_unique<client::VoiceLayer>(*this)) {}

Client::Impl::~Impl() { Shutdown(); }

void Client::Impl::Shutdown() {
    if (shuttingDown.exchange(true)) return;
    alive->store(false);
    // Pending calls complete with ClientDestroyed; the Gateway closes; then the thread is joined.
    http.CancelAll();
    boost::asio::post(io.Context(), [this] {
        expiryTimer.cancel();
        if (gateway) gateway->Stop();
        desktop.reset();  // closes the IPC connection and joins its reader
    });
    voice->Shutdown();  // joins the audio thread; the voice connections close on the network thread
    io.Stop(kShutdownGrace);
    std::optional<PendingAuthorization> pending;
    {
        std::lock_guard lock(mutex);
        pending = std::exchange(pendingAuthorization, std::nullopt);
    }
    if (pending) {
        auto callback = pending->callback;
        Deliver([callback] {
            (*callback)(ClientResult::Failure(ErrorType::ClientDestroyed, "the Client was destroyed"), "", "");
        });
    }
}

std::optional<std::string> Client::Impl::CurrentToken() const {
    std::lock_guard lock(mutex);
    if (!authenticated) return std::nullopt;
    return token;
}

void Client::Impl::Deliver(std::function<void()> callback) { core::CallbackQueue::Global().Post(std::move(callback)); }

void Client::Impl::DeliverEvent(std::function<void()> callback) {
    core::CallbackQueue::Global().Post([alive = alive, callback = std::move(callback)] {
        if (alive->load()) callback();
    });
}

void Client::Impl::Log(LoggingSeverity severity, const std::string& line) {
    std::vector<std::shared_ptr<LogCallback>> targets;
    std::shared_ptr<core::LogFile> file;  // SetLogDir: written now, on the logging thread
    {
        std::lock_guard lock(mutex);
        for (const auto& [minimum, callback] : logCallbacks) {
            if (minimum != LoggingSeverity::None && severity >= minimum) targets.push_back(callback);
        }
        file = logFile;
    }
    if (file) file->Write(severity, line);
    if (targets.empty()) return;
    auto redacted = std::make_shared<const std::string>(core::RedactSecrets(line));
    for (auto& target : targets) {
        DeliverEvent([target, redacted, severity] { (*target)(*redacted, severity); });
    }
}

core::LogSink Client::Impl::Sink() {
    return [this](LoggingSeverity severity, const std::string& line) { Log(severity, line); };
}

void Client::Impl::Call(client::ApiRequest request, std::function<void(ClientResult, boost::json::value)> done) {
    const bool oauth = request.oauthEndpoint;
    std::string sentToken = request.token;
    http.Send(client::ToHttpRequest(apiBase, request),
              [this, oauth, sentToken = std::move(sentToken), done = std::move(done)](net::HttpResponse response) {
                  boost::json::value json;
                  ClientResult result = client::ToClientResult(response, oauth, shuttingDown.load(), json);
                  // A 401 for the token the Client acts with means the game must refresh it.
                  if (!sentToken.empty() && result.Status() == 401 && CurrentToken() == sentToken) {
                      boost::asio::post(io.Context(), [this] { TokenRejected(); });
                  }
                  done(std::move(result), std::move(json));
              });
}

void Client::Impl::SetStatus(Status next, Error error, int32_t detail) {
    std::shared_ptr<StatusChangedCallback> callback;
    {
        std::lock_guard lock(mutex);
        if (status == next && error == Error::None) return;
        status = next;
        callback = statusCallback;
    }
    Log(error == Error::None ? LoggingSeverity::Info : LoggingSeverity::Warning,
        "status " + StatusToString(next) + (error == Error::None ? "" : " (" + ErrorToString(error) + ", " +
                                                                          std::to_string(detail) + ")"));
    if (callback) DeliverEvent([callback, next, error, detail] { (*callback)(next, error, detail); });
}

void Client::Impl::OnGatewayState(net::GatewayState state, int closeCode, const std::string& detail) {
    switch (state) {
        case net::GatewayState::Connecting: return SetStatus(Status::Connecting, Error::None, 0);
        case net::GatewayState::Ready: return SetStatus(Status::Ready, Error::None, 0);
        case net::GatewayState::Reconnecting: return SetStatus(Status::Reconnecting, Error::None, 0);
        case net::GatewayState::Disconnecting: return SetStatus(Status::Disconnecting, Error::None, 0);
        case net::GatewayState::Disconnected: {
            bool requested = false;
            {
                std::lock_guard lock(mutex);
                requested = disconnectRequested;
            }
            if (!requested && net::ClassifyClose(closeCode) == net::CloseAction::Fatal) {
                Log(LoggingSeverity::Error, "the Gateway closed the session for good: " + detail);
                if (closeCode == 4004) TokenRejected();
                return SetStatus(Status::Disconnected, Error::UnexpectedClose, closeCode);
            }
            return SetStatus(Status::Disconnected, Error::None, closeCode);
        }
    }
}

void Client::Impl::OnReady(const boost::json::object& ready) {
    social::OnReady(*social, *this, ready);
    voice->OnReady(ready);
    const auto* user = json_fields::Object(ready, "user");
    if (user == nullptr || !user->contains("id")) return;
    const uint64_t userId = json_fields::Snowflake(*user, "id");
    if (userId == 0) return Log(LoggingSeverity::Warning, "READY carries a malformed user id");
    std::lock_guard lock(mutex);
    currentUserId = userId;
}

void Client::Impl::OnDispatch(std::string_view type, const boost::json::value& data) {
    social::OnDispatch(*social, *this, type, data);
    voice->OnDispatch(type, data);
    if (type == "AUTHORIZE_REQUEST") {
        std::shared_ptr<AuthorizeRequestCallback> callback;
        {
            std::lock_guard lock(mutex);
            callback = authorizeRequestCallback;
        }
        if (callback) DeliverEvent([callback] { (*callback)(); });
    }
}

void Client::Impl::ScheduleTokenExpiry(const std::string& tokenValue) {
    std::optional<std::chrono::steady_clock::time_point> expiresAt;
    {
        std::lock_guard lock(mutex);
        for (const auto& [known, at] : knownExpiries) {
            if (known == tokenValue) expiresAt = at;
        }
    }
    boost::asio::post(io.Context(), [this, expiresAt] {
        expiryTimer.cancel();
        if (!expiresAt) return;
        const auto now = std::chrono::steady_clock::now();
        const auto lifetime = *expiresAt - now;
        const auto warnAt = lifetime > 10 * kExpiryWarning ? *expiresAt - kExpiryWarning : now + lifetime * 9 / 10;
        expiryTimer.expires_at(warnAt);
        expiryTimer.async_wait([this](const boost::system::error_code& ec) {
            if (!ec) TokenRejected();
        });
    });
}

void Client::Impl::TokenRejected() {
    std::shared_ptr<TokenExpirationCallback> callback;
    {
        std::lock_guard lock(mutex);
        callback = tokenExpirationCallback;
    }
    Log(LoggingSeverity::Warning, "the access token expired or was rejected; refresh it and call UpdateToken");
    if (callback) DeliverEvent([callback] { (*callback)(); });
}

}  // namespace platformpp
