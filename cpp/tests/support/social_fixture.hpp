#pragma once
// Two players, alice and bob, signed in through the full PKCE flow (headless consent) on two Clients
// against one live emulator, both connected to the Gateway and Ready. Shared by the social tests.

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "platformpp/platformpp.hpp"
#include "support/emulator_process.hpp"
#include "support/pump.hpp"

namespace platformpp::testing {

constexpr uint64_t kGameId = 1000000000000000000ull;  // the default world's "Demo Game"
constexpr uint64_t kAliceId = 1100000000000000001ull;
constexpr uint64_t kBobId = 1100000000000000002ull;
constexpr uint64_t kGuildId = 1200000000000000000ull;

// Waits for a call's callback and returns what it got.
template <typename... Values>
struct Outcome {
    std::optional<std::tuple<Values...>> value;
    auto Callback() {
        return [this](Values... values) { value.emplace(std::move(values)...); };
    }
    const std::tuple<Values...>& Wait() {
        BOOST_REQUIRE_MESSAGE(PumpUntil([&] { return value.has_value(); }), "the callback never ran");
        return *value;
    }
};

inline void SignIn(Client& client, const std::string& user) {
    client.SetApplicationId(kGameId);
    if (std::getenv("PLATFORMPP_TEST_LOG")) {
        client.AddLogCallback(
            [user](std::string line, LoggingSeverity) { std::fprintf(stderr, "[%s] %s\n", user.c_str(), line.c_str()); },
            LoggingSeverity::Verbose);
    }
    client.SetEmulatorConsentUser(user);
    const auto pair = client.CreateAuthorizationCodeVerifier();
    AuthorizationArgs args;
    args.SetScopes(Client::GetDefaultCommunicationScopes());
    args.SetCodeChallenge(pair.Challenge());
    Outcome<ClientResult, std::string, std::string> authorized;
    client.Authorize(args, authorized.Callback());
    const auto& [result, code, redirect] = authorized.Wait();
    BOOST_REQUIRE_MESSAGE(result.Successful(), result.ToString());
    Outcome<ClientResult, std::string, std::string, AuthorizationTokenType, int32_t, std::string> tokens;
    client.GetToken(kGameId, code, pair.Verifier(), redirect, tokens.Callback());
    const auto& [tokenResult, access, refresh, type, expiresIn, scopes] = tokens.Wait();
    BOOST_REQUIRE_MESSAGE(tokenResult.Successful(), tokenResult.ToString());
    Outcome<ClientResult> updated;
    client.UpdateToken(AuthorizationTokenType::Bearer, access, updated.Callback());
    BOOST_REQUIRE(std::get<0>(updated.Wait()).Successful());
    client.Connect();
    BOOST_REQUIRE_MESSAGE(PumpUntil([&] { return client.GetStatus() == Client::Status::Ready; }), "never Ready");
}

struct SocialFixture {
    EmulatorProcess emulator;
    Client alice{emulator.ApiBase(), emulator.BaseUrl()};
    Client bob{emulator.ApiBase(), emulator.BaseUrl()};

    SocialFixture() {
        SignIn(alice, "alice");
        SignIn(bob, "bob");
    }

    // The emulator's request log (GET /_emulator/requests), as parsed JSON entries.
    boost::json::array Requests() const {
        const auto response = TestRequest(emulator, "GET", "/_emulator/requests");
        BOOST_REQUIRE_EQUAL(response.status, 200);
        return boost::json::parse(response.body).as_array();
    }
    void ClearRequests() const { BOOST_REQUIRE_EQUAL(TestRequest(emulator, "DELETE", "/_emulator/requests").status, 204); }
    std::size_t RequestsTo(const std::string& pathPart) const {
        std::size_t count = 0;
        for (const auto& entry : Requests()) {
            const auto& path = entry.as_object().at("path").as_string();
            if (std::string_view(path.data(), path.size()).find(pathPart) != std::string_view::npos) ++count;
        }
        return count;
    }
};

}  // namespace platformpp::testing
