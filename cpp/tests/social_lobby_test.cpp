// Lobbies and lobby messages between two signed-in players against a live emulator (issue: SDK
// social features).
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <vector>

#include "support/social_fixture.hpp"

using namespace platformpp;
using namespace platformpp::testing;

BOOST_FIXTURE_TEST_SUITE(social_lobbies, SocialFixture)

BOOST_AUTO_TEST_CASE(create_and_join_by_secret_with_dispatches_seen_by_the_other) {
    std::vector<uint64_t> aliceCreated, aliceDeleted, bobDeleted;
    std::vector<std::pair<uint64_t, uint64_t>> aliceAdded, aliceRemoved;
    alice.SetLobbyCreatedCallback([&](uint64_t id) { aliceCreated.push_back(id); });
    alice.SetLobbyMemberAddedCallback([&](uint64_t lobby, uint64_t member) { aliceAdded.emplace_back(lobby, member); });
    alice.SetLobbyMemberRemovedCallback([&](uint64_t lobby, uint64_t member) { aliceRemoved.emplace_back(lobby, member); });
    alice.SetLobbyDeletedCallback([&](uint64_t id) { aliceDeleted.push_back(id); });
    bob.SetLobbyDeletedCallback([&](uint64_t id) { bobDeleted.push_back(id); });
    std::vector<uint64_t> aliceUsers;
    alice.SetUserUpdatedCallback([&](uint64_t id) { aliceUsers.push_back(id); });

    Outcome<ClientResult, uint64_t> created;
    alice.CreateOrJoinLobbyWithMetadata("match-7", {{"mode", "ctf"}}, {{"team", "red"}}, created.Callback());
    const auto [createResult, lobbyId] = created.Wait();
    BOOST_TEST_REQUIRE(createResult.Successful(), createResult.ToString());
    BOOST_TEST(lobbyId != 0u);
    // The cache holds the lobby as soon as the call's callback runs.
    const auto aliceView = alice.GetLobbyHandle(lobbyId);
    BOOST_REQUIRE(aliceView.has_value());
    BOOST_TEST(aliceView->Metadata().at("mode") == "ctf");
    BOOST_TEST(aliceView->LobbyMemberIds() == std::vector<uint64_t>{kAliceId});
    BOOST_TEST(aliceView->ApplicationId() == kGameId);
    BOOST_TEST(alice.GetLobbyIds() == std::vector<uint64_t>{lobbyId});
    BOOST_REQUIRE(PumpUntil([&] { return aliceCreated.size() == 1; }));
    BOOST_TEST(aliceCreated.front() == lobbyId);

    Outcome<ClientResult, uint64_t> joined;
    bob.CreateOrJoinLobby("match-7", joined.Callback());
    const auto [joinResult, joinedId] = joined.Wait();
    BOOST_TEST_REQUIRE(joinResult.Successful(), joinResult.ToString());
    BOOST_TEST(joinedId == lobbyId);
    const auto bobView = bob.GetLobbyHandle(lobbyId);
    BOOST_REQUIRE(bobView.has_value());
    BOOST_TEST(bobView->Metadata().at("mode") == "ctf");  // an existing lobby keeps its metadata
    const auto aliceMember = bobView->GetLobbyMemberHandle(kAliceId);
    BOOST_REQUIRE(aliceMember.has_value());
    BOOST_TEST(aliceMember->Metadata().at("team") == "red");
    BOOST_TEST(aliceMember->LobbyId() == lobbyId);
    BOOST_TEST(!aliceMember->CanLinkLobby());

    // Alice hears of bob by the Gateway: the member callback and the cache agree.
    BOOST_REQUIRE(PumpUntil([&] { return !aliceAdded.empty(); }));
    BOOST_TEST((aliceAdded.front() == std::make_pair(lobbyId, kBobId)));
    auto members = alice.GetLobbyHandle(lobbyId)->LobbyMemberIds();
    std::sort(members.begin(), members.end());
    BOOST_TEST(members == (std::vector<uint64_t>{kAliceId, kBobId}));
    // The SDK fetches the users of members it does not know, and says so.
    BOOST_REQUIRE(PumpUntil([&] { return alice.GetLobbyHandle(lobbyId)->GetLobbyMemberHandle(kBobId)->User().has_value(); }));
    BOOST_TEST(alice.GetLobbyHandle(lobbyId)->GetLobbyMemberHandle(kBobId)->User()->Username() == "bob");
    BOOST_REQUIRE(PumpUntil([&] { return std::count(aliceUsers.begin(), aliceUsers.end(), kBobId) == 1; }));
    // A snapshot taken earlier does not change.
    BOOST_TEST(aliceView->LobbyMemberIds().size() == 1u);

    Outcome<ClientResult> left;
    bob.LeaveLobby(lobbyId, left.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(left.Wait()).Successful());
    BOOST_TEST(!bob.GetLobbyHandle(lobbyId).has_value());
    BOOST_TEST(bob.GetLobbyIds().empty());
    BOOST_REQUIRE(PumpUntil([&] { return !aliceRemoved.empty() && !bobDeleted.empty(); }));
    BOOST_TEST((aliceRemoved.front() == std::make_pair(lobbyId, kBobId)));
    BOOST_TEST(bobDeleted == std::vector<uint64_t>{lobbyId});
    BOOST_TEST(alice.GetLobbyHandle(lobbyId)->LobbyMemberIds() == std::vector<uint64_t>{kAliceId});
    BOOST_TEST(aliceDeleted.empty());

    // Leaving a lobby one is no longer in is safe, as on the platform: success, nothing changes.
    Outcome<ClientResult> again;
    bob.LeaveLobby(lobbyId, again.Callback());
    const auto& [againResult] = again.Wait();
    BOOST_TEST(againResult.Successful());
    BOOST_TEST(!bob.GetLobbyHandle(lobbyId).has_value());
    BOOST_TEST(alice.GetLobbyHandle(lobbyId)->LobbyMemberIds() == std::vector<uint64_t>{kAliceId});
}

BOOST_AUTO_TEST_CASE(lobby_messages_both_ways_with_history) {
    Outcome<ClientResult, uint64_t> created, joined;
    alice.CreateOrJoinLobby("chat-room", created.Callback());
    const uint64_t lobbyId = std::get<1>(created.Wait());
    bob.CreateOrJoinLobby("chat-room", joined.Callback());
    BOOST_REQUIRE(std::get<1>(joined.Wait()) == lobbyId);

    std::vector<uint64_t> aliceReceived, bobReceived;
    alice.SetMessageCreatedCallback([&](uint64_t id) { aliceReceived.push_back(id); });
    bob.SetMessageCreatedCallback([&](uint64_t id) { bobReceived.push_back(id); });

    Outcome<ClientResult, uint64_t> sent;
    alice.SendLobbyMessageWithMetadata(lobbyId, "gl hf", {{"kind", "greeting"}}, sent.Callback());
    const ClientResult sendResult = std::get<0>(sent.Wait());
    BOOST_TEST_REQUIRE(sendResult.Successful(), sendResult.ToString());
    const uint64_t messageId = std::get<1>(sent.Wait());
    BOOST_REQUIRE(PumpUntil([&] { return std::count(bobReceived.begin(), bobReceived.end(), messageId) == 1; }));
    const auto atBob = bob.GetMessageHandle(messageId);
    BOOST_REQUIRE(atBob.has_value());
    BOOST_TEST(atBob->Content() == "gl hf");
    BOOST_TEST(atBob->AuthorId() == kAliceId);
    BOOST_TEST(atBob->LobbyId().value_or(0) == lobbyId);
    BOOST_TEST(atBob->ChannelId() == lobbyId);
    BOOST_TEST(atBob->RecipientId() == 0u);
    BOOST_TEST(atBob->Metadata().at("kind") == "greeting");
    BOOST_TEST(atBob->ModerationMetadata().empty());
    BOOST_TEST(!atBob->AdditionalName().has_value());
    BOOST_TEST(atBob->EditedTimestamp() == 0u);
    BOOST_TEST(atBob->SentTimestamp() > 1700000000000ull);
    BOOST_REQUIRE(atBob->Author().has_value());
    BOOST_TEST(atBob->Author()->Username() == "alice");

    Outcome<ClientResult, uint64_t> reply;
    bob.SendLobbyMessage(lobbyId, "you too", reply.Callback());
    const uint64_t replyId = std::get<1>(reply.Wait());
    BOOST_REQUIRE(PumpUntil([&] { return std::count(aliceReceived.begin(), aliceReceived.end(), replyId) == 1; }));
    BOOST_TEST(alice.GetMessageHandle(replyId)->Content() == "you too");
    // The sender's own message is announced once, however it reached the cache first.
    BOOST_TEST(std::count(aliceReceived.begin(), aliceReceived.end(), messageId) == 1);

    Outcome<ClientResult, std::vector<MessageHandle>> history;
    alice.GetLobbyMessagesWithLimit(lobbyId, 10, history.Callback());
    const auto& [historyResult, messages] = history.Wait();
    BOOST_TEST_REQUIRE(historyResult.Successful(), historyResult.ToString());
    BOOST_REQUIRE_EQUAL(messages.size(), 2u);
    BOOST_TEST(messages[0].Id() == messageId);  // oldest first
    BOOST_TEST(messages[1].Content() == "you too");
}

BOOST_AUTO_TEST_SUITE_END()
