// Game direct messages and the message cache between two signed-in players against a live emulator.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <vector>

#include "support/social_fixture.hpp"

using namespace platformpp;
using namespace platformpp::testing;

BOOST_FIXTURE_TEST_SUITE(social_direct_messages, SocialFixture)

BOOST_AUTO_TEST_CASE(direct_messages_both_ways_edited_and_deleted) {
    std::vector<uint64_t> bobCreated, bobUpdated, aliceCreated;
    std::vector<std::pair<uint64_t, uint64_t>> bobDeleted;
    bob.SetMessageCreatedCallback([&](uint64_t id) { bobCreated.push_back(id); });
    bob.SetMessageUpdatedCallback([&](uint64_t id) { bobUpdated.push_back(id); });
    bob.SetMessageDeletedCallback([&](uint64_t id, uint64_t channel) { bobDeleted.emplace_back(id, channel); });
    alice.SetMessageCreatedCallback([&](uint64_t id) { aliceCreated.push_back(id); });

    Outcome<ClientResult, uint64_t> sent;
    alice.SendUserMessageWithMetadata(kBobId, "ready?", {{"invite", "match-7"}}, sent.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(sent.Wait()).Successful(), std::get<0>(sent.Wait()).ToString());
    const uint64_t messageId = std::get<1>(sent.Wait());
    BOOST_REQUIRE(PumpUntil([&] { return std::count(bobCreated.begin(), bobCreated.end(), messageId) == 1; }));
    const auto atBob = bob.GetMessageHandle(messageId);
    BOOST_REQUIRE(atBob.has_value());
    BOOST_TEST(atBob->Content() == "ready?");
    BOOST_TEST(atBob->RecipientId() == kBobId);
    BOOST_TEST(atBob->ChannelId() == kAliceId);  // the conversation's other participant, from bob's side
    BOOST_TEST(!atBob->LobbyId().has_value());
    BOOST_TEST(atBob->Metadata().at("invite") == "match-7");
    BOOST_TEST(alice.GetMessageHandle(messageId)->ChannelId() == kBobId);

    Outcome<ClientResult, uint64_t> reply;
    bob.SendUserMessage(kAliceId, "always", reply.Callback());
    const uint64_t replyId = std::get<1>(reply.Wait());
    BOOST_REQUIRE(PumpUntil([&] { return std::count(aliceCreated.begin(), aliceCreated.end(), replyId) == 1; }));
    BOOST_TEST(alice.GetMessageHandle(replyId)->AuthorId() == kBobId);

    Outcome<ClientResult> edited;
    alice.EditUserMessage(kBobId, messageId, "ready now?", edited.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(edited.Wait()).Successful(), std::get<0>(edited.Wait()).ToString());
    BOOST_REQUIRE(PumpUntil([&] { return std::count(bobUpdated.begin(), bobUpdated.end(), messageId) == 1; }));
    BOOST_TEST(bob.GetMessageHandle(messageId)->Content() == "ready now?");
    BOOST_TEST(bob.GetMessageHandle(messageId)->EditedTimestamp() >= atBob->SentTimestamp());
    BOOST_TEST(atBob->Content() == "ready?");  // the earlier snapshot is unchanged

    // Only the author edits: bob editing alice's message is refused by the platform.
    Outcome<ClientResult> forbidden;
    bob.EditUserMessage(kAliceId, messageId, "hijacked", forbidden.Callback());
    BOOST_TEST((std::get<0>(forbidden.Wait()).Type() == ErrorType::HTTPError));
    BOOST_TEST(bob.GetMessageHandle(messageId)->Content() == "ready now?");

    Outcome<ClientResult> deleted;
    alice.DeleteUserMessage(kBobId, messageId, deleted.Callback());
    BOOST_TEST_REQUIRE(std::get<0>(deleted.Wait()).Successful());
    BOOST_TEST(!alice.GetMessageHandle(messageId).has_value());
    BOOST_REQUIRE(PumpUntil([&] { return !bobDeleted.empty(); }));
    BOOST_TEST((bobDeleted.front() == std::make_pair(messageId, kAliceId)));
    BOOST_TEST(!bob.GetMessageHandle(messageId).has_value());
}

BOOST_AUTO_TEST_CASE(user_messages_are_answered_from_the_cache_without_a_remote_call) {
    std::vector<uint64_t> bobCreated;
    bob.SetMessageCreatedCallback([&](uint64_t id) { bobCreated.push_back(id); });
    std::vector<uint64_t> sentIds;
    for (const char* text : {"one", "two", "three"}) {
        Outcome<ClientResult, uint64_t> sent;
        alice.SendUserMessage(kBobId, text, sent.Callback());
        BOOST_TEST_REQUIRE(std::get<0>(sent.Wait()).Successful());
        sentIds.push_back(std::get<1>(sent.Wait()));
    }
    BOOST_REQUIRE(PumpUntil([&] { return bobCreated.size() == 3; }));

    ClearRequests();
    Outcome<ClientResult, std::vector<MessageHandle>> cached;
    bob.GetUserMessagesWithLimit(kAliceId, 2, cached.Callback());
    const auto& [cachedResult, latest] = cached.Wait();
    BOOST_TEST_REQUIRE(cachedResult.Successful(), cachedResult.ToString());
    BOOST_REQUIRE_EQUAL(latest.size(), 2u);
    BOOST_TEST(latest[0].Content() == "two");  // the latest two, oldest first
    BOOST_TEST(latest[1].Content() == "three");
    BOOST_TEST(RequestsTo("/messages") == 0u);

    // More than the cache can vouch for: one remote call, which then makes the history complete.
    Outcome<ClientResult, std::vector<MessageHandle>> fetched;
    bob.GetUserMessagesWithLimit(kAliceId, 50, fetched.Callback());
    const auto& [fetchedResult, all] = fetched.Wait();
    BOOST_TEST_REQUIRE(fetchedResult.Successful(), fetchedResult.ToString());
    BOOST_REQUIRE_EQUAL(all.size(), 3u);
    BOOST_TEST(all[0].Id() == sentIds[0]);
    BOOST_TEST(RequestsTo("/users/" + std::to_string(kAliceId) + "/messages") == 1u);

    Outcome<ClientResult, std::vector<MessageHandle>> again;
    bob.GetUserMessagesWithLimit(kAliceId, 50, again.Callback());
    BOOST_TEST(std::get<1>(again.Wait()).size() == 3u);
    BOOST_TEST(RequestsTo("/messages") == 1u);

    // Alice never received her own messages by dispatch before sending them, but her sends are the
    // conversation's newest: she too answers from the cache.
    Outcome<ClientResult, std::vector<MessageHandle>> own;
    alice.GetUserMessagesWithLimit(kBobId, 3, own.Callback());
    BOOST_TEST(std::get<1>(own.Wait()).size() == 3u);
    BOOST_TEST(RequestsTo("/messages") == 1u);

    // Without a live Gateway session new messages would go unseen, so the cache no longer answers.
    bob.Disconnect();
    BOOST_REQUIRE(PumpUntil([&] { return bob.GetStatus() == Client::Status::Disconnected; }));
    Outcome<ClientResult, std::vector<MessageHandle>> offline;
    bob.GetUserMessagesWithLimit(kAliceId, 2, offline.Callback());
    BOOST_TEST(std::get<1>(offline.Wait()).size() == 2u);
    BOOST_TEST(RequestsTo("/messages") == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
