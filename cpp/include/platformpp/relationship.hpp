#pragma once
// The current user's relationships: platform friends, game friends (in this game only), requests and
// blocks. Client::GetRelationships lists them; RelationshipHandle is a read-only snapshot (see
// user.hpp for what that means).

#include <cstdint>
#include <memory>
#include <optional>

#include "platformpp/user.hpp"

namespace platformpp {

namespace detail {
struct RelationshipView;
}  // namespace detail

enum class RelationshipType : int32_t {
    None = 0,
    Friend = 1,
    Blocked = 2,
    PendingIncoming = 3,
    PendingOutgoing = 4,
    Implicit = 5,    // the platform relates them without a request (e.g. they often play together)
    Suggestion = 6,  // the platform suggests them as a friend
};

// How GetRelationshipsByGroup sorts friends, as the platform's friends list does.
enum class RelationshipGroupType : int32_t {
    OnlinePlayingGame = 0,  // online (or idle, do not disturb) and playing this game
    OnlineElsewhere = 1,    // online, not in this game
    Offline = 2,
};

const char* EnumToString(RelationshipType value);
const char* EnumToString(RelationshipGroupType value);

class RelationshipHandle {
public:
    static const RelationshipHandle nullobj;

    explicit RelationshipHandle(std::shared_ptr<const detail::RelationshipView> view) noexcept;  // SDK-internal
    RelationshipHandle(const RelationshipHandle&) = default;
    RelationshipHandle& operator=(const RelationshipHandle&) = default;
    RelationshipHandle(RelationshipHandle&&) noexcept = default;
    RelationshipHandle& operator=(RelationshipHandle&&) noexcept = default;
    ~RelationshipHandle() = default;

    explicit operator bool() const noexcept { return view_ != nullptr; }

    // The other user's id.
    uint64_t Id() const;
    // The relationship on the platform (across every game).
    RelationshipType PlatformRelationshipType() const;
    // The relationship in this game only.
    RelationshipType GameRelationshipType() const;
    // Whether the platform's spam filter flagged this incoming friend request.
    bool IsSpamRequest() const;
    // The other user, when the SDK knows them.
    std::optional<UserHandle> User() const;

private:
    const detail::RelationshipView& View() const;
    std::shared_ptr<const detail::RelationshipView> view_;
};

}  // namespace platformpp
