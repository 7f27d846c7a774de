// The social value classes and handles: object members in the house style, and the client's display
// order of guild channels (no network).
#include <boost/test/unit_test.hpp>

#include <utility>
#include <vector>

#include "platformpp/platformpp.hpp"

using namespace platformpp;

BOOST_AUTO_TEST_SUITE(social_values)

BOOST_AUTO_TEST_CASE(activity_copies_moves_and_nullobj) {
    Activity activity;
    activity.SetName("Demo Game");
    activity.SetType(ActivityTypes::CustomStatus);
    ActivityAssets assets;
    assets.SetInviteCoverImage("cover-key");
    activity.SetAssets(assets);
    ActivityButton button;
    button.SetLabel("Join");
    button.SetUrl("https://example.test/join");
    activity.AddButton(button);

    Activity copy = activity;
    copy.SetName("Other");
    BOOST_TEST(activity.Name() == "Demo Game");  // independent
    BOOST_TEST(!copy.Equals(activity));
    copy.SetName("Demo Game");
    BOOST_TEST(copy.Equals(activity));
    BOOST_TEST(static_cast<int>(ActivityTypes::CustomStatus) == 4);
    BOOST_TEST(activity.Assets()->InviteCoverImage().value_or("") == "cover-key");
    BOOST_TEST(activity.GetButtons().at(0).Label() == "Join");

    Activity moved = std::move(activity);
    BOOST_TEST(static_cast<bool>(moved));
    BOOST_TEST(!static_cast<bool>(activity));  // NOLINT(bugprone-use-after-move): the documented state
    BOOST_CHECK_THROW(activity.Name(), NullHandleError);
    BOOST_TEST(!static_cast<bool>(Activity::nullobj));
    BOOST_TEST(!static_cast<bool>(ActivityAssets::nullobj));
    BOOST_TEST(!static_cast<bool>(ActivityParty::nullobj));
    BOOST_CHECK_THROW(ActivityTimestamps::nullobj.Start(), NullHandleError);
}

BOOST_AUTO_TEST_CASE(handles_from_the_sdk_are_null_until_given_a_snapshot) {
    BOOST_TEST(!static_cast<bool>(LobbyHandle::nullobj));
    BOOST_CHECK_THROW(LobbyHandle::nullobj.Id(), NullHandleError);
    BOOST_CHECK_THROW(MessageHandle::nullobj.Content(), NullHandleError);
    BOOST_CHECK_THROW(UserHandle::nullobj.Username(), NullHandleError);
    BOOST_CHECK_THROW(RelationshipHandle::nullobj.Id(), NullHandleError);
    BOOST_CHECK_THROW(LobbyMemberHandle::nullobj.Metadata(), NullHandleError);
    BOOST_CHECK_THROW(UserApplicationProfileHandle::nullobj.ProviderType(), NullHandleError);
    BOOST_TEST(!static_cast<bool>(GuildChannel::nullobj));
    BOOST_TEST(!static_cast<bool>(GuildMinimal::nullobj));
}

namespace {

GuildChannel Channel(uint64_t id, const char* name, ChannelType type, int32_t position, std::optional<uint64_t> parent) {
    GuildChannel channel;
    channel.SetId(id);
    channel.SetName(name);
    channel.SetType(type);
    channel.SetPosition(position);
    channel.SetParentId(parent);
    return channel;
}

}  // namespace

BOOST_AUTO_TEST_CASE(guild_channels_sort_in_display_order) {
    std::vector<GuildChannel> channels{
        Channel(9, "Voice", ChannelType::GuildCategory, 1, std::nullopt),
        Channel(7, "lounge", ChannelType::GuildVoice, 0, 9),
        Channel(5, "stage", ChannelType::GuildStageVoice, 0, 2),
        Channel(4, "rules", ChannelType::GuildText, 1, 2),
        Channel(3, "news", ChannelType::GuildNews, 0, 2),
        Channel(2, "Text", ChannelType::GuildCategory, 0, std::nullopt),
        Channel(8, "welcome", ChannelType::GuildText, 5, std::nullopt),
        Channel(6, "afk", ChannelType::GuildVoice, 0, std::nullopt),
        Channel(10, "general", ChannelType::GuildText, 1, 2),  // same position as rules: by id
    };
    SortGuildChannelsForDisplay(channels);
    std::vector<std::string> names;
    for (const auto& channel : channels) names.push_back(channel.Name());
    // No category first (text-like before voice), then each category and its children.
    BOOST_TEST(names == (std::vector<std::string>{"welcome", "afk", "Text", "news", "rules", "general", "stage", "Voice",
                                                  "lounge"}));
}

BOOST_AUTO_TEST_SUITE_END()
