// Guilds and their channels for the current user (docs/emulator-gateway.md: Guilds and channels for
// SDK users; seed: Client::GetGuildChannels).
#include <boost/json.hpp>

#include "social/common.hpp"

namespace platformpp {

using social::Begin;
using social::Share;

void Client::GetUserGuilds(GetUserGuildsCallback callback) {
    Impl& impl = RequireImpl();
    auto shared = Share(std::move(callback));
    const auto authorization = Begin(impl, shared, [] {}, std::vector<GuildMinimal>());
    if (!authorization) return;
    client::ApiRequest request;
    request.path = "/users/@me/guilds";
    request.authorization = *authorization;
    impl.Call(std::move(request), [&impl, shared](ClientResult result, boost::json::value json) {
        std::vector<GuildMinimal> guilds;
        if (result.Successful() && json.is_array()) {
            for (const auto& item : json.as_array()) {
                if (!item.is_object()) continue;
                GuildMinimal guild;
                guild.SetId(social::Snowflake(item.as_object().if_contains("id")));
                guild.SetName(social::String(item.as_object(), "name"));
                guilds.push_back(std::move(guild));
            }
        }
        impl.Deliver([shared, result = std::move(result), guilds = std::move(guilds)] { (*shared)(result, guilds); });
    });
}

void Client::GetGuildChannels(uint64_t guildId, GetGuildChannelsCallback callback) {
    Impl& impl = RequireImpl();
    auto shared = Share(std::move(callback));
    const auto authorization = Begin(impl, shared, [&] { social::RequireId(guildId, "guildId"); },
                                     std::vector<GuildChannel>());
    if (!authorization) return;
    client::ApiRequest request;
    request.path = "/guilds/" + std::to_string(guildId) + "/channels";
    request.authorization = *authorization;
    impl.Call(std::move(request), [&impl, shared](ClientResult result, boost::json::value json) {
        std::vector<GuildChannel> channels;
        if (result.Successful() && json.is_array()) {
            for (const auto& item : json.as_array()) {
                if (!item.is_object()) continue;
                const auto& object = item.as_object();
                GuildChannel channel;
                channel.SetId(social::Snowflake(object.if_contains("id")));
                channel.SetName(social::String(object, "name"));
                if (const auto* type = object.if_contains("type"); type && type->is_int64())
                    channel.SetType(static_cast<ChannelType>(type->as_int64()));
                if (const auto* position = object.if_contains("position"); position && position->is_int64())
                    channel.SetPosition(static_cast<int32_t>(position->as_int64()));
                if (const uint64_t parent = social::Snowflake(object.if_contains("parent_id")))
                    channel.SetParentCategoryId(parent);
                channels.push_back(std::move(channel));
            }
            // The platform answers in display order; sorting here keeps that promise whatever the server.
            SortGuildChannelsForDisplay(channels);
        }
        impl.Deliver([shared, result = std::move(result), channels = std::move(channels)] { (*shared)(result, channels); });
    });
}

}  // namespace platformpp
