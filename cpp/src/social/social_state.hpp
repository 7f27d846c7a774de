#pragma once
// The social layer's state: caches of lobbies, messages, relationships and users, fed by the
// Gateway (READY, dispatches) and by the answers of the social calls, plus the event callbacks the
// game set. Private to the core.
//
// Threads: the caches are written on the io thread and read by the Client's getters on the game
// thread, both under `mutex`. Records are immutable once stored (a change stores a new record), so
// snapshots handed to the game share them without copying. Events are queued with DeliverEvent
// after the cache has changed, outside the lock.

#include <boost/json/value.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "platformpp/client.hpp"

namespace platformpp {

namespace detail {

using Properties = std::unordered_map<std::string, std::string>;

struct UserData {
    uint64_t id = 0;
    std::string username;
    std::optional<std::string> globalName, avatar;
    bool provisional = false;
    std::string status = "offline";  // as the platform spells it: online, idle, dnd, offline
    std::vector<Activity> activities;
};
bool SameUser(const UserData& a, const UserData& b);

struct RelationshipData {
    uint64_t id = 0;
    int32_t type = 0, gameType = 0;
    bool spamRequest = false;  // is_spam_request
};

struct ProfileView {
    uint64_t applicationId = 0, userId = 0;
    std::string providerType, providerUserId, metadata;
    std::string username, avatarHash;  // the profile's (empty without an external identity)
    std::optional<std::string> providerId;
};

struct UserView {
    std::shared_ptr<const UserData> user;
    RelationshipData relationship;
    std::vector<std::shared_ptr<const ProfileView>> profiles;
    uint64_t applicationId = 0;  // the Client's application, for GameActivity
    std::string cdnBase;         // the Client's web base, where the CDN serves avatars (AvatarUrl)
};

struct RelationshipView {
    RelationshipData relationship;
    std::shared_ptr<const UserView> user;  // null when the user is not known
};

struct LobbyMemberData {
    uint64_t id = 0;
    Properties metadata;
    int64_t flags = 0;
    std::optional<std::string> additionalName;
};
bool operator==(const LobbyMemberData& a, const LobbyMemberData& b);

struct LinkedChannelData {
    uint64_t id = 0, guildId = 0;  // id 0: the lobby is linked to no channel
    std::string name;
    bool operator==(const LinkedChannelData& other) const {
        return id == other.id && guildId == other.guildId && name == other.name;
    }
    bool operator!=(const LinkedChannelData& other) const { return !(*this == other); }
};

struct LobbyData {
    uint64_t id = 0, applicationId = 0;
    Properties metadata;
    std::vector<LobbyMemberData> members;
    LinkedChannelData linkedChannel;
};

struct LobbyMemberView {
    uint64_t lobbyId = 0;
    LobbyMemberData member;
    std::shared_ptr<const UserView> user;
    bool connected = false;  // LobbyMemberHandle::Connected: the current user, or a member who is online
};

struct LobbyView {
    std::shared_ptr<const LobbyData> lobby;
    std::vector<std::shared_ptr<const LobbyMemberView>> members;
    std::shared_ptr<const CallInfoData> callInfo;  // the lobby's call (voice layer), null when nobody is in it
};

struct MessageData {
    uint64_t id = 0, authorId = 0;
    std::string content;
    std::optional<uint64_t> lobbyId, recipientId, applicationId;
    Properties metadata, moderationMetadata;
    std::optional<std::string> additionalName;
    uint64_t editedTimestamp = 0;
    std::optional<int32_t> disclosureType;
    // What else the message carries (attachments, poll, ...): type, title, count.
    struct Extra {
        AdditionalContentType type = AdditionalContentType::Other;
        std::optional<std::string> title;
        uint8_t count = 0;
        bool operator==(const Extra& o) const { return type == o.type && title == o.title && count == o.count; }
    };
    std::optional<Extra> additionalContent;
};
bool operator==(const MessageData& a, const MessageData& b);

struct ChannelView;
struct MessageView {
    std::shared_ptr<const MessageData> message;
    uint64_t channelId = 0;
    std::shared_ptr<const UserView> author;
    // What the cache held when the snapshot was taken (null when it held nothing).
    std::shared_ptr<const UserView> recipient;
    std::shared_ptr<const LobbyView> lobby;
    std::shared_ptr<const ChannelView> channel;
    std::string content;             // the raw content with mentions of known users and channels resolved
};

// A channel as ChannelHandle shows it: built from a lobby, a conversation or a lobby's linked channel.
struct ChannelView {
    uint64_t id = 0;
    std::string name;
    ChannelType type = ChannelType::GuildText;
    std::vector<uint64_t> recipients;
};

}  // namespace detail

namespace social {

// Most messages kept per lobby and per conversation (the most a history call can ask for).
constexpr std::size_t kMessagesKept = 200;

// The cache is split by purpose: dispatch.cpp routes READY and the Gateway's dispatches to the
// changes and fetches the users they ask for; cache.cpp holds the changes, the calls' answers and the
// snapshots; codecs.cpp reads the wire objects.
class SocialState {
public:
    // ---- Gateway (io thread) ----
    void OnReady(Client::Impl& impl, const boost::json::object& ready);
    void OnDispatch(Client::Impl& impl, std::string_view type, const boost::json::value& data);

    // ---- answers of the social calls (io thread); each announces what changed ----
    uint64_t ApplyLobby(Client::Impl& impl, const boost::json::value& lobby);
    void RemoveLobby(Client::Impl& impl, uint64_t lobbyId);
    // announce: fire MessageCreated/Updated (false for history fetches, which are not news).
    std::shared_ptr<const detail::MessageData> ApplyMessage(Client::Impl& impl, const boost::json::value& message,
                                                            bool announce);
    void RemoveMessage(Client::Impl& impl, uint64_t messageId);
    // A fetched conversation history (newest first, as the API answers) for `limit`.
    std::vector<MessageHandle> ApplyConversation(Client::Impl& impl, uint64_t otherId, const boost::json::value& messages,
                                                 int32_t limit);
    void ApplyRelationship(Client::Impl& impl, const boost::json::value& relationship);
    void RemoveRelationship(Client::Impl& impl, uint64_t userId, bool platform);
    void ApplyPresence(Client::Impl& impl, const boost::json::value& presence);
    std::vector<UserApplicationProfileHandle> ApplyProfiles(uint64_t userId, const boost::json::value& profiles);

    // ---- getters (game thread) ----
    std::optional<LobbyHandle> Lobby(uint64_t lobbyId) const;
    std::vector<uint64_t> LobbyIds() const;
    std::optional<MessageHandle> Message(uint64_t messageId) const;
    std::optional<ChannelHandle> Channel(uint64_t channelId) const;
    bool CanOpenInPlatform(uint64_t messageId) const;
    // The message's path in the platform's web client ("/channels/..."), when the platform keeps it.
    std::optional<std::string> PlatformUrl(uint64_t messageId) const;
    // While the game does not show its chat, new messages are announced in the log (Client::SetShowingChat).
    void SetShowingChat(bool showing) { showingChat_.store(showing); }
    // The conversation's latest `limit` messages (oldest first) when the cache is known to hold them.
    std::optional<std::vector<MessageHandle>> CachedConversation(uint64_t otherId, int32_t limit) const;
    std::vector<RelationshipHandle> Relationships() const;
    RelationshipHandle Relationship(uint64_t userId) const;
    std::optional<UserHandle> User(uint64_t userId) const;
    // Friends by group, and friends matching a name (relationships.cpp).
    std::vector<RelationshipHandle> RelationshipsByGroup(RelationshipGroupType group) const;
    std::vector<UserHandle> SearchFriends(const std::string& text) const;
    std::vector<UserApplicationProfileHandle> ProfilesNoLock(uint64_t userId) const;

    // ---- event callbacks (set from the game thread) ----
    struct Callbacks {
        std::shared_ptr<Client::LobbyCallback> lobbyCreated, lobbyUpdated, lobbyDeleted;
        std::shared_ptr<Client::LobbyMemberCallback> memberAdded, memberRemoved, memberUpdated;
        std::shared_ptr<Client::MessageCallback> messageCreated, messageUpdated;
        std::shared_ptr<Client::MessageDeletedCallback> messageDeleted;
        std::shared_ptr<Client::RelationshipCallback> relationshipCreated, relationshipDeleted;
        std::shared_ptr<Client::UserUpdatedCallback> userUpdated;
        std::shared_ptr<Client::RelationshipGroupsUpdatedCallback> relationshipGroupsUpdated;
        std::shared_ptr<Client::ActivityJoinCallback> activityJoin;
        std::shared_ptr<Client::ActivityJoinWithApplicationCallback> activityJoinWithApplication;
        std::shared_ptr<Client::ActivityInviteCallback> activityInviteCreated, activityInviteUpdated;
    };
    // The desktop user accepted an invite or clicked Join (ACTIVITY_JOIN over IPC): both join callbacks
    // are queued (presence.cpp).
    void ActivityJoined(Client::Impl& impl, uint64_t applicationId, const std::string& secret);
    // The voice layer's call info of a lobby (set once by Client::Impl, read by lobby snapshots).
    std::function<std::shared_ptr<const detail::CallInfoData>(uint64_t lobbyId)> callInfoOf;

    template <typename Callback>
    void Set(std::shared_ptr<Callback> Callbacks::*slot, Callback callback) {
        std::lock_guard lock(mutex_);
        callbacks_.*slot = callback ? std::make_shared<Callback>(std::move(callback)) : nullptr;
    }


private:
    using Events = std::vector<std::function<void()>>;
    // What a dispatch does to the cache, by its type (dispatch.cpp).
    using Route = void (*)(SocialState& state, const boost::json::object& data, Events& events);
    static const std::unordered_map<std::string_view, Route>& Routes();

    template <typename Callback, typename... Args>
    static void Announce(Events& events, const std::shared_ptr<Callback>& callback, Args... args) {
        if (callback) events.push_back([callback, args...] { (*callback)(args...); });
    }
    struct Conversation {
        std::set<uint64_t> run;  // the conversation's newest messages, without a gap
        bool complete = false;   // and there is nothing older
    };

    // Takes the current user's id and the application id from the Client (without mutex_ held).
    void Refresh(Client::Impl& impl);
    // All below under mutex_, with the events to deliver once it is released.
    uint64_t UpsertLobby(const boost::json::object& json, Events& events);
    void EraseLobby(uint64_t lobbyId, Events& events);
    void UpsertMember(uint64_t lobbyId, const boost::json::object& member, Events& events);
    void EraseMember(uint64_t lobbyId, uint64_t memberId, Events& events);
    std::shared_ptr<const detail::MessageData> UpsertMessage(const boost::json::object& json, bool announce,
                                                             bool track, Events& events);
    void EraseMessage(uint64_t messageId, Events& events);
    void UpsertUser(const boost::json::object& json, Events& events);
    void UpsertPresence(const boost::json::object& json, Events& events);
    void UpsertRelationship(const boost::json::object& json, Events& events);
    void EraseRelationship(uint64_t userId, bool platform, Events& events);
    // ACTIVITY_INVITE_CREATE / _UPDATE: the invite, to its callback (presence.cpp).
    void AnnounceInvite(const boost::json::object& json, bool updated, Events& events);
    // The friends-list group of a user (-1: not a friend), and announcing a change of it (relationships.cpp).
    int GroupOf(uint64_t userId) const;
    void Regroup(uint64_t userId, Events& events);
    void Evict(std::set<uint64_t>& ids);
    uint64_t ConversationOf(const detail::MessageData& message) const;

    std::shared_ptr<const detail::UserView> UserViewOf(uint64_t userId) const;
    MessageHandle MessageHandleOf(const std::shared_ptr<const detail::MessageData>& message) const;
    LobbyHandle LobbyHandleOf(const std::shared_ptr<const detail::LobbyData>& lobby) const;
    std::shared_ptr<const detail::LobbyView> LobbyViewOf(const std::shared_ptr<const detail::LobbyData>& lobby) const;
    std::shared_ptr<const detail::ChannelView> ChannelViewOf(uint64_t channelId) const;
    std::string DisplayContent(const std::string& raw) const;
    // Queues the events, then fetches the users that changes made wanted (without mutex_ held).
    void Deliver(Client::Impl& impl, Events& events);
    // Lobby members the cache has no user for are fetched (GET /users/{id}) so that
    // LobbyMemberHandle::User() gets one; their arrival is announced as a user update.
    void Want(uint64_t userId);
    void FetchUsers(Client::Impl& impl, const std::vector<uint64_t>& userIds);

    std::atomic<bool> showingChat_{true};
    int unseenMessages_ = 0;  // new messages announced while the chat was not shown, not logged yet
    mutable std::mutex mutex_;
    uint64_t me_ = 0;
    uint64_t applicationId_ = 0;
    std::string cdnBase_;  // the Client's web base (Refresh), for UserHandle::AvatarUrl
    Callbacks callbacks_;
    std::map<uint64_t, std::shared_ptr<const detail::LobbyData>> lobbies_;
    std::unordered_map<uint64_t, std::shared_ptr<const detail::MessageData>> messages_;
    std::map<uint64_t, std::set<uint64_t>> lobbyMessages_;  // kept message ids per lobby
    std::map<uint64_t, Conversation> conversations_;        // by the other participant
    std::map<uint64_t, std::shared_ptr<const detail::UserData>> users_;
    std::map<uint64_t, detail::RelationshipData> relationships_;
    std::map<uint64_t, int> groups_;  // the last announced GroupOf of each friend
    std::set<uint64_t> fetching_;   // users asked for and not answered yet
    std::vector<uint64_t> wanted_;  // users to ask for once the lock is released
    // Replaced as a whole and read with std::atomic_load (GetUserApplicationProfilesNoLock).
    using ProfileMap = std::map<uint64_t, std::vector<std::shared_ptr<const detail::ProfileView>>>;
    std::shared_ptr<const ProfileMap> profiles_ = std::make_shared<const ProfileMap>();
};

}  // namespace social
}  // namespace platformpp
