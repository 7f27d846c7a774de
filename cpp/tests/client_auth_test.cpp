// The authorization flows of Client against a live emulator (issue: SDK core, "Must show").
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <cstdlib>
#include <optional>

#include "platformpp/platformpp.hpp"
#include "support/emulator_process.hpp"
#include "support/pump.hpp"

using namespace platformpp;
using platformpp::testing::EmulatorProcess;
using platformpp::testing::PumpUntil;

namespace {

constexpr uint64_t kGameId = 1000000000000000000ull;  // the default world's "Demo Game"

struct Tokens {
    ClientResult result = ClientResult::nullobj;
    std::string access, refresh, scopes;
    int32_t expiresIn = 0;
};

struct AuthFixture {
    EmulatorProcess emulator;
    Client client{emulator.ApiBase(), emulator.BaseUrl()};

    AuthFixture() {
        client.SetApplicationId(kGameId);
        // PLATFORMPP_TEST_LOG=1 shows the Client's log while debugging a test.
        if (std::getenv("PLATFORMPP_TEST_LOG")) {
            client.AddLogCallback([](std::string line, LoggingSeverity) { std::fprintf(stderr, "[client] %s\n", line.c_str()); },
                                  LoggingSeverity::Verbose);
        }
    }

    // Authorize (headless consent as `user`) and return {result, code, redirectUri}.
    std::tuple<ClientResult, std::string, std::string> Authorize(AuthorizationArgs args, const std::string& user = "alice") {
        client.SetEmulatorConsentUser(user);
        std::optional<std::tuple<ClientResult, std::string, std::string>> outcome;
        client.Authorize(std::move(args), [&](ClientResult r, std::string code, std::string redirect) {
            outcome.emplace(std::move(r), std::move(code), std::move(redirect));
        });
        BOOST_REQUIRE(PumpUntil([&] { return outcome.has_value(); }));
        return *outcome;
    }

    Tokens Exchange(const std::function<void(Client::TokenExchangeCallback)>& call) {
        std::optional<Tokens> tokens;
        call([&](ClientResult r, std::string access, std::string refresh, AuthorizationTokenType, int32_t expiresIn,
                 std::string scopes) { tokens = Tokens{std::move(r), access, refresh, scopes, expiresIn}; });
        BOOST_REQUIRE(PumpUntil([&] { return tokens.has_value(); }));
        return *tokens;
    }

    Tokens SignIn(const std::string& user = "alice") {
        const auto pair = client.CreateAuthorizationCodeVerifier();
        AuthorizationArgs args;
        args.SetScopes(Client::GetDefaultCommunicationScopes());
        args.SetCodeChallenge(pair.Challenge());
        auto [result, code, redirect] = Authorize(args, user);
        BOOST_REQUIRE_MESSAGE(result.Successful(), result.ToString());
        return Exchange([&](auto cb) { client.GetToken(kGameId, code, pair.Verifier(), redirect, std::move(cb)); });
    }

    ClientResult Update(const std::string& token) {
        std::optional<ClientResult> done;
        client.UpdateToken(AuthorizationTokenType::Bearer, token, [&](ClientResult r) { done = std::move(r); });
        BOOST_REQUIRE(PumpUntil([&] { return done.has_value(); }));
        return *done;
    }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(client_authorization, AuthFixture)

BOOST_AUTO_TEST_CASE(full_pkce_flow_to_ready) {
    std::vector<Client::Status> statuses;
    client.SetStatusChangedCallback([&](Client::Status s, Client::Error, int32_t) { statuses.push_back(s); });
    const Tokens tokens = SignIn();
    BOOST_TEST_REQUIRE(tokens.result.Successful(), tokens.result.ToString());
    BOOST_TEST(!tokens.access.empty());
    BOOST_TEST(!tokens.refresh.empty());
    BOOST_TEST(tokens.expiresIn == 604800);
    BOOST_TEST(tokens.scopes.find("sdk.social_layer") != std::string::npos);
    BOOST_TEST(!client.IsAuthenticated());
    BOOST_TEST(Update(tokens.access).Successful());
    BOOST_TEST(client.IsAuthenticated());

    std::optional<std::pair<uint64_t, std::string>> me;
    client.FetchCurrentUser(AuthorizationTokenType::Bearer, tokens.access,
                            [&](ClientResult r, uint64_t id, std::string name) {
                                BOOST_TEST(r.Successful());
                                me.emplace(id, name);
                            });
    BOOST_REQUIRE(PumpUntil([&] { return me.has_value(); }));
    BOOST_TEST(me->first == 1100000000000000001ull);
    BOOST_TEST(me->second == "alice");

    client.Connect();
    BOOST_REQUIRE(PumpUntil([&] { return !statuses.empty() && statuses.back() == Client::Status::Ready; }));
    BOOST_TEST((client.GetStatus() == Client::Status::Ready));
    BOOST_TEST((statuses.front() == Client::Status::HttpWait));
    client.Disconnect();
    BOOST_REQUIRE(PumpUntil([&] { return client.GetStatus() == Client::Status::Disconnected; }));
}

BOOST_AUTO_TEST_CASE(a_state_mismatch_is_refused) {
    AuthorizationArgs args;
    args.SetScopes(Client::GetDefaultCommunicationScopes());
    std::optional<ClientResult> outcome;
    client.SetAuthorizeUrlOpener([](std::string) {});  // the browser never answers; a forged redirect does
    client.Authorize(args, [&](ClientResult r, std::string, std::string) { outcome = std::move(r); });
    const std::string forged = "platform-" + std::to_string(kGameId) + ":/authorize/callback?code=stolen&state=forged";
    BOOST_TEST(client.HandleAuthorizeRedirect(forged));
    BOOST_REQUIRE(PumpUntil([&] { return outcome.has_value(); }));
    BOOST_TEST((outcome->Type() == ErrorType::AuthorizationFailed));
    BOOST_TEST(outcome->Error().find("state") != std::string::npos);
    BOOST_TEST(!client.HandleAuthorizeRedirect(forged));  // nothing pending any more
}

BOOST_AUTO_TEST_CASE(a_redirect_for_another_uri_is_ignored_and_abort_works) {
    AuthorizationArgs args;
    args.SetScopes("openid");
    std::optional<ClientResult> outcome;
    client.SetAuthorizeUrlOpener([](std::string) {});
    client.Authorize(args, [&](ClientResult r, std::string, std::string) { outcome = std::move(r); });
    BOOST_TEST(!client.HandleAuthorizeRedirect("othergame:/authorize/callback?code=x&state=y"));
    client.AbortAuthorize();
    BOOST_REQUIRE(PumpUntil([&] { return outcome.has_value(); }));
    BOOST_TEST((outcome->Type() == ErrorType::Aborted));
}

BOOST_AUTO_TEST_CASE(the_opener_gets_the_authorize_url) {
    AuthorizationArgs args;
    args.SetScopes(Client::GetDefaultPresenceScopes());
    args.SetState("my-state");
    args.SetNonce("my-nonce");
    args.SetIntegrationType(IntegrationType::UserInstall);
    args.SetCustomSchemeParam("demogame");
    std::string opened;
    client.SetAuthorizeUrlOpener([&](std::string url) { opened = std::move(url); });
    client.Authorize(args, [](ClientResult, std::string, std::string) {});
    BOOST_REQUIRE(PumpUntil([&] { return !opened.empty(); }));
    BOOST_TEST(opened.rfind(emulator.BaseUrl() + "/oauth2/authorize?response_type=code&client_id=1000000000000000000", 0) == 0u);
    for (const char* part : {"scope=openid%20sdk.social_layer_presence", "state=my-state", "nonce=my-nonce",
                             "integration_type=1", "redirect_uri=demogame%3A%2Fauthorize%2Fcallback"}) {
        BOOST_TEST(opened.find(part) != std::string::npos, part);
    }
    client.AbortAuthorize();
}

BOOST_AUTO_TEST_CASE(consent_denied_is_authorization_failed) {
    AuthorizationArgs args;
    args.SetScopes("openid");
    auto [result, code, redirect] = Authorize(args, "no-such-user");
    BOOST_TEST((result.Type() == ErrorType::AuthorizationFailed));
    BOOST_TEST(code.empty());
}

BOOST_AUTO_TEST_CASE(bad_arguments_are_validation_errors_naming_the_field) {
    std::optional<ClientResult> outcome;
    client.Authorize(AuthorizationArgs{}, [&](ClientResult r, std::string, std::string) { outcome = std::move(r); });
    BOOST_REQUIRE(PumpUntil([&] { return outcome.has_value(); }));
    BOOST_TEST((outcome->Type() == ErrorType::ValidationError));
    BOOST_TEST(outcome->Error().rfind("Scopes:", 0) == 0u);

    AuthorizationArgs badScheme;
    badScheme.SetScopes("openid");
    badScheme.SetCustomSchemeParam("not a scheme");
    outcome.reset();
    client.Authorize(badScheme, [&](ClientResult r, std::string, std::string) { outcome = std::move(r); });
    BOOST_REQUIRE(PumpUntil([&] { return outcome.has_value(); }));
    BOOST_TEST(outcome->Error().rfind("CustomSchemeParam:", 0) == 0u);

    const Tokens missing = Exchange([&](auto cb) { client.GetToken(kGameId, "", "v", "r", std::move(cb)); });
    BOOST_TEST((missing.result.Type() == ErrorType::ValidationError));
    BOOST_TEST(missing.result.Error().rfind("code:", 0) == 0u);
    BOOST_CHECK_THROW(client.SetHttpRequestTimeout(0), ValidationError);
}

BOOST_AUTO_TEST_CASE(a_revoked_authorization_refreshes_to_invalid_grant) {
    const Tokens tokens = SignIn();
    BOOST_REQUIRE(tokens.result.Successful());
    const Tokens refreshed = Exchange([&](auto cb) { client.RefreshToken(kGameId, tokens.refresh, std::move(cb)); });
    BOOST_TEST_REQUIRE(refreshed.result.Successful(), refreshed.result.ToString());
    BOOST_TEST(refreshed.access != tokens.access);

    std::optional<ClientResult> revoked;
    client.RevokeToken(kGameId, refreshed.access, [&](ClientResult r) { revoked = std::move(r); });
    BOOST_REQUIRE(PumpUntil([&] { return revoked.has_value(); }));
    BOOST_TEST_REQUIRE(revoked->Successful(), revoked->ToString());

    const Tokens after = Exchange([&](auto cb) { client.RefreshToken(kGameId, refreshed.refresh, std::move(cb)); });
    BOOST_TEST((after.result.Type() == ErrorType::AuthorizationFailed));
    BOOST_TEST(after.result.Deauthorized());
    BOOST_TEST(after.result.Status() == 400);
    BOOST_TEST(Update(refreshed.access).Successful() == false);
    BOOST_TEST(!client.IsAuthenticated());
}

BOOST_AUTO_TEST_CASE(connect_without_a_token_fails_cleanly) {
    std::optional<Client::Error> error;
    client.SetStatusChangedCallback([&](Client::Status, Client::Error e, int32_t) { error = e; });
    client.Connect();
    BOOST_REQUIRE(PumpUntil([&] { return error.has_value(); }));
    BOOST_TEST((*error == Client::Error::ConnectionFailed));
    BOOST_TEST((client.GetStatus() == Client::Status::Disconnected));
}

BOOST_AUTO_TEST_CASE(logs_never_carry_secrets) {
    std::vector<std::string> lines;
    client.AddLogCallback([&](std::string line, LoggingSeverity) { lines.push_back(std::move(line)); },
                          LoggingSeverity::Verbose);
    const Tokens tokens = SignIn();
    BOOST_REQUIRE(tokens.result.Successful());
    BOOST_TEST(Update(tokens.access).Successful());
    PumpUntil([] { return false; }, std::chrono::milliseconds(50));
    BOOST_TEST(!lines.empty());
    for (const auto& line : lines) {
        BOOST_TEST(line.find(tokens.access) == std::string::npos);
        BOOST_TEST(line.find(tokens.refresh) == std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(pending_calls_complete_when_the_client_is_destroyed) {
    std::optional<ClientResult> outcome;
    {
        Client doomed(emulator.ApiBase(), emulator.BaseUrl());
        doomed.SetAuthorizeUrlOpener([](std::string) {});
        AuthorizationArgs args;
        args.SetScopes("openid");
        args.SetClientId(kGameId);
        doomed.Authorize(args, [&](ClientResult r, std::string, std::string) { outcome = std::move(r); });
    }
    BOOST_REQUIRE(PumpUntil([&] { return outcome.has_value(); }));
    BOOST_TEST((outcome->Type() == ErrorType::ClientDestroyed));
}

BOOST_AUTO_TEST_SUITE_END()
