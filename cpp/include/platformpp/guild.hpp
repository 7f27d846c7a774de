#pragma once
// Guilds of the current user and their channels (Client::GetUserGuilds, Client::GetGuildChannels).
// Value classes in the house style (see authorization.hpp).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace platformpp {

// The platform's channel types (WIRE.md).
enum class ChannelType : int32_t {
    GuildText = 0,
    Dm = 1,
    GuildVoice = 2,
    GroupDm = 3,
    GuildCategory = 4,
    GuildNews = 5,
    GuildNewsThread = 10,
    GuildPublicThread = 11,
    GuildPrivateThread = 12,
    GuildStageVoice = 13,
    GuildForum = 15,
    GuildMedia = 16,
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
    // The category it belongs to, if any.
    std::optional<uint64_t> ParentCategoryId() const;
    void SetParentCategoryId(std::optional<uint64_t> ParentCategoryId);

private:
    struct NullTag {};
    explicit GuildChannel(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    uint64_t id_ = 0;
    std::string name_;
    ChannelType type_ = ChannelType::GuildText;
    int32_t position_ = 0;
    std::optional<uint64_t> parentCategoryId_;
};

// Sorts channels in the order the platform's client displays them: channels without a category
// first, then each category followed by its channels; within a group text-like channels before voice
// and stage channels, then by Position, then by Id. GetGuildChannels returns them in this order.
void SortGuildChannelsForDisplay(std::vector<GuildChannel>& channels);

}  // namespace platformpp
