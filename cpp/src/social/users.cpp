// Relationships, users and application profiles (docs/emulator-gateway.md: Relationships,
// Application profiles and game stats).
#include <boost/json.hpp>

#include <cctype>

#include "social/common.hpp"

namespace platformpp {

using client::Begin;
using client::Needs;
using client::Request;

namespace {

// What a relationship call needs in the cache first, so a stale call never turns into another
// action on the server (a PUT that should accept would otherwise send a new request).
struct Expect {
    bool game = false;
    RelationshipType type = RelationshipType::None;
    const char* rule = nullptr;  // the ValidationError's rule when the cache disagrees
};

void Relate(Client::Impl& impl, uint64_t userId, Client::ResultCallback callback, bool game, const char* method,
            int type, std::optional<Expect> expect) {
    const auto call = Begin(impl, Needs::Token, std::move(callback), [&] {
        social::RequireId(userId, "userId");
        if (!expect) return;
        const RelationshipHandle current = impl.social->Relationship(userId);
        const auto have = expect->game ? current.GameRelationshipType() : current.PlatformRelationshipType();
        if (have != expect->type) throw ValidationError("userId", expect->rule);
    });
    const std::string base = game ? "/users/@me/game-relationships/" : "/users/@me/relationships/";
    boost::json::value body = type != 0 ? boost::json::value(boost::json::object{{"type", type}}) : boost::json::value();
    if (call) call->Rest(Request(method, base + std::to_string(userId), std::move(body), std::string(method) + " " + base + "{id}"),
                         [&impl, userId, game](const boost::json::value& json) {
                             social::ApplyRelationshipAnswer(impl, userId, game, json);
                         });
}

constexpr int kFriend = 1;
constexpr int kBlock = 2;

Expect Incoming(bool game) { return {game, RelationshipType::PendingIncoming, "has no pending incoming friend request from this user"}; }
Expect Outgoing(bool game) { return {game, RelationshipType::PendingOutgoing, "has no pending outgoing friend request to this user"}; }
Expect Friends(bool game) { return {game, RelationshipType::Friend, "is not a friend"}; }

}  // namespace

std::vector<RelationshipHandle> Client::GetRelationships() const { return RequireImpl().social->Relationships(); }
RelationshipHandle Client::GetRelationshipHandle(uint64_t userId) const {
    return RequireImpl().social->Relationship(userId);
}

void Client::SendFriendRequestById(uint64_t userId, ResultCallback callback) {
    Relate(RequireImpl(), userId, std::move(callback), false, "PUT", kFriend, std::nullopt);
}
void Client::SendGameFriendRequestById(uint64_t userId, ResultCallback callback) {
    Relate(RequireImpl(), userId, std::move(callback), true, "PUT", kFriend, std::nullopt);
}
void Client::AcceptFriendRequest(uint64_t userId, ResultCallback callback) {
    Relate(RequireImpl(), userId, std::move(callback), false, "PUT", kFriend, Incoming(false));
}
void Client::AcceptGameFriendRequest(uint64_t userId, ResultCallback callback) {
    Relate(RequireImpl(), userId, std::move(callback), true, "PUT", kFriend, Incoming(true));
}
void Client::RejectFriendRequest(uint64_t userId, ResultCallback callback) {
    Relate(RequireImpl(), userId, std::move(callback), false, "DELETE", 0, Incoming(false));
}
void Client::RejectGameFriendRequest(uint64_t userId, ResultCallback callback) {
    Relate(RequireImpl(), userId, std::move(callback), true, "DELETE", 0, Incoming(true));
}
void Client::CancelFriendRequest(uint64_t userId, ResultCallback callback) {
    Relate(RequireImpl(), userId, std::move(callback), false, "DELETE", 0, Outgoing(false));
}
void Client::CancelGameFriendRequest(uint64_t userId, ResultCallback callback) {
    Relate(RequireImpl(), userId, std::move(callback), true, "DELETE", 0, Outgoing(true));
}
void Client::RemoveFriend(uint64_t userId, ResultCallback callback) {
    Relate(RequireImpl(), userId, std::move(callback), false, "DELETE", 0, Friends(false));
}
void Client::RemoveGameFriend(uint64_t userId, ResultCallback callback) {
    Relate(RequireImpl(), userId, std::move(callback), true, "DELETE", 0, Friends(true));
}
void Client::BlockUser(uint64_t userId, ResultCallback callback) {
    Relate(RequireImpl(), userId, std::move(callback), false, "PUT", kBlock, std::nullopt);
}
void Client::UnblockUser(uint64_t userId, ResultCallback callback) {
    Relate(RequireImpl(), userId, std::move(callback), false, "DELETE", 0,
           Expect{false, RelationshipType::Blocked, "is not blocked"});
}

using Slots = social::SocialState::Callbacks;
void Client::SetRelationshipCreatedCallback(RelationshipCreatedCallback callback) {
    RequireImpl().social->Set(&Slots::relationshipCreated, std::move(callback));
}
void Client::SetRelationshipDeletedCallback(RelationshipDeletedCallback callback) {
    RequireImpl().social->Set(&Slots::relationshipDeleted, std::move(callback));
}

UserHandle Client::GetCurrentUser() const {
    auto me = GetCurrentUserV2();
    return me ? std::move(*me) : UserHandle::nullobj;
}

std::optional<UserHandle> Client::GetCurrentUserV2() const {
    Impl& impl = RequireImpl();
    uint64_t me = 0;
    {
        std::lock_guard lock(impl.mutex);
        me = impl.currentUserId;
    }
    return me == 0 ? std::nullopt : impl.social->User(me);
}

const char* EnumToString(UserHandle::AvatarType value) {
    switch (value) {
        case UserHandle::AvatarType::Gif: return "Gif";
        case UserHandle::AvatarType::Webp: return "Webp";
        case UserHandle::AvatarType::Png: return "Png";
        case UserHandle::AvatarType::Jpeg: return "Jpeg";
    }
    return "Unknown";
}

std::string UserHandle::AvatarTypeToString(AvatarType type) { return EnumToString(type); }

namespace {

// The CDN's file extension of each avatar format.
const char* Extension(UserHandle::AvatarType type) {
    switch (type) {
        case UserHandle::AvatarType::Gif: return "gif";
        case UserHandle::AvatarType::Webp: return "webp";
        case UserHandle::AvatarType::Png: return "png";
        case UserHandle::AvatarType::Jpeg: return "jpeg";
    }
    throw ValidationError("type", "is not an AvatarType");
}

constexpr int kDefaultAvatars = 6;  // the platform's default avatars, picked from the id's timestamp bits

}  // namespace

std::string UserHandle::AvatarUrl(AvatarType animatedType, AvatarType staticType) const {
    const auto& view = View();
    const auto& user = *view.user;
    if (!user.avatar || user.avatar->empty()) {
        return view.cdnBase + "/embed/avatars/" + std::to_string((user.id >> 22) % kDefaultAvatars) + ".png";
    }
    const std::string& hash = *user.avatar;
    const bool animated = hash.rfind("a_", 0) == 0;
    if (!animated && staticType == AvatarType::Gif) {
        throw ValidationError("staticType", "Gif is served only for animated avatars");
    }
    return view.cdnBase + "/avatars/" + std::to_string(user.id) + "/" + hash + "." +
           Extension(animated ? animatedType : staticType);
}

// ---- UserApplicationProfileHandle: the members of SDK 1.10 ----

ExternalIdentityProviderType UserApplicationProfileHandle::ProviderType() const {
    // The emulator stores the auth type the identity was created with (any case in old worlds).
    std::string type = View().providerType;
    for (auto& c : type) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    auto starts = [&](const char* prefix) { return type.rfind(prefix, 0) == 0; };
    if (type.empty()) return ExternalIdentityProviderType::None;
    if (type == "OIDC") return ExternalIdentityProviderType::OIDC;
    if (starts("EPIC_ONLINE_SERVICES")) return ExternalIdentityProviderType::EpicOnlineServices;
    if (starts("STEAM")) return ExternalIdentityProviderType::Steam;
    if (starts("UNITY")) return ExternalIdentityProviderType::Unity;
    if (starts("BOT_ISSUED")) return ExternalIdentityProviderType::PlatformBot;
    return ExternalIdentityProviderType::Unknown;  // e.g. APPLE_ID_TOKEN: no value in the reference
}
std::optional<std::string> UserApplicationProfileHandle::ProviderId() const { return View().providerId; }
std::string UserApplicationProfileHandle::Username() const { return View().username; }
std::string UserApplicationProfileHandle::AvatarHash() const { return View().avatarHash; }

void Client::OpenConnectedGamesSettingsInPlatform(OpenConnectedGamesSettingsInPlatformCallback callback) {
    Impl& impl = RequireImpl();
    const auto call = Begin(impl, Needs::Token, std::move(callback));
    if (!call) return;
    const auto shared = call->callback;
    const auto me = GetCurrentUserV2();
    std::shared_ptr<AuthorizeUrlOpener> opener;
    {
        std::lock_guard lock(impl.mutex);
        opener = impl.opener;
    }
    if ((me && me->IsProvisional()) || !opener) {
        auto failure = ClientResult::Failure(
            ErrorType::ValidationError,
            opener ? "OpenConnectedGamesSettingsInPlatform: a provisional account has no platform settings; merge it "
                     "into a full account first"
                   : "OpenConnectedGamesSettingsInPlatform: no URL opener is set (SetAuthorizeUrlOpener)");
        return client::Answer(impl, shared, std::move(failure), std::tuple<>());
    }
    const std::string url = impl.webBase + "/settings/connected-games";
    impl.Deliver([opener, shared, url] {
        (*opener)(url);
        (*shared)(ClientResult::Success());
    });
}

std::optional<UserHandle> Client::GetUser(uint64_t userId) const { return RequireImpl().social->User(userId); }

void Client::SetUserUpdatedCallback(UserUpdatedCallback callback) {
    RequireImpl().social->Set(&Slots::userUpdated, std::move(callback));
}

void Client::GetUserApplicationProfiles(uint64_t userId, GetUserApplicationProfilesCallback callback) {
    Impl& impl = RequireImpl();
    const auto call = Begin(impl, Needs::Token, std::move(callback), [&] { social::RequireId(userId, "userId"); });
    if (call) call->Rest(Request("GET", "/users/" + std::to_string(userId) + "/application-profiles", nullptr,
                                 "GET /users/{id}/application-profiles"),
                         [&impl, userId](const boost::json::value& json) { return impl.social->ApplyProfiles(userId, json); });
}

std::vector<UserApplicationProfileHandle> Client::GetUserApplicationProfilesNoLock(uint64_t userId) const {
    return RequireImpl().social->ProfilesNoLock(userId);
}

}  // namespace platformpp
