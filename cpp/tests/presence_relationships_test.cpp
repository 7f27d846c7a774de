// Presence and relationships members against a live emulator: the SDK 1.10 Activity
// fields and enums, and the relationship additions.
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "support/social_fixture.hpp"

using namespace platformpp;
using namespace platformpp::testing;

namespace {

void MakeFriends(Client& alice, Client& bob) {
    Outcome<ClientResult> requested;
    alice.SendFriendRequestById(kBobId, requested.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(requested.Wait()).Successful(), std::get<0>(requested.Wait()).ToString());
    BOOST_REQUIRE(PumpUntil([&] {
        return bob.GetRelationshipHandle(kAliceId).PlatformRelationshipType() == RelationshipType::PendingIncoming;
    }));
    Outcome<ClientResult> accepted;
    bob.AcceptFriendRequest(kAliceId, accepted.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(accepted.Wait()).Successful(), std::get<0>(accepted.Wait()).ToString());
    BOOST_REQUIRE(PumpUntil([&] {
        return alice.GetRelationshipHandle(kBobId).PlatformRelationshipType() == RelationshipType::Friend;
    }));
}

}  // namespace

BOOST_AUTO_TEST_CASE(activity_enums_and_their_names) {
    BOOST_TEST(static_cast<int>(ActivityTypes::HangStatus) == 6);
    BOOST_TEST(std::strcmp(EnumToString(ActivityTypes::HangStatus), "HangStatus") == 0);
    BOOST_TEST(std::strcmp(EnumToString(StatusDisplayTypes::Details), "Details") == 0);
    BOOST_TEST(std::strcmp(EnumToString(ActivityGamePlatforms::PS5), "PS5") == 0);
    BOOST_TEST(std::strcmp(EnumToString(ActivityGamePlatforms::Desktop | ActivityGamePlatforms::IOS), "Unknown") == 0);
    BOOST_TEST(std::strcmp(EnumToString(ActivityPartyPrivacy::Public), "Public") == 0);
    BOOST_TEST(std::strcmp(EnumToString(ActivityActionTypes::JoinRequest), "JoinRequest") == 0);
    BOOST_TEST(static_cast<int>(ActivityActionTypes::JoinRequest) == 5);

    Activity a;
    BOOST_TEST(static_cast<int>(a.SupportedPlatforms()) == 255);
    BOOST_TEST(!a.StatusDisplayType().has_value());
    Activity b = a;
    b.SetStateUrl("https://example.test/s");
    BOOST_TEST(!a.Equals(b));
    a.SetStateUrl("https://example.test/s");
    BOOST_TEST(a.Equals(b));
    ActivityParty party;
    BOOST_TEST((party.Privacy() == ActivityPartyPrivacy::Private));
    party.SetPrivacy(ActivityPartyPrivacy::Public);
    b.SetParty(party);
    BOOST_TEST(!a.Equals(b));
}

BOOST_FIXTURE_TEST_SUITE(presence_relationships, SocialFixture)

BOOST_AUTO_TEST_CASE(sdk_1_10_activity_fields_reach_a_friend) {
    MakeFriends(alice, bob);
    Activity activity;
    activity.SetName("Demo Game");
    activity.SetType(ActivityTypes::HangStatus);
    activity.SetState("Chilling");
    activity.SetStateUrl("https://example.test/state");
    activity.SetDetails("Lobby");
    activity.SetDetailsUrl("https://example.test/details");
    activity.SetStatusDisplayType(StatusDisplayTypes::State);
    activity.SetParentApplicationId(1000000000000000009ull);
    activity.SetSupportedPlatforms(ActivityGamePlatforms::Desktop | ActivityGamePlatforms::PS5);
    ActivityAssets assets;
    assets.SetLargeImage("map");
    assets.SetLargeUrl("https://example.test/large");
    assets.SetSmallUrl("https://example.test/small");
    activity.SetAssets(assets);
    ActivityParty party;
    party.SetId("p1");
    party.SetCurrentSize(1);
    party.SetMaxSize(4);
    party.SetPrivacy(ActivityPartyPrivacy::Public);
    activity.SetParty(party);
    Outcome<ClientResult> updated;
    alice.UpdateRichPresence(activity, updated.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(updated.Wait()).Successful(), std::get<0>(updated.Wait()).ToString());

    BOOST_REQUIRE(PumpUntil([&] {
        const auto user = bob.GetUser(kAliceId);
        return user && user->GameActivity().has_value() && user->GameActivity()->State() == std::optional<std::string>("Chilling");
    }));
    const auto seen = *bob.GetUser(kAliceId)->GameActivity();
    BOOST_TEST((seen.Type() == ActivityTypes::HangStatus));
    BOOST_TEST(seen.StateUrl().value_or("") == "https://example.test/state");
    BOOST_TEST(seen.DetailsUrl().value_or("") == "https://example.test/details");
    BOOST_TEST((seen.StatusDisplayType() == std::optional<StatusDisplayTypes>(StatusDisplayTypes::State)));
    BOOST_TEST(seen.ParentApplicationId().value_or(0) == 1000000000000000009ull);
    BOOST_TEST(static_cast<int>(seen.SupportedPlatforms()) == (1 | 128));
    BOOST_REQUIRE(seen.Assets().has_value());
    BOOST_TEST(seen.Assets()->LargeUrl().value_or("") == "https://example.test/large");
    BOOST_TEST(seen.Assets()->SmallUrl().value_or("") == "https://example.test/small");
    BOOST_REQUIRE(seen.Party().has_value());
    BOOST_TEST((seen.Party()->Privacy() == ActivityPartyPrivacy::Public));

    // Bad values are refused before the network, naming the field.
    Activity bad = activity;
    bad.SetStatusDisplayType(static_cast<StatusDisplayTypes>(9));
    Outcome<ClientResult> refused;
    alice.UpdateRichPresence(bad, refused.Callback());
    BOOST_TEST((std::get<0>(refused.Wait()).Type() == ErrorType::ValidationError));
    BOOST_TEST(std::get<0>(refused.Wait()).Error().find("activity.StatusDisplayType") != std::string::npos);
    bad = activity;
    bad.SetStateUrl(std::string(513, 'x'));
    Outcome<ClientResult> tooLong;
    alice.UpdateRichPresence(bad, tooLong.Callback());
    BOOST_TEST(std::get<0>(tooLong.Wait()).Error().find("activity.StateUrl") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(relationship_enums_and_their_names) {
    BOOST_TEST(std::strcmp(EnumToString(RelationshipType::Implicit), "Implicit") == 0);
    BOOST_TEST(std::strcmp(EnumToString(RelationshipType::Suggestion), "Suggestion") == 0);
    BOOST_TEST(std::strcmp(EnumToString(RelationshipGroupType::OnlinePlayingGame), "OnlinePlayingGame") == 0);
    BOOST_TEST(static_cast<int>(RelationshipGroupType::Offline) == 2);
}

BOOST_AUTO_TEST_CASE(friend_requests_by_username_groups_search_and_removal_everywhere) {
    Outcome<ClientResult> empty;
    alice.SendPlatformFriendRequest("", empty.Callback());
    BOOST_TEST((std::get<0>(empty.Wait()).Type() == ErrorType::ValidationError));
    BOOST_TEST(std::get<0>(empty.Wait()).Error().rfind("username:", 0) == 0u);
    Outcome<ClientResult> nobody;
    alice.SendPlatformFriendRequest("no-such-user", nobody.Callback());
    BOOST_TEST(std::get<0>(nobody.Wait()).Status() == 404);

    Outcome<ClientResult> sent;
    alice.SendPlatformFriendRequest("bob", sent.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(sent.Wait()).Successful(), std::get<0>(sent.Wait()).ToString());
    BOOST_TEST((alice.GetRelationshipHandle(kBobId).PlatformRelationshipType() == RelationshipType::PendingOutgoing));
    BOOST_REQUIRE(PumpUntil([&] {
        return bob.GetRelationshipHandle(kAliceId).PlatformRelationshipType() == RelationshipType::PendingIncoming;
    }));
    BOOST_TEST(!bob.GetRelationshipHandle(kAliceId).IsSpamRequest());
    BOOST_TEST(alice.GetRelationshipsByGroup(RelationshipGroupType::OnlineElsewhere).empty());  // not a friend yet

    std::vector<uint64_t> regrouped;
    alice.SetRelationshipGroupsUpdatedCallback([&](uint64_t id) { regrouped.push_back(id); });
    Outcome<ClientResult> accepted;
    bob.SendPlatformFriendRequest("alice", accepted.Callback());   // by username, it accepts
    BOOST_TEST_REQUIRE(std::get<0>(accepted.Wait()).Successful(), std::get<0>(accepted.Wait()).ToString());
    BOOST_REQUIRE(PumpUntil([&] {
        return alice.GetRelationshipHandle(kBobId).PlatformRelationshipType() == RelationshipType::Friend;
    }));
    BOOST_REQUIRE(PumpUntil([&] { return !regrouped.empty(); }));
    BOOST_TEST(regrouped.back() == kBobId);
    auto elsewhere = alice.GetRelationshipsByGroup(RelationshipGroupType::OnlineElsewhere);
    BOOST_REQUIRE_EQUAL(elsewhere.size(), 1u);
    BOOST_TEST(elsewhere[0].Id() == kBobId);
    BOOST_TEST(alice.GetRelationshipsByGroup(RelationshipGroupType::OnlinePlayingGame).empty());

    // Bob starts playing this game: he moves to OnlinePlayingGame, and alice hears of the move.
    regrouped.clear();
    Activity playing;
    playing.SetName("Demo Game");
    Outcome<ClientResult> presence;
    bob.UpdateRichPresence(playing, presence.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(presence.Wait()).Successful());
    BOOST_REQUIRE(PumpUntil([&] { return !regrouped.empty(); }));
    BOOST_TEST(regrouped.front() == kBobId);
    const auto inGame = alice.GetRelationshipsByGroup(RelationshipGroupType::OnlinePlayingGame);
    BOOST_REQUIRE_EQUAL(inGame.size(), 1u);
    BOOST_TEST(inGame[0].User()->Username() == "bob");
    BOOST_TEST(alice.GetRelationshipsByGroup(RelationshipGroupType::OnlineElsewhere).empty());

    BOOST_REQUIRE_EQUAL(alice.SearchFriendsByUsername("BO").size(), 1u);
    BOOST_TEST(alice.SearchFriendsByUsername("BO")[0].Id() == kBobId);
    BOOST_TEST(alice.SearchFriendsByUsername("zzz").empty());

    // Game friends too, then both friendships end with one call.
    Outcome<ClientResult> gameSent;
    alice.SendGameFriendRequest("bob", gameSent.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(gameSent.Wait()).Successful(), std::get<0>(gameSent.Wait()).ToString());
    BOOST_REQUIRE(PumpUntil([&] {
        return bob.GetRelationshipHandle(kAliceId).GameRelationshipType() == RelationshipType::PendingIncoming;
    }));
    Outcome<ClientResult> gameAccepted;
    bob.AcceptGameFriendRequest(kAliceId, gameAccepted.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(gameAccepted.Wait()).Successful());
    BOOST_REQUIRE(PumpUntil([&] {
        return alice.GetRelationshipHandle(kBobId).GameRelationshipType() == RelationshipType::Friend;
    }));
    Outcome<ClientResult> removed;
    alice.RemovePlatformAndGameFriend(kBobId, removed.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(removed.Wait()).Successful(), std::get<0>(removed.Wait()).ToString());
    BOOST_TEST((alice.GetRelationshipHandle(kBobId).PlatformRelationshipType() == RelationshipType::None));
    BOOST_TEST((alice.GetRelationshipHandle(kBobId).GameRelationshipType() == RelationshipType::None));
    BOOST_REQUIRE(PumpUntil([&] {
        const auto handle = bob.GetRelationshipHandle(kAliceId);
        return handle.PlatformRelationshipType() == RelationshipType::None &&
               handle.GameRelationshipType() == RelationshipType::None;
    }));
    BOOST_TEST(alice.SearchFriendsByUsername("bo").empty());
}

// The reference's names of the platform friend request calls: by id, then cancel, again, reject, again, accept.
BOOST_AUTO_TEST_CASE(platform_friend_requests_by_the_reference_names) {
    auto step = [&](Client& who, void (Client::*call)(uint64_t, Client::UpdateRelationshipCallback), uint64_t other) {
        Outcome<ClientResult> done;
        (who.*call)(other, done.Callback());
        BOOST_TEST_REQUIRE(std::get<0>(done.Wait()).Successful(), std::get<0>(done.Wait()).ToString());
    };
    auto bobSees = [&](RelationshipType type) {
        BOOST_REQUIRE(PumpUntil([&] { return bob.GetRelationshipHandle(kAliceId).PlatformRelationshipType() == type; }));
    };
    step(alice, &Client::SendPlatformFriendRequestById, kBobId);
    bobSees(RelationshipType::PendingIncoming);
    step(alice, &Client::CancelPlatformFriendRequest, kBobId);
    bobSees(RelationshipType::None);
    step(alice, &Client::SendPlatformFriendRequestById, kBobId);
    bobSees(RelationshipType::PendingIncoming);
    step(bob, &Client::RejectPlatformFriendRequest, kAliceId);
    BOOST_TEST((bob.GetRelationshipHandle(kAliceId).PlatformRelationshipType() == RelationshipType::None));
    step(alice, &Client::SendPlatformFriendRequestById, kBobId);
    bobSees(RelationshipType::PendingIncoming);
    step(bob, &Client::AcceptPlatformFriendRequest, kAliceId);
    BOOST_REQUIRE(PumpUntil([&] {
        return alice.GetRelationshipHandle(kBobId).PlatformRelationshipType() == RelationshipType::Friend;
    }));
}

BOOST_AUTO_TEST_CASE(spam_requests_implicit_and_suggested_relationships) {
    constexpr uint64_t kCarolId = 1100000000000000003ull, kDaveId = 1100000000000000004ull;
    const std::string seed = R"({"relationships": [
        {"user_id": ")" + std::to_string(kCarolId) + R"(", "other_id": ")" + std::to_string(kDaveId) + R"(", "type": "pending", "spam": true},
        {"user_id": ")" + std::to_string(kDaveId) + R"(", "other_id": ")" + std::to_string(kAliceId) + R"(", "type": "implicit"},
        {"user_id": ")" + std::to_string(kDaveId) + R"(", "other_id": ")" + std::to_string(kBobId) + R"(", "type": "suggestion"}]})";
    const auto seeded = TestRequest(emulator, "POST", "/_emulator/seed", seed);
    BOOST_REQUIRE_MESSAGE(seeded.status / 100 == 2, seeded.body);
    Client dave{emulator.ApiBase(), emulator.BaseUrl()};
    SignIn(dave, "dave");
    BOOST_REQUIRE(PumpUntil([&] { return dave.GetRelationships().size() == 3; }));
    const auto carol = dave.GetRelationshipHandle(kCarolId);
    BOOST_TEST((carol.PlatformRelationshipType() == RelationshipType::PendingIncoming));
    BOOST_TEST(carol.IsSpamRequest());
    BOOST_TEST((dave.GetRelationshipHandle(kAliceId).PlatformRelationshipType() == RelationshipType::Implicit));
    BOOST_TEST(!dave.GetRelationshipHandle(kAliceId).IsSpamRequest());
    BOOST_TEST((dave.GetRelationshipHandle(kBobId).PlatformRelationshipType() == RelationshipType::Suggestion));
    // Neither an implicit relationship nor a suggestion is a friend.
    BOOST_TEST(dave.SearchFriendsByUsername("").empty());
    BOOST_TEST(dave.GetRelationshipsByGroup(RelationshipGroupType::Offline).empty());
}

BOOST_AUTO_TEST_CASE(online_status_reaches_a_friend) {
    MakeFriends(alice, bob);
    Outcome<ClientResult> refused;
    alice.SetOnlineStatus(StatusType::Streaming, refused.Callback());
    BOOST_TEST((std::get<0>(refused.Wait()).Type() == ErrorType::ValidationError));
    BOOST_TEST(std::get<0>(refused.Wait()).Error().rfind("status:", 0) == 0u);
    Outcome<ClientResult> dnd;
    alice.SetOnlineStatus(StatusType::Dnd, dnd.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(dnd.Wait()).Successful(), std::get<0>(dnd.Wait()).ToString());
    BOOST_REQUIRE(PumpUntil([&] { return bob.GetUser(kAliceId) && bob.GetUser(kAliceId)->Status() == StatusType::Dnd; }));
    BOOST_REQUIRE(PumpUntil([&] { return alice.GetCurrentUserV2() && alice.GetCurrentUserV2()->Status() == StatusType::Dnd; }));
    Outcome<ClientResult> invisible;
    alice.SetOnlineStatus(StatusType::Invisible, invisible.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(invisible.Wait()).Successful());
    BOOST_REQUIRE(PumpUntil([&] { return bob.GetUser(kAliceId)->Status() == StatusType::Offline; }));
}

BOOST_AUTO_TEST_CASE(launch_commands_write_the_desktop_entry) {
    char folder[] = "/tmp/pplaunchXXXXXX";
    BOOST_REQUIRE(::mkdtemp(folder) != nullptr);
    ::setenv("XDG_DATA_HOME", (std::string(folder) + "/share").c_str(), 1);
    const std::string entry = std::string(folder) + "/share/applications/platformpp-" + std::to_string(kGameId) + ".desktop";
    auto read = [&] {
        std::ifstream in(entry);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    };
    BOOST_TEST(alice.RegisterLaunchCommand(kGameId, "/opt/demo/game --from-platform"));
    const std::string written = read();
    BOOST_TEST(written.find("Exec=/opt/demo/game --from-platform %u\n") != std::string::npos);
    BOOST_TEST(written.find("MimeType=x-scheme-handler/platform-" + std::to_string(kGameId) + ";") != std::string::npos);
    BOOST_TEST(alice.RegisterLaunchSteamApplication(kGameId, 480));
    BOOST_TEST(read().find("Exec=xdg-open steam://rungameid/480 %u") != std::string::npos);
    // Bad arguments: nothing is written, the last entry stays.
    BOOST_TEST(!alice.RegisterLaunchCommand(kGameId, ""));
    BOOST_TEST(!alice.RegisterLaunchCommand(kGameId, "game\nX-Injected=1"));
    BOOST_TEST(!alice.RegisterLaunchCommand(0, "game"));
    BOOST_TEST(!alice.RegisterLaunchSteamApplication(kGameId, 0));
    BOOST_TEST(read().find("steam://rungameid/480") != std::string::npos);
    ::unsetenv("XDG_DATA_HOME");
}

BOOST_AUTO_TEST_CASE(activity_invites_and_join_requests) {
    MakeFriends(alice, bob);
    auto partyActivity = [](const std::string& party, const std::string& secret) {
        Activity activity;
        activity.SetName("Demo Game");
        ActivityParty value;
        value.SetId(party);
        value.SetCurrentSize(1);
        value.SetMaxSize(4);
        activity.SetParty(value);
        ActivitySecrets secrets;
        secrets.SetJoin(secret);
        activity.SetSecrets(secrets);
        return activity;
    };
    std::vector<ActivityInvite> bobInvites, bobUpdates, aliceInvites;
    bob.SetActivityInviteCreatedCallback([&](ActivityInvite invite) { bobInvites.push_back(invite); });
    bob.SetActivityInviteUpdatedCallback([&](ActivityInvite invite) { bobUpdates.push_back(invite); });
    alice.SetActivityInviteCreatedCallback([&](ActivityInvite invite) { aliceInvites.push_back(invite); });

    Outcome<ClientResult> noParty;
    alice.SendActivityInvite(kBobId, "gg", noParty.Callback());
    BOOST_TEST(std::get<0>(noParty.Wait()).Status() == 400);
    Outcome<ClientResult> presence;
    alice.UpdateRichPresence(partyActivity("party-a", "secret-a"), presence.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(presence.Wait()).Successful());
    Outcome<ClientResult> sent;
    alice.SendActivityInvite(kBobId, "gg", sent.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(sent.Wait()).Successful(), std::get<0>(sent.Wait()).ToString());
    BOOST_REQUIRE(PumpUntil([&] { return !bobInvites.empty(); }));
    const ActivityInvite invite = bobInvites.front();
    BOOST_TEST(invite.SenderId() == kAliceId);
    BOOST_TEST((invite.Type() == ActivityActionTypes::Join));
    BOOST_TEST(invite.ApplicationId() == kGameId);
    BOOST_TEST(invite.PartyId() == "party-a");
    BOOST_TEST(invite.IsValid());
    BOOST_TEST(invite.MessageId() != 0u);
    Outcome<ClientResult, std::string> accepted;
    bob.AcceptActivityInvite(invite, accepted.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(accepted.Wait()).Successful(), std::get<0>(accepted.Wait()).ToString());
    BOOST_TEST(std::get<1>(accepted.Wait()) == "secret-a");

    // Alice leaves her party: the invite no longer works and bob hears it turned invalid.
    alice.ClearRichPresence();
    BOOST_REQUIRE(PumpUntil([&] { return bob.GetUser(kAliceId) && !bob.GetUser(kAliceId)->GameActivity().has_value(); }));
    Outcome<ClientResult, std::string> stale;
    bob.AcceptActivityInvite(invite, stale.Callback());
    BOOST_TEST(!std::get<0>(stale.Wait()).Successful());
    BOOST_TEST(std::get<1>(stale.Wait()).empty());
    BOOST_REQUIRE(PumpUntil([&] { return !bobUpdates.empty(); }));
    BOOST_TEST(!bobUpdates.front().IsValid());
    BOOST_TEST(bobUpdates.front().MessageId() == invite.MessageId());

    // A join request to bob's party, answered with an invite back that alice accepts.
    Outcome<ClientResult> bobPresence;
    bob.UpdateRichPresence(partyActivity("party-b", "secret-b"), bobPresence.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(bobPresence.Wait()).Successful());
    bobInvites.clear();
    Outcome<ClientResult> asked;
    alice.SendActivityJoinRequest(kBobId, asked.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(asked.Wait()).Successful(), std::get<0>(asked.Wait()).ToString());
    BOOST_REQUIRE(PumpUntil([&] { return !bobInvites.empty(); }));
    const ActivityInvite request = bobInvites.front();
    BOOST_TEST((request.Type() == ActivityActionTypes::JoinRequest));
    Outcome<ClientResult, std::string> wrongKind;
    bob.AcceptActivityInvite(request, wrongKind.Callback());
    BOOST_TEST(std::get<0>(wrongKind.Wait()).Error().rfind("invite.Type:", 0) == 0u);
    Outcome<ClientResult> replied;
    bob.SendActivityJoinRequestReply(request, replied.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(replied.Wait()).Successful(), std::get<0>(replied.Wait()).ToString());
    BOOST_REQUIRE(PumpUntil([&] { return !aliceInvites.empty(); }));
    Outcome<ClientResult, std::string> joined;
    alice.AcceptActivityInvite(aliceInvites.front(), joined.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(joined.Wait()).Successful());
    BOOST_TEST(std::get<1>(joined.Wait()) == "secret-b");
}

BOOST_AUTO_TEST_SUITE_END()
