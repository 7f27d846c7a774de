// Rich presence (docs/emulator-gateway.md: Presence; seed: Client::UpdateRichPresence).
#include <boost/json.hpp>

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <type_traits>
#include <utility>

#include "core/json_fields.hpp"
#include "social/common.hpp"

namespace platformpp {

using client::Begin;
using client::Needs;
using client::Request;

namespace {

constexpr std::size_t kText = 128;   // names, states, details, texts, ids
constexpr std::size_t kImage = 512;  // asset keys and URLs

void RequireOptionalLength(const std::optional<std::string>& value, const char* field, std::size_t max) {
    if (value) social::RequireLength(*value, field, 0, max);
}

void ValidateActivity(const Activity& activity) {
    if (!activity) throw ValidationError("activity", "is a null Activity");
    social::RequireLength(activity.Name(), "activity.Name", 1, kText);
    const auto type = static_cast<int32_t>(activity.Type());
    if (type < 0 || type > 6) throw ValidationError("activity.Type", "must be an ActivityTypes value, got " + std::to_string(type));
    RequireOptionalLength(activity.State(), "activity.State", kText);
    RequireOptionalLength(activity.Details(), "activity.Details", kText);
    RequireOptionalLength(activity.StateUrl(), "activity.StateUrl", kImage);
    RequireOptionalLength(activity.DetailsUrl(), "activity.DetailsUrl", kImage);
    if (const auto display = activity.StatusDisplayType()) {
        const auto value = static_cast<int32_t>(*display);
        if (value < 0 || value > 2)
            throw ValidationError("activity.StatusDisplayType", "must be a StatusDisplayTypes value, got " + std::to_string(value));
    }
    const auto platforms = static_cast<int32_t>(activity.SupportedPlatforms());
    if (platforms < 0 || platforms > 255)
        throw ValidationError("activity.SupportedPlatforms", "must be ActivityGamePlatforms bits (0–255), got " +
                                                                 std::to_string(platforms));
    if (const auto assets = activity.Assets()) {
        RequireOptionalLength(assets->LargeImage(), "activity.Assets.LargeImage", kImage);
        RequireOptionalLength(assets->LargeText(), "activity.Assets.LargeText", kText);
        RequireOptionalLength(assets->SmallImage(), "activity.Assets.SmallImage", kImage);
        RequireOptionalLength(assets->SmallText(), "activity.Assets.SmallText", kText);
        RequireOptionalLength(assets->InviteCoverImage(), "activity.Assets.InviteCoverImage", kImage);
        RequireOptionalLength(assets->LargeUrl(), "activity.Assets.LargeUrl", kImage);
        RequireOptionalLength(assets->SmallUrl(), "activity.Assets.SmallUrl", kImage);
    }
    if (const auto timestamps = activity.Timestamps()) {
        if (timestamps->End() != 0 && timestamps->End() < timestamps->Start())
            throw ValidationError("activity.Timestamps.End", "must not be before Start");
    }
    if (const auto party = activity.Party()) {
        social::RequireLength(party->Id(), "activity.Party.Id", 0, kText);
        if (party->CurrentSize() < 0 || party->CurrentSize() > party->MaxSize())
            throw ValidationError("activity.Party.CurrentSize", "must be 0–MaxSize");
        const auto privacy = static_cast<int32_t>(party->Privacy());
        if (privacy != 0 && privacy != 1)
            throw ValidationError("activity.Party.Privacy", "must be an ActivityPartyPrivacy value, got " + std::to_string(privacy));
    }
    if (const auto secrets = activity.Secrets()) social::RequireLength(secrets->Join(), "activity.Secrets.Join", 0, kText);
    const auto buttons = activity.GetButtons();
    if (buttons.size() > 2) throw ValidationError("activity.Buttons", "must be at most 2, got " + std::to_string(buttons.size()));
    for (const auto& button : buttons) {
        social::RequireLength(button.Label(), "activity.Buttons.Label", 1, 32);
        social::RequireLength(button.Url(), "activity.Buttons.Url", 1, kImage);
    }
}

// The current user's presence as the platform now has it, after a change the Gateway does not echo
// back to the user's own session.
void RefreshOwnPresence(Client::Impl& impl, const std::string& token) {
    auto request = Request("GET", "/users/@me/presence");
    request.token = token;
    impl.Call(std::move(request), [&impl](ClientResult result, boost::json::value json) {
        if (result.Successful()) {
            impl.social->ApplyPresence(impl, json);
        } else {
            impl.Log(LoggingSeverity::Warning, "could not read the current user's presence: " + result.ToString());
        }
    });
}

}  // namespace

const char* EnumToString(ActivityTypes value) {
    switch (value) {
        case ActivityTypes::Playing: return "Playing";
        case ActivityTypes::Streaming: return "Streaming";
        case ActivityTypes::Listening: return "Listening";
        case ActivityTypes::Watching: return "Watching";
        case ActivityTypes::CustomStatus: return "CustomStatus";
        case ActivityTypes::Competing: return "Competing";
        case ActivityTypes::HangStatus: return "HangStatus";
    }
    return "Unknown";
}

const char* EnumToString(StatusDisplayTypes value) {
    switch (value) {
        case StatusDisplayTypes::Name: return "Name";
        case StatusDisplayTypes::State: return "State";
        case StatusDisplayTypes::Details: return "Details";
    }
    return "Unknown";
}

const char* EnumToString(ActivityGamePlatforms value) {
    switch (value) {
        case ActivityGamePlatforms::Desktop: return "Desktop";
        case ActivityGamePlatforms::Xbox: return "Xbox";
        case ActivityGamePlatforms::Samsung: return "Samsung";
        case ActivityGamePlatforms::IOS: return "IOS";
        case ActivityGamePlatforms::Android: return "Android";
        case ActivityGamePlatforms::Embedded: return "Embedded";
        case ActivityGamePlatforms::PS4: return "PS4";
        case ActivityGamePlatforms::PS5: return "PS5";
    }
    return "Unknown";
}

const char* EnumToString(ActivityPartyPrivacy value) {
    switch (value) {
        case ActivityPartyPrivacy::Private: return "Private";
        case ActivityPartyPrivacy::Public: return "Public";
    }
    return "Unknown";
}

const char* EnumToString(ActivityActionTypes value) {
    switch (value) {
        case ActivityActionTypes::Invalid: return "Invalid";
        case ActivityActionTypes::Join: return "Join";
        case ActivityActionTypes::JoinRequest: return "JoinRequest";
    }
    return "Unknown";
}

void Client::UpdateRichPresence(Activity activity, ResultCallback callback) {
    Impl& impl = RequireImpl();
    const auto call = Begin(impl, Needs::Token, std::move(callback), [&] { ValidateActivity(activity); });
    if (call) call->Rest(Request("PUT", "/users/@me/activity", social::ActivityToJson(activity)),
                         [&impl](const boost::json::value& json) { impl.social->ApplyPresence(impl, json); });
}

void Client::ClearRichPresence() {
    Impl& impl = RequireImpl();
    // No callback to answer: a call that cannot begin is logged instead.
    auto token = impl.CurrentToken();
    if (!token) {
        impl.Log(LoggingSeverity::Warning, "ClearRichPresence needs a token: call UpdateToken first");
        return;
    }
    auto request = Request("DELETE", "/users/@me/activity");
    request.token = *token;
    impl.Call(std::move(request), [&impl, token = *token](ClientResult result, boost::json::value) {
        if (!result.Successful()) {
            impl.Log(LoggingSeverity::Warning, "ClearRichPresence failed: " + result.ToString());
            return;
        }
        RefreshOwnPresence(impl, token);
    });
}

namespace {

const char* ChosenStatus(StatusType status) {
    switch (status) {
        case StatusType::Online: return "online";
        case StatusType::Idle: return "idle";
        case StatusType::Dnd: return "dnd";
        case StatusType::Invisible:
        case StatusType::Offline: return "invisible";  // a user cannot go offline while connected: they appear so
        default: return nullptr;
    }
}

// mkdir -p, mode 0700 for new folders (the XDG base directory rule).
bool MakeFolders(const std::string& path) {
    for (std::size_t at = 1; at <= path.size(); ++at) {
        if (at != path.size() && path[at] != '/') continue;
        const std::string prefix = path.substr(0, at);
        if (::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST) return false;
    }
    return true;
}

// $XDG_DATA_HOME/applications, else $HOME/.local/share/applications (empty when neither is known).
std::string ApplicationsFolder() {
    if (const char* data = std::getenv("XDG_DATA_HOME"); data != nullptr && data[0] == '/') {
        return std::string(data) + "/applications";
    }
    if (const char* home = std::getenv("HOME"); home != nullptr && home[0] == '/') {
        return std::string(home) + "/.local/share/applications";
    }
    return {};
}

bool WriteLaunchEntry(Client::Impl& impl, uint64_t applicationId, const std::string& exec) {
    const std::string folder = ApplicationsFolder();
    if (folder.empty() || !MakeFolders(folder)) {
        impl.Log(LoggingSeverity::Warning, "RegisterLaunchCommand: no writable applications folder");
        return false;
    }
    const std::string id = std::to_string(applicationId);
    const std::string path = folder + "/platformpp-" + id + ".desktop";
    const std::string temporary = path + ".tmp";
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << "[Desktop Entry]\n"
            << "Type=Application\n"
            << "Name=Game " << id << "\n"
            << "NoDisplay=true\n"
            << "Exec=" << exec << " %u\n"
            << "MimeType=x-scheme-handler/platform-" << id << ";\n"
            << "Categories=Game;\n";
        if (!out.flush()) return false;
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) return false;  // whole or not at all
    impl.Log(LoggingSeverity::Info, "registered the launch command of application " + id + " in " + path);
    return true;
}

bool ValidLaunchCommand(const std::string& command) {
    return !command.empty() && command.find_first_of("\r\n") == std::string::npos &&
           command.find('\0') == std::string::npos;
}

}  // namespace

void Client::SetOnlineStatus(StatusType status, UpdateStatusCallback callback) {
    Impl& impl = RequireImpl();
    const char* chosen = ChosenStatus(status);
    const auto call = Begin(impl, Needs::Token, std::move(callback), [&] {
        if (chosen == nullptr) {
            throw ValidationError("status", "must be Online, Idle, Dnd, Invisible or Offline, got " +
                                                std::to_string(static_cast<int32_t>(status)));
        }
    });
    if (call) call->Rest(Request("PATCH", "/users/@me/settings", boost::json::object{{"status", chosen}}),
                         [&impl, token = call->token](const boost::json::value&) { RefreshOwnPresence(impl, token); });
}

bool Client::RegisterLaunchCommand(uint64_t applicationId, std::string command) {
    Impl& impl = RequireImpl();
    if (applicationId == 0 || !ValidLaunchCommand(command)) {
        impl.Log(LoggingSeverity::Warning, "RegisterLaunchCommand: applicationId must be an id and command a "
                                           "non-empty line");
        return false;
    }
    return WriteLaunchEntry(impl, applicationId, command);
}

bool Client::RegisterLaunchSteamApplication(uint64_t applicationId, uint32_t steamAppId) {
    Impl& impl = RequireImpl();
    if (applicationId == 0 || steamAppId == 0) {
        impl.Log(LoggingSeverity::Warning, "RegisterLaunchSteamApplication: applicationId and steamAppId must be ids");
        return false;
    }
    return WriteLaunchEntry(impl, applicationId, "xdg-open steam://rungameid/" + std::to_string(steamAppId));
}

void social::SocialState::ActivityJoined(Client::Impl& impl, uint64_t applicationId, const std::string& secret) {
    std::shared_ptr<Client::ActivityJoinCallback> join;
    std::shared_ptr<Client::ActivityJoinWithApplicationCallback> withApplication;
    {
        std::lock_guard lock(mutex_);
        join = callbacks_.activityJoin;
        withApplication = callbacks_.activityJoinWithApplication;
    }
    if (join) impl.DeliverEvent([join, secret] { (*join)(secret); });
    if (withApplication) impl.DeliverEvent([withApplication, applicationId, secret] { (*withApplication)(applicationId, secret); });
}

void Client::SetActivityJoinCallback(ActivityJoinCallback cb) {
    Impl& impl = RequireImpl();
    const bool set = static_cast<bool>(cb);
    impl.social->Set(&social::SocialState::Callbacks::activityJoin, std::move(cb));
    if (set) impl.SubscribeDesktop("ACTIVITY_JOIN", std::nullopt);
}

void Client::SetActivityJoinWithApplicationCallback(ActivityJoinWithApplicationCallback cb) {
    Impl& impl = RequireImpl();
    const bool set = static_cast<bool>(cb);
    impl.social->Set(&social::SocialState::Callbacks::activityJoinWithApplication, std::move(cb));
    if (set) impl.SubscribeDesktop("ACTIVITY_JOIN", std::nullopt);
}

// ---- activity invites ----

static_assert(std::is_nothrow_move_constructible_v<ActivityInvite> && std::is_nothrow_move_assignable_v<ActivityInvite>);
const ActivityInvite ActivityInvite::nullobj{NullTag{}};
ActivityInvite::ActivityInvite(ActivityInvite&& other) noexcept
  : valid_(std::exchange(other.valid_, false)), f_(std::move(other.f_)) {}
ActivityInvite& ActivityInvite::operator=(ActivityInvite&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        f_ = std::move(other.f_);
    }
    return *this;
}
void ActivityInvite::RequireValid() const {
    if (!valid_) throw NullHandleError("ActivityInvite: the instance is null (nullobj or moved from)");
}
uint64_t ActivityInvite::SenderId() const { RequireValid(); return f_.senderId; }
void ActivityInvite::SetSenderId(uint64_t SenderId) { RequireValid(); f_.senderId = SenderId; }
uint64_t ActivityInvite::ChannelId() const { RequireValid(); return f_.channelId; }
void ActivityInvite::SetChannelId(uint64_t ChannelId) { RequireValid(); f_.channelId = ChannelId; }
uint64_t ActivityInvite::MessageId() const { RequireValid(); return f_.messageId; }
void ActivityInvite::SetMessageId(uint64_t MessageId) { RequireValid(); f_.messageId = MessageId; }
ActivityActionTypes ActivityInvite::Type() const { RequireValid(); return f_.type; }
void ActivityInvite::SetType(ActivityActionTypes Type) { RequireValid(); f_.type = Type; }
uint64_t ActivityInvite::ApplicationId() const { RequireValid(); return f_.applicationId; }
void ActivityInvite::SetApplicationId(uint64_t ApplicationId) { RequireValid(); f_.applicationId = ApplicationId; }
uint64_t ActivityInvite::ParentApplicationId() const { RequireValid(); return f_.parentApplicationId; }
void ActivityInvite::SetParentApplicationId(uint64_t ParentApplicationId) {
    RequireValid();
    f_.parentApplicationId = ParentApplicationId;
}
std::string ActivityInvite::PartyId() const { RequireValid(); return f_.partyId; }
void ActivityInvite::SetPartyId(std::string PartyId) { RequireValid(); f_.partyId = std::move(PartyId); }
std::string ActivityInvite::SessionId() const { RequireValid(); return f_.sessionId; }
void ActivityInvite::SetSessionId(std::string SessionId) { RequireValid(); f_.sessionId = std::move(SessionId); }
bool ActivityInvite::IsValid() const { RequireValid(); return f_.isValid; }
void ActivityInvite::SetIsValid(bool IsValid) { RequireValid(); f_.isValid = IsValid; }

void social::SocialState::AnnounceInvite(const boost::json::object& json, bool updated, Events& events) {
    ActivityInvite invite;
    invite.SetSenderId(json_fields::Snowflake(json, "sender_id"));
    invite.SetChannelId(json_fields::Snowflake(json, "channel_id"));
    invite.SetMessageId(json_fields::Snowflake(json, "message_id"));
    const int64_t type = json_fields::Integer(json, "type");
    invite.SetType(type == 1 ? ActivityActionTypes::Join
                             : type == 5 ? ActivityActionTypes::JoinRequest : ActivityActionTypes::Invalid);
    invite.SetApplicationId(json_fields::Snowflake(json, "application_id"));
    invite.SetParentApplicationId(json_fields::Snowflake(json, "parent_application_id"));
    invite.SetPartyId(json_fields::String(json, "party_id"));
    invite.SetSessionId(json_fields::String(json, "session_id"));
    const auto* valid = json.if_contains("is_valid");
    invite.SetIsValid(valid == nullptr || !valid->is_bool() || valid->as_bool());
    Announce(events, updated ? callbacks_.activityInviteUpdated : callbacks_.activityInviteCreated, invite);
}

namespace {

void PostInvite(const client::Started<Client::SendActivityInviteCallback>& call, uint64_t userId, int type,
                const std::string& content) {
    boost::json::object body{{"user_id", std::to_string(userId)}, {"type", type}};
    if (!content.empty()) body["content"] = content;
    call.Rest(Request("POST", "/users/@me/activity-invites", std::move(body)));
}

constexpr int kInviteJoin = 1;
constexpr int kInviteJoinRequest = 5;

}  // namespace

void Client::SendActivityInvite(uint64_t userId, std::string const& content, SendActivityInviteCallback cb) {
    const auto call = Begin(RequireImpl(), Needs::Token, std::move(cb), [&] {
        social::RequireId(userId, "userId");
        social::RequireLength(content, "content", 0, 1024);
    });
    if (call) PostInvite(*call, userId, kInviteJoin, content);
}

void Client::SendActivityJoinRequest(uint64_t userId, SendActivityInviteCallback cb) {
    const auto call = Begin(RequireImpl(), Needs::Token, std::move(cb), [&] { social::RequireId(userId, "userId"); });
    if (call) PostInvite(*call, userId, kInviteJoinRequest, "");
}

void Client::SendActivityJoinRequestReply(ActivityInvite invite, SendActivityInviteCallback cb) {
    const auto call = Begin(RequireImpl(), Needs::Token, std::move(cb), [&] {
        if (!invite) throw ValidationError("invite", "is a null ActivityInvite");
        if (invite.Type() != ActivityActionTypes::JoinRequest) throw ValidationError("invite.Type", "must be JoinRequest");
        social::RequireId(invite.SenderId(), "invite.SenderId");
    });
    if (call) PostInvite(*call, invite.SenderId(), kInviteJoin, "");
}

void Client::AcceptActivityInvite(ActivityInvite invite, AcceptActivityInviteCallback cb) {
    const auto call = Begin(RequireImpl(), Needs::Token, std::move(cb), [&] {
        if (!invite) throw ValidationError("invite", "is a null ActivityInvite");
        if (invite.Type() != ActivityActionTypes::Join) throw ValidationError("invite.Type", "must be Join");
        social::RequireId(invite.MessageId(), "invite.MessageId");
    });
    if (call) call->Rest(Request("POST", "/users/@me/activity-invites/" + std::to_string(invite.MessageId()) + "/accept",
                                 nullptr, "POST /users/@me/activity-invites/{id}/accept"),
                         [](const boost::json::value& json) { return json_fields::String(json, "join_secret"); });
}

void Client::SetActivityInviteCreatedCallback(ActivityInviteCallback cb) {
    RequireImpl().social->Set(&social::SocialState::Callbacks::activityInviteCreated, std::move(cb));
}

void Client::SetActivityInviteUpdatedCallback(ActivityInviteCallback cb) {
    RequireImpl().social->Set(&social::SocialState::Callbacks::activityInviteUpdated, std::move(cb));
}

}  // namespace platformpp
