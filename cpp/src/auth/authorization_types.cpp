// The object members of AuthorizationArgs, AuthorizationCodeChallenge and AuthorizationCodeVerifier.
#include <type_traits>
#include <utility>

#include "platformpp/authorization.hpp"
#include "platformpp/errors.hpp"

namespace platformpp {

static_assert(std::is_nothrow_move_constructible_v<AuthorizationArgs>);
static_assert(std::is_nothrow_move_assignable_v<AuthorizationArgs>);
static_assert(std::is_nothrow_move_constructible_v<AuthorizationCodeChallenge>);
static_assert(std::is_nothrow_move_assignable_v<AuthorizationCodeChallenge>);
static_assert(std::is_nothrow_move_constructible_v<AuthorizationCodeVerifier>);
static_assert(std::is_nothrow_move_assignable_v<AuthorizationCodeVerifier>);

// Defined in one translation unit, challenge first: the other two do not depend on it at start-up.
const AuthorizationCodeChallenge AuthorizationCodeChallenge::nullobj{NullTag{}};
const AuthorizationCodeVerifier AuthorizationCodeVerifier::nullobj{NullTag{}};
const AuthorizationArgs AuthorizationArgs::nullobj{NullTag{}};
const DeviceAuthorizationArgs DeviceAuthorizationArgs::nullobj{NullTag{}};

// ---- AuthorizationCodeChallenge ----

AuthorizationCodeChallenge::AuthorizationCodeChallenge(AuthorizationCodeChallenge&& other) noexcept
  : valid_(std::exchange(other.valid_, false)),
    method_(other.method_),
    challenge_(std::move(other.challenge_)) {}

AuthorizationCodeChallenge& AuthorizationCodeChallenge::operator=(AuthorizationCodeChallenge&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        method_ = other.method_;
        challenge_ = std::move(other.challenge_);
    }
    return *this;
}

void AuthorizationCodeChallenge::RequireValid() const {
    if (!valid_) throw NullHandleError("AuthorizationCodeChallenge: the instance is null (nullobj or moved from)");
}

AuthenticationCodeChallengeMethod AuthorizationCodeChallenge::Method() const { RequireValid(); return method_; }
void AuthorizationCodeChallenge::SetMethod(AuthenticationCodeChallengeMethod Method) { RequireValid(); method_ = Method; }
std::string AuthorizationCodeChallenge::Challenge() const { RequireValid(); return challenge_; }
void AuthorizationCodeChallenge::SetChallenge(std::string Challenge) { RequireValid(); challenge_ = std::move(Challenge); }

// ---- AuthorizationCodeVerifier ----

AuthorizationCodeVerifier::AuthorizationCodeVerifier(AuthorizationCodeVerifier&& other) noexcept
  : valid_(std::exchange(other.valid_, false)),
    challenge_(std::move(other.challenge_)),
    verifier_(std::move(other.verifier_)) {}

AuthorizationCodeVerifier& AuthorizationCodeVerifier::operator=(AuthorizationCodeVerifier&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        challenge_ = std::move(other.challenge_);
        verifier_ = std::move(other.verifier_);
    }
    return *this;
}

void AuthorizationCodeVerifier::RequireValid() const {
    if (!valid_) throw NullHandleError("AuthorizationCodeVerifier: the instance is null (nullobj or moved from)");
}

AuthorizationCodeChallenge AuthorizationCodeVerifier::Challenge() const { RequireValid(); return challenge_; }
void AuthorizationCodeVerifier::SetChallenge(AuthorizationCodeChallenge Challenge) { RequireValid(); challenge_ = std::move(Challenge); }
std::string AuthorizationCodeVerifier::Verifier() const { RequireValid(); return verifier_; }
void AuthorizationCodeVerifier::SetVerifier(std::string Verifier) { RequireValid(); verifier_ = std::move(Verifier); }

// ---- AuthorizationArgs ----

AuthorizationArgs::AuthorizationArgs(AuthorizationArgs&& other) noexcept
  : valid_(std::exchange(other.valid_, false)),
    clientId_(other.clientId_),
    scopes_(std::move(other.scopes_)),
    state_(std::move(other.state_)),
    nonce_(std::move(other.nonce_)),
    codeChallenge_(std::move(other.codeChallenge_)),
    integrationType_(other.integrationType_),
    customSchemeParam_(std::move(other.customSchemeParam_)) {}

AuthorizationArgs& AuthorizationArgs::operator=(AuthorizationArgs&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        clientId_ = other.clientId_;
        scopes_ = std::move(other.scopes_);
        state_ = std::move(other.state_);
        nonce_ = std::move(other.nonce_);
        codeChallenge_ = std::move(other.codeChallenge_);
        integrationType_ = other.integrationType_;
        customSchemeParam_ = std::move(other.customSchemeParam_);
    }
    return *this;
}

void AuthorizationArgs::RequireValid() const {
    if (!valid_) throw NullHandleError("AuthorizationArgs: the instance is null (nullobj or moved from)");
}

uint64_t AuthorizationArgs::ClientId() const { RequireValid(); return clientId_; }
void AuthorizationArgs::SetClientId(uint64_t ClientId) { RequireValid(); clientId_ = ClientId; }
std::string AuthorizationArgs::Scopes() const { RequireValid(); return scopes_; }
void AuthorizationArgs::SetScopes(std::string Scopes) { RequireValid(); scopes_ = std::move(Scopes); }
std::optional<std::string> AuthorizationArgs::State() const { RequireValid(); return state_; }
void AuthorizationArgs::SetState(std::optional<std::string> State) { RequireValid(); state_ = std::move(State); }
std::optional<std::string> AuthorizationArgs::Nonce() const { RequireValid(); return nonce_; }
void AuthorizationArgs::SetNonce(std::optional<std::string> Nonce) { RequireValid(); nonce_ = std::move(Nonce); }
std::optional<AuthorizationCodeChallenge> AuthorizationArgs::CodeChallenge() const { RequireValid(); return codeChallenge_; }
void AuthorizationArgs::SetCodeChallenge(std::optional<AuthorizationCodeChallenge> CodeChallenge) {
    RequireValid();
    codeChallenge_ = std::move(CodeChallenge);
}
std::optional<platformpp::IntegrationType> AuthorizationArgs::IntegrationType() const { RequireValid(); return integrationType_; }
void AuthorizationArgs::SetIntegrationType(std::optional<platformpp::IntegrationType> IntegrationType) {
    RequireValid();
    integrationType_ = IntegrationType;
}
std::optional<std::string> AuthorizationArgs::CustomSchemeParam() const { RequireValid(); return customSchemeParam_; }
void AuthorizationArgs::SetCustomSchemeParam(std::optional<std::string> CustomSchemeParam) {
    RequireValid();
    customSchemeParam_ = std::move(CustomSchemeParam);
}

// ---- DeviceAuthorizationArgs ----

DeviceAuthorizationArgs::DeviceAuthorizationArgs(DeviceAuthorizationArgs&& other) noexcept
  : valid_(std::exchange(other.valid_, false)), clientId_(other.clientId_), scopes_(std::move(other.scopes_)) {}

DeviceAuthorizationArgs& DeviceAuthorizationArgs::operator=(DeviceAuthorizationArgs&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        clientId_ = other.clientId_;
        scopes_ = std::move(other.scopes_);
    }
    return *this;
}

void DeviceAuthorizationArgs::RequireValid() const {
    if (!valid_) throw NullHandleError("DeviceAuthorizationArgs: the instance is null (nullobj or moved from)");
}

uint64_t DeviceAuthorizationArgs::ClientId() const { RequireValid(); return clientId_; }
void DeviceAuthorizationArgs::SetClientId(uint64_t ClientId) { RequireValid(); clientId_ = ClientId; }
std::string DeviceAuthorizationArgs::Scopes() const { RequireValid(); return scopes_; }
void DeviceAuthorizationArgs::SetScopes(std::string Scopes) { RequireValid(); scopes_ = std::move(Scopes); }

}  // namespace platformpp
