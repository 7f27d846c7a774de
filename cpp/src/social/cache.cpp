// The social caches: how the changes the Gateway and the calls' answers bring are stored, which
// events each announces, and the snapshots the Client's getters hand out.
#include <boost/json.hpp>

#include <algorithm>
#include <atomic>

#include "client/client_impl.hpp"
#include "core/json_fields.hpp"
#include "social/codecs.hpp"
#include "social/markup.hpp"
#include "social/social_state.hpp"

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
           a.editedTimestamp == b.editedTimestamp && a.disclosureType == b.disclosureType &&
           a.additionalContent == b.additionalContent;
}

}  // namespace platformpp::detail

namespace platformpp::social {

namespace json = boost::json;
using detail::LobbyData;
using detail::LobbyMemberData;
using detail::MessageData;
using detail::RelationshipData;
using detail::UserData;

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
    auto views = ProfilesFromJson(userId, profiles);
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
    auto next = std::make_shared<LobbyData>(LobbyFromJson(object));
    if (next->id == 0) return 0;
    for (const auto& member : next->members) Want(member.id);
    const auto found = lobbies_.find(next->id);
    if (found == lobbies_.end()) {
        lobbies_.emplace(next->id, next);
        Announce(events, callbacks_.lobbyCreated, next->id);
        return next->id;
    }
    const auto previous = found->second;  // kept alive: the diff below reads it after the replacement
    const LobbyData& before = *previous;
    // A lobby update is news when its metadata or its linked channel changed.
    const bool metadataChanged = before.metadata != next->metadata || before.linkedChannel != next->linkedChannel;
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
    LobbyMemberData member = LobbyMemberFromJson(object);
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
    auto next = std::make_shared<MessageData>(MessageFromJson(object));
    if (next->id == 0) return nullptr;
    if (const auto* author = json_fields::Object(object, "author")) UpsertUser(*author, events);

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
            if (!showingChat_.load() && next->authorId != me_) ++unseenMessages_;
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
    const uint64_t id = json_fields::Snowflake(object, "id");
    if (id == 0 || !object.contains("username")) return;  // a partial user ({id} only) adds nothing
    const auto found = users_.find(id);
    auto next = found == users_.end() ? std::make_shared<UserData>() : std::make_shared<UserData>(*found->second);
    ReadUserFields(object, *next);
    if (found == users_.end()) {
        users_.emplace(id, next);
    } else if (!detail::SameUser(*found->second, *next)) {
        found->second = next;
        Announce(events, callbacks_.userUpdated, id);
    }
}

void SocialState::UpsertPresence(const json::object& object, Events& events) {
    const auto* user = json_fields::Object(object, "user");
    const uint64_t id = user ? json_fields::Snowflake(*user, "id") : 0;
    if (id == 0) return;
    if (user->contains("username")) UpsertUser(*user, events);
    const auto found = users_.find(id);
    auto next = found == users_.end() ? std::make_shared<UserData>() : std::make_shared<UserData>(*found->second);
    next->id = id;
    ReadPresenceFields(object, *next);
    if (found == users_.end()) {
        users_.emplace(id, next);
        Announce(events, callbacks_.userUpdated, id);
    } else if (!detail::SameUser(*found->second, *next)) {
        found->second = next;
        Announce(events, callbacks_.userUpdated, id);
    }
    Regroup(id, events);
}

void SocialState::UpsertRelationship(const json::object& object, Events& events) {
    const RelationshipData next = RelationshipFromJson(object);
    if (next.id == 0) return;
    if (const auto* user = json_fields::Object(object, "user")) UpsertUser(*user, events);
    if (next.type == 0 && next.gameType == 0) return EraseRelationship(next.id, true, events);
    const auto found = relationships_.find(next.id);
    bool platformChanged = true;
    if (found != relationships_.end()) {
        if (found->second.type == next.type && found->second.gameType == next.gameType &&
            found->second.spamRequest == next.spamRequest)
            return;
        platformChanged = found->second.type != next.type;
    } else {
        platformChanged = next.type != 0;
    }
    relationships_[next.id] = next;
    Announce(events, callbacks_.relationshipCreated, next.id, platformChanged);
    Regroup(next.id, events);
}

void SocialState::EraseRelationship(uint64_t userId, bool platform, Events& events) {
    if (relationships_.erase(userId) == 0) return;
    Announce(events, callbacks_.relationshipDeleted, userId, platform);
    Regroup(userId, events);
}

// ---- snapshots ----

std::shared_ptr<const detail::UserView> SocialState::UserViewOf(uint64_t userId) const {
    const auto found = users_.find(userId);
    if (found == users_.end()) return nullptr;
    auto view = std::make_shared<detail::UserView>();
    view->user = found->second;
    view->applicationId = applicationId_;
    view->cdnBase = cdnBase_;
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
    if (message->recipientId) view->recipient = UserViewOf(*message->recipientId);
    view->channel = ChannelViewOf(view->channelId);
    view->content = DisplayContent(message->content);
    if (message->lobbyId) {
        if (const auto lobby = lobbies_.find(*message->lobbyId); lobby != lobbies_.end()) view->lobby = LobbyViewOf(lobby->second);
    }
    return MessageHandle(std::move(view));
}

std::string SocialState::DisplayContent(const std::string& raw) const {
    MarkupNames names;
    names.user = [this](uint64_t id) -> std::optional<std::string> {
        const auto user = users_.find(id);
        if (user == users_.end()) return std::nullopt;
        const auto& data = *user->second;
        return data.globalName && !data.globalName->empty() ? *data.globalName : data.username;
    };
    names.channel = [this](uint64_t id) -> std::optional<std::string> {
        for (const auto& [lobbyId, lobby] : lobbies_) {
            if (lobby->linkedChannel.id == id) return lobby->linkedChannel.name;
        }
        return std::nullopt;
    };
    return ResolveMarkup(raw, names);
}

std::shared_ptr<const detail::ChannelView> SocialState::ChannelViewOf(uint64_t channelId) const {
    if (channelId == 0) return nullptr;
    auto view = std::make_shared<detail::ChannelView>();
    view->id = channelId;
    if (const auto lobby = lobbies_.find(channelId); lobby != lobbies_.end()) {
        view->type = ChannelType::Lobby;
        for (const auto& member : lobby->second->members) view->recipients.push_back(member.id);
        return view;
    }
    for (const auto& [id, lobby] : lobbies_) {
        if (lobby->linkedChannel.id == channelId) {
            view->type = ChannelType::GuildText;
            view->name = lobby->linkedChannel.name;
            return view;
        }
    }
    if (conversations_.count(channelId) != 0) {
        // A direct message conversation is named by the other participant (MessageHandle::ChannelId).
        view->type = ChannelType::EphemeralDm;
        view->recipients = {me_, channelId};
        return view;
    }
    return nullptr;
}

bool SocialState::CanOpenInPlatform(uint64_t messageId) const { return PlatformUrl(messageId).has_value(); }

std::optional<std::string> SocialState::PlatformUrl(uint64_t messageId) const {
    std::lock_guard lock(mutex_);
    const auto found = messages_.find(messageId);
    if (found == messages_.end()) return std::nullopt;
    const auto& message = *found->second;
    if (message.lobbyId) {
        const auto lobby = lobbies_.find(*message.lobbyId);
        if (lobby == lobbies_.end() || lobby->second->linkedChannel.id == 0) return std::nullopt;
        const auto& linked = lobby->second->linkedChannel;
        return "/channels/" + std::to_string(linked.guildId) + "/" + std::to_string(linked.id) + "/" +
               std::to_string(messageId);
    }
    // Authors are always cached (messages carry them); a recipient the cache does not know is taken
    // for a full account, as only a game's own provisional accounts are ever provisional to it.
    const auto provisional = [this](uint64_t id) {
        const auto user = users_.find(id);
        return user != users_.end() && user->second->provisional;
    };
    if (!message.recipientId || provisional(message.authorId) || provisional(*message.recipientId)) return std::nullopt;
    return "/channels/@me/" + std::to_string(ConversationOf(message)) + "/" + std::to_string(messageId);
}

std::optional<ChannelHandle> SocialState::Channel(uint64_t channelId) const {
    std::lock_guard lock(mutex_);
    if (channelId == me_) return std::nullopt;  // no conversation with oneself
    auto view = ChannelViewOf(channelId);
    if (!view) return std::nullopt;
    return ChannelHandle(std::move(view));
}

LobbyHandle SocialState::LobbyHandleOf(const std::shared_ptr<const LobbyData>& lobby) const {
    return LobbyHandle(LobbyViewOf(lobby));
}

std::shared_ptr<const detail::LobbyView> SocialState::LobbyViewOf(const std::shared_ptr<const LobbyData>& lobby) const {
    auto view = std::make_shared<detail::LobbyView>();
    view->lobby = lobby;
    for (const auto& member : lobby->members) {
        auto user = UserViewOf(member.id);
        const bool connected = member.id == me_ || (user && user->user && user->user->status != "offline");
        view->members.push_back(std::make_shared<const detail::LobbyMemberView>(
            detail::LobbyMemberView{lobby->id, member, std::move(user), connected}));
    }
    if (callInfoOf) view->callInfo = callInfoOf(lobby->id);
    return view;
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
