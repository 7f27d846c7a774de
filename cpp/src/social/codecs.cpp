// The social layer's JSON codecs (docs/emulator-gateway.md: the wire objects of lobbies, messages,
// users, presences, relationships and application profiles).
#include "social/codecs.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <ctime>
#include <utility>

#include "core/json_fields.hpp"

namespace platformpp::social {

namespace json = boost::json;
using detail::LobbyData;
using detail::LobbyMemberData;
using detail::MessageData;
using detail::Properties;
using detail::RelationshipData;
using detail::UserData;
using json_fields::Integer;
using json_fields::Object;
using json_fields::OptionalString;
using json_fields::Snowflake;
using json_fields::String;

Properties PropertiesOf(const json::value* value) {
    Properties properties;
    if (value == nullptr || !value->is_object()) return properties;
    for (const auto& [key, item] : value->as_object()) {
        if (item.is_string()) properties.emplace(std::string(key), std::string(item.as_string()));
    }
    return properties;
}

json::object ToJson(const Properties& properties) {
    json::object object;
    for (const auto& [key, value] : properties) object[key] = value;
    return object;
}

uint64_t IsoToMillis(std::string_view iso) {
    std::tm tm{};
    int fractionDigits = 0;
    long fraction = 0;
    if (iso.size() < 19 || iso[4] != '-' || iso[7] != '-' || (iso[10] != 'T' && iso[10] != ' ') || iso[13] != ':' ||
        iso[16] != ':')
        return 0;
    auto number = [&](std::size_t at, std::size_t length) {
        int n = 0;
        for (std::size_t i = at; i < at + length; ++i) {
            if (iso[i] < '0' || iso[i] > '9') return -1;
            n = n * 10 + (iso[i] - '0');
        }
        return n;
    };
    tm.tm_year = number(0, 4) - 1900;
    tm.tm_mon = number(5, 2) - 1;
    tm.tm_mday = number(8, 2);
    tm.tm_hour = number(11, 2);
    tm.tm_min = number(14, 2);
    tm.tm_sec = number(17, 2);
    if (tm.tm_year < 0 || tm.tm_mon < 0 || tm.tm_mday < 0 || tm.tm_hour < 0 || tm.tm_min < 0 || tm.tm_sec < 0) return 0;
    std::size_t at = 19;
    if (at < iso.size() && iso[at] == '.') {
        for (++at; at < iso.size() && iso[at] >= '0' && iso[at] <= '9'; ++at) {
            if (fractionDigits < 3) fraction = fraction * 10 + (iso[at] - '0');
            ++fractionDigits;
        }
        for (int d = fractionDigits; d < 3; ++d) fraction *= 10;
    }
    int64_t offsetSeconds = 0;
    if (at < iso.size() && (iso[at] == '+' || iso[at] == '-') && at + 6 <= iso.size() && iso[at + 3] == ':') {
        const int hours = number(at + 1, 2), minutes = number(at + 4, 2);
        if (hours < 0 || minutes < 0) return 0;
        offsetSeconds = (iso[at] == '+' ? 1 : -1) * (hours * 3600 + minutes * 60);
    }
    const int64_t seconds = static_cast<int64_t>(timegm(&tm)) - offsetSeconds;
    return seconds < 0 ? 0 : static_cast<uint64_t>(seconds) * 1000 + static_cast<uint64_t>(fraction);
}

Activity ActivityFromJson(const json::object& object) {
    Activity activity;
    activity.SetName(String(object, "name"));
    const int64_t type = Integer(object, "type");
    activity.SetType(type >= 0 && type <= 6 ? static_cast<ActivityTypes>(type) : ActivityTypes::Playing);
    activity.SetState(OptionalString(object, "state"));
    activity.SetDetails(OptionalString(object, "details"));
    activity.SetStateUrl(OptionalString(object, "state_url"));
    activity.SetDetailsUrl(OptionalString(object, "details_url"));
    if (const auto* display = object.if_contains("status_display_type"); display && display->is_int64()) {
        const int64_t value = display->as_int64();
        if (value >= 0 && value <= 2) activity.SetStatusDisplayType(static_cast<StatusDisplayTypes>(value));
    }
    if (const uint64_t app = Snowflake(object.if_contains("application_id"))) activity.SetApplicationId(app);
    if (const uint64_t parent = Snowflake(object.if_contains("parent_application_id"))) activity.SetParentApplicationId(parent);
    if (const auto* platforms = object.if_contains("supported_platforms"); platforms && platforms->is_int64()) {
        const int64_t bits = platforms->as_int64();
        if (bits >= 0 && bits <= 255) activity.SetSupportedPlatforms(static_cast<ActivityGamePlatforms>(bits));
    }
    if (const auto* timestamps = Object(object, "timestamps")) {
        ActivityTimestamps value;
        value.SetStart(static_cast<uint64_t>(std::max<int64_t>(0, Integer(*timestamps, "start"))));
        value.SetEnd(static_cast<uint64_t>(std::max<int64_t>(0, Integer(*timestamps, "end"))));
        activity.SetTimestamps(value);
    }
    if (const auto* party = Object(object, "party")) {
        ActivityParty value;
        value.SetId(String(*party, "id"));
        if (const auto* size = party->if_contains("size"); size && size->is_array() && size->as_array().size() == 2) {
            const auto& pair = size->as_array();
            if (pair[0].is_int64()) value.SetCurrentSize(static_cast<int32_t>(pair[0].as_int64()));
            if (pair[1].is_int64()) value.SetMaxSize(static_cast<int32_t>(pair[1].as_int64()));
        }
        if (Integer(*party, "privacy") == 1) value.SetPrivacy(ActivityPartyPrivacy::Public);
        activity.SetParty(value);
    }
    if (const auto* secrets = Object(object, "secrets")) {
        ActivitySecrets value;
        value.SetJoin(String(*secrets, "join"));
        activity.SetSecrets(value);
    }
    if (const auto* assets = Object(object, "assets")) {
        ActivityAssets value;
        value.SetLargeImage(OptionalString(*assets, "large_image"));
        value.SetLargeText(OptionalString(*assets, "large_text"));
        value.SetSmallImage(OptionalString(*assets, "small_image"));
        value.SetSmallText(OptionalString(*assets, "small_text"));
        value.SetInviteCoverImage(OptionalString(*assets, "invite_cover_image"));
        value.SetLargeUrl(OptionalString(*assets, "large_url"));
        value.SetSmallUrl(OptionalString(*assets, "small_url"));
        activity.SetAssets(value);
    }
    if (const auto* buttons = object.if_contains("buttons"); buttons && buttons->is_array()) {
        for (const auto& item : buttons->as_array()) {
            ActivityButton button;
            if (item.is_string()) {
                button.SetLabel(std::string(item.as_string()));
            } else if (item.is_object()) {
                button.SetLabel(String(item.as_object(), "label"));
                button.SetUrl(String(item.as_object(), "url"));
            }
            activity.AddButton(button);
        }
    }
    return activity;
}

json::object ActivityToJson(const Activity& activity) {
    json::object object{{"name", activity.Name()}, {"type", static_cast<int>(activity.Type())}};
    if (auto state = activity.State()) object["state"] = *state;
    if (auto details = activity.Details()) object["details"] = *details;
    if (auto url = activity.StateUrl()) object["state_url"] = *url;
    if (auto url = activity.DetailsUrl()) object["details_url"] = *url;
    if (auto display = activity.StatusDisplayType()) object["status_display_type"] = static_cast<int>(*display);
    if (auto parent = activity.ParentApplicationId()) object["parent_application_id"] = std::to_string(*parent);
    // All platforms (255) is the default on both sides: sent only when the game narrows it.
    if (const auto platforms = static_cast<int>(activity.SupportedPlatforms()); platforms != 255)
        object["supported_platforms"] = platforms;
    if (auto timestamps = activity.Timestamps()) {
        json::object value;
        if (timestamps->Start()) value["start"] = timestamps->Start();
        if (timestamps->End()) value["end"] = timestamps->End();
        object["timestamps"] = std::move(value);
    }
    if (auto party = activity.Party()) {
        json::object value;
        if (!party->Id().empty()) value["id"] = party->Id();
        if (party->MaxSize() > 0) value["size"] = json::array{party->CurrentSize(), party->MaxSize()};
        value["privacy"] = static_cast<int>(party->Privacy());
        object["party"] = std::move(value);
    }
    if (auto secrets = activity.Secrets()) {
        json::object value;
        if (!secrets->Join().empty()) value["join"] = secrets->Join();
        object["secrets"] = std::move(value);
    }
    if (auto assets = activity.Assets()) {
        json::object value;
        const std::pair<const char*, std::optional<std::string>> fields[] = {
            {"large_image", assets->LargeImage()}, {"large_text", assets->LargeText()},
            {"small_image", assets->SmallImage()}, {"small_text", assets->SmallText()},
            {"invite_cover_image", assets->InviteCoverImage()}, {"large_url", assets->LargeUrl()},
            {"small_url", assets->SmallUrl()}};
        for (const auto& [name, field] : fields) {
            if (field) value[name] = *field;
        }
        object["assets"] = std::move(value);
    }
    if (const auto buttons = activity.GetButtons(); !buttons.empty()) {
        json::array value;
        for (const auto& button : buttons) value.push_back(json::object{{"label", button.Label()}, {"url", button.Url()}});
        object["buttons"] = std::move(value);
    }
    return object;
}

LobbyMemberData LobbyMemberFromJson(const json::object& object) {
    LobbyMemberData member;
    member.id = Snowflake(object, "id");
    member.metadata = PropertiesOf(object.if_contains("metadata"));
    member.flags = Integer(object, "flags");
    member.additionalName = OptionalString(object, "additional_name");
    return member;
}

LobbyData LobbyFromJson(const json::object& object) {
    LobbyData lobby;
    lobby.id = Snowflake(object, "id");
    lobby.applicationId = Snowflake(object, "application_id");
    lobby.metadata = PropertiesOf(object.if_contains("metadata"));
    if (const auto* members = json_fields::Array(object, "members")) {
        for (const auto& member : *members) {
            if (const auto* item = Object(member)) lobby.members.push_back(LobbyMemberFromJson(*item));
        }
    }
    if (const auto* linked = Object(object, "linked_channel")) {
        lobby.linkedChannel = {Snowflake(*linked, "id"), Snowflake(*linked, "guild_id"), String(*linked, "name")};
    }
    return lobby;
}

namespace {

uint8_t CountOf(std::size_t n) { return static_cast<uint8_t>(std::min<std::size_t>(n, 255)); }

}  // namespace

std::optional<MessageData::Extra> AdditionalContentOf(const json::object& object) {
    using Type = AdditionalContentType;
    constexpr int64_t kIsVoiceMessage = 1 << 13;  // message flag IS_VOICE_MESSAGE
    const auto* attachments = json_fields::Array(object, "attachments");
    if (attachments && !attachments->empty()) {
        if (Integer(object, "flags") & kIsVoiceMessage) return MessageData::Extra{Type::VoiceMessage, std::nullopt, 1};
        const auto* first = Object((*attachments)[0]);
        return MessageData::Extra{Type::Attachment, first ? OptionalString(*first, "filename") : std::nullopt,
                                  CountOf(attachments->size())};
    }
    if (const auto* poll = Object(object, "poll")) {
        const auto* question = Object(*poll, "question");
        return MessageData::Extra{Type::Poll, question ? OptionalString(*question, "text") : std::nullopt, 1};
    }
    if (const auto* thread = Object(object, "thread")) return MessageData::Extra{Type::Thread, OptionalString(*thread, "name"), 1};
    const auto* embeds = json_fields::Array(object, "embeds");
    if (embeds && !embeds->empty()) {
        const auto* first = Object((*embeds)[0]);
        return MessageData::Extra{Type::Embed, first ? OptionalString(*first, "title") : std::nullopt, CountOf(embeds->size())};
    }
    const auto* stickers = json_fields::Array(object, "sticker_items");
    if (stickers && !stickers->empty()) {
        const auto* first = Object((*stickers)[0]);
        return MessageData::Extra{Type::Sticker, first ? OptionalString(*first, "name") : std::nullopt,
                                  CountOf(stickers->size())};
    }
    return std::nullopt;
}

MessageData MessageFromJson(const json::object& object) {
    MessageData message;
    message.id = Snowflake(object, "id");
    message.content = String(object, "content");
    if (const auto* author = Object(object, "author")) message.authorId = Snowflake(*author, "id");
    if (const uint64_t lobby = Snowflake(object, "lobby_id")) message.lobbyId = lobby;
    if (const uint64_t recipient = Snowflake(object, "recipient_id")) message.recipientId = recipient;
    if (const uint64_t app = Snowflake(object, "application_id")) message.applicationId = app;
    message.metadata = PropertiesOf(object.if_contains("metadata"));
    message.moderationMetadata = PropertiesOf(object.if_contains("moderation_metadata"));
    message.additionalName = OptionalString(object, "additional_name");
    if (auto edited = OptionalString(object, "edited_timestamp")) message.editedTimestamp = IsoToMillis(*edited);
    if (const auto disclosure = json_fields::OptionalInteger(object, "disclosure_type"))
        message.disclosureType = static_cast<int32_t>(*disclosure);
    message.additionalContent = AdditionalContentOf(object);
    return message;
}

void ReadUserFields(const json::object& object, UserData& user) {
    user.id = Snowflake(object, "id");
    user.username = String(object, "username");
    user.globalName = OptionalString(object, "global_name");
    user.avatar = OptionalString(object, "avatar");
    if (const auto* provisional = object.if_contains("is_provisional_account"); provisional && provisional->is_bool())
        user.provisional = provisional->as_bool();
}

void ReadPresenceFields(const json::object& object, UserData& user) {
    user.status = String(object, "status");
    user.activities.clear();
    if (const auto* activities = json_fields::Array(object, "activities")) {
        for (const auto& activity : *activities) {
            if (const auto* item = Object(activity)) user.activities.push_back(ActivityFromJson(*item));
        }
    }
}

RelationshipData RelationshipFromJson(const json::object& object) {
    RelationshipData data{Snowflake(object, "id"), static_cast<int32_t>(Integer(object, "type")),
                          static_cast<int32_t>(Integer(object, "game_type"))};
    if (const auto* spam = object.if_contains("is_spam_request"); spam && spam->is_bool()) data.spamRequest = spam->as_bool();
    return data;
}

std::vector<std::shared_ptr<const detail::ProfileView>> ProfilesFromJson(uint64_t userId, const json::value& profiles) {
    std::vector<std::shared_ptr<const detail::ProfileView>> views;
    if (profiles.is_array()) {
        for (const auto& item : profiles.as_array()) {
            if (!item.is_object()) continue;
            const auto& profile = item.as_object();
            const auto* stats = profile.if_contains("stats");
            const std::string metadata = stats && stats->is_object() ? json::serialize(*stats) : "{}";
            const uint64_t app = Snowflake(profile.if_contains("application_id"));
            const auto* identities = profile.if_contains("identities");
            const bool none = !identities || !identities->is_array() || identities->as_array().empty();
            if (none) {
                views.push_back(std::make_shared<const detail::ProfileView>(
                    detail::ProfileView{app, userId, std::string(), std::string(), metadata, std::string(), std::string(),
                                        std::nullopt}));
                continue;
            }
            for (const auto& identity : identities->as_array()) {
                if (!identity.is_object()) continue;
                const auto& fields = identity.as_object();
                detail::ProfileView view{app, userId, String(fields, "provider"), String(fields, "external_user_id"),
                                         metadata, String(fields, "username"), String(fields, "avatar"), std::nullopt};
                if (const auto* id = fields.if_contains("provider_id"); id && id->is_string())
                    view.providerId = std::string(id->as_string());
                views.push_back(std::make_shared<const detail::ProfileView>(std::move(view)));
            }
        }
    }
    return views;
}

namespace {

bool Flag(const boost::json::object& object, std::string_view name) {
    const auto* value = object.if_contains(name);
    return value && value->is_bool() && value->as_bool();
}

}  // namespace

std::vector<GuildMinimal> GuildsFromJson(const json::value& json) {
    std::vector<GuildMinimal> guilds;
    if (!json.is_array()) return guilds;
    for (const auto& item : json.as_array()) {
        if (!item.is_object()) continue;
        GuildMinimal guild;
        guild.SetId(json_fields::Snowflake(item.as_object(), "id"));
        guild.SetName(json_fields::String(item.as_object(), "name"));
        guilds.push_back(std::move(guild));
    }
    return guilds;
}

std::vector<GuildChannel> GuildChannelsFromJson(const json::value& json) {
    std::vector<GuildChannel> channels;
    if (json.is_array()) {
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
    return channels;
}

std::vector<UserMessageSummary> MessageSummariesFromJson(const json::value& json) {
    std::vector<UserMessageSummary> summaries;
    if (!json.is_array()) return summaries;
    for (const auto& item : json.as_array()) {
        if (!item.is_object()) continue;
        summaries.emplace_back(json_fields::Snowflake(item.as_object(), "user_id"),
                               json_fields::Snowflake(item.as_object(), "last_message_id"));
    }
    return summaries;
}

}  // namespace platformpp::social
