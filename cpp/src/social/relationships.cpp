// Relationships: friend requests by username, removing a friend everywhere, the
// friends list's groups (and their change events), searching friends by name, spam-flagged requests.
#include <boost/json.hpp>

#include <algorithm>
#include <cctype>

#include "social/common.hpp"

namespace platformpp {

using client::Begin;
using client::Needs;
using client::Request;

namespace {

constexpr int kFriend = 1;

bool IsFriend(const detail::RelationshipData& relationship) {
    return relationship.type == kFriend || relationship.gameType == kFriend;
}

std::string Lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

std::string DisplayNameOf(const detail::UserData& user) { return user.globalName.value_or(user.username); }

// POST /users/@me/relationships or /users/@me/game-relationships {username}: a request to whoever has
// that unique username.
void RequestByUsername(Client::Impl& impl, const std::string& username, Client::SendFriendRequestCallback cb,
                       bool game) {
    const auto call = Begin(impl, Needs::Token, std::move(cb), [&] { social::RequireLength(username, "username", 1, 32); });
    if (call) call->Rest(Request("POST", game ? "/users/@me/game-relationships" : "/users/@me/relationships",
                                 boost::json::object{{"username", username}}),
                         [&impl](const boost::json::value& json) {
                             if (json.is_object()) impl.social->ApplyRelationship(impl, json);
                         });
}

}  // namespace

const char* EnumToString(RelationshipType value) {
    switch (value) {
        case RelationshipType::None: return "None";
        case RelationshipType::Friend: return "Friend";
        case RelationshipType::Blocked: return "Blocked";
        case RelationshipType::PendingIncoming: return "PendingIncoming";
        case RelationshipType::PendingOutgoing: return "PendingOutgoing";
        case RelationshipType::Implicit: return "Implicit";
        case RelationshipType::Suggestion: return "Suggestion";
    }
    return "Unknown";
}

const char* EnumToString(RelationshipGroupType value) {
    switch (value) {
        case RelationshipGroupType::OnlinePlayingGame: return "OnlinePlayingGame";
        case RelationshipGroupType::OnlineElsewhere: return "OnlineElsewhere";
        case RelationshipGroupType::Offline: return "Offline";
    }
    return "Unknown";
}

bool RelationshipHandle::IsSpamRequest() const { return View().relationship.spamRequest; }

namespace social {

int SocialState::GroupOf(uint64_t userId) const {
    const auto relationship = relationships_.find(userId);
    if (relationship == relationships_.end() || !IsFriend(relationship->second)) return -1;
    const auto user = users_.find(userId);
    const std::string status = user == users_.end() ? "offline" : user->second->status;
    if (status != "online" && status != "idle" && status != "dnd") {
        return static_cast<int>(RelationshipGroupType::Offline);
    }
    const bool playing = std::any_of(user->second->activities.begin(), user->second->activities.end(),
                                     [this](const Activity& activity) {
                                         return activity.ApplicationId().value_or(0) == applicationId_;
                                     });
    return static_cast<int>(playing ? RelationshipGroupType::OnlinePlayingGame : RelationshipGroupType::OnlineElsewhere);
}

void SocialState::Regroup(uint64_t userId, Events& events) {
    const int group = GroupOf(userId);
    const auto found = groups_.find(userId);
    const int before = found == groups_.end() ? -1 : found->second;
    if (group == before) return;
    if (group < 0) {
        groups_.erase(userId);
    } else {
        groups_[userId] = group;
    }
    Announce(events, callbacks_.relationshipGroupsUpdated, userId);
}

std::vector<RelationshipHandle> SocialState::RelationshipsByGroup(RelationshipGroupType group) const {
    std::lock_guard lock(mutex_);
    std::vector<std::pair<std::string, RelationshipHandle>> found;
    for (const auto& [id, relationship] : relationships_) {
        if (GroupOf(id) != static_cast<int>(group)) continue;
        auto view = UserViewOf(id);
        std::string name = view && view->user ? Lower(DisplayNameOf(*view->user)) : std::string();
        found.emplace_back(std::move(name), RelationshipHandle(std::make_shared<const detail::RelationshipView>(
                                                detail::RelationshipView{relationship, std::move(view)})));
    }
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<RelationshipHandle> handles;
    for (auto& item : found) handles.push_back(std::move(item.second));
    return handles;
}

std::vector<UserHandle> SocialState::SearchFriends(const std::string& text) const {
    const std::string needle = Lower(text);
    std::lock_guard lock(mutex_);
    std::vector<UserHandle> users;
    for (const auto& [id, relationship] : relationships_) {
        if (!IsFriend(relationship)) continue;
        auto view = UserViewOf(id);
        if (!view || !view->user) continue;
        if (Lower(view->user->username).find(needle) == std::string::npos &&
            Lower(DisplayNameOf(*view->user)).find(needle) == std::string::npos)
            continue;
        users.emplace_back(std::move(view));
    }
    return users;
}

}  // namespace social

void Client::SendPlatformFriendRequest(std::string const& username, SendFriendRequestCallback cb) {
    RequestByUsername(RequireImpl(), username, std::move(cb), false);
}

void Client::SendGameFriendRequest(std::string const& username, SendFriendRequestCallback cb) {
    RequestByUsername(RequireImpl(), username, std::move(cb), true);
}

void Client::RemovePlatformAndGameFriend(uint64_t userId, UpdateRelationshipCallback cb) {
    Impl& impl = RequireImpl();
    const auto call = Begin(impl, Needs::Token, std::move(cb), [&] { social::RequireId(userId, "userId"); });
    if (!call) return;
    // The platform friendship first, then the game one; DELETE of a relationship that is not there
    // answers 204 as well, so either may be absent.
    auto remove = [&impl, userId, token = call->token](bool game, std::function<void(ClientResult)> then) {
        const std::string base = game ? "/users/@me/game-relationships/" : "/users/@me/relationships/";
        auto request = Request("DELETE", base + std::to_string(userId), nullptr, "DELETE " + base + "{id}");
        request.token = token;
        impl.Call(std::move(request), [&impl, userId, game, then](ClientResult result, boost::json::value json) {
            if (result.Successful()) social::ApplyRelationshipAnswer(impl, userId, game, json);
            then(std::move(result));
        });
    };
    remove(false, [&impl, shared = call->callback, remove](ClientResult platform) {
        if (!platform.Successful()) return client::Answer(impl, shared, std::move(platform), std::tuple<>());
        remove(true, [&impl, shared](ClientResult game) { client::Answer(impl, shared, std::move(game), std::tuple<>()); });
    });
}

void Client::SendPlatformFriendRequestById(uint64_t userId, UpdateRelationshipCallback cb) {
    SendFriendRequestById(userId, std::move(cb));
}
void Client::AcceptPlatformFriendRequest(uint64_t userId, UpdateRelationshipCallback cb) {
    AcceptFriendRequest(userId, std::move(cb));
}
void Client::RejectPlatformFriendRequest(uint64_t userId, UpdateRelationshipCallback cb) {
    RejectFriendRequest(userId, std::move(cb));
}
void Client::CancelPlatformFriendRequest(uint64_t userId, UpdateRelationshipCallback cb) {
    CancelFriendRequest(userId, std::move(cb));
}

std::vector<UserHandle> Client::SearchFriendsByUsername(std::string searchStr) const {
    return RequireImpl().social->SearchFriends(searchStr);
}

std::vector<RelationshipHandle> Client::GetRelationshipsByGroup(RelationshipGroupType groupType) const {
    return RequireImpl().social->RelationshipsByGroup(groupType);
}

void Client::SetRelationshipGroupsUpdatedCallback(RelationshipGroupsUpdatedCallback cb) {
    RequireImpl().social->Set(&social::SocialState::Callbacks::relationshipGroupsUpdated, std::move(cb));
}

}  // namespace platformpp
