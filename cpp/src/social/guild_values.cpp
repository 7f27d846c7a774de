// The value classes of guilds (guild.hpp) and of linked lobbies and channels (lobby.hpp): object
// members in the house style, and the client's display order of guild channels.
#include <algorithm>
#include <tuple>
#include <type_traits>
#include <utility>

#include "platformpp/errors.hpp"
#include "platformpp/guild.hpp"
#include "platformpp/lobby.hpp"

namespace platformpp {

#define PLATFORMPP_NOEXCEPT_MOVE(T)                                                                     \
    static_assert(std::is_nothrow_move_constructible_v<T> && std::is_nothrow_move_assignable_v<T>); \
    void T::RequireValid() const {                                                                  \
        if (!valid_) throw NullHandleError(#T ": the instance is null (nullobj or moved from)");     \
    }

PLATFORMPP_NOEXCEPT_MOVE(LinkedLobby)
PLATFORMPP_NOEXCEPT_MOVE(LinkedChannel)
PLATFORMPP_NOEXCEPT_MOVE(GuildMinimal)
PLATFORMPP_NOEXCEPT_MOVE(GuildChannel)
#undef PLATFORMPP_NOEXCEPT_MOVE

const LinkedLobby LinkedLobby::nullobj{NullTag{}};
const LinkedChannel LinkedChannel::nullobj{NullTag{}};
const GuildMinimal GuildMinimal::nullobj{NullTag{}};
const GuildChannel GuildChannel::nullobj{NullTag{}};

// ---- LinkedLobby ----

LinkedLobby::LinkedLobby(LinkedLobby&& other) noexcept
  : valid_(std::exchange(other.valid_, false)), applicationId_(other.applicationId_), lobbyId_(other.lobbyId_) {}
LinkedLobby& LinkedLobby::operator=(LinkedLobby&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        applicationId_ = other.applicationId_;
        lobbyId_ = other.lobbyId_;
    }
    return *this;
}
uint64_t LinkedLobby::ApplicationId() const { RequireValid(); return applicationId_; }
void LinkedLobby::SetApplicationId(uint64_t ApplicationId) { RequireValid(); applicationId_ = ApplicationId; }
uint64_t LinkedLobby::LobbyId() const { RequireValid(); return lobbyId_; }
void LinkedLobby::SetLobbyId(uint64_t LobbyId) { RequireValid(); lobbyId_ = LobbyId; }

// ---- LinkedChannel ----

LinkedChannel::LinkedChannel(LinkedChannel&& other) noexcept
  : valid_(std::exchange(other.valid_, false)), id_(other.id_), guildId_(other.guildId_), name_(std::move(other.name_)) {}
LinkedChannel& LinkedChannel::operator=(LinkedChannel&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        id_ = other.id_;
        guildId_ = other.guildId_;
        name_ = std::move(other.name_);
    }
    return *this;
}
uint64_t LinkedChannel::Id() const { RequireValid(); return id_; }
void LinkedChannel::SetId(uint64_t Id) { RequireValid(); id_ = Id; }
std::string LinkedChannel::Name() const { RequireValid(); return name_; }
void LinkedChannel::SetName(std::string Name) { RequireValid(); name_ = std::move(Name); }
uint64_t LinkedChannel::GuildId() const { RequireValid(); return guildId_; }
void LinkedChannel::SetGuildId(uint64_t GuildId) { RequireValid(); guildId_ = GuildId; }

// ---- GuildMinimal ----

GuildMinimal::GuildMinimal(GuildMinimal&& other) noexcept
  : valid_(std::exchange(other.valid_, false)), id_(other.id_), name_(std::move(other.name_)) {}
GuildMinimal& GuildMinimal::operator=(GuildMinimal&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        id_ = other.id_;
        name_ = std::move(other.name_);
    }
    return *this;
}
uint64_t GuildMinimal::Id() const { RequireValid(); return id_; }
void GuildMinimal::SetId(uint64_t Id) { RequireValid(); id_ = Id; }
std::string GuildMinimal::Name() const { RequireValid(); return name_; }
void GuildMinimal::SetName(std::string Name) { RequireValid(); name_ = std::move(Name); }

// ---- GuildChannel ----

GuildChannel::GuildChannel(GuildChannel&& other) noexcept
  : valid_(std::exchange(other.valid_, false)),
    id_(other.id_),
    name_(std::move(other.name_)),
    type_(other.type_),
    position_(other.position_),
    parentId_(other.parentId_),
    isLinkable_(other.isLinkable_),
    isViewableAndWriteableByAllMembers_(other.isViewableAndWriteableByAllMembers_),
    linkedLobby_(std::move(other.linkedLobby_)) {}
GuildChannel& GuildChannel::operator=(GuildChannel&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        id_ = other.id_;
        name_ = std::move(other.name_);
        type_ = other.type_;
        position_ = other.position_;
        parentId_ = other.parentId_;
        isLinkable_ = other.isLinkable_;
        isViewableAndWriteableByAllMembers_ = other.isViewableAndWriteableByAllMembers_;
        linkedLobby_ = std::move(other.linkedLobby_);
    }
    return *this;
}
uint64_t GuildChannel::Id() const { RequireValid(); return id_; }
void GuildChannel::SetId(uint64_t Id) { RequireValid(); id_ = Id; }
std::string GuildChannel::Name() const { RequireValid(); return name_; }
void GuildChannel::SetName(std::string Name) { RequireValid(); name_ = std::move(Name); }
ChannelType GuildChannel::Type() const { RequireValid(); return type_; }
void GuildChannel::SetType(ChannelType Type) { RequireValid(); type_ = Type; }
int32_t GuildChannel::Position() const { RequireValid(); return position_; }
void GuildChannel::SetPosition(int32_t Position) { RequireValid(); position_ = Position; }
std::optional<uint64_t> GuildChannel::ParentId() const { RequireValid(); return parentId_; }
void GuildChannel::SetParentId(std::optional<uint64_t> ParentId) { RequireValid(); parentId_ = ParentId; }
bool GuildChannel::IsLinkable() const { RequireValid(); return isLinkable_; }
void GuildChannel::SetIsLinkable(bool IsLinkable) { RequireValid(); isLinkable_ = IsLinkable; }
bool GuildChannel::IsViewableAndWriteableByAllMembers() const {
    RequireValid();
    return isViewableAndWriteableByAllMembers_;
}
void GuildChannel::SetIsViewableAndWriteableByAllMembers(bool IsViewableAndWriteableByAllMembers) {
    RequireValid();
    isViewableAndWriteableByAllMembers_ = IsViewableAndWriteableByAllMembers;
}
std::optional<LinkedLobby> GuildChannel::LinkedLobby() const { RequireValid(); return linkedLobby_; }
void GuildChannel::SetLinkedLobby(std::optional<platformpp::LinkedLobby> LinkedLobby) {
    RequireValid();
    linkedLobby_ = std::move(LinkedLobby);
}

void SortGuildChannelsForDisplay(std::vector<GuildChannel>& channels) {
    // Where each channel's group sits: the channels without a category first (group 0), then the
    // categories in their own order, each directly followed by its children.
    std::vector<std::pair<int32_t, uint64_t>> categories;  // (position, id), by value: the sort moves channels
    for (const auto& channel : channels) {
        if (channel && channel.Type() == ChannelType::GuildCategory) categories.emplace_back(channel.Position(), channel.Id());
    }
    std::sort(categories.begin(), categories.end());
    auto groupOf = [&](uint64_t categoryId) -> std::size_t {
        for (std::size_t i = 0; i < categories.size(); ++i) {
            if (categories[i].second == categoryId) return i + 1;
        }
        return 0;  // a parent that is not listed: shown with the channels without a category
    };
    auto voiceLike = [](ChannelType type) { return type == ChannelType::GuildVoice || type == ChannelType::GuildStageVoice; };
    auto key = [&](const GuildChannel& channel) {
        // (group, the category itself before its children, text-like before voice, position, id)
        if (!channel) return std::make_tuple(std::size_t{0}, 0, 0, int32_t{0}, uint64_t{0});
        if (channel.Type() == ChannelType::GuildCategory) {
            return std::make_tuple(groupOf(channel.Id()), 0, 0, channel.Position(), channel.Id());
        }
        const auto parent = channel.ParentId();
        return std::make_tuple(parent ? groupOf(*parent) : std::size_t{0}, 1, voiceLike(channel.Type()) ? 1 : 0,
                               channel.Position(), channel.Id());
    };
    std::stable_sort(channels.begin(), channels.end(),
                     [&](const GuildChannel& a, const GuildChannel& b) { return key(a) < key(b); });
}

}  // namespace platformpp
