#include <platformpp/platformpp.hpp>

#include <cstdio>

int main() {
    platformpp::Client client;
    client.SetApplicationId(1234);
    const auto pair = client.CreateAuthorizationCodeVerifier();
    platformpp::AuthorizationArgs args;
    args.SetScopes(platformpp::Client::GetDefaultCommunicationScopes());
    args.SetCodeChallenge(pair.Challenge());
    const auto redirect = platformpp::authorize::ResolveRedirectUri(args, client.GetApplicationId());
    platformpp::RunCallbacks();
    std::printf("platformpp %d.%d.%d %s\n", platformpp::Client::GetVersionMajor(), platformpp::Client::GetVersionMinor(),
                platformpp::Client::GetVersionPatch(), redirect.c_str());
    return redirect == "platform-1234:/authorize/callback" && pair.Verifier().size() == 43 ? 0 : 1;
}
