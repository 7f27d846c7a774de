#pragma once
// Lobbies: groups of players of one game that share metadata and messages. Client::CreateOrJoinLobby
// joins one by secret; Client::GetLobbyHandle returns a read-only SNAPSHOT of a lobby as the Client's
// cache held it at that moment (kept current from the Gateway; the lobby callbacks say when it
// changed). Snapshots never change and may be kept and used from any thread; see user.hpp for the
// handle semantics.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "platformpp/call.hpp"
#include "platformpp/user.hpp"

namespace platformpp {

// A lobby linked to a guild channel (GuildChannel::LinkedLobby): which game's lobby it is.
// Value class in the house style (see authorization.hpp).
class LinkedLobby {
public:
    static const LinkedLobby nullobj;

    LinkedLobby() = default;
    LinkedLobby(const LinkedLobby&) = default;
    LinkedLobby& operator=(const LinkedLobby&) = default;
    LinkedLobby(LinkedLobby&& other) noexcept;
    LinkedLobby& operator=(LinkedLobby&& other) noexcept;
    ~LinkedLobby() = default;

    explicit operator bool() const noexcept { return valid_; }

    uint64_t ApplicationId() const;
    void SetApplicationId(uint64_t ApplicationId);
    uint64_t LobbyId() const;
    void SetLobbyId(uint64_t LobbyId);

private:
    struct NullTag {};
    explicit LinkedLobby(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    uint64_t applicationId_ = 0, lobbyId_ = 0;
};

// The guild channel a lobby is linked to (LobbyHandle::LinkedChannel): its messages and the lobby's
// are the same conversation (Client::LinkChannelToLobby).
class LinkedChannel {
public:
    static const LinkedChannel nullobj;

    LinkedChannel() = default;
    LinkedChannel(const LinkedChannel&) = default;
    LinkedChannel& operator=(const LinkedChannel&) = default;
    LinkedChannel(LinkedChannel&& other) noexcept;
    LinkedChannel& operator=(LinkedChannel&& other) noexcept;
    ~LinkedChannel() = default;

    explicit operator bool() const noexcept { return valid_; }

    uint64_t Id() const;
    void SetId(uint64_t Id);
    std::string Name() const;
    void SetName(std::string Name);
    uint64_t GuildId() const;
    void SetGuildId(uint64_t GuildId);

private:
    struct NullTag {};
    explicit LinkedChannel(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    uint64_t id_ = 0, guildId_ = 0;
    std::string name_;
};

namespace detail {
struct LobbyView;
struct LobbyMemberView;
}  // namespace detail

class LobbyMemberHandle {
public:
    static const LobbyMemberHandle nullobj;

    explicit LobbyMemberHandle(std::shared_ptr<const detail::LobbyMemberView> view) noexcept;  // SDK-internal
    LobbyMemberHandle(const LobbyMemberHandle&) = default;
    LobbyMemberHandle& operator=(const LobbyMemberHandle&) = default;
    LobbyMemberHandle(LobbyMemberHandle&&) noexcept = default;
    LobbyMemberHandle& operator=(LobbyMemberHandle&&) noexcept = default;
    ~LobbyMemberHandle() = default;

    explicit operator bool() const noexcept { return view_ != nullptr; }

    uint64_t Id() const;  // the member's user id
    uint64_t LobbyId() const;
    std::unordered_map<std::string, std::string> Metadata() const;
    // Member flag CanLinkLobby (1 << 0): may link the lobby to a guild channel.
    bool CanLinkLobby() const;
    // Set by the game's backend; read-only in the SDK.
    std::optional<std::string> AdditionalName() const;
    // The member as a user, when the SDK knows them: it fetches lobby members' users as they appear
    // (Client::SetUserUpdatedCallback announces each arrival).
    std::optional<UserHandle> User() const;
    // Whether the member is connected to the platform now (online, or the current user).
    bool Connected() const;

private:
    const detail::LobbyMemberView& View() const;
    std::shared_ptr<const detail::LobbyMemberView> view_;
};

class LobbyHandle {
public:
    static const LobbyHandle nullobj;

    explicit LobbyHandle(std::shared_ptr<const detail::LobbyView> view) noexcept;  // SDK-internal
    LobbyHandle(const LobbyHandle&) = default;
    LobbyHandle& operator=(const LobbyHandle&) = default;
    LobbyHandle(LobbyHandle&&) noexcept = default;
    LobbyHandle& operator=(LobbyHandle&&) noexcept = default;
    ~LobbyHandle() = default;

    explicit operator bool() const noexcept { return view_ != nullptr; }

    uint64_t Id() const;
    uint64_t ApplicationId() const;
    std::unordered_map<std::string, std::string> Metadata() const;
    std::vector<uint64_t> LobbyMemberIds() const;
    std::vector<LobbyMemberHandle> LobbyMembers() const;
    std::optional<LobbyMemberHandle> GetLobbyMemberHandle(uint64_t memberId) const;
    // The guild channel the lobby is linked to, if any (Client::LinkChannelToLobby).
    std::optional<platformpp::LinkedChannel> LinkedChannel() const;
    // The lobby's call as this Client's voice states show it; nullopt when nobody is in it.
    std::optional<CallInfoHandle> GetCallInfoHandle() const;

private:
    const detail::LobbyView& View() const;
    std::shared_ptr<const detail::LobbyView> view_;
};

}  // namespace platformpp
