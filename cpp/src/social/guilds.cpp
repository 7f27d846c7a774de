// Guilds and their channels for the current user (docs/emulator-gateway.md: Guilds and channels for
// SDK users; seed: Client::GetGuildChannels).
#include <boost/json.hpp>

#include "core/json_fields.hpp"
#include "social/common.hpp"

namespace platformpp {

using client::Begin;
using client::Needs;
using client::Share;

namespace {

bool Flag(const boost::json::object& object, std::string_view name) {
    const auto* value = object.if_contains(name);
    return value && value->is_bool() && value->as_bool();
}

}  // namespace

void Client::GetUserGuilds(GetUserGuildsCallback callback) {
    Impl& impl = RequireImpl();
    auto shared = Share(std::move(callback));
    const auto token = Begin(impl, Needs::Token, shared, [] {}, std::vector<GuildMinimal>());
    if (!token) return;
    client::ApiRequest request;
    request.path = "/users/@me/guilds";
    request.token = *token;
    impl.Call(std::move(request), [&impl, shared](ClientResult result, boost::json::value json) {
        std::vector<GuildMinimal> guilds;
        if (result.Successful() && json.is_array()) {
            for (const auto& item : json.as_array()) {
                if (!item.is_object()) continue;
                GuildMinimal guild;
                guild.SetId(json_fields::Snowflake(item.as_object(), "id"));
                guild.SetName(json_fields::String(item.as_object(), "name"));
                guilds.push_back(std::move(guild));
            }
        }
        impl.Deliver([shared, result = std::move(result), guilds = std::move(guilds)] { (*shared)(result, guilds); });
    });
}

void Client::GetGuildChannels(uint64_t guildId, GetGuildChannelsCallback callback) {
    Impl& impl = RequireImpl();
    auto shared = Share(std::move(callback));
    const auto token = Begin(impl, Needs::Token, shared, [&] { social::RequireId(guildId, "guildId"); },
                                     std::vector<GuildChannel>());
    if (!token) return;
    client::ApiRequest request;
    request.path = "/guilds/" + std::to_string(guildId) + "/channels";
    request.token = *token;
    impl.Call(std::move(request), [&impl, shared](ClientResult result, boost::json::value json) {
        std::vector<GuildChannel> channels;
        if (result.Successful() && json.is_array()) {
            for (const auto& item : json.as_array()) {
                if (!item.is_object()) continue;
                const auto& object = item.as_object();
                GuildChannel channel;
                channel.SetId(json_fields::Snowflake(object, "id"));
                channel.SetName(json_fields::String(object, "name"));
                if (const auto type = json_fields::OptionalInteger(object, "type"))
                    channel.SetType(static_cast<ChannelType>(*type));
                if (const auto position = json_fields::OptionalInteger(object, "position"))
                    channel.SetPosition(static_cast<int32_t>(*position));
                if (const uint64_t parent = json_fields::Snowflake(object, "parent_id")) channel.SetParentId(parent);
                channel.SetIsLinkable(Flag(object, "is_linkable"));
                channel.SetIsViewableAndWriteableByAllMembers(Flag(object, "is_viewable_and_writeable_by_all_members"));
                if (const auto* linked = json_fields::Object(object, "linked_lobby")) {
                    LinkedLobby lobby;
                    lobby.SetApplicationId(json_fields::Snowflake(*linked, "application_id"));
                    lobby.SetLobbyId(json_fields::Snowflake(*linked, "lobby_id"));
                    channel.SetLinkedLobby(std::move(lobby));
                }
                channels.push_back(std::move(channel));
            }
            // The platform answers in display order; sorting here keeps that promise whatever the server.
            SortGuildChannelsForDisplay(channels);
        }
        impl.Deliver([shared, result = std::move(result), channels = std::move(channels)] { (*shared)(result, channels); });
    });
}

}  // namespace platformpp
