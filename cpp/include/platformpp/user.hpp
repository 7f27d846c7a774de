#pragma once
// Users as the SDK knows them: the current user, friends and other relationships, lobby members and
// message authors. Client::GetUser returns one; Client::SetUserUpdatedCallback says when one changed.
//
// Handles here are read-only SNAPSHOTS of the Client's cache at the moment they were obtained: they
// never change and are safe to keep and to use from any thread. Ask the Client again for the current
// state. Copying is cheap (the snapshot is shared, and immutable); a moved-from handle is invalid,
// `operator bool` tells a valid handle from `nullobj`, and using an invalid one throws NullHandleError.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "platformpp/activity.hpp"

namespace platformpp {

namespace detail {
struct UserView;
struct ProfileView;
}  // namespace detail

class RelationshipHandle;

// A user's online status as their friends see it.
enum class StatusType : int32_t {
    Online = 0,
    Offline = 1,
    Blocked = 2,
    Idle = 3,
    Dnd = 4,
    Invisible = 5,
    Streaming = 6,
    Unknown = 7,
};

// The kind of external identity provider behind a UserApplicationProfileHandle. The platform's
// provisional auth types map onto it: OIDC (and its Apple and PlayStation Network id tokens, which
// the reference does not list: Unknown), Epic Online Services (access or id token), Steam session
// ticket, Unity services, and the game's own bot-issued tokens (PlatformBot); None when the profile
// carries game stats but no external identity.
enum class ExternalIdentityProviderType : int32_t {
    OIDC = 0,
    EpicOnlineServices = 1,
    Steam = 2,
    Unity = 3,
    PlatformBot = 4,
    None = 5,
    Unknown = 6,
};

// Game identity data from an external provider (seed: GetUserApplicationProfiles): one per external
// identity the user has in this game, carrying the game stats written by the game's backend.
class UserApplicationProfileHandle {
public:
    static const UserApplicationProfileHandle nullobj;

    explicit UserApplicationProfileHandle(std::shared_ptr<const detail::ProfileView> view) noexcept;  // SDK-internal
    UserApplicationProfileHandle(const UserApplicationProfileHandle&) = default;
    UserApplicationProfileHandle& operator=(const UserApplicationProfileHandle&) = default;
    UserApplicationProfileHandle(UserApplicationProfileHandle&&) noexcept = default;
    UserApplicationProfileHandle& operator=(UserApplicationProfileHandle&&) noexcept = default;
    ~UserApplicationProfileHandle() = default;

    explicit operator bool() const noexcept { return view_ != nullptr; }

    uint64_t ApplicationId() const;
    uint64_t UserId() const;
    // The provider's kind (the platform's auth type, e.g. "STEAM_SESSION_TICKET", typed); None when the
    // user has game stats but no external identity in the game.
    ExternalIdentityProviderType ProviderType() const;
    // The provider's own id (an OIDC issuer) when the platform names one; the emulator names none.
    std::optional<std::string> ProviderId() const;
    // The name and avatar hash the profile shows (the linked account's, in the emulator); empty when
    // the profile has no external identity.
    std::string Username() const;
    std::string AvatarHash() const;
    // The user's id at that provider.
    std::string ProviderIssuedUserId() const;
    // The game stats (rank_name, total_wins, playtime_hours and developer fields) as a JSON object.
    std::string Metadata() const;

private:
    const detail::ProfileView& View() const;
    std::shared_ptr<const detail::ProfileView> view_;
};

class UserHandle {
public:
    static const UserHandle nullobj;

    explicit UserHandle(std::shared_ptr<const detail::UserView> view) noexcept;  // SDK-internal
    UserHandle(const UserHandle&) = default;
    UserHandle& operator=(const UserHandle&) = default;
    UserHandle(UserHandle&&) noexcept = default;
    UserHandle& operator=(UserHandle&&) noexcept = default;
    ~UserHandle() = default;

    explicit operator bool() const noexcept { return view_ != nullptr; }

    // Image formats of an avatar.
    enum class AvatarType : int32_t {
        Gif = 0,
        Webp = 1,
        Png = 2,
        Jpeg = 3,
    };
    // "Gif", "Webp", "Png", "Jpeg".
    static std::string AvatarTypeToString(AvatarType type);

    uint64_t Id() const;
    std::string Username() const;
    std::optional<std::string> GlobalName() const;
    // GlobalName when set, else Username.
    std::string DisplayName() const;
    std::optional<std::string> Avatar() const;  // the avatar hash
    // The avatar's CDN URL ({cdn}/avatars/{id}/{hash}.{ext}, the CDN at the Client's web base): an
    // animated avatar (hash "a_...") in animatedType's format, another in staticType's; with no avatar,
    // the platform's default avatar {cdn}/embed/avatars/{index}.png (index = (id >> 22) % 6).
    std::string AvatarUrl(AvatarType animatedType, AvatarType staticType) const;
    bool IsProvisional() const;
    // Offline for users whose presence the current user cannot see (not friends).
    StatusType Status() const;
    // The rich presence this user shows in the current game, if any.
    std::optional<Activity> GameActivity() const;
    // All of the user's visible activities (custom status and games).
    std::vector<Activity> Activities() const;
    // The current user's relationship with this user (types None when there is none).
    RelationshipHandle Relationship() const;
    // The profiles fetched by Client::GetUserApplicationProfiles (empty until then).
    std::vector<UserApplicationProfileHandle> UserApplicationProfiles() const;

private:
    const detail::UserView& View() const;
    std::shared_ptr<const detail::UserView> view_;
};

const char* EnumToString(UserHandle::AvatarType value);

}  // namespace platformpp

#include "platformpp/relationship.hpp"
