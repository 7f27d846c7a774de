#include "platformpp/client.hpp"

#include <type_traits>

#include "auth/pkce.hpp"
#include "platformpp/errors.hpp"

namespace platformpp {

static_assert(std::is_nothrow_move_constructible_v<Client>);
static_assert(std::is_nothrow_move_assignable_v<Client>);

struct Client::Impl {
    uint64_t applicationId = 0;
};

const Client Client::nullobj{NullTag{}};

Client::Client() : impl_(std::make_unique<Impl>()) {}
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

void Client::SetApplicationId(uint64_t applicationId) { RequireImpl().applicationId = applicationId; }
uint64_t Client::GetApplicationId() const { return RequireImpl().applicationId; }

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

}  // namespace platformpp
