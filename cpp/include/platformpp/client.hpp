#pragma once
// The SDK's entry point.
//
// A Client does all of its networking on its own thread. It never calls your code from that thread:
// every callback below is queued and runs when the game calls platformpp::RunCallbacks(), on the
// game's thread, in the order things happened. Callbacks given to a call always run exactly once
// (with ErrorType::ClientDestroyed if the Client goes away first).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "platformpp/authorization.hpp"
#include "platformpp/client_result.hpp"
#include "platformpp/logging.hpp"

namespace platformpp {

enum class AuthorizationTokenType : int32_t {
    User = 0,
    Bearer = 1,
};

// How an external identity provider's token is understood (GetProvisionalToken).
enum class AuthenticationExternalAuthType : int32_t {
    OIDC = 0,
    EpicOnlineServicesAccessToken = 1,
    EpicOnlineServicesIdToken = 2,
    SteamSessionTicket = 3,
    UnityServicesIdToken = 4,
};

class Client {
public:
    enum class Status : int32_t {
        Disconnected = 0,
        Connecting = 1,
        Connected = 2,
        Ready = 3,
        Reconnecting = 4,
        Disconnecting = 5,
        HttpWait = 6,  // waiting on the HTTP API before the Gateway (Connect() discovering it)
    };
    enum class Error : int32_t {
        None = 0,
        ConnectionFailed = 1,
        UnexpectedClose = 2,
        ConnectionCanceled = 3,
    };

    using StatusChangedCallback = std::function<void(Status status, Error error, int32_t errorDetail)>;
    using LogCallback = std::function<void(std::string message, LoggingSeverity severity)>;
    using AuthorizationCallback = std::function<void(ClientResult result, std::string code, std::string redirectUri)>;
    using AuthorizeUrlOpener = std::function<void(std::string url)>;
    using TokenExchangeCallback = std::function<void(ClientResult result, std::string accessToken, std::string refreshToken,
                                                     AuthorizationTokenType tokenType, int32_t expiresIn,
                                                     std::string scopes)>;
    using ExchangeChildTokenCallback = std::function<void(ClientResult result, std::string accessToken,
                                                          AuthorizationTokenType tokenType, int32_t expiresIn,
                                                          std::string scopes)>;
    using ResultCallback = std::function<void(ClientResult result)>;
    using FetchCurrentUserCallback = std::function<void(ClientResult result, uint64_t id, std::string name)>;
    using TokenExpirationCallback = std::function<void()>;
    using AuthorizeRequestCallback = std::function<void()>;

    static const Client nullobj;

    // The live platform's endpoints.
    Client();
    // Another deployment, e.g. the emulator: apiBase "http://127.0.0.1:PORT/api/v10", webBase
    // "http://127.0.0.1:PORT". ValidationError if either is not an absolute http(s) URL.
    Client(std::string apiBase, std::string webBase);
    Client(Client&& other) noexcept;
    Client& operator=(Client&& other) noexcept;
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;
    ~Client();

    explicit operator bool() const noexcept { return impl_ != nullptr; }

    static std::string GetDefaultCommunicationScopes();
    static std::string GetDefaultPresenceScopes();
    static int32_t GetVersionMajor();
    static int32_t GetVersionMinor();
    static int32_t GetVersionPatch();
    static std::string StatusToString(Status status);
    static std::string ErrorToString(Error error);

    // ---- configuration ----
    void SetApplicationId(uint64_t applicationId);  // the default ClientId of AuthorizationArgs
    uint64_t GetApplicationId() const;
    std::string GetApiBase() const;
    std::string GetWebBase() const;
    void SetHttpRequestTimeout(int32_t httpTimeoutInMilliseconds);  // ValidationError if <= 0
    // Lines at or above minSeverity go to the callback, secrets redacted. Any number of callbacks.
    void AddLogCallback(LogCallback callback, LoggingSeverity minSeverity);

    // ---- connection ----
    // Connects the Gateway with the token given to UpdateToken. Status goes HttpWait → Connecting →
    // Ready, and on a lost connection Reconnecting → Ready again; a fatal close ends in Disconnected
    // with Error UnexpectedClose and the close code as errorDetail.
    void Connect();
    void Disconnect();
    Status GetStatus() const;
    void SetStatusChangedCallback(StatusChangedCallback callback);

    // ---- authorization (OAuth2 with PKCE) ----
    // Builds the authorize URL from args (ClientId defaults to SetApplicationId; Scopes required; State
    // generated when unset), opens it, and waits for the redirect (HandleAuthorizeRedirect). The
    // callback gets the code and the redirect URI to pass to GetToken. A second Authorize while one is
    // pending completes the first with Aborted.
    void Authorize(AuthorizationArgs args, AuthorizationCallback callback);
    void AbortAuthorize();
    // Feeds back the redirect the OS handed the game (custom scheme URL). Returns false when it is not
    // for a pending authorization (then nothing happens).
    bool HandleAuthorizeRedirect(std::string url);
    // Replaces how the authorize URL is opened (default: the system browser). Runs on the game thread.
    void SetAuthorizeUrlOpener(AuthorizeUrlOpener opener);
    // Emulator only: consent headlessly as this test user (id or username) instead of opening a browser.
    // Empty turns it off.
    void SetEmulatorConsentUser(std::string user);
    AuthorizationCodeVerifier CreateAuthorizationCodeVerifier() const;
    void GetToken(uint64_t applicationId, std::string code, std::string codeVerifier, std::string redirectUri,
                  TokenExchangeCallback callback);
    void RefreshToken(uint64_t applicationId, std::string refreshToken, TokenExchangeCallback callback);
    // Revokes the whole authorization (access and refresh token both), as unlinking requires.
    void RevokeToken(uint64_t applicationId, std::string token, ResultCallback callback);
    // Sets the token the Client acts with (checked against the platform first; the previous token is
    // kept if the check fails). Also after re-authenticating an OIDC provisional account.
    void UpdateToken(AuthorizationTokenType tokenType, std::string token, ResultCallback callback);
    bool IsAuthenticated() const;
    void FetchCurrentUser(AuthorizationTokenType tokenType, std::string token, FetchCurrentUserCallback callback);
    void GetProvisionalToken(uint64_t applicationId, AuthenticationExternalAuthType externalAuthType,
                             std::string externalAuthToken, TokenExchangeCallback callback);
    // Publisher-level linking: a parent application's access token for a child application's.
    void ExchangeChildToken(std::string parentApplicationToken, uint64_t childApplicationId,
                            ExchangeChildTokenCallback callback);
    void UnmergeIntoProvisionalAccount(uint64_t applicationId, AuthenticationExternalAuthType externalAuthType,
                                       std::string externalAuthToken, ResultCallback callback);
    // Called when the access token is about to expire (from its expires_in) or the platform rejects it.
    void SetTokenExpirationCallback(TokenExpirationCallback callback);
    // Authorization requests that start from a client entry point (AUTHORIZE_REQUEST).
    void RegisterAuthorizeRequestCallback(AuthorizeRequestCallback callback);
    void RemoveAuthorizeRequestCallback();


    struct Impl;

private:
    struct NullTag {};
    explicit Client(NullTag) noexcept;
    Impl& RequireImpl() const;

    std::unique_ptr<Impl> impl_;
};

}  // namespace platformpp
