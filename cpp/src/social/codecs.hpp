#pragma once
// The social layer's JSON codecs: the platform's wire objects (docs/emulator-gateway.md) read into the
// cache's records, and the request bodies the social calls send. Pure functions; private to the core.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "social/social_state.hpp"

namespace platformpp::social {

// A string-to-string JSON object (metadata); members of other types are skipped.
detail::Properties PropertiesOf(const boost::json::value* value);
boost::json::object ToJson(const detail::Properties& properties);

Activity ActivityFromJson(const boost::json::object& json);
boost::json::object ActivityToJson(const Activity& activity);

// "2026-11-21T06:16:18.123456+00:00" → Unix milliseconds (0 when not a timestamp).
uint64_t IsoToMillis(std::string_view iso);

detail::LobbyMemberData LobbyMemberFromJson(const boost::json::object& json);
// The lobby (id 0 when it has none); its members as LobbyMemberFromJson reads them.
detail::LobbyData LobbyFromJson(const boost::json::object& json);
// The message (id 0 when it has none); its author is only referred to by id.
detail::MessageData MessageFromJson(const boost::json::object& json);
// What a message object carries besides its text (attachments, a poll, a thread, embeds, stickers).
std::optional<detail::MessageData::Extra> AdditionalContentOf(const boost::json::object& json);
// The fields a user object carries, over `user` (which keeps its presence).
void ReadUserFields(const boost::json::object& json, detail::UserData& user);
// The status and activities a presence object carries, over `user`.
void ReadPresenceFields(const boost::json::object& json, detail::UserData& user);
detail::RelationshipData RelationshipFromJson(const boost::json::object& json);
// The answers of GET /users/@me/guilds, GET /guilds/{id}/channels (in display order) and GET
// /users/@me/messages/summaries; items that are not objects are skipped.
std::vector<GuildMinimal> GuildsFromJson(const boost::json::value& json);
std::vector<GuildChannel> GuildChannelsFromJson(const boost::json::value& json);
std::vector<UserMessageSummary> MessageSummariesFromJson(const boost::json::value& json);
// One profile per linked identity of each application profile (one without identities: one profile).
std::vector<std::shared_ptr<const detail::ProfileView>> ProfilesFromJson(uint64_t userId, const boost::json::value& json);

}  // namespace platformpp::social
