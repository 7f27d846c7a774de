// Provisional accounts, publisher-level linking, unmerge, token expiry, authorize requests and Gateway
// drops, through the public Client against a live emulator (issue: SDK core).
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "net/url.hpp"
#include "platformpp/platformpp.hpp"
#include "support/emulator_process.hpp"
#include "support/pump.hpp"

using namespace platformpp;
using platformpp::testing::EmulatorProcess;
using platformpp::testing::PumpUntil;
using platformpp::testing::TestRequest;

namespace {

constexpr uint64_t kGameId = 1000000000000000000ull;  // the default world's "Demo Game"
constexpr uint64_t kAlice = 1100000000000000001ull;
constexpr auto kSteam = AuthenticationExternalAuthType::SteamSessionTicket;
// Seeded by the linking tests: a parent application approved for publisher-level linking, its child.
constexpr uint64_t kParentId = 1300000000000000000ull;
constexpr uint64_t kChildId = 1300000000000000001ull;
const std::string kLinkingFixture =
    R"({"applications": [
          {"id": "1300000000000000000", "name": "Publisher Hub", "public_client": true,
           "publisher_linking_approved": true},
          {"id": "1300000000000000001", "name": "Child Game", "public_client": true,
           "parent_application_id": "1300000000000000000"}]})";

struct Tokens {
    ClientResult result = ClientResult::nullobj;
    std::string access, refresh, scopes;
    AuthorizationTokenType type = AuthorizationTokenType::User;
    int32_t expiresIn = 0;
};

struct User {
    ClientResult result = ClientResult::nullobj;
    uint64_t id = 0;
    std::string name;
};

struct AccountsFixture {
    EmulatorProcess emulator;
    Client client{emulator.ApiBase(), emulator.BaseUrl()};

    AccountsFixture() { client.SetApplicationId(kGameId); }

    std::string Admin(const std::string& method, const std::string& target, const std::string& body = {}) {
        const auto response = TestRequest(emulator, method, target, body);
        BOOST_REQUIRE_MESSAGE(response.status / 100 == 2, method << " " << target << " answered " << response.status
                                                                 << ": " << response.body);
        return response.body;
    }

    // Runs a call whose callback has the TokenExchangeCallback shape.
    Tokens Exchange(const std::function<void(Client::TokenExchangeCallback)>& call) {
        std::optional<Tokens> tokens;
        call([&](ClientResult r, std::string access, std::string refresh, AuthorizationTokenType type, int32_t expiresIn,
                 std::string scopes) { tokens = Tokens{std::move(r), access, refresh, scopes, type, expiresIn}; });
        BOOST_REQUIRE(PumpUntil([&] { return tokens.has_value(); }));
        return *tokens;
    }

    Tokens Provisional(const std::string& externalToken, AuthenticationExternalAuthType type = kSteam,
                       uint64_t applicationId = kGameId) {
        return Exchange([&](auto cb) { client.GetProvisionalToken(applicationId, type, externalToken, std::move(cb)); });
    }

    ClientResult Result(const std::function<void(Client::ResultCallback)>& call) {
        std::optional<ClientResult> done;
        call([&](ClientResult r) { done = std::move(r); });
        BOOST_REQUIRE(PumpUntil([&] { return done.has_value(); }));
        return *done;
    }

    ClientResult Update(const std::string& token) {
        return Result([&](auto cb) { client.UpdateToken(AuthorizationTokenType::Bearer, token, std::move(cb)); });
    }

    User Me(const std::string& token) {
        std::optional<User> user;
        client.FetchCurrentUser(AuthorizationTokenType::Bearer, token,
                                [&](ClientResult r, uint64_t id, std::string name) { user = User{std::move(r), id, name}; });
        BOOST_REQUIRE(PumpUntil([&] { return user.has_value(); }));
        return *user;
    }

    struct Code {
        std::string code, redirectUri, verifier;
    };
    // Alice consents headlessly to `clientId` (0: the application id) with PKCE.
    Code Consent(uint64_t clientId, const std::string& scopes) {
        const auto pair = client.CreateAuthorizationCodeVerifier();
        AuthorizationArgs args;
        args.SetClientId(clientId);
        args.SetScopes(scopes);
        args.SetCodeChallenge(pair.Challenge());
        client.SetEmulatorConsentUser("alice");
        std::optional<Code> code;
        client.Authorize(args, [&](ClientResult r, std::string c, std::string redirect) {
            BOOST_REQUIRE_MESSAGE(r.Successful(), r.ToString());
            code = Code{c, redirect, pair.Verifier()};
        });
        BOOST_REQUIRE(PumpUntil([&] { return code.has_value(); }));
        return *code;
    }

    Tokens SignIn(uint64_t applicationId = kGameId, const std::string& scopes = Client::GetDefaultCommunicationScopes()) {
        const Code code = Consent(applicationId == kGameId ? 0 : applicationId, scopes);
        const Tokens tokens = Exchange([&](auto cb) {
            client.GetToken(applicationId, code.code, code.verifier, code.redirectUri, std::move(cb));
        });
        BOOST_REQUIRE_MESSAGE(tokens.result.Successful(), tokens.result.ToString());
        return tokens;
    }

    // Connect() with the token set by Update(); records every status change.
    void ConnectReady(std::vector<Client::Status>& statuses) {
        client.SetStatusChangedCallback([&](Client::Status s, Client::Error, int32_t) { statuses.push_back(s); });
        client.Connect();
        BOOST_REQUIRE(PumpUntil([&] { return !statuses.empty() && statuses.back() == Client::Status::Ready; }));
    }
};

std::string Form(const std::vector<std::pair<std::string, std::string>>& fields) {
    std::string out;
    for (const auto& [name, value] : fields) out += (out.empty() ? "" : "&") + name + "=" + net::PercentEncode(value);
    return out;
}

std::string IsoUtc(std::chrono::system_clock::time_point at) {
    const std::time_t t = std::chrono::system_clock::to_time_t(at);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(client_accounts, AccountsFixture)

// ---- provisional accounts ----

BOOST_AUTO_TEST_CASE(provisional_token_then_update_token_and_connect_to_ready) {
    const Tokens tokens = Provisional("demo-player-1");
    BOOST_TEST_REQUIRE(tokens.result.Successful(), tokens.result.ToString());
    BOOST_TEST(!tokens.access.empty());
    BOOST_TEST(tokens.refresh.empty());  // only OIDC provisional tokens come with a refresh token
    BOOST_TEST((tokens.type == AuthorizationTokenType::Bearer));
    BOOST_TEST(tokens.expiresIn == 604800);
    BOOST_TEST(tokens.scopes.find("lobbies.write") != std::string::npos);
    const User user = Me(tokens.access);
    BOOST_TEST_REQUIRE(user.result.Successful(), user.result.ToString());
    BOOST_TEST(user.id != 0u);
    BOOST_TEST(user.id != kAlice);
    // The same provider identity is the same provisional account next time.
    BOOST_TEST(Me(Provisional("demo-player-1").access).id == user.id);

    BOOST_TEST(Update(tokens.access).Successful());
    BOOST_TEST(client.IsAuthenticated());
    std::vector<Client::Status> statuses;
    ConnectReady(statuses);
    client.Disconnect();
    BOOST_REQUIRE(PumpUntil([&] { return client.GetStatus() == Client::Status::Disconnected; }));
}

BOOST_AUTO_TEST_CASE(provisional_token_failures_say_why) {
    const Tokens bad = Provisional("not-a-ticket-it-issued");
    BOOST_TEST((bad.result.Type() == ErrorType::HTTPError));
    BOOST_TEST(bad.result.Status() == 401);
    BOOST_TEST(bad.result.ErrorCode() == 530001);
    BOOST_TEST(bad.result.Error().find("external auth token is invalid") != std::string::npos, bad.result.Error());
    BOOST_TEST(bad.result.Error().find("not-a-ticket-it-issued") == std::string::npos);
    BOOST_TEST(bad.access.empty());
    // The default world declares no OIDC provider.
    const Tokens noProvider = Provisional("x.y.z", AuthenticationExternalAuthType::OIDC);
    BOOST_TEST(noProvider.result.Status() == 400);
    BOOST_TEST(noProvider.result.ErrorCode() == 530002);
    BOOST_TEST(noProvider.result.Error().find("OIDC") != std::string::npos);
    const Tokens empty = Provisional("");
    BOOST_TEST((empty.result.Type() == ErrorType::ValidationError));
    BOOST_TEST(empty.result.Error().rfind("externalAuthToken:", 0) == 0u);
    BOOST_TEST(Provisional("demo-player-1", kSteam, 0).result.Error().rfind("applicationId:", 0) == 0u);
}

BOOST_AUTO_TEST_CASE(fetch_current_user_with_a_bad_token) {
    int expirations = 0;
    client.SetTokenExpirationCallback([&] { ++expirations; });
    const User user = Me("not-a-token");
    BOOST_TEST((user.result.Type() == ErrorType::HTTPError));
    BOOST_TEST(user.result.Status() == 401);
    BOOST_TEST(user.result.ErrorCode() == 50025);
    BOOST_TEST(!user.result.Retryable());
    BOOST_TEST(user.id == 0u);
    BOOST_TEST(user.name.empty());
    PumpUntil([] { return false; }, std::chrono::milliseconds(50));
    BOOST_TEST(expirations == 0);  // not the Client's own token: nothing of the Client's expired
    BOOST_TEST(Me("").result.Error().rfind("token:", 0) == 0u);
}

// ---- publisher-level linking ----

BOOST_AUTO_TEST_CASE(exchange_child_token_for_a_linked_child) {
    Admin("POST", "/_emulator/seed", kLinkingFixture);
    const Tokens parent = SignIn(kParentId, "openid identify");
    std::optional<Tokens> child;
    client.ExchangeChildToken(parent.access, kChildId,
                              [&](ClientResult r, std::string access, AuthorizationTokenType type, int32_t expiresIn,
                                  std::string scopes) { child = Tokens{std::move(r), access, "", scopes, type, expiresIn}; });
    BOOST_REQUIRE(PumpUntil([&] { return child.has_value(); }));
    BOOST_TEST_REQUIRE(child->result.Successful(), child->result.ToString());
    BOOST_TEST(!child->access.empty());
    BOOST_TEST(child->access != parent.access);
    BOOST_TEST((child->type == AuthorizationTokenType::Bearer));
    BOOST_TEST(child->expiresIn == 604800);
    BOOST_TEST(child->scopes.find("identify") != std::string::npos);
    BOOST_TEST(Me(child->access).id == kAlice);
}

BOOST_AUTO_TEST_CASE(exchange_child_token_is_refused_for_another_parents_token) {
    Admin("POST", "/_emulator/seed", kLinkingFixture);
    const Tokens game = SignIn();  // Demo Game is not the child's parent
    std::optional<std::pair<ClientResult, std::string>> outcome;
    auto record = [&](ClientResult r, std::string access, AuthorizationTokenType, int32_t, std::string) {
        outcome.emplace(std::move(r), std::move(access));
    };
    client.ExchangeChildToken(game.access, kChildId, record);
    BOOST_REQUIRE(PumpUntil([&] { return outcome.has_value(); }));
    BOOST_TEST((outcome->first.Type() == ErrorType::AuthorizationFailed));
    BOOST_TEST(outcome->first.Error().rfind("invalid_grant", 0) == 0u, outcome->first.Error());
    BOOST_TEST(outcome->first.Status() == 400);
    BOOST_TEST(outcome->second.empty());

    outcome.reset();
    client.ExchangeChildToken(game.access, 0, record);
    BOOST_REQUIRE(PumpUntil([&] { return outcome.has_value(); }));
    BOOST_TEST((outcome->first.Type() == ErrorType::ValidationError));
    BOOST_TEST(outcome->first.Error().rfind("childApplicationId:", 0) == 0u);
}

// ---- unmerge ----

BOOST_AUTO_TEST_CASE(unmerge_into_provisional_account) {
    const uint64_t provisionalId = Me(Provisional("demo-player-2").access).id;
    BOOST_REQUIRE(provisionalId != 0u);
    // Merge: Alice consents and her code is exchanged together with the provider token. The SDK has no
    // merge call (a game's server does it), so this goes to the token endpoint directly.
    const Code code = Consent(0, "openid identify");
    const auto merged = TestRequest(emulator, "POST", "/api/v10/oauth2/token",
                                    Form({{"grant_type", "authorization_code"},
                                          {"code", code.code},
                                          {"code_verifier", code.verifier},
                                          {"redirect_uri", code.redirectUri},
                                          {"client_id", std::to_string(kGameId)},
                                          {"external_auth_type", "STEAM_SESSION_TICKET"},
                                          {"external_auth_token", "demo-player-2"}}),
                                    "application/x-www-form-urlencoded");
    BOOST_REQUIRE_MESSAGE(merged.status == 200, merged.body);
    BOOST_TEST(Me(Provisional("demo-player-2").access).id == kAlice);

    const ClientResult unmerged = Result([&](auto cb) {
        client.UnmergeIntoProvisionalAccount(kGameId, kSteam, "demo-player-2", std::move(cb));
    });
    BOOST_TEST_REQUIRE(unmerged.Successful(), unmerged.ToString());
    BOOST_TEST(unmerged.Status() == 204);
    // The identity is a new provisional account again.
    const uint64_t newId = Me(Provisional("demo-player-2").access).id;
    BOOST_TEST(newId != 0u);
    BOOST_TEST(newId != kAlice);
    BOOST_TEST(newId != provisionalId);

    const ClientResult again = Result([&](auto cb) {
        client.UnmergeIntoProvisionalAccount(kGameId, kSteam, "demo-player-2", std::move(cb));
    });
    BOOST_TEST((again.Type() == ErrorType::HTTPError));
    BOOST_TEST(again.Status() == 400);
    BOOST_TEST(again.ErrorCode() == 530005);
    const ClientResult forged = Result([&](auto cb) {
        client.UnmergeIntoProvisionalAccount(kGameId, kSteam, "forged", std::move(cb));
    });
    BOOST_TEST(forged.ErrorCode() == 530001);
    const ClientResult invalid = Result([&](auto cb) {
        client.UnmergeIntoProvisionalAccount(kGameId, kSteam, "", std::move(cb));
    });
    BOOST_TEST(invalid.Error().rfind("externalAuthToken:", 0) == 0u);
}

// ---- token expiration ----

BOOST_AUTO_TEST_CASE(token_expiration_callback_when_the_platform_rejects_the_token) {
    const Tokens tokens = SignIn();
    BOOST_REQUIRE(Update(tokens.access).Successful());
    int expirations = 0;
    client.SetTokenExpirationCallback([&] { ++expirations; });
    // The player removes the game elsewhere: the platform stops accepting the token.
    Admin("DELETE", "/_emulator/users/" + std::to_string(kAlice) + "/applications/" + std::to_string(kGameId));
    BOOST_TEST(Me(tokens.access).result.Status() == 401);
    BOOST_REQUIRE(PumpUntil([&] { return expirations > 0; }));
    PumpUntil([] { return false; }, std::chrono::milliseconds(50));
    BOOST_TEST(expirations == 1);
}

BOOST_AUTO_TEST_CASE(token_expiration_callback_when_the_emulator_clock_passes_the_expiry) {
    const Tokens tokens = SignIn();
    BOOST_REQUIRE(Update(tokens.access).Successful());
    int expirations = 0;
    client.SetTokenExpirationCallback([&] { ++expirations; });
    const auto later = std::chrono::system_clock::now() + std::chrono::hours(24 * 8);
    Admin("PUT", "/_emulator/clock", R"({"now": ")" + IsoUtc(later) + R"("})");
    BOOST_TEST(Me(tokens.access).result.Status() == 401);
    BOOST_REQUIRE(PumpUntil([&] { return expirations > 0; }));
}

BOOST_AUTO_TEST_CASE(token_expiration_callback_before_a_short_lived_token_expires) {
    Admin("PUT", "/_emulator/token-lifetime", R"({"access_token_s": 2})");
    const Tokens tokens = SignIn();
    const auto received = std::chrono::steady_clock::now();
    BOOST_REQUIRE_EQUAL(tokens.expiresIn, 2);
    int expirations = 0;
    client.SetTokenExpirationCallback([&] { ++expirations; });
    BOOST_REQUIRE(Update(tokens.access).Successful());
    // Lifetimes of 50 minutes or less warn at 90%: 1.8 s after the token answer.
    BOOST_REQUIRE(PumpUntil([&] { return expirations > 0; }));
    BOOST_TEST((std::chrono::steady_clock::now() - received >= std::chrono::milliseconds(1500)));
    PumpUntil([] { return false; }, std::chrono::milliseconds(500));
    BOOST_TEST(expirations == 1);
}

BOOST_AUTO_TEST_CASE(token_expiration_callback_when_the_gateway_closes_with_4004) {
    const Tokens tokens = SignIn();
    BOOST_REQUIRE(Update(tokens.access).Successful());
    int expirations = 0;
    client.SetTokenExpirationCallback([&] { ++expirations; });
    std::vector<std::tuple<Client::Status, Client::Error, int32_t>> changes;
    client.SetStatusChangedCallback([&](Client::Status s, Client::Error e, int32_t d) { changes.emplace_back(s, e, d); });
    client.Connect();
    BOOST_REQUIRE(PumpUntil([&] { return !changes.empty() && std::get<0>(changes.back()) == Client::Status::Ready; }));
    const auto revoked = TestRequest(emulator, "POST", "/api/v10/oauth2/token/revoke",
                                     Form({{"token", tokens.access}, {"client_id", std::to_string(kGameId)}}),
                                     "application/x-www-form-urlencoded");
    BOOST_REQUIRE_EQUAL(revoked.status, 200);
    BOOST_REQUIRE(PumpUntil([&] {
        return expirations > 0 && std::get<0>(changes.back()) == Client::Status::Disconnected;
    }));
    BOOST_TEST((std::get<1>(changes.back()) == Client::Error::UnexpectedClose));
    BOOST_TEST(std::get<2>(changes.back()) == 4004);
}

// ---- authorize requests ----

BOOST_AUTO_TEST_CASE(authorize_request_callback_and_its_removal) {
    BOOST_CHECK_THROW(client.RegisterAuthorizeRequestCallback(nullptr), ValidationError);
    const Tokens tokens = SignIn();
    BOOST_REQUIRE(Update(tokens.access).Successful());
    int first = 0, second = 0;
    client.RegisterAuthorizeRequestCallback([&] { ++first; });
    std::vector<Client::Status> statuses;
    ConnectReady(statuses);
    const std::string request = R"({"user_id": ")" + std::to_string(kAlice) + R"("})";
    BOOST_TEST(Admin("POST", "/_emulator/gateway/authorize-request", request) == R"({"delivered":1})");
    BOOST_REQUIRE(PumpUntil([&] { return first == 1; }));

    client.RemoveAuthorizeRequestCallback();
    Admin("POST", "/_emulator/gateway/authorize-request", request);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    // Dispatches arrive in order: once the next callback ran, the one before was seen and ignored.
    client.RegisterAuthorizeRequestCallback([&] { ++second; });
    Admin("POST", "/_emulator/gateway/authorize-request", request);
    BOOST_REQUIRE(PumpUntil([&] { return second >= 1; }));
    BOOST_TEST(first == 1);
}

// ---- resilience ----

BOOST_AUTO_TEST_CASE(back_to_ready_after_twenty_gateway_drops) {
    const Tokens tokens = SignIn();
    BOOST_REQUIRE(Update(tokens.access).Successful());
    std::vector<Client::Status> statuses;
    ConnectReady(statuses);
    const std::string alice = R"({"user_id": ")" + std::to_string(kAlice) + R"("})";
    for (int drop = 0; drop < 20; ++drop) {
        const std::size_t seen = statuses.size();
        BOOST_REQUIRE_EQUAL(Admin("POST", "/_emulator/gateway/drop", alice), R"({"dropped":1})");
        BOOST_REQUIRE_MESSAGE(PumpUntil([&] { return statuses.size() > seen && statuses.back() == Client::Status::Ready; }),
                              "not Ready again after drop " << drop);
        BOOST_TEST((statuses[seen] == Client::Status::Reconnecting), "drop " << drop);
        BOOST_TEST(std::count(statuses.begin() + seen, statuses.end(), Client::Status::Disconnected) == 0);
    }
    BOOST_TEST(std::count(statuses.begin(), statuses.end(), Client::Status::Reconnecting) == 20);
    BOOST_TEST((client.GetStatus() == Client::Status::Ready));
}

BOOST_AUTO_TEST_SUITE_END()
