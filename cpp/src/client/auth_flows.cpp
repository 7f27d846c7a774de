// The authorization flows of Client (seed: AuthorizationArgs, Authentication; docs/wire.md: OAuth2).
#include <boost/asio/post.hpp>
#include <boost/json.hpp>

#include <spawn.h>
#include <sys/wait.h>

#include "client/auth_common.hpp"
#include "client/begin.hpp"
#include "client/client_impl.hpp"
#include "core/json_fields.hpp"
#include "net/url.hpp"
#include "platformpp/errors.hpp"

extern char** environ;

namespace platformpp {

using client::Begin;
using client::Needs;
using client::OAuthForm;
using client::Request;

const char* client::ExternalAuthTypeWire(AuthenticationExternalAuthType type) {
    switch (type) {
        case AuthenticationExternalAuthType::OIDC: return "OIDC";
        case AuthenticationExternalAuthType::EpicOnlineServicesAccessToken: return "EPIC_ONLINE_SERVICES_ACCESS_TOKEN";
        case AuthenticationExternalAuthType::EpicOnlineServicesIdToken: return "EPIC_ONLINE_SERVICES_ID_TOKEN";
        case AuthenticationExternalAuthType::SteamSessionTicket: return "STEAM_SESSION_TICKET";
        case AuthenticationExternalAuthType::UnityServicesIdToken: return "UNITY_SERVICES_ID_TOKEN";
        case AuthenticationExternalAuthType::PlatformBotIssuedAccessToken: return "BOT_ISSUED_ACCESS_TOKEN";
        case AuthenticationExternalAuthType::AppleIdToken: return "APPLE_ID_TOKEN";
        case AuthenticationExternalAuthType::PlayStationNetworkIdToken: return "PLAYSTATION_NETWORK_ID_TOKEN";
    }
    return "OIDC";
}

void client::RequireNonEmpty(const std::string& value, const char* field) {
    if (value.empty()) throw ValidationError(field, "must not be empty");
}

void client::RequireApplicationId(uint64_t applicationId, const char* field) {
    if (applicationId == 0) throw ValidationError(field, "must be an application id, got 0");
}

using client::ExchangeTokens;
using client::ExternalAuthTypeWire;
using client::RequireApplicationId;
using client::RequireNonEmpty;

namespace {

constexpr const char* kTokenExchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange";
constexpr const char* kAccessTokenType = "urn:ietf:params:oauth:token-type:access_token";

// The system browser (xdg-open on Linux, open on macOS), without a shell.
bool OpenInSystemBrowser(const std::string& url) {
#ifdef __APPLE__
    const char* program = "open";
#else
    const char* program = "xdg-open";
#endif
    pid_t pid = 0;
    std::string urlCopy = url;
    char* argv[] = {const_cast<char*>(program), urlCopy.data(), nullptr};
    if (posix_spawnp(&pid, program, nullptr, nullptr, argv, environ) != 0) return false;
    int status = 0;
    return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// The success half of a token answer, as the TokenExchangeCallback takes it.
struct TokenAnswer {
    std::string accessToken, refreshToken, scopes;
    int32_t expiresIn = 0;
};

TokenAnswer ReadTokenAnswer(const boost::json::value& json) {
    return {json_fields::String(json, "access_token"), json_fields::String(json, "refresh_token"),
            json_fields::String(json, "scope"), static_cast<int32_t>(json_fields::Integer(json, "expires_in"))};
}

}  // namespace

// ---- Authorize ----

void Client::Impl::OpenAuthorizeUrl(const std::string& url) {
    std::string consentUser, adminSecret;
    std::shared_ptr<AuthorizeUrlOpener> customOpener;
    {
        std::lock_guard lock(mutex);
        consentUser = emulatorConsentUser;
        adminSecret = emulatorAdminSecret;
        customOpener = opener;
    }
    if (!consentUser.empty()) {
        // The emulator's headless consent: it answers the authorize URL with the redirect itself.
        net::HttpRequest request;
        request.url = url + "&emulator_user=" + net::PercentEncode(consentUser) + "&emulator_consent=allow";
        request.route = "GET /oauth2/authorize";
        if (!adminSecret.empty()) request.headers.emplace_back("Authorization", "Bearer " + adminSecret);
        http.Send(std::move(request), [this](net::HttpResponse response) {
            const std::string* location = response.Header("Location");
            if (response.status / 100 == 3 && location != nullptr) {
                const std::string redirect = *location;
                HandleRedirect(redirect);
                return;
            }
            auto result = response.error ? ClientResult::Failure(ErrorType::NetworkError, response.errorDetail)
                                         : ClientResult::Failure(ErrorType::AuthorizationFailed,
                                                                 "the emulator refused headless consent (HTTP " +
                                                                     std::to_string(response.status) + ")");
            FinishAuthorization(std::move(result), "");
        });
        return;
    }
    if (customOpener) {
        Deliver([customOpener, url] { (*customOpener)(url); });
        return;
    }
    if (!OpenInSystemBrowser(url)) {
        FinishAuthorization(ClientResult::Failure(ErrorType::AuthorizationFailed,
                                                  "could not open the system browser; set an authorize URL opener"),
                            "");
    }
}

bool Client::Impl::FinishAuthorization(ClientResult result, std::string code) {
    std::optional<PendingAuthorization> pending;
    {
        std::lock_guard lock(mutex);
        pending = std::exchange(pendingAuthorization, std::nullopt);
    }
    if (!pending) return false;
    Log(result.Successful() ? LoggingSeverity::Info : LoggingSeverity::Warning,
        "authorization " + (result.Successful() ? std::string("succeeded") : "failed: " + result.ToString()));
    Deliver([callback = pending->callback, result = std::move(result), code = std::move(code),
             redirectUri = pending->redirectUri] { (*callback)(result, code, redirectUri); });
    return true;
}

bool Client::Impl::HandleRedirect(const std::string& url) {
    std::string expectedState, redirectUri;
    {
        std::lock_guard lock(mutex);
        if (!pendingAuthorization) return false;
        expectedState = pendingAuthorization->state;
        redirectUri = pendingAuthorization->redirectUri;
    }
    if (url.compare(0, redirectUri.size(), redirectUri) != 0 ||
        (url.size() > redirectUri.size() && url[redirectUri.size()] != '?' && url[redirectUri.size()] != '#')) {
        return false;  // not the redirect this authorization waits for
    }
    const auto state = net::QueryParameter(url, "state");
    if (!state || *state != expectedState) {
        return FinishAuthorization(ClientResult::Failure(ErrorType::AuthorizationFailed,
                                                         "state mismatch: the redirect is not for this authorization"),
                                   "");
    }
    if (const auto error = net::QueryParameter(url, "error")) {
        const auto description = net::QueryParameter(url, "error_description");
        return FinishAuthorization(
            ClientResult::Failure(ErrorType::AuthorizationFailed, *error + (description ? ": " + *description : "")), "");
    }
    const auto code = net::QueryParameter(url, "code");
    if (!code || code->empty()) {
        return FinishAuthorization(ClientResult::Failure(ErrorType::AuthorizationFailed, "the redirect carries no code"),
                                   "");
    }
    return FinishAuthorization(ClientResult::Success(), *code);
}

void Client::Authorize(AuthorizationArgs args, AuthorizationCallback callback) {
    Impl& impl = RequireImpl();
    std::string url, state, redirectUri, challengeText, nonceText;
    uint64_t clientId = 0;
    const auto call = Begin(impl, Needs::ValidArguments, std::move(callback), [&] {
            if (!args) throw ValidationError("args", "is a null AuthorizationArgs");
            if (args.Scopes().find_first_not_of(' ') == std::string::npos)
                throw ValidationError("Scopes", "is required (e.g. Client::GetDefaultCommunicationScopes())");
            clientId = authorize::ResolveClientId(args, GetApplicationId());
            redirectUri = authorize::ResolveRedirectUri(args, clientId);
            state = authorize::ResolveState(args);
            url = impl.webBase + "/oauth2/authorize?response_type=code&client_id=" + std::to_string(clientId) +
                  "&scope=" + net::PercentEncode(args.Scopes()) + "&state=" + net::PercentEncode(state) +
                  "&redirect_uri=" + net::PercentEncode(redirectUri);
            if (const auto challenge = args.CodeChallenge()) {
                challengeText = challenge->Challenge();
                url += "&code_challenge=" + net::PercentEncode(challengeText) + "&code_challenge_method=S256";
            }
            if (const auto nonce = args.Nonce()) {
                nonceText = *nonce;
                url += "&nonce=" + net::PercentEncode(nonceText);
            }
            if (const auto integration = args.IntegrationType()) {
                url += "&integration_type=" + std::to_string(static_cast<int>(*integration));
            }
        });
    if (!call) return;
    impl.FinishAuthorization(ClientResult::Failure(ErrorType::Aborted, "superseded by a newer Authorize"), "");
    {
        std::lock_guard lock(impl.mutex);
        impl.pendingAuthorization = PendingAuthorization{state, redirectUri, call->callback};
    }
    impl.Log(LoggingSeverity::Info, "authorizing: " + url);
    // The desktop client asks its signed-in user when it runs (as the platform's SDK does); else the URL opens.
    impl.AuthorizeThroughDesktop(clientId, args.Scopes(), challengeText, nonceText, redirectUri, url);
}

void Client::AbortAuthorize() {
    RequireImpl().FinishAuthorization(ClientResult::Failure(ErrorType::Aborted, "AbortAuthorize was called"), "");
}

bool Client::HandleAuthorizeRedirect(std::string url) { return RequireImpl().HandleRedirect(url); }

void Client::SetAuthorizeUrlOpener(AuthorizeUrlOpener opener) {
    Impl& impl = RequireImpl();
    std::lock_guard lock(impl.mutex);
    impl.opener = opener ? std::make_shared<AuthorizeUrlOpener>(std::move(opener)) : nullptr;
}

void Client::SetEmulatorConsentUser(std::string user) { SetEmulatorConsentUser(std::move(user), std::string()); }

void Client::SetEmulatorConsentUser(std::string user, std::string adminSecret) {
    Impl& impl = RequireImpl();
    std::lock_guard lock(impl.mutex);
    impl.emulatorConsentUser = std::move(user);
    impl.emulatorAdminSecret = std::move(adminSecret);
}

// ---- tokens ----

client::TokenValues client::ReadTokenExchange(Client::Impl& impl, ClientResult& result, const boost::json::value& json,
                                              bool refresh) {
    TokenAnswer answer;
    if (result.Successful()) {
        answer = ReadTokenAnswer(json);
        if (answer.accessToken.empty()) {
            result = ClientResult::Failure(ErrorType::AuthorizationFailed, "the token answer has no access_token");
        } else if (answer.expiresIn > 0) {
            std::lock_guard lock(impl.mutex);
            impl.knownExpiries.emplace_back(answer.accessToken,
                                            std::chrono::steady_clock::now() + std::chrono::seconds(answer.expiresIn));
        }
    } else if (refresh && result.Type() == ErrorType::AuthorizationFailed &&
               result.Error().rfind("invalid_grant", 0) == 0) {
        // Seed, Authentication 7: as good as the APPLICATION_DEAUTHORIZED webhook.
        result.SetDeauthorized(true);
    }
    return {answer.accessToken, answer.refreshToken, AuthorizationTokenType::Bearer, answer.expiresIn, answer.scopes};
}

void client::ExchangeTokens(const Started<Client::TokenExchangeCallback>& call, Form form, bool refresh) {
    call.Rest(OAuthForm("/oauth2/token", std::move(form), "POST /oauth2/token"),
              [&impl = call.impl, refresh](ClientResult& result, const boost::json::value& json) {
                  return ReadTokenExchange(impl, result, json, refresh);
              });
}

void Client::GetToken(uint64_t applicationId, std::string code, std::string codeVerifier, std::string redirectUri,
                      TokenExchangeCallback callback) {
    const auto call = Begin(RequireImpl(), Needs::ValidArguments, std::move(callback), [&] {
        RequireApplicationId(applicationId);
        RequireNonEmpty(code, "code");
        RequireNonEmpty(codeVerifier, "codeVerifier");
        RequireNonEmpty(redirectUri, "redirectUri");
    });
    if (call) ExchangeTokens(*call, {{"grant_type", "authorization_code"}, {"code", code}, {"redirect_uri", redirectUri},
                                     {"code_verifier", codeVerifier}, {"client_id", std::to_string(applicationId)}},
                             false);
}

void Client::RefreshToken(uint64_t applicationId, std::string refreshToken, TokenExchangeCallback callback) {
    const auto call = Begin(RequireImpl(), Needs::ValidArguments, std::move(callback), [&] {
        RequireApplicationId(applicationId);
        RequireNonEmpty(refreshToken, "refreshToken");
    });
    if (call) ExchangeTokens(*call, {{"grant_type", "refresh_token"}, {"refresh_token", refreshToken},
                                     {"client_id", std::to_string(applicationId)}},
                             true);
}

void Client::RevokeToken(uint64_t applicationId, std::string token, ResultCallback callback) {
    Impl& impl = RequireImpl();
    const auto call = Begin(impl, Needs::ValidArguments, std::move(callback), [&] {
        RequireApplicationId(applicationId);
        RequireNonEmpty(token, "token");
    });
    if (call) call->Rest(OAuthForm("/oauth2/token/revoke", {{"token", token}, {"client_id", std::to_string(applicationId)}}),
                         [&impl, token](const boost::json::value&) {
                             std::lock_guard lock(impl.mutex);
                             if (impl.token == token) impl.authenticated = false;  // the whole authorization is gone
                         });
}

void Client::UpdateToken(AuthorizationTokenType, std::string token, ResultCallback callback) {
    Impl& impl = RequireImpl();
    const auto call = Begin(impl, Needs::ValidArguments, std::move(callback), [&] { RequireNonEmpty(token, "token"); });
    if (!call) return;
    auto check = Request("GET", "/users/@me");
    check.token = token;
    call->Rest(std::move(check), [&impl, token](ClientResult& result, const boost::json::value& json) {
        if (result.Successful()) {
            {
                std::lock_guard lock(impl.mutex);
                impl.token = token;
                impl.authenticated = true;
                impl.currentUserId = json_fields::Snowflake(json, "id");
            }
            if (impl.gateway) impl.gateway->UpdateToken(token);
            impl.ScheduleTokenExpiry(token);
            impl.Log(LoggingSeverity::Info, "token updated");
        } else if (result.Status() == 401) {
            result.SetType(ErrorType::AuthorizationFailed);
        }
    });
}

bool Client::IsAuthenticated() const {
    Impl& impl = RequireImpl();
    std::lock_guard lock(impl.mutex);
    return impl.authenticated;
}

void Client::FetchCurrentUser(AuthorizationTokenType, std::string token, FetchCurrentUserCallback callback) {
    const auto call = Begin(RequireImpl(), Needs::ValidArguments, std::move(callback), [&] { RequireNonEmpty(token, "token"); });
    if (!call) return;
    auto request = Request("GET", "/users/@me");
    request.token = token;
    call->Rest(std::move(request), [](const boost::json::value& json) {
        return std::make_tuple(json_fields::Snowflake(json, "id"), json_fields::String(json, "username"));
    });
}

void Client::GetProvisionalToken(uint64_t applicationId, AuthenticationExternalAuthType externalAuthType,
                                 std::string externalAuthToken, TokenExchangeCallback callback) {
    Impl& impl = RequireImpl();
    const auto call = Begin(impl, Needs::ValidArguments, std::move(callback), [&] {
        RequireApplicationId(applicationId);
        RequireNonEmpty(externalAuthToken, "externalAuthToken");
    });
    if (call) call->Rest(Request("POST", "/partner-sdk/token",
                                 {{"client_id", std::to_string(applicationId)},
                                  {"external_auth_type", ExternalAuthTypeWire(externalAuthType)},
                                  {"external_auth_token", externalAuthToken}}),
                         [&impl](ClientResult& result, const boost::json::value& json) {
                             return client::ReadTokenExchange(impl, result, json, false);
                         });
}

void Client::ExchangeChildToken(std::string parentApplicationToken, uint64_t childApplicationId,
                                ExchangeChildTokenCallback callback) {
    const auto call = Begin(RequireImpl(), Needs::ValidArguments, std::move(callback), [&] {
        RequireNonEmpty(parentApplicationToken, "parentApplicationToken");
        RequireApplicationId(childApplicationId, "childApplicationId");
    });
    if (call) call->Rest(OAuthForm("/oauth2/token",
                                   {{"grant_type", kTokenExchangeGrant},
                                    {"subject_token", parentApplicationToken},
                                    {"subject_token_type", kAccessTokenType},
                                    {"client_id", std::to_string(childApplicationId)}},
                                   "POST /oauth2/token"),
                         [](const boost::json::value& json) {
                             const TokenAnswer answer = ReadTokenAnswer(json);
                             return std::make_tuple(answer.accessToken, AuthorizationTokenType::Bearer, answer.expiresIn,
                                                    answer.scopes);
                         });
}

void Client::UnmergeIntoProvisionalAccount(uint64_t applicationId, AuthenticationExternalAuthType externalAuthType,
                                           std::string externalAuthToken, ResultCallback callback) {
    const auto call = Begin(RequireImpl(), Needs::ValidArguments, std::move(callback), [&] {
        RequireApplicationId(applicationId);
        RequireNonEmpty(externalAuthToken, "externalAuthToken");
    });
    if (call) call->Rest(Request("POST", "/partner-sdk/provisional-accounts/unmerge",
                                 {{"client_id", std::to_string(applicationId)},
                                  {"external_auth_type", ExternalAuthTypeWire(externalAuthType)},
                                  {"external_auth_token", externalAuthToken}}));
}

void Client::SetTokenExpirationCallback(TokenExpirationCallback callback) {
    Impl& impl = RequireImpl();
    std::lock_guard lock(impl.mutex);
    impl.tokenExpirationCallback = callback ? std::make_shared<TokenExpirationCallback>(std::move(callback)) : nullptr;
}

void Client::RegisterAuthorizeRequestCallback(AuthorizeRequestCallback callback) {
    Impl& impl = RequireImpl();
    {
        std::lock_guard lock(impl.mutex);
        impl.authorizeRequestCallback = client::Share(std::move(callback));
    }
    // Over IPC when a desktop client runs; the Gateway's AUTHORIZE_REQUEST stays the path without one.
    impl.SubscribeDesktop("AUTHORIZE_REQUEST", std::nullopt);
}

void Client::RemoveAuthorizeRequestCallback() {
    Impl& impl = RequireImpl();
    std::lock_guard lock(impl.mutex);
    impl.authorizeRequestCallback.reset();
}

}  // namespace platformpp
