// Guild channels as linking candidates, and lobbies linked to a guild channel (guilds and lobbies),
// against a live emulator.
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

BOOST_AUTO_TEST_CASE(a_linked_lobby_and_its_channel_share_their_messages) {
    const uint64_t lobbyId = BotLobby(emulator);
    BOOST_REQUIRE(PumpUntil([&] { return alice.GetLobbyHandle(lobbyId) && bob.GetLobbyHandle(lobbyId); }));
    std::vector<uint64_t> bobUpdated, bobMessages, aliceMessages;
    bob.SetLobbyUpdatedCallback([&](uint64_t id) { bobUpdated.push_back(id); });
    bob.SetMessageCreatedCallback([&](uint64_t id) { bobMessages.push_back(id); });
    alice.SetMessageCreatedCallback([&](uint64_t id) { aliceMessages.push_back(id); });

    // bob has no CanLinkLobby: the platform refuses, nothing changes.
    Outcome<ClientResult> refused;
    bob.LinkChannelToLobby(lobbyId, kGeneralId, refused.Callback());
    BOOST_TEST(static_cast<int32_t>(std::get<0>(refused.Wait()).Status()) == 403);
    Outcome<ClientResult> invalid;
    alice.LinkChannelToLobby(lobbyId, 0, invalid.Callback());
    BOOST_TEST((std::get<0>(invalid.Wait()).Type() == ErrorType::ValidationError));

    Outcome<ClientResult> linked;
    alice.LinkChannelToLobby(lobbyId, kGeneralId, linked.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(linked.Wait()).Successful(), std::get<0>(linked.Wait()).ToString());
    const auto channel = alice.GetLobbyHandle(lobbyId)->LinkedChannel();  // set when the callback runs
    BOOST_REQUIRE(channel.has_value());
    BOOST_TEST(channel->Id() == kGeneralId);
    BOOST_TEST(channel->Name() == "general");
    BOOST_TEST(channel->GuildId() == kGuildId);
    BOOST_REQUIRE(PumpUntil([&] { return !bobUpdated.empty() && bob.GetLobbyHandle(lobbyId)->LinkedChannel(); }));
    const auto guildChannel = bob.GetChannelHandle(kGeneralId);
    BOOST_REQUIRE(guildChannel.has_value());
    BOOST_TEST((guildChannel->Type() == ChannelType::GuildText));
    BOOST_TEST(guildChannel->Name() == "general");

    // The platform's disclosure reaches the members.
    BOOST_REQUIRE(PumpUntil([&] { return !bobMessages.empty(); }));
    const auto disclosure = bob.GetMessageHandle(bobMessages.front());
    BOOST_REQUIRE(disclosure.has_value());
    BOOST_TEST((disclosure->DisclosureType().value() == DisclosureTypes::MessageDataVisibleOnPlatform));
    BOOST_TEST(!disclosure->SentFromGame());

    // From the game to the channel: the same message id is in the guild channel.
    Outcome<ClientResult, uint64_t> sent;
    alice.SendLobbyMessage(lobbyId, "gg <@" + std::to_string(kBobId) + ">", sent.Callback());
    const auto [sentResult, sentId] = sent.Wait();
    BOOST_TEST_REQUIRE(sentResult.Successful(), sentResult.ToString());
    const auto inChannel = TestRequest(emulator, "GET", "/api/v10/channels/" + std::to_string(kGeneralId) + "/messages",
                                       "", "application/json", kBotAuthorization);
    BOOST_REQUIRE_EQUAL(inChannel.status, 200);
    bool inGuildChannel = false;
    const auto channelMessages = boost::json::parse(inChannel.body);
    for (const auto& item : channelMessages.as_array())
        inGuildChannel = inGuildChannel || item.as_object().at("id").as_string() == std::to_string(sentId);
    BOOST_TEST(inGuildChannel);
    BOOST_REQUIRE(PumpUntil([&] { return std::count(bobMessages.begin(), bobMessages.end(), sentId) == 1; }));
    const auto message = bob.GetMessageHandle(sentId);
    BOOST_REQUIRE(message.has_value());
    BOOST_TEST(message->RawContent() == "gg <@" + std::to_string(kBobId) + ">");
    BOOST_TEST(message->Content() == "gg @Bob");  // bob knows himself: his display name
    BOOST_TEST(message->SentFromGame());
    BOOST_TEST(!message->DisclosureType().has_value());
    BOOST_TEST(!message->AdditionalContent().has_value());
    BOOST_TEST(message->RecipientId() == 0u);
    BOOST_TEST(!message->Recipient().has_value());
    BOOST_REQUIRE(message->Lobby().has_value());
    BOOST_TEST(message->Lobby()->Id() == lobbyId);
    BOOST_REQUIRE(message->Channel().has_value());
    BOOST_TEST((message->Channel()->Type() == ChannelType::Lobby));
    auto recipients = message->Channel()->Recipients();
    std::sort(recipients.begin(), recipients.end());
    BOOST_TEST(recipients == (std::vector<uint64_t>{kAliceId, kBobId}));

    // A linked lobby's messages live in the guild channel: the platform's client can show them.
    BOOST_TEST(bob.CanOpenMessageInPlatform(sentId));
    std::vector<std::string> opened;
    bob.SetAuthorizeUrlOpener([&](std::string url) { opened.push_back(std::move(url)); });
    Outcome<ClientResult> open;
    bool mergeAsked = false;
    bob.OpenMessageInPlatform(sentId, [&] { mergeAsked = true; }, open.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(open.Wait()).Successful(), std::get<0>(open.Wait()).ToString());
    BOOST_TEST(!mergeAsked);
    BOOST_REQUIRE_EQUAL(opened.size(), 1u);
    BOOST_TEST(opened.front() == emulator.BaseUrl() + "/channels/" + std::to_string(kGuildId) + "/" +
                                     std::to_string(kGeneralId) + "/" + std::to_string(sentId));

    // From the channel to the game: a message written on the platform, with an embed.
    const auto posted = TestRequest(emulator, "POST", "/api/v10/channels/" + std::to_string(kGeneralId) + "/messages",
                                    R"({"content": "welcome", "embeds": [{"title": "Match report"}, {"title": "MVP"}]})",
                                    "application/json", kBotAuthorization);
    BOOST_REQUIRE_EQUAL(posted.status, 200);
    const uint64_t postedId =
        std::stoull(std::string(boost::json::parse(posted.body).as_object().at("id").as_string()));
    BOOST_REQUIRE(PumpUntil([&] { return std::count(aliceMessages.begin(), aliceMessages.end(), postedId) == 1; }));
    const auto fromGuild = alice.GetMessageHandle(postedId);
    BOOST_REQUIRE(fromGuild.has_value());
    BOOST_TEST(fromGuild->Content() == "welcome");
    BOOST_TEST(!fromGuild->SentFromGame());
    const auto extra = fromGuild->AdditionalContent();
    BOOST_REQUIRE(extra.has_value());
    BOOST_TEST((extra->Type() == AdditionalContentType::Embed));
    BOOST_TEST(extra->Title().value_or("") == "Match report");
    BOOST_TEST(extra->Count() == 2);

    // An invite to the channel's guild, as a URL to open.
    Outcome<ClientResult, std::string> invite;
    alice.JoinLinkedLobbyGuild(lobbyId, [] { BOOST_FAIL("alice is a full account"); }, invite.Callback());
    const auto& [inviteResult, inviteUrl] = invite.Wait();
    BOOST_TEST_REQUIRE(inviteResult.Successful(), inviteResult.ToString());
    BOOST_TEST(inviteUrl.rfind(emulator.BaseUrl() + "/invite/", 0) == 0u);
    BOOST_TEST(inviteUrl.size() > emulator.BaseUrl().size() + 8);

    // Unlinked: the lobby says so, and its new messages stay in the game.
    Outcome<ClientResult> unlinked;
    alice.UnlinkChannelFromLobby(lobbyId, unlinked.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(unlinked.Wait()).Successful());
    BOOST_TEST(!alice.GetLobbyHandle(lobbyId)->LinkedChannel().has_value());
    Outcome<ClientResult, uint64_t> after;
    alice.SendLobbyMessage(lobbyId, "only here", after.Callback());
    const uint64_t afterId = std::get<1>(after.Wait());
    BOOST_TEST(!alice.CanOpenMessageInPlatform(afterId));
    Outcome<ClientResult, std::string> noInvite;
    alice.JoinLinkedLobbyGuild(lobbyId, nullptr, noInvite.Callback());
    BOOST_TEST(!std::get<0>(noInvite.Wait()).Successful());
    BOOST_TEST(std::get<1>(noInvite.Wait()).empty());
}

BOOST_AUTO_TEST_CASE(direct_messages_name_their_recipient_channel_and_summaries) {
    std::vector<std::string> bobLog;
    bob.AddLogCallback([&](std::string line, LoggingSeverity) { bobLog.push_back(std::move(line)); },
                       LoggingSeverity::Info);
    bob.SetShowingChat(false);
    std::vector<uint64_t> bobMessages;
    bob.SetMessageCreatedCallback([&](uint64_t id) { bobMessages.push_back(id); });

    Outcome<ClientResult, uint64_t> first, second;
    alice.SendUserMessage(kBobId, "hello", first.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(first.Wait()).Successful());
    alice.SendUserMessage(kBobId, "again", second.Callback());
    const uint64_t lastId = std::get<1>(second.Wait());
    const auto sent = alice.GetMessageHandle(lastId);
    BOOST_REQUIRE(sent.has_value());
    BOOST_TEST(sent->RecipientId() == kBobId);
    BOOST_TEST(sent->SentFromGame());
    BOOST_TEST(!sent->Lobby().has_value());
    BOOST_REQUIRE(sent->Channel().has_value());
    BOOST_TEST((sent->Channel()->Type() == ChannelType::EphemeralDm));
    BOOST_TEST(sent->Channel()->Id() == kBobId);  // as ChannelId(): the other participant
    BOOST_TEST(alice.GetChannelHandle(kBobId).has_value());
    BOOST_TEST(!alice.GetChannelHandle(kAliceId).has_value());
    BOOST_TEST(!alice.GetChannelHandle(12345).has_value());
    BOOST_TEST(alice.CanOpenMessageInPlatform(lastId));  // two full accounts
    BOOST_TEST(!alice.CanOpenMessageInPlatform(12345));

    // While bob's game does not show its chat, new messages are announced in its log.
    BOOST_REQUIRE(PumpUntil([&] { return bobMessages.size() == 2; }));
    BOOST_REQUIRE(PumpUntil([&] {
        return std::any_of(bobLog.begin(), bobLog.end(),
                           [](const std::string& line) { return line.find("does not show its chat") != std::string::npos; });
    }));
    const auto received = bob.GetMessageHandle(lastId);
    BOOST_REQUIRE(received.has_value());
    BOOST_REQUIRE(received->Recipient().has_value());
    BOOST_TEST(received->Recipient()->Username() == "bob");

    Outcome<ClientResult, std::vector<UserMessageSummary>> summaries;
    bob.GetUserMessageSummaries(summaries.Callback());
    const auto& [result, list] = summaries.Wait();
    BOOST_TEST_REQUIRE(result.Successful(), result.ToString());
    BOOST_REQUIRE_EQUAL(list.size(), 1u);
    BOOST_TEST(list[0].UserId() == kAliceId);
    BOOST_TEST(list[0].LastMessageId() == lastId);
    BOOST_CHECK_THROW(UserMessageSummary::nullobj.UserId(), NullHandleError);
}

BOOST_AUTO_TEST_CASE(additional_content_is_a_plain_value) {
    AdditionalContent content;
    BOOST_TEST((content.Type() == AdditionalContentType::Other));
    content.SetType(AdditionalContentType::Poll);
    content.SetTitle("Best map?");
    content.SetCount(1);
    AdditionalContent same = content;
    BOOST_TEST(same.Equals(content));
    same.SetCount(2);
    BOOST_TEST(!same.Equals(content));
    BOOST_TEST(AdditionalContent::TypeToString(AdditionalContentType::VoiceMessage) == "VoiceMessage");
    BOOST_TEST(AdditionalContent::TypeToString(AdditionalContentType::Sticker) == "Sticker");
    BOOST_CHECK_THROW(AdditionalContent::nullobj.Type(), NullHandleError);
    BOOST_CHECK_THROW(ChannelHandle::nullobj.Id(), NullHandleError);
}

BOOST_AUTO_TEST_SUITE_END()
