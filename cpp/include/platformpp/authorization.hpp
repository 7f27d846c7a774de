#pragma once
// The arguments of Client::Authorize and the PKCE types that go with them.
//
// Every class here follows the platform SDK's object model: a getter named after each field, a
// Set<Field> setter returning void, noexcept move (the moved-from instance becomes invalid), copy
// giving an independent instance, `operator bool` (true for a valid instance) and a static `nullobj`
// (an invalid instance). Using an invalid instance throws NullHandleError.

#include <cstdint>
#include <optional>
#include <string>

namespace platformpp {

enum class IntegrationType : int32_t {
    GuildInstall = 0,
    UserInstall = 1,
};

enum class AuthenticationCodeChallengeMethod : int32_t {
    S256 = 0,
};

class AuthorizationCodeChallenge {
public:
    static const AuthorizationCodeChallenge nullobj;

    AuthorizationCodeChallenge() = default;
    AuthorizationCodeChallenge(const AuthorizationCodeChallenge&) = default;
    AuthorizationCodeChallenge& operator=(const AuthorizationCodeChallenge&) = default;
    AuthorizationCodeChallenge(AuthorizationCodeChallenge&& other) noexcept;
    AuthorizationCodeChallenge& operator=(AuthorizationCodeChallenge&& other) noexcept;
    ~AuthorizationCodeChallenge() = default;

    explicit operator bool() const noexcept { return valid_; }

    AuthenticationCodeChallengeMethod Method() const;
    void SetMethod(AuthenticationCodeChallengeMethod Method);
    std::string Challenge() const;
    void SetChallenge(std::string Challenge);

private:
    struct NullTag {};
    explicit AuthorizationCodeChallenge(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    AuthenticationCodeChallengeMethod method_ = AuthenticationCodeChallengeMethod::S256;
    std::string challenge_;
};

class AuthorizationCodeVerifier {
public:
    static const AuthorizationCodeVerifier nullobj;

    AuthorizationCodeVerifier() = default;
    AuthorizationCodeVerifier(const AuthorizationCodeVerifier&) = default;
    AuthorizationCodeVerifier& operator=(const AuthorizationCodeVerifier&) = default;
    AuthorizationCodeVerifier(AuthorizationCodeVerifier&& other) noexcept;
    AuthorizationCodeVerifier& operator=(AuthorizationCodeVerifier&& other) noexcept;
    ~AuthorizationCodeVerifier() = default;

    explicit operator bool() const noexcept { return valid_; }

    AuthorizationCodeChallenge Challenge() const;
    void SetChallenge(AuthorizationCodeChallenge Challenge);
    std::string Verifier() const;
    void SetVerifier(std::string Verifier);

private:
    struct NullTag {};
    explicit AuthorizationCodeVerifier(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    AuthorizationCodeChallenge challenge_;
    std::string verifier_;
};

class AuthorizationArgs {
public:
    static const AuthorizationArgs nullobj;

    AuthorizationArgs() = default;
    AuthorizationArgs(const AuthorizationArgs&) = default;
    AuthorizationArgs& operator=(const AuthorizationArgs&) = default;
    AuthorizationArgs(AuthorizationArgs&& other) noexcept;
    AuthorizationArgs& operator=(AuthorizationArgs&& other) noexcept;
    ~AuthorizationArgs() = default;

    explicit operator bool() const noexcept { return valid_; }

    // Application id of the game; 0 means "the id set with Client::SetApplicationId".
    uint64_t ClientId() const;
    void SetClientId(uint64_t ClientId);
    // Space-separated OAuth2 scopes, e.g. Client::GetDefaultCommunicationScopes().
    std::string Scopes() const;
    void SetScopes(std::string Scopes);
    // Leave unset: the SDK then generates a fresh random state for each authorization.
    std::optional<std::string> State() const;
    void SetState(std::optional<std::string> State);
    std::optional<std::string> Nonce() const;
    void SetNonce(std::optional<std::string> Nonce);
    std::optional<AuthorizationCodeChallenge> CodeChallenge() const;
    void SetCodeChallenge(std::optional<AuthorizationCodeChallenge> CodeChallenge);
    std::optional<platformpp::IntegrationType> IntegrationType() const;
    void SetIntegrationType(std::optional<platformpp::IntegrationType> IntegrationType);
    std::optional<std::string> CustomSchemeParam() const;
    void SetCustomSchemeParam(std::optional<std::string> CustomSchemeParam);

private:
    struct NullTag {};
    explicit AuthorizationArgs(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    uint64_t clientId_ = 0;
    std::string scopes_;
    std::optional<std::string> state_;
    std::optional<std::string> nonce_;
    std::optional<AuthorizationCodeChallenge> codeChallenge_;
    std::optional<platformpp::IntegrationType> integrationType_;
    std::optional<std::string> customSchemeParam_;
};

// What Client::GetTokenFromDevice asks for: the OAuth2 device authorization grant (RFC 8628) of
// consoles and TVs, where the user approves on another device with a short code.
class DeviceAuthorizationArgs {
public:
    static const DeviceAuthorizationArgs nullobj;

    DeviceAuthorizationArgs() = default;
    DeviceAuthorizationArgs(const DeviceAuthorizationArgs&) = default;
    DeviceAuthorizationArgs& operator=(const DeviceAuthorizationArgs&) = default;
    DeviceAuthorizationArgs(DeviceAuthorizationArgs&& other) noexcept;
    DeviceAuthorizationArgs& operator=(DeviceAuthorizationArgs&& other) noexcept;
    ~DeviceAuthorizationArgs() = default;

    explicit operator bool() const noexcept { return valid_; }

    // Application id of the game; 0 means "the id set with Client::SetApplicationId".
    uint64_t ClientId() const;
    void SetClientId(uint64_t ClientId);
    // Space-separated OAuth2 scopes, e.g. Client::GetDefaultCommunicationScopes().
    std::string Scopes() const;
    void SetScopes(std::string Scopes);

private:
    struct NullTag {};
    explicit DeviceAuthorizationArgs(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    uint64_t clientId_ = 0;
    std::string scopes_;
};

// The rules Client::Authorize applies to its arguments, exposed so they can be used and tested alone.
namespace authorize {

// args.ClientId(), or defaultApplicationId when that is 0. ValidationError("ClientId") when both are 0.
uint64_t ResolveClientId(const AuthorizationArgs& args, uint64_t defaultApplicationId);

// `<CustomSchemeParam>:/authorize/callback`, or `platform-<application id>:/authorize/callback` when
// CustomSchemeParam is unset. ValidationError("CustomSchemeParam") for a scheme that RFC 3986 forbids.
std::string ResolveRedirectUri(const AuthorizationArgs& args, uint64_t defaultApplicationId);

// args.State() when set; otherwise 32 bytes from the CSPRNG, base64url without padding.
std::string ResolveState(const AuthorizationArgs& args);

}  // namespace authorize

}  // namespace platformpp
