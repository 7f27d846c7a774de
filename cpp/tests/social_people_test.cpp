// Relationships, rich presence, users, application profiles, guild channels and argument checks of
// the social calls, against a live emulator.
#include <boost/test/unit_test.hpp>

#include <vector>

#include "support/social_fixture.hpp"

using namespace platformpp;
using namespace platformpp::testing;

namespace {

void Befriend(Client& alice, Client& bob) {
    std::vector<std::pair<uint64_t, bool>> bobRelationships;
    bob.SetRelationshipCreatedCallback([&](uint64_t id, bool platform) { bobRelationships.emplace_back(id, platform); });
    Outcome<ClientResult> requested;
    alice.SendFriendRequestById(kBobId, requested.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(requested.Wait()).Successful(), std::get<0>(requested.Wait()).ToString());
    BOOST_TEST((alice.GetRelationshipHandle(kBobId).PlatformRelationshipType() == RelationshipType::PendingOutgoing));
    BOOST_REQUIRE(PumpUntil([&] { return !bobRelationships.empty(); }));
    BOOST_TEST((bobRelationships.front() == std::make_pair(kAliceId, true)));
    BOOST_TEST((bob.GetRelationshipHandle(kAliceId).PlatformRelationshipType() == RelationshipType::PendingIncoming));
    Outcome<ClientResult> accepted;
    bob.AcceptFriendRequest(kAliceId, accepted.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(accepted.Wait()).Successful(), std::get<0>(accepted.Wait()).ToString());
    BOOST_REQUIRE(PumpUntil([&] {
        return alice.GetRelationshipHandle(kBobId).PlatformRelationshipType() == RelationshipType::Friend;
    }));
    bob.SetRelationshipCreatedCallback(nullptr);
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(social_people, SocialFixture)

BOOST_AUTO_TEST_CASE(friend_requests_accept_remove_block_and_unblock) {
    BOOST_TEST(alice.GetRelationships().empty());
    // Nothing pending: accepting would send a request instead, so the SDK refuses before the network.
    Outcome<ClientResult> premature;
    bob.AcceptFriendRequest(kAliceId, premature.Callback());
    BOOST_TEST((std::get<0>(premature.Wait()).Type() == ErrorType::ValidationError));
    BOOST_TEST(std::get<0>(premature.Wait()).Error().rfind("userId:", 0) == 0u);

    Befriend(alice, bob);
    const auto relationships = alice.GetRelationships();
    BOOST_REQUIRE_EQUAL(relationships.size(), 1u);
    BOOST_TEST(relationships[0].Id() == kBobId);
    BOOST_TEST((relationships[0].GameRelationshipType() == RelationshipType::None));
    BOOST_REQUIRE(relationships[0].User().has_value());
    BOOST_TEST(relationships[0].User()->Username() == "bob");
    BOOST_REQUIRE(alice.GetUser(kBobId).has_value());
    BOOST_TEST((alice.GetUser(kBobId)->Relationship().PlatformRelationshipType() == RelationshipType::Friend));

    std::vector<std::pair<uint64_t, bool>> bobLost;
    bob.SetRelationshipDeletedCallback([&](uint64_t id, bool platform) { bobLost.emplace_back(id, platform); });
    Outcome<ClientResult> removed;
    alice.RemoveFriend(kBobId, removed.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(removed.Wait()).Successful());
    BOOST_TEST(alice.GetRelationships().empty());
    BOOST_REQUIRE(PumpUntil([&] { return !bobLost.empty(); }));
    BOOST_TEST((bobLost.front() == std::make_pair(kAliceId, true)));

    Outcome<ClientResult> blocked;
    alice.BlockUser(kBobId, blocked.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(blocked.Wait()).Successful());
    BOOST_TEST((alice.GetRelationshipHandle(kBobId).PlatformRelationshipType() == RelationshipType::Blocked));
    BOOST_TEST((alice.GetUser(kBobId)->Status() == StatusType::Blocked));
    // A direct message across a block is refused by the platform.
    Outcome<ClientResult, uint64_t> dm;
    bob.SendUserMessage(kAliceId, "hello?", dm.Callback());
    BOOST_TEST(std::get<0>(dm.Wait()).Status() == 403);
    Outcome<ClientResult> unblocked;
    alice.UnblockUser(kBobId, unblocked.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(unblocked.Wait()).Successful());
    BOOST_TEST((alice.GetRelationshipHandle(kBobId).PlatformRelationshipType() == RelationshipType::None));
}

BOOST_AUTO_TEST_CASE(rich_presence_reaches_friends_and_clears) {
    Befriend(alice, bob);
    std::vector<uint64_t> bobUpdates;
    bob.SetUserUpdatedCallback([&](uint64_t id) { bobUpdates.push_back(id); });

    Activity activity;
    activity.SetName("Demo Game");
    activity.SetType(ActivityTypes::Playing);
    activity.SetState("In lobby");
    activity.SetDetails("Capture the flag");
    ActivityAssets assets;
    assets.SetLargeImage("map-dunes");
    assets.SetInviteCoverImage("https://cdn.example.test/covers/match-7.png");
    activity.SetAssets(assets);
    ActivityParty party;
    party.SetId("party-7");
    party.SetCurrentSize(1);
    party.SetMaxSize(4);
    activity.SetParty(party);
    ActivityTimestamps timestamps;
    timestamps.SetStart(1763700000000ull);
    activity.SetTimestamps(timestamps);
    Outcome<ClientResult> updated;
    alice.UpdateRichPresence(activity, updated.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(updated.Wait()).Successful(), std::get<0>(updated.Wait()).ToString());

    // Alice's own cache reflects it, and bob (a friend) hears of it by the Gateway.
    const auto self = alice.GetCurrentUserV2();
    BOOST_REQUIRE(self.has_value());
    BOOST_REQUIRE(self->GameActivity().has_value());
    BOOST_TEST(self->GameActivity()->Name() == "Demo Game");
    // The cache changes on the network thread and the callback comes with the next RunCallbacks:
    // wait for both.
    BOOST_REQUIRE(PumpUntil([&] {
        const auto user = bob.GetUser(kAliceId);
        return user && user->GameActivity().has_value() &&
               std::count(bobUpdates.begin(), bobUpdates.end(), kAliceId) >= 1;
    }));
    const auto seen = *bob.GetUser(kAliceId)->GameActivity();
    BOOST_TEST(seen.Name() == "Demo Game");
    BOOST_TEST(seen.State().value_or("") == "In lobby");
    BOOST_TEST(seen.ApplicationId().value_or(0) == kGameId);
    BOOST_REQUIRE(seen.Assets().has_value());
    BOOST_TEST(seen.Assets()->InviteCoverImage().value_or("") == "https://cdn.example.test/covers/match-7.png");
    BOOST_TEST(seen.Party()->MaxSize() == 4);
    BOOST_TEST(seen.Timestamps()->Start() == 1763700000000ull);
    BOOST_TEST((bob.GetUser(kAliceId)->Status() == StatusType::Online));

    // A custom status (type 4) is the user's, beside the game's activity.
    Activity custom;
    custom.SetName("Custom Status");
    custom.SetType(ActivityTypes::CustomStatus);
    custom.SetState("brb");
    Outcome<ClientResult> customSet;
    alice.UpdateRichPresence(custom, customSet.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(customSet.Wait()).Successful(), std::get<0>(customSet.Wait()).ToString());
    BOOST_REQUIRE(PumpUntil([&] { return bob.GetUser(kAliceId)->Activities().size() == 2; }));
    BOOST_TEST(bob.GetUser(kAliceId)->GameActivity().has_value());

    alice.ClearRichPresence();
    BOOST_REQUIRE(PumpUntil([&] { return !bob.GetUser(kAliceId)->GameActivity().has_value(); }));
    BOOST_TEST((bob.GetUser(kAliceId)->Activities().at(0).Type() == ActivityTypes::CustomStatus));
    BOOST_REQUIRE(PumpUntil([&] { return !alice.GetCurrentUserV2()->GameActivity().has_value(); }));
}

BOOST_AUTO_TEST_CASE(guilds_and_channels_in_display_order) {
    Outcome<ClientResult, std::vector<GuildMinimal>> guilds;
    alice.GetUserGuilds(guilds.Callback());
    const auto& [guildsResult, list] = guilds.Wait();
    BOOST_TEST_REQUIRE(guildsResult.Successful(), guildsResult.ToString());
    BOOST_REQUIRE_EQUAL(list.size(), 1u);
    BOOST_TEST(list[0].Id() == kGuildId);
    BOOST_TEST(list[0].Name() == "Demo Guild");

    Outcome<ClientResult, std::vector<GuildChannel>> channels;
    alice.GetGuildChannels(kGuildId, channels.Callback());
    const auto& [channelsResult, shown] = channels.Wait();
    BOOST_TEST_REQUIRE(channelsResult.Successful(), channelsResult.ToString());
    std::vector<std::string> names;
    for (const auto& channel : shown) names.push_back(channel.Name());
    // alice owns the guild, so she also sees the moderators' channel.
    BOOST_TEST(names == (std::vector<std::string>{"Text Channels", "general", "moderators", "Voice Channels", "Lounge"}));
    BOOST_TEST((shown[0].Type() == ChannelType::GuildCategory));
    BOOST_TEST(!shown[0].ParentId().has_value());
    BOOST_TEST(shown[1].ParentId().value_or(0) == shown[0].Id());
    BOOST_TEST(shown[2].Position() == 1);
    BOOST_TEST((shown[4].Type() == ChannelType::GuildVoice));
    BOOST_TEST(shown[4].ParentId().value_or(0) == shown[3].Id());

    // bob is not a moderator: the hidden channel is not listed for him.
    Outcome<ClientResult, std::vector<GuildChannel>> bobChannels;
    bob.GetGuildChannels(kGuildId, bobChannels.Callback());
    BOOST_TEST(std::get<1>(bobChannels.Wait()).size() == 4u);
}

BOOST_AUTO_TEST_CASE(application_profiles_with_and_without_the_lock) {
    Outcome<ClientResult, std::vector<UserApplicationProfileHandle>> profiles;
    alice.GetUserApplicationProfiles(kAliceId, profiles.Callback());
    const auto& [result, list] = profiles.Wait();
    BOOST_TEST_REQUIRE(result.Successful(), result.ToString());
    const auto noLock = alice.GetUserApplicationProfilesNoLock(kAliceId);
    BOOST_TEST(noLock.size() == list.size());
    for (const auto& profile : list) {
        BOOST_TEST(profile.UserId() == kAliceId);
        BOOST_TEST(profile.Metadata().front() == '{');
    }
    BOOST_TEST(alice.GetCurrentUserV2()->UserApplicationProfiles().size() == list.size());
    // Not a friend's: the platform refuses, and nothing is kept.
    Outcome<ClientResult, std::vector<UserApplicationProfileHandle>> stranger;
    alice.GetUserApplicationProfiles(kBobId, stranger.Callback());
    BOOST_TEST(std::get<0>(stranger.Wait()).Status() == 403);
    BOOST_TEST(alice.GetUserApplicationProfilesNoLock(kBobId).empty());
}

BOOST_AUTO_TEST_CASE(bad_arguments_are_validation_errors_naming_the_field) {
    auto expectField = [](const ClientResult& result, const std::string& field) {
        BOOST_TEST((result.Type() == ErrorType::ValidationError), field);
        BOOST_TEST(result.Error().rfind(field + ":", 0) == 0u, result.Error());
    };
    ClearRequests();
    Outcome<ClientResult, uint64_t> noSecret;
    alice.CreateOrJoinLobby("", noSecret.Callback());
    expectField(std::get<0>(noSecret.Wait()), "secret");
    Outcome<ClientResult, uint64_t> longSecret;
    alice.CreateOrJoinLobby(std::string(251, 's'), longSecret.Callback());
    expectField(std::get<0>(longSecret.Wait()), "secret");
    Client::Properties tooMany;
    for (int i = 0; i < 26; ++i) tooMany["k" + std::to_string(i)] = "v";
    Outcome<ClientResult, uint64_t> metadata;
    alice.CreateOrJoinLobbyWithMetadata("ok", tooMany, {}, metadata.Callback());
    expectField(std::get<0>(metadata.Wait()), "lobbyMetadata");
    Outcome<ClientResult, uint64_t> empty;
    alice.SendLobbyMessage(42, "", empty.Callback());
    expectField(std::get<0>(empty.Wait()), "content");
    Outcome<ClientResult, uint64_t> noRecipient;
    alice.SendUserMessage(0, "hi", noRecipient.Callback());
    expectField(std::get<0>(noRecipient.Wait()), "recipientId");
    Outcome<ClientResult, std::vector<MessageHandle>> lobbyLimit, userLimit;
    alice.GetLobbyMessagesWithLimit(42, 201, lobbyLimit.Callback());
    expectField(std::get<0>(lobbyLimit.Wait()), "limit");
    alice.GetUserMessagesWithLimit(kBobId, 0, userLimit.Callback());
    expectField(std::get<0>(userLimit.Wait()), "limit");
    Outcome<ClientResult> noName, cover, nullActivity;
    alice.UpdateRichPresence(Activity{}, noName.Callback());
    expectField(std::get<0>(noName.Wait()), "activity.Name");
    Activity bigCover;
    bigCover.SetName("Demo Game");
    ActivityAssets assets;
    assets.SetInviteCoverImage("https://cdn.example.test/" + std::string(600, 'x'));
    bigCover.SetAssets(assets);
    alice.UpdateRichPresence(bigCover, cover.Callback());
    expectField(std::get<0>(cover.Wait()), "activity.Assets.InviteCoverImage");
    alice.UpdateRichPresence(Activity::nullobj, nullActivity.Callback());
    expectField(std::get<0>(nullActivity.Wait()), "activity");
    Outcome<ClientResult> noGuild;
    alice.GetGuildChannels(0, [&](ClientResult r, std::vector<GuildChannel>) { noGuild.value.emplace(std::move(r)); });
    expectField(std::get<0>(noGuild.Wait()), "guildId");
    BOOST_CHECK_THROW(alice.LeaveLobby(1, nullptr), ValidationError);
    // None of them reached the platform.
    BOOST_TEST(Requests().empty());

    // Without a token the calls say so instead of sending anything.
    Client signedOut(emulator.ApiBase(), emulator.BaseUrl());
    Outcome<ClientResult, uint64_t> notReady;
    signedOut.CreateOrJoinLobby("match", notReady.Callback());
    BOOST_TEST((std::get<0>(notReady.Wait()).Type() == ErrorType::ClientNotReady));
    BOOST_TEST(!signedOut.GetLobbyHandle(1).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
