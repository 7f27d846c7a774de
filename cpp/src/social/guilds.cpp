// Guilds and their channels for the current user (docs/emulator-gateway.md: Guilds and channels for
// SDK users; seed: Client::GetGuildChannels).
#include <boost/json.hpp>

#include "social/common.hpp"

namespace platformpp {

using client::Begin;
using client::Needs;
using client::Request;

void Client::GetUserGuilds(GetUserGuildsCallback callback) {
    const auto call = Begin(RequireImpl(), Needs::Token, std::move(callback));
    if (call) call->Rest(Request("GET", "/users/@me/guilds"), social::GuildsFromJson);
}

void Client::GetGuildChannels(uint64_t guildId, GetGuildChannelsCallback callback) {
    const auto call = Begin(RequireImpl(), Needs::Token, std::move(callback), [&] { social::RequireId(guildId, "guildId"); });
    if (call) call->Rest(Request("GET", "/guilds/" + std::to_string(guildId) + "/channels"), social::GuildChannelsFromJson);
}

}  // namespace platformpp
