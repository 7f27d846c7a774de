// The social caches: how READY, the Gateway's dispatches and the social calls' answers change them,
// and which events each change announces (WIRE.md: Social SDK; docs/emulator-gateway.md: Dispatches).
#include "social/social_state.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <atomic>
#include <ctime>

#include "client/client_impl.hpp"

namespace platformpp::detail {

bool SameUser(const UserData& a, const UserData& b) {
    if (a.id != b.id || a.username != b.username || a.globalName != b.globalName || a.avatar != b.avatar ||
        a.provisional != b.provisional || a.status != b.status || a.activities.size() != b.activities.size())
        return false;
    for (std::size_t i = 0; i < a.activities.size(); ++i) {
        if (!a.activities[i].Equals(b.activities[i])) return false;
    }
    return true;
}

bool operator==(const LobbyMemberData& a, const LobbyMemberData& b) {
    return a.id == b.id && a.metadata == b.metadata && a.flags == b.flags && a.additionalName == b.additionalName;
}

bool operator==(const MessageData& a, const MessageData& b) {
    return a.id == b.id && a.authorId == b.authorId && a.content == b.content && a.lobbyId == b.lobbyId &&
           a.recipientId == b.recipientId && a.applicationId == b.applicationId && a.metadata == b.metadata &&
           a.moderationMetadata == b.moderationMetadata && a.additionalName == b.additionalName &&
           a.editedTimestamp == b.editedTimestamp;
}

}  // namespace platformpp::detail

namespace platformpp::social {

namespace json = boost::json;
using detail::LobbyData;
using detail::LobbyMemberData;
using detail::MessageData;
using detail::Properties;
using detail::RelationshipData;
using detail::UserData;

// ---- JSON ----

uint64_t Snowflake(const json::value* value) {
    if (value == nullptr) return 0;
    if (value->is_uint64()) return value->as_uint64();
    if (value->is_int64()) return value->as_int64() > 0 ? static_cast<uint64_t>(value->as_int64()) : 0;
    if (!value->is_string()) return 0;
    const auto& text = value->as_string();
    uint64_t id = 0;
    for (char c : text) {
        if (c < '0' || c > '9' || id > (UINT64_MAX - 9) / 10) return 0;
        id = id * 10 + static_cast<uint64_t>(c - '0');
    }
    return id;
}

std::string String(const json::object& object, std::string_view name) {
    const auto* value = object.if_contains(name);
    return value && value->is_string() ? std::string(value->as_string()) : std::string();
}

std::optional<std::string> OptionalString(const json::object& object, std::string_view name) {
    const auto* value = object.if_contains(name);
    if (value && value->is_string()) return std::string(value->as_string());
    return std::nullopt;
}

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

namespace {

int64_t Integer(const json::object& object, std::string_view name) {
    const auto* value = object.if_contains(name);
    if (value == nullptr) return 0;
    if (value->is_int64()) return value->as_int64();
    if (value->is_uint64()) return static_cast<int64_t>(value->as_uint64());
    return 0;
}

const json::object* Object(const json::object& object, std::string_view name) {
    const auto* value = object.if_contains(name);
    return value && value->is_object() ? &value->as_object() : nullptr;
}

}  // namespace

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
    activity.SetType(type >= 0 && type <= 5 ? static_cast<ActivityTypes>(type) : ActivityTypes::Playing);
    activity.SetState(OptionalString(object, "state"));
    activity.SetDetails(OptionalString(object, "details"));
    if (const uint64_t app = Snowflake(object.if_contains("application_id"))) activity.SetApplicationId(app);
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
            {"invite_cover_image", assets->InviteCoverImage()}};
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

// ---- plumbing ----

namespace {

template <typename Callback, typename... Args>
void Announce(std::vector<std::function<void()>>& events, const std::shared_ptr<Callback>& callback, Args... args) {
    if (callback) events.push_back([callback, args...] { (*callback)(args...); });
}

}  // namespace

void SocialState::Refresh(Client::Impl& impl) {
    uint64_t me = 0, app = 0;
    {
        std::lock_guard lock(impl.mutex);
        me = impl.currentUserId;
        app = impl.applicationId;
    }
    std::lock_guard lock(mutex_);
    me_ = me;
    applicationId_ = app;
}

void SocialState::Deliver(Client::Impl& impl, Events& events) {
    for (auto& event : events) impl.DeliverEvent(std::move(event));
    events.clear();
    std::vector<uint64_t> wanted;
    {
        std::lock_guard lock(mutex_);
        wanted.swap(wanted_);
    }
    if (!wanted.empty()) FetchUsers(impl, wanted);
}

void SocialState::Want(uint64_t userId) {
    if (userId != 0 && userId != me_ && !users_.count(userId) && fetching_.insert(userId).second)
        wanted_.push_back(userId);
}

void SocialState::FetchUsers(Client::Impl& impl, const std::vector<uint64_t>& userIds) {
    std::string authorization;
    {
        std::lock_guard lock(impl.mutex);
        if (impl.authenticated) authorization = "Bearer " + impl.token;
    }
    if (authorization.empty()) {
        std::lock_guard lock(mutex_);
        for (uint64_t id : userIds) fetching_.erase(id);
        return;
    }
    for (uint64_t id : userIds) {
        client::ApiRequest request;
        request.path = "/users/" + std::to_string(id);
        request.route = "GET /users/{id}";
        request.authorization = authorization;
        impl.Call(std::move(request), [this, &impl, id](ClientResult result, json::value json) {
            Events events;
            {
                std::lock_guard lock(mutex_);
                fetching_.erase(id);
                if (result.Successful() && json.is_object() && !users_.count(id)) {
                    UpsertUser(json.as_object(), events);
                    if (users_.count(id)) Announce(events, callbacks_.userUpdated, id);
                }
            }
            if (!result.Successful()) {
                impl.Log(LoggingSeverity::Warning, "could not fetch lobby member " + std::to_string(id) + ": " + result.ToString());
            }
            Deliver(impl, events);
        });
    }
}

namespace {

LobbyMemberData MemberFromJson(const json::object& object) {
    LobbyMemberData member;
    member.id = Snowflake(object.if_contains("id"));
    member.metadata = PropertiesOf(object.if_contains("metadata"));
    member.flags = Integer(object, "flags");
    member.additionalName = OptionalString(object, "additional_name");
    return member;
}

}  // namespace

// ---- Gateway ----

void SocialState::OnReady(Client::Impl& impl, const json::object& ready) {
    Refresh(impl);
    Events events;
    {
        std::lock_guard lock(mutex_);
        // A new session: what happened while there was none is unknown, so no conversation can
        // vouch for its latest messages any more.
        conversations_.clear();
        if (const auto* user = Object(ready, "user")) {
            if (const uint64_t id = Snowflake(user->if_contains("id"))) me_ = id;
            UpsertUser(*user, events);
        }
        std::set<uint64_t> lobbyIds;
        if (const auto* lobbies = ready.if_contains("lobbies"); lobbies && lobbies->is_array()) {
            for (const auto& lobby : lobbies->as_array()) {
                if (lobby.is_object()) lobbyIds.insert(UpsertLobby(lobby.as_object(), events));
            }
        }
        std::vector<uint64_t> gone;
        for (const auto& [id, lobby] : lobbies_) {
            if (!lobbyIds.count(id)) gone.push_back(id);
        }
        for (uint64_t id : gone) EraseLobby(id, events);
        std::set<uint64_t> relationshipIds;
        if (const auto* relationships = ready.if_contains("relationships"); relationships && relationships->is_array()) {
            for (const auto& relationship : relationships->as_array()) {
                if (!relationship.is_object()) continue;
                relationshipIds.insert(Snowflake(relationship.as_object().if_contains("id")));
                UpsertRelationship(relationship.as_object(), events);
            }
        }
        std::vector<uint64_t> ended;
        for (const auto& [id, relationship] : relationships_) {
            if (!relationshipIds.count(id)) ended.push_back(id);
        }
        for (uint64_t id : ended) EraseRelationship(id, true, events);
        if (const auto* presences = ready.if_contains("presences"); presences && presences->is_array()) {
            for (const auto& presence : presences->as_array()) {
                if (presence.is_object()) UpsertPresence(presence.as_object(), events);
            }
        }
    }
    Deliver(impl, events);
}

void SocialState::OnDispatch(Client::Impl& impl, std::string_view type, const json::value& data) {
    if (!data.is_object()) return;
    const auto& d = data.as_object();
    Refresh(impl);
    Events events;
    {
        std::lock_guard lock(mutex_);
        if (type == "LOBBY_CREATE" || type == "LOBBY_UPDATE") {
            UpsertLobby(d, events);
        } else if (type == "LOBBY_DELETE") {
            EraseLobby(Snowflake(d.if_contains("id")), events);
        } else if (type == "LOBBY_MEMBER_ADD" || type == "LOBBY_MEMBER_UPDATE") {
            if (const auto* member = Object(d, "member")) UpsertMember(Snowflake(d.if_contains("lobby_id")), *member, events);
        } else if (type == "LOBBY_MEMBER_REMOVE") {
            if (const auto* member = Object(d, "member")) {
                const uint64_t lobbyId = Snowflake(d.if_contains("lobby_id"));
                const uint64_t memberId = Snowflake(member->if_contains("id"));
                if (memberId == me_) {
                    EraseLobby(lobbyId, events);  // the current user left or was removed
                } else {
                    EraseMember(lobbyId, memberId, events);
                }
            }
        } else if (type == "LOBBY_MESSAGE_CREATE" || type == "LOBBY_MESSAGE_UPDATE" || type == "DM_MESSAGE_CREATE" ||
                   type == "DM_MESSAGE_UPDATE") {
            UpsertMessage(d, true, true, events);
        } else if (type == "LOBBY_MESSAGE_DELETE" || type == "DM_MESSAGE_DELETE") {
            EraseMessage(Snowflake(d.if_contains("id")), events);
        } else if (type == "PRESENCE_UPDATE") {
            UpsertPresence(d, events);
        } else if (type == "RELATIONSHIP_ADD" || type == "RELATIONSHIP_UPDATE") {
            UpsertRelationship(d, events);
        } else if (type == "RELATIONSHIP_REMOVE") {
            EraseRelationship(Snowflake(d.if_contains("id")), Integer(d, "type") != 0, events);
        }
    }
    Deliver(impl, events);
}

// ---- answers of the social calls ----

uint64_t SocialState::ApplyLobby(Client::Impl& impl, const json::value& lobby) {
    if (!lobby.is_object()) return 0;
    Refresh(impl);
    Events events;
    uint64_t id = 0;
    {
        std::lock_guard lock(mutex_);
        id = UpsertLobby(lobby.as_object(), events);
    }
    Deliver(impl, events);
    return id;
}

void SocialState::RemoveLobby(Client::Impl& impl, uint64_t lobbyId) {
    Events events;
    {
        std::lock_guard lock(mutex_);
        EraseLobby(lobbyId, events);
    }
    Deliver(impl, events);
}

std::shared_ptr<const MessageData> SocialState::ApplyMessage(Client::Impl& impl, const json::value& message,
                                                             bool announce) {
    if (!message.is_object()) return nullptr;
    Refresh(impl);
    Events events;
    std::shared_ptr<const MessageData> stored;
    {
        std::lock_guard lock(mutex_);
        stored = UpsertMessage(message.as_object(), announce, true, events);
    }
    Deliver(impl, events);
    return stored;
}

void SocialState::RemoveMessage(Client::Impl& impl, uint64_t messageId) {
    Events events;
    {
        std::lock_guard lock(mutex_);
        EraseMessage(messageId, events);
    }
    Deliver(impl, events);
}

std::vector<MessageHandle> SocialState::ApplyConversation(Client::Impl& impl, uint64_t otherId,
                                                          const json::value& messages, int32_t limit) {
    Refresh(impl);
    Events events;
    std::vector<MessageHandle> handles;
    {
        std::lock_guard lock(mutex_);
        std::vector<std::shared_ptr<const MessageData>> fetched;
        if (messages.is_array()) {
            for (const auto& item : messages.as_array()) {
                if (!item.is_object()) continue;
                if (auto stored = UpsertMessage(item.as_object(), false, false, events)) fetched.push_back(stored);
            }
        }
        std::sort(fetched.begin(), fetched.end(), [](const auto& a, const auto& b) { return a->id < b->id; });
        // The answer is the newest messages without a gap. Messages received since that are newer
        // still, and dispatches arrive in order, so those newer than the answer's newest join it;
        // anything older than its oldest may sit next to a gap and is dropped from the run.
        Conversation& conversation = conversations_[otherId];
        if (!fetched.empty()) {
            const uint64_t oldest = fetched.front()->id;
            const auto dropped = conversation.run.lower_bound(oldest);
            for (auto it = conversation.run.begin(); it != dropped; ++it) messages_.erase(*it);
            conversation.run.erase(conversation.run.begin(), dropped);
            for (const auto& message : fetched) conversation.run.insert(message->id);
        }
        conversation.complete = static_cast<int32_t>(fetched.size()) < limit;
        Evict(conversation.run);
        for (const auto& message : fetched) handles.push_back(MessageHandleOf(message));
    }
    Deliver(impl, events);
    return handles;
}

void SocialState::ApplyRelationship(Client::Impl& impl, const json::value& relationship) {
    if (!relationship.is_object()) return;
    Events events;
    {
        std::lock_guard lock(mutex_);
        UpsertRelationship(relationship.as_object(), events);
    }
    Deliver(impl, events);
}

void SocialState::RemoveRelationship(Client::Impl& impl, uint64_t userId, bool platform) {
    Events events;
    {
        std::lock_guard lock(mutex_);
        EraseRelationship(userId, platform, events);
    }
    Deliver(impl, events);
}

void SocialState::ApplyPresence(Client::Impl& impl, const json::value& presence) {
    if (!presence.is_object()) return;
    Refresh(impl);
    Events events;
    {
        std::lock_guard lock(mutex_);
        UpsertPresence(presence.as_object(), events);
    }
    Deliver(impl, events);
}

std::vector<UserApplicationProfileHandle> SocialState::ApplyProfiles(uint64_t userId, const json::value& profiles) {
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
                    detail::ProfileView{app, userId, std::string(), std::string(), metadata}));
                continue;
            }
            for (const auto& identity : identities->as_array()) {
                if (!identity.is_object()) continue;
                views.push_back(std::make_shared<const detail::ProfileView>(
                    detail::ProfileView{app, userId, String(identity.as_object(), "provider"),
                                        String(identity.as_object(), "external_user_id"), metadata}));
            }
        }
    }
    {
        std::lock_guard lock(mutex_);
        auto next = std::make_shared<ProfileMap>(*std::atomic_load(&profiles_));
        (*next)[userId] = views;
        std::atomic_store(&profiles_, std::shared_ptr<const ProfileMap>(std::move(next)));
    }
    std::vector<UserApplicationProfileHandle> handles;
    for (auto& view : views) handles.emplace_back(view);
    return handles;
}

// ---- changes (under mutex_) ----

uint64_t SocialState::UpsertLobby(const json::object& object, Events& events) {
    auto next = std::make_shared<LobbyData>();
    next->id = Snowflake(object.if_contains("id"));
    if (next->id == 0) return 0;
    next->applicationId = Snowflake(object.if_contains("application_id"));
    next->metadata = PropertiesOf(object.if_contains("metadata"));
    if (const auto* members = object.if_contains("members"); members && members->is_array()) {
        for (const auto& member : members->as_array()) {
            if (member.is_object()) next->members.push_back(MemberFromJson(member.as_object()));
        }
    }
    for (const auto& member : next->members) Want(member.id);
    const auto found = lobbies_.find(next->id);
    if (found == lobbies_.end()) {
        lobbies_.emplace(next->id, next);
        Announce(events, callbacks_.lobbyCreated, next->id);
        return next->id;
    }
    const auto previous = found->second;  // kept alive: the diff below reads it after the replacement
    const LobbyData& before = *previous;
    const bool metadataChanged = before.metadata != next->metadata;
    found->second = next;
    if (metadataChanged) Announce(events, callbacks_.lobbyUpdated, next->id);
    for (const auto& old : before.members) {
        const auto now = std::find_if(next->members.begin(), next->members.end(), [&](const auto& m) { return m.id == old.id; });
        if (now == next->members.end()) {
            Announce(events, callbacks_.memberRemoved, next->id, old.id);
        } else if (!(*now == old)) {
            Announce(events, callbacks_.memberUpdated, next->id, old.id);
        }
    }
    for (const auto& member : next->members) {
        const bool existed = std::any_of(before.members.begin(), before.members.end(), [&](const auto& m) { return m.id == member.id; });
        if (!existed) Announce(events, callbacks_.memberAdded, next->id, member.id);
    }
    return next->id;
}

void SocialState::EraseLobby(uint64_t lobbyId, Events& events) {
    if (lobbies_.erase(lobbyId) == 0) return;
    if (const auto kept = lobbyMessages_.find(lobbyId); kept != lobbyMessages_.end()) {
        for (uint64_t id : kept->second) messages_.erase(id);
        lobbyMessages_.erase(kept);
    }
    Announce(events, callbacks_.lobbyDeleted, lobbyId);
}

void SocialState::UpsertMember(uint64_t lobbyId, const json::object& object, Events& events) {
    const auto found = lobbies_.find(lobbyId);
    if (found == lobbies_.end()) return;  // a lobby the cache does not hold: its LOBBY_CREATE brings it
    LobbyMemberData member = MemberFromJson(object);
    Want(member.id);
    auto next = std::make_shared<LobbyData>(*found->second);
    auto at = std::find_if(next->members.begin(), next->members.end(), [&](const auto& m) { return m.id == member.id; });
    if (at == next->members.end()) {
        next->members.push_back(member);
        Announce(events, callbacks_.memberAdded, lobbyId, member.id);
    } else if (!(*at == member)) {
        *at = member;
        Announce(events, callbacks_.memberUpdated, lobbyId, member.id);
    } else {
        return;
    }
    found->second = next;
}

void SocialState::EraseMember(uint64_t lobbyId, uint64_t memberId, Events& events) {
    const auto found = lobbies_.find(lobbyId);
    if (found == lobbies_.end()) return;
    auto next = std::make_shared<LobbyData>(*found->second);
    const auto before = next->members.size();
    next->members.erase(std::remove_if(next->members.begin(), next->members.end(), [&](const auto& m) { return m.id == memberId; }),
                        next->members.end());
    if (next->members.size() == before) return;
    found->second = next;
    Announce(events, callbacks_.memberRemoved, lobbyId, memberId);
}

uint64_t SocialState::ConversationOf(const MessageData& message) const {
    return message.authorId == me_ ? message.recipientId.value_or(0) : message.authorId;
}

std::shared_ptr<const MessageData> SocialState::UpsertMessage(const json::object& object, bool announce, bool track,
                                                              Events& events) {
    auto next = std::make_shared<MessageData>();
    next->id = Snowflake(object.if_contains("id"));
    if (next->id == 0) return nullptr;
    next->content = String(object, "content");
    if (const auto* author = Object(object, "author")) {
        next->authorId = Snowflake(author->if_contains("id"));
        UpsertUser(*author, events);
    }
    if (const uint64_t lobby = Snowflake(object.if_contains("lobby_id"))) next->lobbyId = lobby;
    if (const uint64_t recipient = Snowflake(object.if_contains("recipient_id"))) next->recipientId = recipient;
    if (const uint64_t app = Snowflake(object.if_contains("application_id"))) next->applicationId = app;
    next->metadata = PropertiesOf(object.if_contains("metadata"));
    next->moderationMetadata = PropertiesOf(object.if_contains("moderation_metadata"));
    next->additionalName = OptionalString(object, "additional_name");
    if (auto edited = OptionalString(object, "edited_timestamp")) next->editedTimestamp = IsoToMillis(*edited);

    const auto found = messages_.find(next->id);
    const bool isNew = found == messages_.end();
    if (!isNew && *found->second == *next) return found->second;
    messages_[next->id] = next;
    if (next->lobbyId) {
        auto& kept = lobbyMessages_[*next->lobbyId];
        kept.insert(next->id);
        Evict(kept);
    } else if (track && isNew) {
        // A message that arrives while the conversation is followed is its newest: it extends the run.
        // One older than the run's oldest could sit next to a gap, so it stays out of it.
        Conversation& conversation = conversations_[ConversationOf(*next)];
        if (conversation.run.empty() || next->id > *conversation.run.begin() || conversation.complete) {
            conversation.run.insert(next->id);
            Evict(conversation.run);
        }
    }
    if (announce) {
        if (isNew) {
            Announce(events, callbacks_.messageCreated, next->id);
        } else {
            Announce(events, callbacks_.messageUpdated, next->id);
        }
    }
    return next;
}

void SocialState::EraseMessage(uint64_t messageId, Events& events) {
    const auto found = messages_.find(messageId);
    if (found == messages_.end()) return;
    const auto message = found->second;
    messages_.erase(found);
    uint64_t channelId = 0;
    if (message->lobbyId) {
        channelId = *message->lobbyId;
        if (auto kept = lobbyMessages_.find(channelId); kept != lobbyMessages_.end()) kept->second.erase(messageId);
    } else {
        channelId = ConversationOf(*message);
        if (auto conversation = conversations_.find(channelId); conversation != conversations_.end())
            conversation->second.run.erase(messageId);
    }
    Announce(events, callbacks_.messageDeleted, messageId, channelId);
}

void SocialState::Evict(std::set<uint64_t>& ids) {
    while (ids.size() > kMessagesKept) {
        messages_.erase(*ids.begin());
        ids.erase(ids.begin());
        for (auto& [other, conversation] : conversations_) {
            if (&conversation.run == &ids) conversation.complete = false;  // older ones are no longer held
        }
    }
}

void SocialState::UpsertUser(const json::object& object, Events& events) {
    const uint64_t id = Snowflake(object.if_contains("id"));
    if (id == 0 || !object.contains("username")) return;  // a partial user ({id} only) adds nothing
    const auto found = users_.find(id);
    auto next = found == users_.end() ? std::make_shared<UserData>() : std::make_shared<UserData>(*found->second);
    next->id = id;
    next->username = String(object, "username");
    next->globalName = OptionalString(object, "global_name");
    next->avatar = OptionalString(object, "avatar");
    if (const auto* provisional = object.if_contains("is_provisional_account"); provisional && provisional->is_bool())
        next->provisional = provisional->as_bool();
    if (found == users_.end()) {
        users_.emplace(id, next);
    } else if (!detail::SameUser(*found->second, *next)) {
        found->second = next;
        Announce(events, callbacks_.userUpdated, id);
    }
}

void SocialState::UpsertPresence(const json::object& object, Events& events) {
    const auto* user = Object(object, "user");
    const uint64_t id = user ? Snowflake(user->if_contains("id")) : 0;
    if (id == 0) return;
    if (user->contains("username")) UpsertUser(*user, events);
    const auto found = users_.find(id);
    auto next = found == users_.end() ? std::make_shared<UserData>() : std::make_shared<UserData>(*found->second);
    next->id = id;
    next->status = String(object, "status");
    next->activities.clear();
    if (const auto* activities = object.if_contains("activities"); activities && activities->is_array()) {
        for (const auto& activity : activities->as_array()) {
            if (activity.is_object()) next->activities.push_back(ActivityFromJson(activity.as_object()));
        }
    }
    if (found == users_.end()) {
        users_.emplace(id, next);
        Announce(events, callbacks_.userUpdated, id);
    } else if (!detail::SameUser(*found->second, *next)) {
        found->second = next;
        Announce(events, callbacks_.userUpdated, id);
    }
}

void SocialState::UpsertRelationship(const json::object& object, Events& events) {
    RelationshipData next{Snowflake(object.if_contains("id")), static_cast<int32_t>(Integer(object, "type")),
                          static_cast<int32_t>(Integer(object, "game_type"))};
    if (next.id == 0) return;
    if (const auto* user = Object(object, "user")) UpsertUser(*user, events);
    if (next.type == 0 && next.gameType == 0) return EraseRelationship(next.id, true, events);
    const auto found = relationships_.find(next.id);
    bool platformChanged = true;
    if (found != relationships_.end()) {
        if (found->second.type == next.type && found->second.gameType == next.gameType) return;
        platformChanged = found->second.type != next.type;
    } else {
        platformChanged = next.type != 0;
    }
    relationships_[next.id] = next;
    Announce(events, callbacks_.relationshipCreated, next.id, platformChanged);
}

void SocialState::EraseRelationship(uint64_t userId, bool platform, Events& events) {
    if (relationships_.erase(userId) == 0) return;
    Announce(events, callbacks_.relationshipDeleted, userId, platform);
}

// ---- snapshots ----

std::shared_ptr<const detail::UserView> SocialState::UserViewOf(uint64_t userId) const {
    const auto found = users_.find(userId);
    if (found == users_.end()) return nullptr;
    auto view = std::make_shared<detail::UserView>();
    view->user = found->second;
    view->applicationId = applicationId_;
    if (const auto relationship = relationships_.find(userId); relationship != relationships_.end()) {
        view->relationship = relationship->second;
    } else {
        view->relationship.id = userId;
    }
    const auto profiles = std::atomic_load(&profiles_);
    if (const auto kept = profiles->find(userId); kept != profiles->end()) view->profiles = kept->second;
    return view;
}

MessageHandle SocialState::MessageHandleOf(const std::shared_ptr<const MessageData>& message) const {
    auto view = std::make_shared<detail::MessageView>();
    view->message = message;
    view->channelId = message->lobbyId ? *message->lobbyId : ConversationOf(*message);
    view->author = UserViewOf(message->authorId);
    return MessageHandle(std::move(view));
}

LobbyHandle SocialState::LobbyHandleOf(const std::shared_ptr<const LobbyData>& lobby) const {
    auto view = std::make_shared<detail::LobbyView>();
    view->lobby = lobby;
    for (const auto& member : lobby->members) {
        view->members.push_back(
            std::make_shared<const detail::LobbyMemberView>(detail::LobbyMemberView{lobby->id, member, UserViewOf(member.id)}));
    }
    return LobbyHandle(std::move(view));
}

std::optional<LobbyHandle> SocialState::Lobby(uint64_t lobbyId) const {
    std::lock_guard lock(mutex_);
    const auto found = lobbies_.find(lobbyId);
    if (found == lobbies_.end()) return std::nullopt;
    return LobbyHandleOf(found->second);
}

std::vector<uint64_t> SocialState::LobbyIds() const {
    std::lock_guard lock(mutex_);
    std::vector<uint64_t> ids;
    for (const auto& [id, lobby] : lobbies_) ids.push_back(id);
    return ids;
}

std::optional<MessageHandle> SocialState::Message(uint64_t messageId) const {
    std::lock_guard lock(mutex_);
    const auto found = messages_.find(messageId);
    if (found == messages_.end()) return std::nullopt;
    return MessageHandleOf(found->second);
}

std::optional<std::vector<MessageHandle>> SocialState::CachedConversation(uint64_t otherId, int32_t limit) const {
    std::lock_guard lock(mutex_);
    const auto found = conversations_.find(otherId);
    if (found == conversations_.end()) return std::nullopt;
    const auto& conversation = found->second;
    if (!conversation.complete && conversation.run.size() < static_cast<std::size_t>(limit)) return std::nullopt;
    std::vector<MessageHandle> handles;
    auto it = conversation.run.rbegin();
    for (int32_t n = 0; n < limit && it != conversation.run.rend(); ++n, ++it) {
        handles.push_back(MessageHandleOf(messages_.at(*it)));
    }
    std::reverse(handles.begin(), handles.end());
    return handles;
}

std::vector<RelationshipHandle> SocialState::Relationships() const {
    std::lock_guard lock(mutex_);
    std::vector<RelationshipHandle> handles;
    for (const auto& [id, relationship] : relationships_) {
        handles.emplace_back(std::make_shared<const detail::RelationshipView>(detail::RelationshipView{relationship, UserViewOf(id)}));
    }
    return handles;
}

RelationshipHandle SocialState::Relationship(uint64_t userId) const {
    std::lock_guard lock(mutex_);
    const auto found = relationships_.find(userId);
    const RelationshipData data = found != relationships_.end() ? found->second : RelationshipData{userId, 0, 0};
    return RelationshipHandle(std::make_shared<const detail::RelationshipView>(detail::RelationshipView{data, UserViewOf(userId)}));
}

std::optional<UserHandle> SocialState::User(uint64_t userId) const {
    std::lock_guard lock(mutex_);
    auto view = UserViewOf(userId);
    if (!view) return std::nullopt;
    return UserHandle(std::move(view));
}

std::vector<UserApplicationProfileHandle> SocialState::ProfilesNoLock(uint64_t userId) const {
    const auto profiles = std::atomic_load(&profiles_);
    std::vector<UserApplicationProfileHandle> handles;
    if (const auto found = profiles->find(userId); found != profiles->end()) {
        for (const auto& view : found->second) handles.emplace_back(view);
    }
    return handles;
}

}  // namespace platformpp::social
