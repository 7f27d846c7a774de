// Device authorization (RFC 8628) for consoles and TVs, and the provisional-account calls of the
// SDK 1.10 surface: GetTokenFromProvisionalMerge, UpdateProvisionalAccountDisplayName,
// ProvisionalUserMergeCompleted, SetGameWindowPid.
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json.hpp>

#include <algorithm>
#include <chrono>

#include "client/auth_common.hpp"
#include "client/begin.hpp"
#include "client/client_impl.hpp"
#include "core/json_fields.hpp"
#include "net/url.hpp"
#include "platformpp/errors.hpp"

namespace platformpp {

using client::Begin;
using client::Needs;
using client::OAuthForm;
using client::Request;

namespace client {

// A running GetTokenFromDevice: the callback, what to poll with, and the poll timer (io thread).
struct DeviceAuthorization {
    DeviceAuthorization(boost::asio::io_context& io, std::shared_ptr<Client::TokenExchangeCallback> cb)
      : callback(std::move(cb)), timer(io) {}

    std::shared_ptr<Client::TokenExchangeCallback> callback;
    uint64_t clientId = 0;
    std::vector<std::pair<std::string, std::string>> mergeFields;  // external_auth_* for a provisional merge
    std::string deviceCode;  // a bearer secret: never logged
    int32_t intervalSeconds = 5;
    boost::asio::steady_timer timer;
};

}  // namespace client

namespace {

constexpr const char* kDeviceCodeGrant = "urn:ietf:params:oauth:grant-type:device_code";
constexpr int32_t kSlowDownStepSeconds = 5;  // RFC 8628 §3.5

bool StartsWith(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

void PollDevice(Client::Impl& impl, std::shared_ptr<client::DeviceAuthorization> device);

void SchedulePoll(Client::Impl& impl, const std::shared_ptr<client::DeviceAuthorization>& device) {
    device->timer.expires_after(std::chrono::seconds(device->intervalSeconds));
    device->timer.async_wait([&impl, weak = std::weak_ptr(device)](const boost::system::error_code& error) {
        auto device = weak.lock();
        if (error || !device) return;  // aborted, superseded or the Client went away
        PollDevice(impl, device);
    });
}

void PollDevice(Client::Impl& impl, std::shared_ptr<client::DeviceAuthorization> device) {
    {
        std::lock_guard lock(impl.mutex);
        if (impl.deviceAuthorization != device) return;
    }
    client::Form form = {{"grant_type", kDeviceCodeGrant},
                         {"device_code", device->deviceCode},
                         {"client_id", std::to_string(device->clientId)}};
    form.insert(form.end(), device->mergeFields.begin(), device->mergeFields.end());
    impl.Call(OAuthForm("/oauth2/token", std::move(form), "POST /oauth2/token"), [&impl, device](ClientResult result, boost::json::value json) {
        if (!result.Successful() && result.Type() == ErrorType::AuthorizationFailed) {
            if (StartsWith(result.Error(), "authorization_pending")) {
                SchedulePoll(impl, device);
                return;
            }
            if (StartsWith(result.Error(), "slow_down")) {
                device->intervalSeconds += kSlowDownStepSeconds;
                impl.Log(LoggingSeverity::Info, "device authorization: polling every " +
                                                    std::to_string(device->intervalSeconds) + " s (slow_down)");
                SchedulePoll(impl, device);
                return;
            }
        }
        impl.FinishDeviceAuthorization(device, std::move(result), json);
    });
}

// The emulator's activation page, answered as the headless consent user.
void ApproveOnEmulator(Client::Impl& impl, const std::string& consentUser, const std::string& adminSecret,
                       const std::string& userCode) {
    net::HttpRequest request;
    request.method = "POST";
    request.url = impl.webBase + "/activate";
    request.route = "POST /activate";
    request.contentType = "application/x-www-form-urlencoded";
    request.body = client::FormEncode(
        {{"user_code", userCode}, {"emulator_user", consentUser}, {"emulator_consent", "allow"}});
    if (!adminSecret.empty()) request.headers.emplace_back("Authorization", "Bearer " + adminSecret);
    impl.http.Send(std::move(request), [&impl](net::HttpResponse response) {
        if (response.error || response.status != 200) {
            impl.Log(LoggingSeverity::Warning, "device authorization: the emulator refused headless approval (HTTP " +
                                                   std::to_string(response.status) + ")");
        }
    });
}

void StartDeviceAuthorization(Client& self, Client::Impl& impl, DeviceAuthorizationArgs& args,
                              std::vector<std::pair<std::string, std::string>> mergeFields,
                              Client::TokenExchangeCallback callback, const std::string* externalToken) {
    uint64_t clientId = 0;
    const auto call = Begin(impl, Needs::ValidArguments, std::move(callback), [&] {
        if (!args) throw ValidationError("args", "is a null DeviceAuthorizationArgs");
        if (args.Scopes().find_first_not_of(' ') == std::string::npos)
            throw ValidationError("Scopes", "is required (e.g. Client::GetDefaultCommunicationScopes())");
        clientId = args.ClientId() != 0 ? args.ClientId() : self.GetApplicationId();
        if (clientId == 0) throw ValidationError("ClientId", "is 0 and no application id was set");
        if (externalToken != nullptr) client::RequireNonEmpty(*externalToken, "externalAuthToken");
    });
    if (!call) return;
    auto device = std::make_shared<client::DeviceAuthorization>(impl.io.Context(), call->callback);
    device->clientId = clientId;
    device->mergeFields = std::move(mergeFields);
    impl.FinishDeviceAuthorization(nullptr, ClientResult::Failure(ErrorType::Aborted, "superseded by a newer "
                                                                                      "device authorization"),
                                   boost::json::value());
    {
        std::lock_guard lock(impl.mutex);
        impl.deviceAuthorization = device;
    }
    auto request = OAuthForm("/oauth2/device/authorize", {{"client_id", std::to_string(clientId)}, {"scope", args.Scopes()}});
    impl.Log(LoggingSeverity::Info, "device authorization: requesting a device code for application " +
                                        std::to_string(clientId));
    impl.Call(std::move(request), [&impl, &self, device](ClientResult result, boost::json::value json) {
        if (!result.Successful()) {
            impl.FinishDeviceAuthorization(device, std::move(result), boost::json::value());
            return;
        }
        device->deviceCode = json_fields::String(json, "device_code");
        const std::string userCode = json_fields::String(json, "user_code");
        device->intervalSeconds = std::max<int32_t>(1, static_cast<int32_t>(json_fields::Integer(json, "interval")));
        if (device->deviceCode.empty() || userCode.empty()) {
            impl.FinishDeviceAuthorization(
                device, ClientResult::Failure(ErrorType::AuthorizationFailed, "the device answer has no codes"),
                boost::json::value());
            return;
        }
        std::string consentUser, adminSecret;
        {
            std::lock_guard lock(impl.mutex);
            if (impl.deviceAuthorization != device) return;
            consentUser = impl.emulatorConsentUser;
            adminSecret = impl.emulatorAdminSecret;
        }
        self.OpenAuthorizeDeviceScreen(device->clientId, userCode);
        if (!consentUser.empty()) ApproveOnEmulator(impl, consentUser, adminSecret, userCode);
        SchedulePoll(impl, device);
    });
}

}  // namespace

void Client::Impl::FinishDeviceAuthorization(const std::shared_ptr<client::DeviceAuthorization>& which,
                                             ClientResult result, const boost::json::value& tokens) {
    std::shared_ptr<client::DeviceAuthorization> device;
    {
        std::lock_guard lock(mutex);
        if (!deviceAuthorization || (which && deviceAuthorization != which)) return;
        device = std::exchange(deviceAuthorization, nullptr);
    }
    boost::asio::post(io.Context(), [device] { device->timer.cancel(); });
    Log(result.Successful() ? LoggingSeverity::Info : LoggingSeverity::Warning,
        "device authorization " + (result.Successful() ? std::string("succeeded") : "failed: " + result.ToString()));
    CloseDeviceScreen();
    auto values = client::ReadTokenExchange(*this, result, tokens, false);
    client::Answer(*this, device->callback, std::move(result), std::move(values));
}

void Client::Impl::CloseDeviceScreen() {
    std::shared_ptr<AuthorizeDeviceScreenClosedCallback> closed;
    {
        std::lock_guard lock(mutex);
        if (!deviceScreenOpen) return;
        deviceScreenOpen = false;
        closed = deviceScreenClosedCallback;
    }
    Log(LoggingSeverity::Info, "device authorization screen closed");
    if (closed) DeliverEvent([closed] { (*closed)(); });
}

void Client::GetTokenFromDevice(DeviceAuthorizationArgs args, TokenExchangeCallback callback) {
    Impl& impl = RequireImpl();
    StartDeviceAuthorization(*this, impl, args, {}, std::move(callback), nullptr);
}

void Client::GetTokenFromDeviceProvisionalMerge(DeviceAuthorizationArgs args,
                                                AuthenticationExternalAuthType externalAuthType,
                                                std::string const& externalAuthToken, TokenExchangeCallback callback) {
    Impl& impl = RequireImpl();
    StartDeviceAuthorization(*this, impl, args,
                             {{"external_auth_type", client::ExternalAuthTypeWire(externalAuthType)},
                              {"external_auth_token", externalAuthToken}},
                             std::move(callback), &externalAuthToken);
}

void Client::AbortGetTokenFromDevice() {
    RequireImpl().FinishDeviceAuthorization(
        nullptr, ClientResult::Failure(ErrorType::Aborted, "AbortGetTokenFromDevice was called"), boost::json::value());
}

void Client::OpenAuthorizeDeviceScreen(uint64_t clientId, std::string const& userCode) {
    Impl& impl = RequireImpl();
    if (clientId == 0) throw ValidationError("clientId", "must be an application id, got 0");
    if (userCode.empty()) throw ValidationError("userCode", "must not be empty");
    const std::string url = impl.webBase + "/activate?user_code=" + net::PercentEncode(userCode);
    std::shared_ptr<AuthorizeUrlOpener> opener;
    {
        std::lock_guard lock(impl.mutex);
        impl.deviceScreenOpen = true;
        opener = impl.opener;
    }
    // The user code is meant to be read by the user; it is useless without the device code.
    impl.Log(LoggingSeverity::Info, "device authorization for application " + std::to_string(clientId) +
                                        ": on another device, open " + impl.webBase + "/activate and enter " +
                                        userCode);
    if (opener) impl.DeliverEvent([opener, url] { (*opener)(url); });
}

void Client::CloseAuthorizeDeviceScreen() { RequireImpl().CloseDeviceScreen(); }

void Client::SetAuthorizeDeviceScreenClosedCallback(AuthorizeDeviceScreenClosedCallback cb) {
    Impl& impl = RequireImpl();
    std::lock_guard lock(impl.mutex);
    impl.deviceScreenClosedCallback = cb ? std::make_shared<AuthorizeDeviceScreenClosedCallback>(std::move(cb)) : nullptr;
}

void Client::GetTokenFromProvisionalMerge(uint64_t applicationId, std::string const& code,
                                          std::string const& codeVerifier, std::string const& redirectUri,
                                          AuthenticationExternalAuthType externalAuthType,
                                          std::string const& externalAuthToken, TokenExchangeCallback callback) {
    const auto call = Begin(RequireImpl(), Needs::ValidArguments, std::move(callback), [&] {
        client::RequireApplicationId(applicationId);
        client::RequireNonEmpty(code, "code");
        client::RequireNonEmpty(codeVerifier, "codeVerifier");
        client::RequireNonEmpty(redirectUri, "redirectUri");
        client::RequireNonEmpty(externalAuthToken, "externalAuthToken");
    });
    if (call) client::ExchangeTokens(*call, {{"grant_type", "authorization_code"},
                                             {"code", code},
                                             {"redirect_uri", redirectUri},
                                             {"code_verifier", codeVerifier},
                                             {"client_id", std::to_string(applicationId)},
                                             {"external_auth_type", client::ExternalAuthTypeWire(externalAuthType)},
                                             {"external_auth_token", externalAuthToken}},
                                     false);
}

void Client::ProvisionalUserMergeCompleted(bool success) {
    Impl& impl = RequireImpl();
    impl.Log(success ? LoggingSeverity::Info : LoggingSeverity::Warning,
             std::string("provisional account merge ") + (success ? "completed" : "failed"));
    if (!success) return;
    const auto token = impl.CurrentToken();
    if (!token) return;
    auto check = Request("GET", "/users/@me");
    check.token = *token;
    impl.Call(std::move(check), [&impl](ClientResult result, boost::json::value json) {
        if (!result.Successful()) return;
        std::lock_guard lock(impl.mutex);
        impl.currentUserId = json_fields::Snowflake(json, "id");
    });
}

void Client::UpdateProvisionalAccountDisplayName(std::string const& name,
                                                 UpdateProvisionalAccountDisplayNameCallback callback) {
    const auto call = Begin(RequireImpl(), Needs::Token, std::move(callback), [&] {
        if (name.find_first_not_of(' ') == std::string::npos) throw ValidationError("name", "must not be empty");
        if (name.size() > 32) throw ValidationError("name", "must be at most 32 characters");
    });
    if (call) call->Rest(Request("PATCH", "/partner-sdk/provisional-accounts/@me", {{"display_name", name}}));
}

void Client::SetGameWindowPid(int32_t pid) {
    Impl& impl = RequireImpl();
    if (pid < 0) throw ValidationError("pid", "must be a process id (>= 0), got " + std::to_string(pid));
    {
        std::lock_guard lock(impl.mutex);
        impl.gameWindowPid = pid;
    }
    impl.Log(LoggingSeverity::Verbose, "game window pid set to " + std::to_string(pid));
}

}  // namespace platformpp
