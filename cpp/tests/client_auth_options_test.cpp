// The auth and client areas' device authorization, provisional accounts and options through the
// public Client against a live emulator: device authorization, provisional merges and display names, ClientCreateOptions,
// threads, the log file, HttpStatusCode and EnumToString.
#include <boost/test/unit_test.hpp>

#include <sys/resource.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/log_file.hpp"
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

struct Tokens {
    ClientResult result = ClientResult::nullobj;
    std::string access, refresh, scopes;
    int32_t expiresIn = 0;
};

struct AuthOptionsFixture {
    EmulatorProcess emulator;
    Client client{emulator.ApiBase(), emulator.BaseUrl()};

    AuthOptionsFixture() {
        client.SetApplicationId(kGameId);
        // Poll every second instead of five, so the device tests run in seconds.
        Admin("PUT", "/_emulator/oauth/device-interval", R"({"interval": 1})");
    }

    std::string Admin(const std::string& method, const std::string& target, const std::string& body = {}) {
        const auto response = TestRequest(emulator, method, target, body);
        BOOST_REQUIRE_MESSAGE(response.status / 100 == 2, method << " " << target << " answered " << response.status
                                                                 << ": " << response.body);
        return response.body;
    }

    Client::TokenExchangeCallback Into(std::optional<Tokens>& tokens) {
        return [&tokens](ClientResult r, std::string access, std::string refresh, AuthorizationTokenType,
                         int32_t expiresIn, std::string scopes) {
            tokens = Tokens{std::move(r), access, refresh, scopes, expiresIn};
        };
    }

    uint64_t Me(const std::string& token) {
        std::optional<uint64_t> id;
        client.FetchCurrentUser(AuthorizationTokenType::Bearer, token,
                                [&](ClientResult r, uint64_t userId, std::string) { id = r.Successful() ? userId : 0; });
        BOOST_REQUIRE(PumpUntil([&] { return id.has_value(); }));
        return *id;
    }

    DeviceAuthorizationArgs Args() {
        DeviceAuthorizationArgs args;
        args.SetScopes(Client::GetDefaultCommunicationScopes());
        return args;
    }
};

std::string ReadFile(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(client_auth_options, AuthOptionsFixture)

BOOST_AUTO_TEST_CASE(device_authorization_with_headless_approval_gives_alices_tokens) {
    std::vector<std::string> opened;
    client.SetAuthorizeUrlOpener([&](std::string url) { opened.push_back(url); });
    int closed = 0;
    client.SetAuthorizeDeviceScreenClosedCallback([&] { ++closed; });
    client.SetEmulatorConsentUser("alice");
    std::optional<Tokens> tokens;
    client.GetTokenFromDevice(Args(), Into(tokens));
    BOOST_REQUIRE(PumpUntil([&] { return tokens.has_value(); }, std::chrono::seconds(20)));
    BOOST_TEST_REQUIRE(tokens->result.Successful(), tokens->result.ToString());
    BOOST_TEST(Me(tokens->access) == kAlice);
    BOOST_TEST(!tokens->refresh.empty());
    BOOST_TEST(tokens->scopes.find("sdk.social_layer") != std::string::npos);
    // The "screen" was the verification URL with the user code, and it closed when the flow ended.
    BOOST_REQUIRE_EQUAL(opened.size(), 1u);
    BOOST_TEST(opened[0].rfind(emulator.BaseUrl() + "/activate?user_code=", 0) == 0);
    BOOST_TEST(closed == 1);
}

BOOST_AUTO_TEST_CASE(device_authorization_waits_for_admin_approval_and_reports_denial) {
    std::vector<std::string> opened;
    client.SetAuthorizeUrlOpener([&](std::string url) { opened.push_back(url); });
    std::optional<Tokens> tokens;
    client.GetTokenFromDevice(Args(), Into(tokens));
    BOOST_REQUIRE(PumpUntil([&] { return !opened.empty(); }));
    const std::string userCode = opened[0].substr(opened[0].find("user_code=") + 10);
    // Pending: nothing arrives while nobody approves (two polls at least).
    BOOST_TEST(!PumpUntil([&] { return tokens.has_value(); }, std::chrono::milliseconds(2500)));
    Admin("POST", "/_emulator/oauth/device/" + userCode + "/approve", R"({"user": "alice"})");
    BOOST_REQUIRE(PumpUntil([&] { return tokens.has_value(); }, std::chrono::seconds(10)));
    BOOST_TEST_REQUIRE(tokens->result.Successful(), tokens->result.ToString());
    BOOST_TEST(Me(tokens->access) == kAlice);

    opened.clear();
    std::optional<Tokens> denied;
    client.GetTokenFromDevice(Args(), Into(denied));
    BOOST_REQUIRE(PumpUntil([&] { return !opened.empty(); }));
    Admin("POST", "/_emulator/oauth/device/" + opened[0].substr(opened[0].find("user_code=") + 10) + "/deny", "{}");
    BOOST_REQUIRE(PumpUntil([&] { return denied.has_value(); }, std::chrono::seconds(10)));
    BOOST_TEST((denied->result.Type() == ErrorType::AuthorizationFailed));
    BOOST_TEST(denied->result.Error().find("access_denied") == 0, denied->result.Error());
}

BOOST_AUTO_TEST_CASE(abort_and_validation_of_device_authorization) {
    std::optional<Tokens> aborted;
    client.GetTokenFromDevice(Args(), Into(aborted));
    client.AbortGetTokenFromDevice();
    BOOST_REQUIRE(PumpUntil([&] { return aborted.has_value(); }));
    BOOST_TEST((aborted->result.Type() == ErrorType::Aborted));

    std::optional<Tokens> invalid;
    client.GetTokenFromDevice(DeviceAuthorizationArgs(), Into(invalid));  // no scopes
    BOOST_REQUIRE(PumpUntil([&] { return invalid.has_value(); }));
    BOOST_TEST((invalid->result.Type() == ErrorType::ValidationError));
    BOOST_TEST(invalid->result.Error().find("Scopes") != std::string::npos);
    BOOST_CHECK_THROW(client.OpenAuthorizeDeviceScreen(0, "ABCD-EFGH"), ValidationError);
    BOOST_CHECK_THROW(DeviceAuthorizationArgs::nullobj.Scopes(), NullHandleError);
}

BOOST_AUTO_TEST_CASE(device_authorization_merges_a_provisional_account) {
    std::optional<Tokens> provisional;
    client.GetProvisionalToken(kGameId, AuthenticationExternalAuthType::SteamSessionTicket, "demo-player-1",
                               Into(provisional));
    BOOST_REQUIRE(PumpUntil([&] { return provisional.has_value(); }));
    BOOST_TEST_REQUIRE(provisional->result.Successful(), provisional->result.ToString());
    const uint64_t provisionalId = Me(provisional->access);
    BOOST_TEST(provisionalId != kAlice);

    client.SetEmulatorConsentUser("alice");
    std::optional<Tokens> merged;
    client.GetTokenFromDeviceProvisionalMerge(Args(), AuthenticationExternalAuthType::SteamSessionTicket,
                                              "demo-player-1", Into(merged));
    BOOST_REQUIRE(PumpUntil([&] { return merged.has_value(); }, std::chrono::seconds(20)));
    BOOST_TEST_REQUIRE(merged->result.Successful(), merged->result.ToString());
    BOOST_TEST(Me(merged->access) == kAlice);
    // The Steam identity now signs in to alice.
    std::optional<Tokens> again;
    client.GetProvisionalToken(kGameId, AuthenticationExternalAuthType::SteamSessionTicket, "demo-player-1",
                               Into(again));
    BOOST_REQUIRE(PumpUntil([&] { return again.has_value(); }));
    BOOST_TEST(Me(again->access) == kAlice);
}

BOOST_AUTO_TEST_CASE(provisional_display_name_and_merge_completed) {
    std::optional<Tokens> provisional;
    client.GetProvisionalToken(kGameId, AuthenticationExternalAuthType::SteamSessionTicket, "demo-player-1",
                               Into(provisional));
    BOOST_REQUIRE(PumpUntil([&] { return provisional.has_value(); }));
    std::optional<ClientResult> updated;
    client.UpdateToken(AuthorizationTokenType::Bearer, provisional->access, [&](ClientResult r) { updated = r; });
    BOOST_REQUIRE(PumpUntil([&] { return updated.has_value(); }));
    BOOST_TEST_REQUIRE(updated->Successful(), updated->ToString());
    std::optional<ClientResult> renamed;
    client.UpdateProvisionalAccountDisplayName("Player Three", [&](ClientResult r) { renamed = r; });
    BOOST_REQUIRE(PumpUntil([&] { return renamed.has_value(); }));
    BOOST_TEST_REQUIRE(renamed->Successful(), renamed->ToString());
    const auto me = TestRequest(emulator, "GET", "/api/v10/users/@me", {}, "application/json",
                                "Bearer " + provisional->access);
    BOOST_TEST(me.body.find("\"global_name\":\"Player Three\"") != std::string::npos, me.body);
    std::optional<ClientResult> blank;
    client.UpdateProvisionalAccountDisplayName("  ", [&](ClientResult r) { blank = r; });
    BOOST_REQUIRE(PumpUntil([&] { return blank.has_value(); }));
    BOOST_TEST((blank->Type() == ErrorType::ValidationError));
    client.ProvisionalUserMergeCompleted(true);  // refetches the current user; must not disturb the Client
    BOOST_TEST(client.IsAuthenticated());
    BOOST_CHECK_THROW(client.SetGameWindowPid(-1), ValidationError);
    client.SetGameWindowPid(4242);
}

BOOST_AUTO_TEST_CASE(get_token_from_provisional_merge_links_the_identity) {
    const auto pair = client.CreateAuthorizationCodeVerifier();
    AuthorizationArgs args;
    args.SetScopes(Client::GetDefaultCommunicationScopes());
    args.SetCodeChallenge(pair.Challenge());
    client.SetEmulatorConsentUser("alice");
    std::optional<std::pair<std::string, std::string>> code;
    client.Authorize(args, [&](ClientResult r, std::string c, std::string redirect) {
        BOOST_REQUIRE_MESSAGE(r.Successful(), r.ToString());
        code.emplace(c, redirect);
    });
    BOOST_REQUIRE(PumpUntil([&] { return code.has_value(); }));
    std::optional<Tokens> merged;
    client.GetTokenFromProvisionalMerge(kGameId, code->first, pair.Verifier(), code->second,
                                        AuthenticationExternalAuthType::SteamSessionTicket, "demo-player-2",
                                        Into(merged));
    BOOST_REQUIRE(PumpUntil([&] { return merged.has_value(); }));
    BOOST_TEST_REQUIRE(merged->result.Successful(), merged->result.ToString());
    std::optional<Tokens> again;
    client.GetProvisionalToken(kGameId, AuthenticationExternalAuthType::SteamSessionTicket, "demo-player-2",
                               Into(again));
    BOOST_REQUIRE(PumpUntil([&] { return again.has_value(); }));
    BOOST_TEST(Me(again->access) == kAlice);
}

BOOST_AUTO_TEST_CASE(http_status_code_is_the_type_of_status) {
    std::optional<Tokens> bad;
    client.GetProvisionalToken(kGameId, AuthenticationExternalAuthType::SteamSessionTicket, "no-such-ticket",
                               Into(bad));
    BOOST_REQUIRE(PumpUntil([&] { return bad.has_value(); }));
    const HttpStatusCode status = bad->result.Status();
    BOOST_TEST((status == HttpStatusCode::Unauthorized));
    BOOST_TEST(status == 401);  // compares with numbers too
    BOOST_TEST(std::string(EnumToString(status)) == "Unauthorized");
    BOOST_TEST((ClientResult::Success().Status() == HttpStatusCode::None));
}

BOOST_AUTO_TEST_SUITE_END()

// ---- no emulator needed ----

BOOST_AUTO_TEST_CASE(client_create_options_fields_and_constructor) {
    ClientCreateOptions options;
    options.SetApiBase("http://127.0.0.1:9/api/v10");
    options.SetWebBase("http://127.0.0.1:9");
    options.SetExperimentalAudioSystem(AudioSystem::Game);
    options.SetExperimentalAndroidPreventCommsForBluetooth(true);
    options.SetCpuAffinityMask(1);
    BOOST_TEST((options.ExperimentalAudioSystem() == AudioSystem::Game));
    BOOST_TEST(options.ExperimentalAndroidPreventCommsForBluetooth());
    BOOST_TEST(*options.CpuAffinityMask() == 1u);
    Client client(options);
    BOOST_TEST(client.GetApiBase() == "http://127.0.0.1:9/api/v10");
    BOOST_TEST(client.GetWebBase() == "http://127.0.0.1:9");

    ClientCreateOptions badBase;
    badBase.SetApiBase("not a url");
    BOOST_CHECK_THROW(Client{badBase}, ValidationError);
    ClientCreateOptions noCpu;
    noCpu.SetCpuAffinityMask(0);
    BOOST_CHECK_THROW(Client{noCpu}, ValidationError);
    BOOST_CHECK_THROW(Client{ClientCreateOptions::nullobj}, ValidationError);
    ClientCreateOptions moved = std::move(options);
    BOOST_TEST(!options);
    BOOST_TEST(static_cast<bool>(moved));
}

BOOST_AUTO_TEST_CASE(threads_version_hash_and_enum_strings) {
    BOOST_TEST(Client::ThreadToString(Client::Thread::Network) == "Network");
    BOOST_TEST(std::string(EnumToString(Client::Thread::Voice)) == "Voice");
    const std::string hash = Client::GetVersionHash();
    BOOST_TEST((hash == "unknown" || (hash.size() == 40 && hash.find_first_not_of("0123456789abcdef") == std::string::npos)),
               hash);
    Client client("http://127.0.0.1:9/api/v10", "http://127.0.0.1:9");
    BOOST_CHECK_THROW(client.SetThreadPriority(Client::Thread::Network, 20), ValidationError);
    client.SetThreadPriority(Client::Thread::Network, 5);  // lowering priority needs no privilege
    client.SetThreadPriority(Client::Thread::Voice, 3);
    BOOST_TEST(std::string(EnumToString(ErrorType::HTTPError)) == "HTTPError");
    BOOST_TEST(std::string(EnumToString(static_cast<HttpStatusCode>(418))) == "Unknown");
    BOOST_TEST(std::string(EnumToString(AuthenticationExternalAuthType::PlayStationNetworkIdToken)) ==
               "PlayStationNetworkIdToken");
    BOOST_TEST(std::string(EnumToString(LoggingSeverity::Warning)) == "Warning");
    BOOST_TEST(std::string(EnumToString(Client::Status::HttpWait)) == "HttpWait");
}

BOOST_AUTO_TEST_CASE(set_log_dir_writes_redacted_lines) {
    const auto dir = std::filesystem::temp_directory_path() / ("platformpp-logs-" + std::to_string(::getpid())) / "a";
    std::filesystem::remove_all(dir.parent_path());
    Client client("http://127.0.0.1:9/api/v10", "http://127.0.0.1:9");
    BOOST_TEST(client.SetLogDir(dir.string(), LoggingSeverity::Info));
    std::optional<ClientResult> done;
    // A call that fails (nothing listens on port 9) logs nothing secret; UpdateToken's token must not appear.
    client.UpdateToken(AuthorizationTokenType::Bearer, "very-secret-token-value", [&](ClientResult r) { done = r; });
    BOOST_REQUIRE(PumpUntil([&] { return done.has_value(); }));
    client.SetEmulatorConsentUser("alice");
    client.OpenAuthorizeDeviceScreen(kGameId, "BCDF-GHJK");
    const std::string text = ReadFile(dir / "platformpp.log");
    BOOST_TEST(text.find("[Info] logging to ") != std::string::npos, text);
    BOOST_TEST(text.find("BCDF-GHJK") != std::string::npos, text);
    BOOST_TEST(text.find("very-secret-token-value") == std::string::npos, text);
    BOOST_TEST(!client.SetLogDir("/proc/no-such-dir/x", LoggingSeverity::Info));
    BOOST_TEST(client.SetLogDir("", LoggingSeverity::Info));
    std::filesystem::remove_all(dir.parent_path());
}

BOOST_AUTO_TEST_CASE(log_file_redacts_filters_and_rotates) {
    const auto dir = std::filesystem::temp_directory_path() / ("platformpp-rotate-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    {
        core::LogFile file(dir.string(), LoggingSeverity::Warning, 200, 2);
        file.Write(LoggingSeverity::Info, "below the minimum");
        file.Write(LoggingSeverity::Warning, R"(answer {"access_token": "abc123secret"})");
        for (int i = 0; i < 10; ++i) file.Write(LoggingSeverity::Error, "line number " + std::to_string(i));
    }
    const std::string current = ReadFile(dir / "platformpp.log");
    BOOST_TEST(current.find("line number 9") != std::string::npos);
    BOOST_TEST(std::filesystem::exists(dir / "platformpp.log.1"));
    BOOST_TEST(std::filesystem::exists(dir / "platformpp.log.2"));
    BOOST_TEST(!std::filesystem::exists(dir / "platformpp.log.3"));  // only two old files are kept
    std::string all;
    for (const char* name : {"platformpp.log", "platformpp.log.1", "platformpp.log.2"}) all += ReadFile(dir / name);
    BOOST_TEST(all.find("below the minimum") == std::string::npos);
    BOOST_TEST(all.find("abc123secret") == std::string::npos);
    for (const char* name : {"platformpp.log", "platformpp.log.1"}) {
        BOOST_TEST(std::filesystem::file_size(dir / name) <= 200u);
    }
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(avatar_type_names) {
    BOOST_TEST(UserHandle::AvatarTypeToString(UserHandle::AvatarType::Gif) == "Gif");
    BOOST_TEST(std::string(EnumToString(UserHandle::AvatarType::Png)) == "Png");
    BOOST_TEST(std::string(EnumToString(static_cast<UserHandle::AvatarType>(9))) == "Unknown");
}
