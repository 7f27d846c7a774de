// Users' profiles and the social names of the SDK through the public Client against a live emulator:
// the relationship callback typedefs, the remaining namespace-level EnumToString overloads,
// OpenConnectedGamesSettingsInPlatform, UserHandle::AvatarUrl (fetched from the emulator's CDN) and
// the typed members of UserApplicationProfileHandle.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "platformpp/platformpp.hpp"
#include "support/social_fixture.hpp"

using namespace platformpp;
using platformpp::testing::EmulatorProcess;
using platformpp::testing::kAliceId;
using platformpp::testing::kBobId;
using platformpp::testing::Outcome;
using platformpp::testing::PumpUntil;
using platformpp::testing::SignIn;
using platformpp::testing::TestRequest;

namespace json = boost::json;

namespace {

// The default world's bot token (not a secret: the emulator's fixed world).
const std::string kBotToken = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.ZW11bGF0b3I.ZGVmYXVsdC13b3JsZC1ib3QtdG9rZW4tbm90LXNlY3JldA";
// A 1x1 PNG, as a data URI for the emulator's avatar admin route.
const std::string kPng =
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

json::value Api(const EmulatorProcess& emulator, const std::string& method, const std::string& target,
                const std::string& body, const std::string& authorization) {
    const auto response = TestRequest(emulator, method, target, body, "application/json", authorization);
    BOOST_REQUIRE_MESSAGE(response.status / 100 == 2,
                          method << " " << target << " answered " << response.status << ": " << response.body);
    return json::parse(response.body);
}

// A provisional account the game's server minted (POST /partner-sdk/token/bot), with an avatar set
// through the emulator's admin API before its Client connects.
struct ProvisionalPlayer {
    std::string accessToken, avatarHash;
    uint64_t id = 0;

    ProvisionalPlayer(const EmulatorProcess& emulator, const std::string& externalId) {
        const auto token = Api(emulator, "POST", "/api/v10/partner-sdk/token/bot",
                               json::serialize(json::object{{"external_user_id", externalId}}), "Bot " + kBotToken);
        accessToken = json::value_to<std::string>(token.at("access_token"));
        const auto me = Api(emulator, "GET", "/api/v10/users/@me", {}, "Bearer " + accessToken);
        id = std::stoull(json::value_to<std::string>(me.at("id")));
        const auto avatar = Api(emulator, "PUT", "/_emulator/users/" + std::to_string(id) + "/avatar",
                                json::serialize(json::object{{"image", kPng}}), {});
        avatarHash = json::value_to<std::string>(avatar.at("avatar"));
    }

    void Connect(Client& client) const {
        client.SetApplicationId(platformpp::testing::kGameId);
        Outcome<ClientResult> updated;
        client.UpdateToken(AuthorizationTokenType::Bearer, accessToken, updated.Callback());
        BOOST_REQUIRE(std::get<0>(updated.Wait()).Successful());
        client.Connect();
        BOOST_REQUIRE_MESSAGE(PumpUntil([&] { return client.GetStatus() == Client::Status::Ready; }), "never Ready");
    }
};

std::string PathOf(const EmulatorProcess& emulator, const std::string& url) {
    BOOST_REQUIRE_MESSAGE(url.rfind(emulator.BaseUrl(), 0) == 0, url << " is not under " << emulator.BaseUrl());
    return url.substr(emulator.BaseUrl().size());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(social_profiles)

BOOST_AUTO_TEST_CASE(relationship_callback_typedefs_are_the_references) {
    using Reference = std::function<void(uint64_t userId, bool isPlatformRelationshipUpdate)>;
    static_assert(std::is_same_v<Client::RelationshipCreatedCallback, Reference>);
    static_assert(std::is_same_v<Client::RelationshipDeletedCallback, Reference>);
    static_assert(std::is_same_v<decltype(&Client::SetRelationshipCreatedCallback),
                                 void (Client::*)(Client::RelationshipCreatedCallback)>);
    static_assert(std::is_same_v<decltype(&Client::SetRelationshipDeletedCallback),
                                 void (Client::*)(Client::RelationshipDeletedCallback)>);

    EmulatorProcess emulator;
    Client alice{emulator.ApiBase(), emulator.BaseUrl()};
    Client bob{emulator.ApiBase(), emulator.BaseUrl()};
    SignIn(alice, "alice");
    SignIn(bob, "bob");
    std::vector<std::pair<uint64_t, bool>> created, deleted;
    alice.SetRelationshipCreatedCallback(
        Client::RelationshipCreatedCallback([&](uint64_t id, bool platform) { created.emplace_back(id, platform); }));
    alice.SetRelationshipDeletedCallback(
        Client::RelationshipDeletedCallback([&](uint64_t id, bool platform) { deleted.emplace_back(id, platform); }));
    Outcome<ClientResult> sent;
    alice.SendGameFriendRequestById(kBobId, sent.Callback());
    BOOST_REQUIRE(std::get<0>(sent.Wait()).Successful());
    BOOST_REQUIRE(PumpUntil([&] { return !created.empty(); }));
    BOOST_TEST(created.front().first == kBobId);
    BOOST_TEST(created.front().second == false);  // a game relationship
    Outcome<ClientResult> cancelled;
    alice.CancelGameFriendRequest(kBobId, cancelled.Callback());
    BOOST_REQUIRE(std::get<0>(cancelled.Wait()).Successful());
    BOOST_REQUIRE(PumpUntil([&] { return !deleted.empty(); }));
    BOOST_TEST(deleted.front().first == kBobId);
}

BOOST_AUTO_TEST_CASE(enum_to_string_covers_the_rest_of_the_reference) {
    BOOST_TEST(std::strcmp(EnumToString(ChannelType::GuildText), "GuildText") == 0);
    BOOST_TEST(std::strcmp(EnumToString(ChannelType::EphemeralDm), "EphemeralDm") == 0);
    BOOST_TEST(std::strcmp(EnumToString(static_cast<ChannelType>(99)), "Unknown") == 0);
    BOOST_TEST(std::strcmp(EnumToString(AdditionalContentType::Sticker), "Sticker") == 0);
    // The class's own to-string and the namespace overload agree.
    BOOST_TEST(AdditionalContent::TypeToString(AdditionalContentType::Poll) == EnumToString(AdditionalContentType::Poll));
    BOOST_TEST(std::strcmp(EnumToString(AudioSystem::Game), "Game") == 0);
    BOOST_TEST(std::strcmp(EnumToString(Call::Error::JoinTimeout), "JoinTimeout") == 0);
    BOOST_TEST(Call::ErrorToString(Call::Error::Forbidden) == EnumToString(Call::Error::Forbidden));
    BOOST_TEST(std::strcmp(EnumToString(AudioModeType::MODE_PTT), "MODE_PTT") == 0);
    BOOST_TEST(std::strcmp(EnumToString(Call::Status::SignalingConnected), "SignalingConnected") == 0);
    BOOST_TEST(Call::StatusToString(Call::Status::Reconnecting) == EnumToString(Call::Status::Reconnecting));
    BOOST_TEST(std::strcmp(EnumToString(StatusType::Dnd), "Dnd") == 0);
    BOOST_TEST(std::strcmp(EnumToString(DisclosureTypes::MessageDataVisibleOnPlatform),
                           "MessageDataVisibleOnPlatform") == 0);
    BOOST_TEST(std::strcmp(EnumToString(ExternalIdentityProviderType::PlatformBot), "PlatformBot") == 0);
    BOOST_TEST(std::strcmp(EnumToString(static_cast<ExternalIdentityProviderType>(42)), "Unknown") == 0);
}

BOOST_AUTO_TEST_CASE(avatar_url_fetches_from_the_cdn_and_profiles_are_typed) {
    EmulatorProcess emulator;
    const ProvisionalPlayer player(emulator, "ext-profile-1");
    Client client{emulator.ApiBase(), emulator.BaseUrl()};
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    BOOST_TEST(!client.GetCurrentUser());  // the deprecated form: nullobj before READY
    player.Connect(client);
    BOOST_TEST(client.GetCurrentUser().Id() == player.id);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    const auto me = client.GetCurrentUserV2();
    BOOST_REQUIRE(me.has_value());
    BOOST_TEST(me->Id() == player.id);
    BOOST_TEST(me->IsProvisional());  // READY's user says so
    BOOST_REQUIRE(me->Avatar().has_value());
    BOOST_TEST(*me->Avatar() == player.avatarHash);

    const std::string png = me->AvatarUrl(UserHandle::AvatarType::Gif, UserHandle::AvatarType::Png);
    BOOST_TEST(png == emulator.BaseUrl() + "/avatars/" + std::to_string(player.id) + "/" + player.avatarHash + ".png");
    const auto pngBody = TestRequest(emulator, "GET", PathOf(emulator, png));
    BOOST_TEST_REQUIRE(pngBody.status == 200, pngBody.body);
    BOOST_TEST(pngBody.body.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    for (const auto type : {UserHandle::AvatarType::Webp, UserHandle::AvatarType::Jpeg}) {
        const std::string url = me->AvatarUrl(UserHandle::AvatarType::Gif, type);
        BOOST_TEST(TestRequest(emulator, "GET", PathOf(emulator, url)).status == 200, url);
    }
    // A still avatar has no GIF on the CDN: asking for one is refused before any request.
    BOOST_CHECK_THROW(me->AvatarUrl(UserHandle::AvatarType::Gif, UserHandle::AvatarType::Gif), ValidationError);

    // The profile of the identity the bot minted: typed provider, the account's name and avatar.
    Outcome<ClientResult, std::vector<UserApplicationProfileHandle>> profiles;
    client.GetUserApplicationProfiles(player.id, profiles.Callback());
    const auto& [result, list] = profiles.Wait();
    BOOST_TEST_REQUIRE(result.Successful(), result.ToString());
    BOOST_REQUIRE_EQUAL(list.size(), 1u);
    const auto& profile = list.front();
    BOOST_TEST((profile.ProviderType() == ExternalIdentityProviderType::PlatformBot));
    BOOST_TEST(profile.ProviderIssuedUserId() == "ext-profile-1");
    BOOST_TEST(profile.Username() == me->Username());
    BOOST_TEST(profile.AvatarHash() == player.avatarHash);
    BOOST_TEST(!profile.ProviderId().has_value());
    BOOST_CHECK_THROW(UserApplicationProfileHandle::nullobj.AvatarHash(), NullHandleError);
    BOOST_CHECK_THROW(UserApplicationProfileHandle::nullobj.ProviderId(), NullHandleError);
}

BOOST_AUTO_TEST_CASE(default_avatar_and_connected_games_settings_of_a_full_account) {
    EmulatorProcess emulator;
    // Not signed in: the call fails without opening anything.
    Client stranger{emulator.ApiBase(), emulator.BaseUrl()};
    std::vector<std::string> strangerOpened;
    stranger.SetAuthorizeUrlOpener([&](std::string url) { strangerOpened.push_back(url); });
    Outcome<ClientResult> early;
    stranger.OpenConnectedGamesSettingsInPlatform(early.Callback());
    BOOST_TEST(!std::get<0>(early.Wait()).Successful());
    BOOST_TEST(strangerOpened.empty());

    Client alice{emulator.ApiBase(), emulator.BaseUrl()};
    SignIn(alice, "alice");
    std::vector<std::string> opened;  // set after SignIn, whose Authorize uses the default opener
    alice.SetAuthorizeUrlOpener([&](std::string url) { opened.push_back(url); });
    const auto me = alice.GetCurrentUserV2();
    BOOST_REQUIRE(me.has_value());
    BOOST_REQUIRE(!me->Avatar().has_value());  // the default world's alice has no avatar
    BOOST_TEST(me->AvatarUrl(UserHandle::AvatarType::Gif, UserHandle::AvatarType::Png) ==
               emulator.BaseUrl() + "/embed/avatars/" + std::to_string((kAliceId >> 22) % 6) + ".png");

    Outcome<ClientResult> settings;
    alice.OpenConnectedGamesSettingsInPlatform(settings.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(settings.Wait()).Successful());
    BOOST_REQUIRE_EQUAL(opened.size(), 1u);
    BOOST_TEST(opened.front() == emulator.BaseUrl() + "/settings/connected-games");
}

BOOST_AUTO_TEST_SUITE_END()
