#pragma once
// Guilds of the current user and their channels (Client::GetUserGuilds, Client::GetGuildChannels).
// Value classes in the house style (see authorization.hpp).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "platformpp/lobby.hpp"

namespace platformpp {

// The platform's channel types (docs/wire.md).
enum class ChannelType : int32_t {
    GuildText = 0,
    Dm = 1,
    GuildVoice = 2,
    GroupDm = 3,
    GuildCategory = 4,
    GuildNews = 5,
    GuildStore = 6,
    GuildNewsThread = 10,
    GuildPublicThread = 11,
    GuildPrivateThread = 12,
    GuildStageVoice = 13,
    GuildDirectory = 14,
    GuildForum = 15,
    GuildMedia = 16,
    Lobby = 17,        // a lobby's own channel (MessageHandle::Channel of a lobby message)
    EphemeralDm = 18,  // a game direct message's conversation (MessageHandle::Channel of a direct message)
};

namespace detail {
struct ChannelView;
}  // namespace detail

// A channel the Client knows (Client::GetChannelHandle, MessageHandle::Channel): a lobby's channel
// (its id is the lobby's), a game direct message conversation (its id is the other user's, as
// MessageHandle::ChannelId says), or the guild channel a lobby of the user is linked to. A read-only
// snapshot with the handle semantics of user.hpp.
class ChannelHandle {
public:
    static const ChannelHandle nullobj;

    explicit ChannelHandle(std::shared_ptr<const detail::ChannelView> view) noexcept;  // SDK-internal
    ChannelHandle(const ChannelHandle&) = default;
    ChannelHandle& operator=(const ChannelHandle&) = default;
    ChannelHandle(ChannelHandle&&) noexcept = default;
    ChannelHandle& operator=(ChannelHandle&&) noexcept = default;
    ~ChannelHandle() = default;

    explicit operator bool() const noexcept { return view_ != nullptr; }

    uint64_t Id() const;
    // The guild channel's name; empty for a lobby or a direct message conversation.
    std::string Name() const;
    // The users in it: a lobby's members; for a direct message conversation, both participants.
    // Empty for a guild channel.
    std::vector<uint64_t> Recipients() const;
    ChannelType Type() const;

private:
    const detail::ChannelView& View() const;
    std::shared_ptr<const detail::ChannelView> view_;
};

class GuildMinimal {
public:
    static const GuildMinimal nullobj;

    GuildMinimal() = default;
    GuildMinimal(const GuildMinimal&) = default;
    GuildMinimal& operator=(const GuildMinimal&) = default;
    GuildMinimal(GuildMinimal&& other) noexcept;
    GuildMinimal& operator=(GuildMinimal&& other) noexcept;
    ~GuildMinimal() = default;

    explicit operator bool() const noexcept { return valid_; }

    uint64_t Id() const;
    void SetId(uint64_t Id);
    std::string Name() const;
    void SetName(std::string Name);

private:
    struct NullTag {};
    explicit GuildMinimal(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    uint64_t id_ = 0;
    std::string name_;
};

class GuildChannel {
public:
    static const GuildChannel nullobj;

    GuildChannel() = default;
    GuildChannel(const GuildChannel&) = default;
    GuildChannel& operator=(const GuildChannel&) = default;
    GuildChannel(GuildChannel&& other) noexcept;
    GuildChannel& operator=(GuildChannel&& other) noexcept;
    ~GuildChannel() = default;

    explicit operator bool() const noexcept { return valid_; }

    uint64_t Id() const;
    void SetId(uint64_t Id);
    std::string Name() const;
    void SetName(std::string Name);
    ChannelType Type() const;
    void SetType(ChannelType Type);
    // The position within its group (its category, or the channels without one).
    int32_t Position() const;
    void SetPosition(int32_t Position);
    // The category it belongs to, if any (the wire's parent_id).
    std::optional<uint64_t> ParentId() const;
    void SetParentId(std::optional<uint64_t> ParentId);
    // Whether a lobby may be linked to it (Client::LinkChannelToLobby): a text or announcement
    // channel the user can view and write in.
    bool IsLinkable() const;
    void SetIsLinkable(bool IsLinkable);
    // Whether every member of the guild can view it and send messages in it (no overwrite takes
    // VIEW_CHANNEL or SEND_MESSAGES from @everyone): a lobby linked to it is seen by the whole guild.
    bool IsViewableAndWriteableByAllMembers() const;
    void SetIsViewableAndWriteableByAllMembers(bool IsViewableAndWriteableByAllMembers);
    // The lobby linked to it, if any.
    std::optional<platformpp::LinkedLobby> LinkedLobby() const;
    void SetLinkedLobby(std::optional<platformpp::LinkedLobby> LinkedLobby);

private:
    struct NullTag {};
    explicit GuildChannel(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    uint64_t id_ = 0;
    std::string name_;
    ChannelType type_ = ChannelType::GuildText;
    int32_t position_ = 0;
    std::optional<uint64_t> parentId_;
    bool isLinkable_ = false, isViewableAndWriteableByAllMembers_ = false;
    std::optional<platformpp::LinkedLobby> linkedLobby_;
};

// Sorts channels in the order the platform's client displays them: channels without a category
// first, then each category followed by its channels; within a group text-like channels before voice
// and stage channels, then by Position, then by Id. GetGuildChannels returns them in this order.
void SortGuildChannelsForDisplay(std::vector<GuildChannel>& channels);

}  // namespace platformpp
