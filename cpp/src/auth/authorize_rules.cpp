// The rules Client::Authorize applies to AuthorizationArgs (seed: AuthorizationArgs, CustomSchemeParam).
#include <cctype>
#include <string>

#include "auth/pkce.hpp"
#include "platformpp/authorization.hpp"
#include "platformpp/errors.hpp"

namespace platformpp::authorize {
namespace {

constexpr std::size_t kStateBytes = 32;

// RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
bool IsUriScheme(const std::string& scheme) {
    if (scheme.empty() || !std::isalpha(static_cast<unsigned char>(scheme.front()))) return false;
    for (const char c : scheme) {
        const auto u = static_cast<unsigned char>(c);
        if (!(std::isalnum(u) || c == '+' || c == '-' || c == '.') || u > 0x7f) return false;
    }
    return true;
}

}  // namespace

uint64_t ResolveClientId(const AuthorizationArgs& args, uint64_t defaultApplicationId) {
    const uint64_t clientId = args.ClientId() != 0 ? args.ClientId() : defaultApplicationId;
    if (clientId == 0) {
        throw ValidationError("ClientId", "is 0 and no application id was set with Client::SetApplicationId");
    }
    return clientId;
}

std::string ResolveRedirectUri(const AuthorizationArgs& args, uint64_t defaultApplicationId) {
    if (const auto scheme = args.CustomSchemeParam()) {
        if (!IsUriScheme(*scheme)) {
            throw ValidationError("CustomSchemeParam",
                                  "\"" + *scheme + "\" is not an RFC 3986 URI scheme (a letter, then letters, "
                                  "digits, '+', '-' or '.')");
        }
        return *scheme + ":/authorize/callback";
    }
    return "platform-" + std::to_string(ResolveClientId(args, defaultApplicationId)) + ":/authorize/callback";
}

std::string ResolveState(const AuthorizationArgs& args) {
    if (auto state = args.State()) return *std::move(state);
    const auto bytes = pkce::RandomBytes(kStateBytes);
    return pkce::Base64UrlNoPadding(bytes.data(), bytes.size());
}

}  // namespace platformpp::authorize
