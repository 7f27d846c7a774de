// The Client with the platform's desktop client running (the emulator's IPC endpoint): Authorize
// through it, the desktop user's voice settings and their updates, and IsPlatformAppInstalled.
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "platformpp/platformpp.hpp"
#include "support/emulator_process.hpp"
#include "support/pump.hpp"

using namespace platformpp;
using platformpp::testing::EmulatorProcess;
using platformpp::testing::PumpUntil;
using platformpp::testing::TestRequest;

namespace {

constexpr uint64_t kGameId = 1000000000000000000ull;

// A private socket prefix for the emulator's --ipc-path and the SDK's PLATFORMPP_IPC_PATH.
std::string SocketPrefix() {
    char folder[] = "/tmp/ppcppXXXXXX";
    BOOST_REQUIRE(::mkdtemp(folder) != nullptr);
    const std::string prefix = std::string(folder) + "/platformpp-ipc";
    ::setenv("PLATFORMPP_IPC_PATH", prefix.c_str(), 1);
    return prefix;
}

struct DesktopFixture {
    std::string prefix = SocketPrefix();
    EmulatorProcess emulator{"--desktop-user alice --ipc-path " + prefix};
    Client client{emulator.ApiBase(), emulator.BaseUrl()};

    DesktopFixture() {
        client.SetApplicationId(kGameId);
        // The emulator binds its IPC socket as its server starts, just after it prints where it listens.
        BOOST_REQUIRE(PumpUntil([&] { return std::filesystem::exists(prefix + "-0"); }));
    }
    ~DesktopFixture() { ::unsetenv("PLATFORMPP_IPC_PATH"); }

    std::tuple<ClientResult, std::string, std::string, std::string> Authorize() {
        const auto pair = client.CreateAuthorizationCodeVerifier();
        AuthorizationArgs args;
        args.SetScopes(Client::GetDefaultCommunicationScopes());
        args.SetCodeChallenge(pair.Challenge());
        std::optional<std::tuple<ClientResult, std::string, std::string>> outcome;
        // No consent user and no opener: only the desktop client can answer.
        client.Authorize(args, [&](ClientResult r, std::string code, std::string redirect) {
            outcome.emplace(std::move(r), std::move(code), std::move(redirect));
        });
        BOOST_REQUIRE(PumpUntil([&] { return outcome.has_value(); }));
        auto [result, code, redirect] = *outcome;
        return {result, code, redirect, pair.Verifier()};
    }

    std::string SignIn() {
        auto [result, code, redirect, verifier] = Authorize();
        BOOST_REQUIRE_MESSAGE(result.Successful(), result.ToString());
        std::optional<std::string> access;
        client.GetToken(kGameId, code, verifier, redirect,
                        [&](ClientResult r, std::string token, std::string, AuthorizationTokenType, int32_t, std::string) {
                            BOOST_REQUIRE_MESSAGE(r.Successful(), r.ToString());
                            access = token;
                        });
        BOOST_REQUIRE(PumpUntil([&] { return access.has_value(); }));
        std::optional<ClientResult> updated;
        client.UpdateToken(AuthorizationTokenType::Bearer, *access, [&](ClientResult r) { updated = r; });
        BOOST_REQUIRE(PumpUntil([&] { return updated.has_value(); }));
        BOOST_REQUIRE(updated->Successful());
        return *access;
    }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(desktop_client, DesktopFixture)

BOOST_AUTO_TEST_CASE(is_found_and_authorize_goes_through_it) {
    std::optional<bool> installed;
    client.IsPlatformAppInstalled([&](bool found) { installed = found; });
    BOOST_REQUIRE(PumpUntil([&] { return installed.has_value(); }));
    BOOST_TEST(*installed);
    const std::string access = SignIn();
    std::optional<std::string> name;
    client.FetchCurrentUser(AuthorizationTokenType::Bearer, access,
                            [&](ClientResult r, uint64_t, std::string n) { BOOST_TEST(r.Successful()); name = n; });
    BOOST_REQUIRE(PumpUntil([&] { return name.has_value(); }));
    BOOST_TEST(*name == "alice");
}

BOOST_AUTO_TEST_CASE(the_deny_switch_fails_authorize) {
    BOOST_REQUIRE_EQUAL(TestRequest(emulator, "PUT", "/_emulator/desktop/consent", R"({"deny":true})").status, 200);
    auto [result, code, redirect, verifier] = Authorize();
    BOOST_TEST(!result.Successful());
    BOOST_TEST((result.Type() == ErrorType::AuthorizationFailed));
    BOOST_TEST(result.Error().find("access_denied") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(voice_settings_and_their_updates) {
    SignIn();
    std::optional<std::pair<ClientResult, VoiceSettings>> got;
    client.GetVoiceSettings([&](ClientResult r, VoiceSettings s) { got.emplace(std::move(r), std::move(s)); });
    BOOST_REQUIRE(PumpUntil([&] { return got.has_value(); }));
    BOOST_REQUIRE_MESSAGE(got->first.Successful(), got->first.ToString());
    BOOST_TEST(!got->second.SelfMute());
    BOOST_TEST((got->second.InputMode() == VoiceInputModeType::VoiceActivity));
    BOOST_TEST(got->second.OutputVolume() == 100.0f);

    std::optional<VoiceSettings> update;
    client.SetVoiceSettingsUpdatedCallback([&](VoiceSettings s) { update = std::move(s); });
    BOOST_REQUIRE(PumpUntil([&] {
        return TestRequest(emulator, "GET", "/_emulator/desktop").body.find("VOICE_SETTINGS_UPDATE") != std::string::npos;
    }));
    const auto patched = TestRequest(emulator, "PATCH", "/_emulator/desktop/voice-settings",
                                     R"({"self_mute":true,"input_mode":"push_to_talk","ptt_key":"CTRL","input_volume":20})");
    BOOST_REQUIRE_EQUAL(patched.status, 200);
    BOOST_REQUIRE(PumpUntil([&] { return update.has_value(); }));
    BOOST_TEST(update->SelfMute());
    BOOST_TEST((update->InputMode() == VoiceInputModeType::PushToTalk));
    BOOST_TEST(update->PttKey() == "CTRL");
    BOOST_TEST(update->InputVolume() == 20.0f);
    BOOST_TEST(std::string(EnumToString(update->InputMode())) == "PushToTalk");
}

BOOST_AUTO_TEST_CASE(without_a_desktop_client_voice_settings_fail_clearly) {
    bool connectionEnded = false;
    client.AddLogCallback(
        [&](std::string line, LoggingSeverity) {
            // The emulator's desktop client says goodbye (a CLOSE frame) or just goes.
            if (line.find("closed by the desktop client") != std::string::npos ||
                line.find("the desktop client connection ended") != std::string::npos) {
                connectionEnded = true;
            }
        },
        LoggingSeverity::Info);
    SignIn();
    BOOST_REQUIRE_EQUAL(TestRequest(emulator, "DELETE", "/_emulator/desktop").status, 204);
    // The desktop client quits: once the SDK has seen its connection end, a new call finds no socket.
    // (A call racing the close fails with the reason the connection ended instead.)
    BOOST_REQUIRE(PumpUntil([&] { return connectionEnded; }));
    std::optional<std::pair<ClientResult, VoiceSettings>> got;
    client.GetVoiceSettings([&](ClientResult r, VoiceSettings s) { got.emplace(std::move(r), std::move(s)); });
    BOOST_REQUIRE(PumpUntil([&] { return got.has_value(); }));
    BOOST_TEST((got->first.Type() == ErrorType::RPCError));
    BOOST_TEST(got->first.Error().find("no desktop client") != std::string::npos);
    BOOST_TEST(!got->second);
    std::optional<bool> installed;
    client.IsPlatformAppInstalled([&](bool found) { installed = found; });
    BOOST_REQUIRE(PumpUntil([&] { return installed.has_value(); }));
    BOOST_TEST(!*installed);
}

// GetPlatformClientConnectedUser: READY's user, with no token; follows a change of desktop user; fails
// clearly with no desktop client or an application id the desktop client refuses.
BOOST_AUTO_TEST_CASE(connected_user_is_the_desktop_user_without_any_token) {
    auto connectedUser = [&](uint64_t appId) {
        std::optional<std::pair<ClientResult, std::optional<UserHandle>>> got;
        client.GetPlatformClientConnectedUser(appId, [&](ClientResult r, std::optional<UserHandle> user) {
            got.emplace(std::move(r), std::move(user));
        });
        BOOST_REQUIRE(PumpUntil([&] { return got.has_value(); }));
        return *got;
    };
    auto [result, user] = connectedUser(kGameId);
    BOOST_REQUIRE_MESSAGE(result.Successful(), result.ToString());
    BOOST_REQUIRE(user.has_value());
    BOOST_TEST(user->Username() == "alice");
    BOOST_TEST(user->Id() != 0u);
    BOOST_TEST(!client.IsAuthenticated());

    BOOST_REQUIRE_EQUAL(TestRequest(emulator, "PUT", "/_emulator/desktop", R"({"user":"bob"})").status, 200);
    auto [afterSwitch, bob] = connectedUser(kGameId);
    BOOST_REQUIRE_MESSAGE(afterSwitch.Successful(), afterSwitch.ToString());
    BOOST_REQUIRE(bob.has_value());
    BOOST_TEST(bob->Username() == "bob");

    auto [unknownApp, none] = connectedUser(424242424242424242ull);
    BOOST_TEST((unknownApp.Type() == ErrorType::RPCError));
    BOOST_TEST(unknownApp.Error().find("Client ID") != std::string::npos);
    BOOST_TEST(!none.has_value());

    auto [zero, noUser] = connectedUser(0);
    BOOST_TEST((zero.Type() == ErrorType::ValidationError));
    BOOST_TEST(!noUser.has_value());

    BOOST_REQUIRE_EQUAL(TestRequest(emulator, "DELETE", "/_emulator/desktop").status, 204);
    auto [stopped, nobody] = connectedUser(kGameId);
    BOOST_TEST((stopped.Type() == ErrorType::RPCError));
    BOOST_TEST(stopped.Error().find("no desktop client") != std::string::npos);
    BOOST_TEST(!nobody.has_value());
}

// The player accepts an invite / clicks Join in the desktop client: ACTIVITY_JOIN over IPC reaches both
// join callbacks with the secret (and the game's application id); no token is involved.
BOOST_AUTO_TEST_CASE(activity_join_from_the_desktop_client) {
    std::vector<std::string> joined;
    std::vector<std::pair<uint64_t, std::string>> joinedWithApplication;
    client.SetActivityJoinCallback([&](std::string secret) { joined.push_back(std::move(secret)); });
    client.SetActivityJoinWithApplicationCallback(
        [&](uint64_t appId, std::string secret) { joinedWithApplication.emplace_back(appId, std::move(secret)); });
    BOOST_REQUIRE(PumpUntil([&] {
        return TestRequest(emulator, "GET", "/_emulator/desktop").body.find("ACTIVITY_JOIN") != std::string::npos;
    }));
    const auto delivered = TestRequest(emulator, "POST", "/_emulator/desktop/activity-join",
                                       R"({"application_id":"1000000000000000000","secret":"join-7"})");
    BOOST_REQUIRE_EQUAL(delivered.status, 200);
    BOOST_TEST(delivered.body.find("\"delivered\":1") != std::string::npos);
    BOOST_REQUIRE(PumpUntil([&] { return !joined.empty() && !joinedWithApplication.empty(); }));
    BOOST_TEST(joined == std::vector<std::string>{"join-7"});
    BOOST_TEST(joinedWithApplication.front().first == kGameId);
    BOOST_TEST(joinedWithApplication.front().second == "join-7");
    BOOST_TEST(!client.IsAuthenticated());
}

BOOST_AUTO_TEST_SUITE_END()
