// Guild channels as linking candidates, and lobbies linked to a guild channel (issue 17: SDK parity,
// guilds and lobbies), against a live emulator.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "support/social_fixture.hpp"

using namespace platformpp;
using namespace platformpp::testing;

namespace {

constexpr uint64_t kGeneralId = 1200000000000000101ull;
// The default world's bot token (not a secret: the emulator's own fixture).
const std::string kBotAuthorization =
    "Bot MTAwMDAwMDAwMDAwMDAwMDAwMQ.ZW11bGF0b3I.ZGVmYXVsdC13b3JsZC1ib3QtdG9rZW4tbm90LXNlY3JldA";

const GuildChannel& Named(const std::vector<GuildChannel>& channels, const std::string& name) {
    const auto found = std::find_if(channels.begin(), channels.end(), [&](const auto& c) { return c.Name() == name; });
    BOOST_REQUIRE_MESSAGE(found != channels.end(), "no channel " + name);
    return *found;
}

std::vector<GuildChannel> ChannelsOf(Client& client) {
    Outcome<ClientResult, std::vector<GuildChannel>> channels;
    client.GetGuildChannels(kGuildId, channels.Callback());
    const auto& [result, list] = channels.Wait();
    BOOST_TEST_REQUIRE(result.Successful(), result.ToString());
    return list;
}

// A lobby of alice and bob made by the game's bot, alice with CanLinkLobby.
uint64_t BotLobby(const EmulatorProcess& emulator) {
    const std::string body = R"({"members": [{"id": ")" + std::to_string(kAliceId) + R"(", "flags": 1}, {"id": ")" +
                             std::to_string(kBobId) + R"("}]})";
    const auto response = TestRequest(emulator, "POST", "/api/v10/lobbies", body, "application/json", kBotAuthorization);
    BOOST_REQUIRE_EQUAL(response.status, 201);
    return std::stoull(std::string(boost::json::parse(response.body).as_object().at("id").as_string()));
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(social_linking, SocialFixture)

BOOST_AUTO_TEST_CASE(guild_channels_say_whether_the_user_may_link_them) {
    const auto shown = ChannelsOf(alice);  // alice owns the guild
    const auto& general = Named(shown, "general");
    BOOST_TEST(general.IsLinkable());
    BOOST_TEST(general.IsViewableAndWriteableByAllMembers());
    BOOST_TEST(general.ParentId().value_or(0) == Named(shown, "Text Channels").Id());
    BOOST_TEST(!general.LinkedLobby().has_value());
    BOOST_TEST(Named(shown, "moderators").IsLinkable());
    BOOST_TEST(!Named(shown, "moderators").IsViewableAndWriteableByAllMembers());  // hidden from @everyone
    BOOST_TEST(!Named(shown, "Lounge").IsLinkable());                              // a voice channel
    BOOST_TEST((Named(shown, "Lounge").Type() == ChannelType::GuildVoice));
    // bob may not manage channels: nothing is linkable for him.
    for (const auto& channel : ChannelsOf(bob)) BOOST_TEST(!channel.IsLinkable(), channel.Name());

    // Linked to a lobby (by the bot here), the channel names it and is no longer linkable.
    const uint64_t lobbyId = BotLobby(emulator);
    const auto linked = TestRequest(emulator, "PATCH", "/api/v10/lobbies/" + std::to_string(lobbyId) + "/channel-linking",
                                    R"({"channel_id": ")" + std::to_string(kGeneralId) + R"("})", "application/json",
                                    kBotAuthorization);
    BOOST_REQUIRE_EQUAL(linked.status, 200);
    const auto after = Named(ChannelsOf(alice), "general");
    BOOST_REQUIRE(after.LinkedLobby().has_value());
    BOOST_TEST(after.LinkedLobby()->LobbyId() == lobbyId);
    BOOST_TEST(after.LinkedLobby()->ApplicationId() == kGameId);
    BOOST_TEST(!after.IsLinkable());
}

BOOST_AUTO_TEST_CASE(guild_channel_and_linked_values_are_plain_values) {
    GuildChannel channel;
    channel.SetParentId(7);
    channel.SetIsLinkable(true);
    channel.SetIsViewableAndWriteableByAllMembers(true);
    LinkedLobby lobby;
    lobby.SetApplicationId(kGameId);
    lobby.SetLobbyId(42);
    channel.SetLinkedLobby(lobby);
    const GuildChannel copy = channel;
    BOOST_TEST(copy.ParentId().value_or(0) == 7u);
    BOOST_TEST(copy.IsLinkable());
    BOOST_TEST(copy.IsViewableAndWriteableByAllMembers());
    BOOST_TEST(copy.LinkedLobby()->LobbyId() == 42u);
    GuildChannel moved = std::move(channel);
    BOOST_TEST(!channel);  // NOLINT(bugprone-use-after-move): moved-from handles are null
    BOOST_TEST(moved.LinkedLobby()->ApplicationId() == kGameId);
    BOOST_CHECK_THROW(LinkedLobby::nullobj.LobbyId(), NullHandleError);
    BOOST_CHECK_THROW(LinkedChannel::nullobj.Name(), NullHandleError);
    LinkedChannel linkedChannel;
    linkedChannel.SetId(kGeneralId);
    linkedChannel.SetGuildId(kGuildId);
    linkedChannel.SetName("general");
    BOOST_TEST(LinkedChannel(linkedChannel).Name() == "general");
}

BOOST_AUTO_TEST_SUITE_END()
