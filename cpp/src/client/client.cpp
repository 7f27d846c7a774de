// Client's public members: construction, configuration, logging and the Gateway connection. The
// authorization flows are in auth_flows.cpp.
#include "platformpp/client.hpp"

#include <boost/asio/post.hpp>
#include <boost/json.hpp>

#include <cstdlib>
#include <type_traits>

#include "auth/pkce.hpp"
#include "client/client_impl.hpp"
#include "core/json_fields.hpp"
#include "net/url.hpp"
#include "platformpp/errors.hpp"

namespace platformpp {

static_assert(std::is_nothrow_move_constructible_v<Client>);
static_assert(std::is_nothrow_move_assignable_v<Client>);

namespace {

// Where Client() points: the PLATFORMPP_API_BASE / PLATFORMPP_WEB_BASE environment variables (to
// point a game at an emulator without rebuilding it), else the build's configured service.
std::string EnvironmentOr(const char* name, const char* fallback) {
    const char* value = std::getenv(name);
    return value && *value ? value : fallback;
}

std::string WithoutTrailingSlash(std::string url) {
    while (!url.empty() && url.back() == '/') url.pop_back();
    return url;
}

std::string RequireHttpUrl(std::string url, const char* field) {
    const auto parsed = net::ParseUrl(url);
    if (!parsed || (parsed->scheme != "http" && parsed->scheme != "https")) {
        throw ValidationError(field, "must be an absolute http(s) URL, got \"" + url + "\"");
    }
    return WithoutTrailingSlash(std::move(url));
}

}  // namespace

const Client Client::nullobj{NullTag{}};

Client::Client()
  : Client(EnvironmentOr("PLATFORMPP_API_BASE", PLATFORMPP_DEFAULT_API_BASE),
           EnvironmentOr("PLATFORMPP_WEB_BASE", PLATFORMPP_DEFAULT_WEB_BASE)) {}

Client::Client(std::string apiBase, std::string webBase)
  : impl_(std::make_unique<Impl>(RequireHttpUrl(std::move(apiBase), "apiBase"),
                                 RequireHttpUrl(std::move(webBase), "webBase"))) {}

Client::Client(NullTag) noexcept {}
Client::Client(Client&& other) noexcept = default;
Client& Client::operator=(Client&& other) noexcept = default;
Client::~Client() = default;

Client::Impl& Client::RequireImpl() const {
    if (!impl_) throw NullHandleError("Client: the instance is null (nullobj or moved from)");
    return *impl_;
}

std::string Client::GetDefaultCommunicationScopes() { return "openid sdk.social_layer"; }
std::string Client::GetDefaultPresenceScopes() { return "openid sdk.social_layer_presence"; }
int32_t Client::GetVersionMajor() { return PLATFORMPP_VERSION_MAJOR; }
int32_t Client::GetVersionMinor() { return PLATFORMPP_VERSION_MINOR; }
int32_t Client::GetVersionPatch() { return PLATFORMPP_VERSION_PATCH; }

std::string Client::StatusToString(Status status) {
    static constexpr const char* kNames[] = {"Disconnected", "Connecting",    "Connected", "Ready",
                                             "Reconnecting", "Disconnecting", "HttpWait"};
    const auto index = static_cast<std::size_t>(status);
    return index < std::size(kNames) ? kNames[index] : "Unknown";
}

std::string Client::ErrorToString(Error error) {
    static constexpr const char* kNames[] = {"None", "ConnectionFailed", "UnexpectedClose", "ConnectionCanceled"};
    const auto index = static_cast<std::size_t>(error);
    return index < std::size(kNames) ? kNames[index] : "Unknown";
}

void Client::SetApplicationId(uint64_t applicationId) {
    Impl& impl = RequireImpl();
    std::lock_guard lock(impl.mutex);
    impl.applicationId = applicationId;
}

uint64_t Client::GetApplicationId() const {
    Impl& impl = RequireImpl();
    std::lock_guard lock(impl.mutex);
    return impl.applicationId;
}

std::string Client::GetApiBase() const { return RequireImpl().apiBase; }
std::string Client::GetWebBase() const { return RequireImpl().webBase; }

void Client::SetHttpRequestTimeout(int32_t httpTimeoutInMilliseconds) {
    if (httpTimeoutInMilliseconds <= 0) {
        throw ValidationError("httpTimeoutInMilliseconds", "must be > 0, got " + std::to_string(httpTimeoutInMilliseconds));
    }
    RequireImpl().http.SetTimeout(std::chrono::milliseconds(httpTimeoutInMilliseconds));
}

void Client::AddLogCallback(LogCallback callback, LoggingSeverity minSeverity) {
    if (!callback) throw ValidationError("callback", "must not be empty");
    Impl& impl = RequireImpl();
    std::lock_guard lock(impl.mutex);
    impl.logCallbacks.emplace_back(minSeverity, std::make_shared<LogCallback>(std::move(callback)));
}

AuthorizationCodeVerifier Client::CreateAuthorizationCodeVerifier() const {
    RequireImpl();
    AuthorizationCodeVerifier pair;
    std::string verifier = pkce::NewVerifier();
    AuthorizationCodeChallenge challenge;
    challenge.SetMethod(AuthenticationCodeChallengeMethod::S256);
    challenge.SetChallenge(pkce::S256Challenge(verifier));
    pair.SetChallenge(std::move(challenge));
    pair.SetVerifier(std::move(verifier));
    return pair;
}

// ---- connection ----

void Client::SetStatusChangedCallback(StatusChangedCallback callback) {
    Impl& impl = RequireImpl();
    std::lock_guard lock(impl.mutex);
    impl.statusCallback = callback ? std::make_shared<StatusChangedCallback>(std::move(callback)) : nullptr;
}

Client::Status Client::GetStatus() const {
    Impl& impl = RequireImpl();
    std::lock_guard lock(impl.mutex);
    return impl.status;
}

void Client::Connect() {
    Impl& impl = RequireImpl();
    std::string token;
    {
        std::lock_guard lock(impl.mutex);
        if (impl.status != Status::Disconnected) return;  // already connecting or connected
        if (impl.authenticated) {
            token = impl.token;
            impl.disconnectRequested = false;
        }
    }
    if (token.empty()) {
        impl.Log(LoggingSeverity::Error, "Connect() needs a token: call UpdateToken first");
        return impl.SetStatus(Status::Disconnected, Error::ConnectionFailed, 0);
    }
    impl.SetStatus(Status::HttpWait, Error::None, 0);
    auto discover = client::Request("GET", "/gateway");
    discover.token = token;
    impl.Call(std::move(discover), [&impl, token](ClientResult result, boost::json::value json) {
        const std::string url = result.Successful() ? json_fields::String(json, "url") : std::string();
        bool cancelled = false;
        {
            std::lock_guard lock(impl.mutex);
            cancelled = impl.disconnectRequested;
        }
        if (cancelled) return impl.SetStatus(Status::Disconnected, Error::ConnectionCanceled, 0);
        if (url.empty()) {
            impl.Log(LoggingSeverity::Error, "Gateway discovery failed: " + result.ToString());
            return impl.SetStatus(Status::Disconnected, Error::ConnectionFailed, static_cast<int32_t>(result.Status()));
        }
        net::GatewayOptions options;
        options.url = url;
        options.token = token;
        net::GatewayEvents events;
        events.onState = [&impl](net::GatewayState state, int code, const std::string& detail) {
            impl.OnGatewayState(state, code, detail);
        };
        events.onReady = [&impl](const boost::json::object& ready) { impl.OnReady(ready); };
        events.onDispatch = [&impl](std::string_view type, const boost::json::value& data, int64_t) {
            impl.OnDispatch(type, data);
        };
        events.log = impl.Sink();
        impl.gateway = net::GatewayConnection::Create(impl.io.Context(), impl.tls, std::move(options), std::move(events));
        impl.gateway->Start();
    });
}

void Client::Disconnect() {
    Impl& impl = RequireImpl();
    {
        std::lock_guard lock(impl.mutex);
        if (impl.status == Status::Disconnected) return;
        impl.disconnectRequested = true;
    }
    boost::asio::post(impl.io.Context(), [&impl] {
        if (impl.gateway) {
            impl.gateway->Stop();
        }
    });
}

}  // namespace platformpp
