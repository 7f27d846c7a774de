// The read-only handles: snapshots of the social caches (social_state.hpp builds their views).
#include <type_traits>

#include "platformpp/errors.hpp"
#include "platformpp/guild.hpp"
#include "platformpp/lobby.hpp"
#include "platformpp/message.hpp"
#include "platformpp/relationship.hpp"
#include "platformpp/user.hpp"
#include "social/social_state.hpp"

namespace platformpp {

static_assert(std::is_nothrow_move_constructible_v<LobbyHandle> && std::is_nothrow_move_assignable_v<LobbyHandle>);
static_assert(std::is_nothrow_move_constructible_v<LobbyMemberHandle> &&
              std::is_nothrow_move_assignable_v<LobbyMemberHandle>);
static_assert(std::is_nothrow_move_constructible_v<MessageHandle> && std::is_nothrow_move_assignable_v<MessageHandle>);
static_assert(std::is_nothrow_move_constructible_v<ChannelHandle> && std::is_nothrow_move_assignable_v<ChannelHandle>);
static_assert(std::is_nothrow_move_constructible_v<UserHandle> && std::is_nothrow_move_assignable_v<UserHandle>);
static_assert(std::is_nothrow_move_constructible_v<RelationshipHandle> &&
              std::is_nothrow_move_assignable_v<RelationshipHandle>);
static_assert(std::is_nothrow_move_constructible_v<UserApplicationProfileHandle> &&
              std::is_nothrow_move_assignable_v<UserApplicationProfileHandle>);

namespace {

template <typename View>
const View& Require(const std::shared_ptr<const View>& view, const char* type) {
    if (!view) throw NullHandleError(std::string(type) + ": the instance is null (nullobj or moved from)");
    return *view;
}

}  // namespace

// ---- UserApplicationProfileHandle ----

const UserApplicationProfileHandle UserApplicationProfileHandle::nullobj{nullptr};
UserApplicationProfileHandle::UserApplicationProfileHandle(std::shared_ptr<const detail::ProfileView> view) noexcept
  : view_(std::move(view)) {}
const detail::ProfileView& UserApplicationProfileHandle::View() const {
    return Require(view_, "UserApplicationProfileHandle");
}
uint64_t UserApplicationProfileHandle::ApplicationId() const { return View().applicationId; }
uint64_t UserApplicationProfileHandle::UserId() const { return View().userId; }
std::string UserApplicationProfileHandle::ProviderIssuedUserId() const { return View().providerUserId; }
std::string UserApplicationProfileHandle::Metadata() const { return View().metadata; }

// ---- UserHandle ----

const UserHandle UserHandle::nullobj{nullptr};
UserHandle::UserHandle(std::shared_ptr<const detail::UserView> view) noexcept : view_(std::move(view)) {}
const detail::UserView& UserHandle::View() const { return Require(view_, "UserHandle"); }
uint64_t UserHandle::Id() const { return View().user->id; }
std::string UserHandle::Username() const { return View().user->username; }
std::optional<std::string> UserHandle::GlobalName() const { return View().user->globalName; }
std::string UserHandle::DisplayName() const {
    const auto& user = *View().user;
    return user.globalName && !user.globalName->empty() ? *user.globalName : user.username;
}
std::optional<std::string> UserHandle::Avatar() const { return View().user->avatar; }
bool UserHandle::IsProvisional() const { return View().user->provisional; }

StatusType UserHandle::Status() const {
    const auto& view = View();
    if (view.relationship.type == static_cast<int32_t>(RelationshipType::Blocked)) return StatusType::Blocked;
    const std::string& status = view.user->status;
    if (status == "online") return StatusType::Online;
    if (status == "idle") return StatusType::Idle;
    if (status == "dnd") return StatusType::Dnd;
    if (status == "invisible") return StatusType::Invisible;
    if (status == "offline" || status.empty()) return StatusType::Offline;
    return StatusType::Unknown;
}

std::optional<Activity> UserHandle::GameActivity() const {
    const auto& view = View();
    for (const auto& activity : view.user->activities) {
        if (activity.Type() != ActivityTypes::CustomStatus && activity.ApplicationId() == view.applicationId)
            return activity;
    }
    return std::nullopt;
}

std::vector<Activity> UserHandle::Activities() const { return View().user->activities; }

RelationshipHandle UserHandle::Relationship() const {
    const auto& view = View();
    // The user inside is this handle's own snapshot, so both describe the same moment.
    return RelationshipHandle(std::make_shared<const detail::RelationshipView>(detail::RelationshipView{view.relationship, view_}));
}

std::vector<UserApplicationProfileHandle> UserHandle::UserApplicationProfiles() const {
    std::vector<UserApplicationProfileHandle> handles;
    for (const auto& profile : View().profiles) handles.emplace_back(profile);
    return handles;
}

// ---- RelationshipHandle ----

const RelationshipHandle RelationshipHandle::nullobj{nullptr};
RelationshipHandle::RelationshipHandle(std::shared_ptr<const detail::RelationshipView> view) noexcept
  : view_(std::move(view)) {}
const detail::RelationshipView& RelationshipHandle::View() const { return Require(view_, "RelationshipHandle"); }
uint64_t RelationshipHandle::Id() const { return View().relationship.id; }
RelationshipType RelationshipHandle::PlatformRelationshipType() const {
    return static_cast<RelationshipType>(View().relationship.type);
}
RelationshipType RelationshipHandle::GameRelationshipType() const {
    return static_cast<RelationshipType>(View().relationship.gameType);
}
std::optional<UserHandle> RelationshipHandle::User() const {
    const auto& view = View();
    if (!view.user) return std::nullopt;
    return UserHandle(view.user);
}

// ---- LobbyMemberHandle ----

const LobbyMemberHandle LobbyMemberHandle::nullobj{nullptr};
LobbyMemberHandle::LobbyMemberHandle(std::shared_ptr<const detail::LobbyMemberView> view) noexcept
  : view_(std::move(view)) {}
const detail::LobbyMemberView& LobbyMemberHandle::View() const { return Require(view_, "LobbyMemberHandle"); }
uint64_t LobbyMemberHandle::Id() const { return View().member.id; }
uint64_t LobbyMemberHandle::LobbyId() const { return View().lobbyId; }
std::unordered_map<std::string, std::string> LobbyMemberHandle::Metadata() const { return View().member.metadata; }
bool LobbyMemberHandle::CanLinkLobby() const { return (View().member.flags & 1) != 0; }
std::optional<std::string> LobbyMemberHandle::AdditionalName() const { return View().member.additionalName; }
std::optional<UserHandle> LobbyMemberHandle::User() const {
    const auto& view = View();
    if (!view.user) return std::nullopt;
    return UserHandle(view.user);
}

// ---- LobbyHandle ----

const LobbyHandle LobbyHandle::nullobj{nullptr};
LobbyHandle::LobbyHandle(std::shared_ptr<const detail::LobbyView> view) noexcept : view_(std::move(view)) {}
const detail::LobbyView& LobbyHandle::View() const { return Require(view_, "LobbyHandle"); }
uint64_t LobbyHandle::Id() const { return View().lobby->id; }
uint64_t LobbyHandle::ApplicationId() const { return View().lobby->applicationId; }
std::unordered_map<std::string, std::string> LobbyHandle::Metadata() const { return View().lobby->metadata; }

std::vector<uint64_t> LobbyHandle::LobbyMemberIds() const {
    std::vector<uint64_t> ids;
    for (const auto& member : View().members) ids.push_back(member->member.id);
    return ids;
}

std::vector<LobbyMemberHandle> LobbyHandle::LobbyMembers() const {
    std::vector<LobbyMemberHandle> members;
    for (const auto& member : View().members) members.emplace_back(member);
    return members;
}

std::optional<LobbyMemberHandle> LobbyHandle::GetLobbyMemberHandle(uint64_t memberId) const {
    for (const auto& member : View().members) {
        if (member->member.id == memberId) return LobbyMemberHandle(member);
    }
    return std::nullopt;
}

std::optional<LinkedChannel> LobbyHandle::LinkedChannel() const {
    const auto& linked = View().lobby->linkedChannel;
    if (linked.id == 0) return std::nullopt;
    platformpp::LinkedChannel channel;
    channel.SetId(linked.id);
    channel.SetGuildId(linked.guildId);
    channel.SetName(linked.name);
    return channel;
}

// ---- MessageHandle ----

const MessageHandle MessageHandle::nullobj{nullptr};
MessageHandle::MessageHandle(std::shared_ptr<const detail::MessageView> view) noexcept : view_(std::move(view)) {}
const detail::MessageView& MessageHandle::View() const { return Require(view_, "MessageHandle"); }
uint64_t MessageHandle::Id() const { return View().message->id; }
std::string MessageHandle::Content() const { return View().content; }
std::string MessageHandle::RawContent() const { return View().message->content; }
uint64_t MessageHandle::AuthorId() const { return View().message->authorId; }
std::optional<UserHandle> MessageHandle::Author() const {
    const auto& view = View();
    if (!view.author) return std::nullopt;
    return UserHandle(view.author);
}
uint64_t MessageHandle::ChannelId() const { return View().channelId; }
std::optional<uint64_t> MessageHandle::LobbyId() const { return View().message->lobbyId; }
uint64_t MessageHandle::RecipientId() const { return View().message->recipientId.value_or(0); }
std::optional<UserHandle> MessageHandle::Recipient() const {
    const auto& view = View();
    if (!view.recipient) return std::nullopt;
    return UserHandle(view.recipient);
}
std::optional<LobbyHandle> MessageHandle::Lobby() const {
    const auto& view = View();
    if (!view.lobby) return std::nullopt;
    return LobbyHandle(view.lobby);
}
std::optional<ChannelHandle> MessageHandle::Channel() const {
    const auto& view = View();
    if (!view.channel) return std::nullopt;
    return ChannelHandle(view.channel);
}
bool MessageHandle::SentFromGame() const {
    const auto& message = *View().message;
    return message.applicationId.has_value() && !message.disclosureType;
}
std::optional<DisclosureTypes> MessageHandle::DisclosureType() const {
    const auto& disclosure = View().message->disclosureType;
    if (!disclosure) return std::nullopt;
    return static_cast<DisclosureTypes>(*disclosure);
}
std::optional<AdditionalContent> MessageHandle::AdditionalContent() const {
    const auto& extra = View().message->additionalContent;
    if (!extra) return std::nullopt;
    platformpp::AdditionalContent content;
    content.SetType(extra->type);
    content.SetTitle(extra->title);
    content.SetCount(extra->count);
    return content;
}
std::optional<uint64_t> MessageHandle::ApplicationId() const { return View().message->applicationId; }
std::unordered_map<std::string, std::string> MessageHandle::Metadata() const { return View().message->metadata; }
std::unordered_map<std::string, std::string> MessageHandle::ModerationMetadata() const {
    return View().message->moderationMetadata;
}
std::optional<std::string> MessageHandle::AdditionalName() const { return View().message->additionalName; }
// Snowflakes carry their creation time (docs/wire.md).
uint64_t MessageHandle::SentTimestamp() const { return (View().message->id >> 22) + 1420070400000ull; }
uint64_t MessageHandle::EditedTimestamp() const { return View().message->editedTimestamp; }

// ---- ChannelHandle ----

const ChannelHandle ChannelHandle::nullobj{nullptr};
ChannelHandle::ChannelHandle(std::shared_ptr<const detail::ChannelView> view) noexcept : view_(std::move(view)) {}
const detail::ChannelView& ChannelHandle::View() const { return Require(view_, "ChannelHandle"); }
uint64_t ChannelHandle::Id() const { return View().id; }
std::string ChannelHandle::Name() const { return View().name; }
std::vector<uint64_t> ChannelHandle::Recipients() const { return View().recipients; }
ChannelType ChannelHandle::Type() const { return View().type; }

// ---- lobby call info (lobby.hpp): the snapshot the lobby's view took from the voice-state cache ----

std::optional<CallInfoHandle> LobbyHandle::GetCallInfoHandle() const {
    const auto& info = View().callInfo;
    if (!info) return std::nullopt;
    return CallInfoHandle(info);
}

bool LobbyMemberHandle::Connected() const { return View().connected; }

}  // namespace platformpp
