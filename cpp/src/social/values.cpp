// The value classes of rich presence (activity.hpp): object members in the house style. (Those of
// guilds and linked lobbies are in guild_values.cpp.)
#include <type_traits>
#include <utility>

#include "platformpp/activity.hpp"
#include "platformpp/errors.hpp"

namespace platformpp {

#define PLATFORMPP_NOEXCEPT_MOVE(T)                                                                     \
    static_assert(std::is_nothrow_move_constructible_v<T> && std::is_nothrow_move_assignable_v<T>); \
    void T::RequireValid() const {                                                                  \
        if (!valid_) throw NullHandleError(#T ": the instance is null (nullobj or moved from)");     \
    }

PLATFORMPP_NOEXCEPT_MOVE(ActivityAssets)
PLATFORMPP_NOEXCEPT_MOVE(ActivityTimestamps)
PLATFORMPP_NOEXCEPT_MOVE(ActivityParty)
PLATFORMPP_NOEXCEPT_MOVE(ActivitySecrets)
PLATFORMPP_NOEXCEPT_MOVE(ActivityButton)
PLATFORMPP_NOEXCEPT_MOVE(Activity)
#undef PLATFORMPP_NOEXCEPT_MOVE

// Defined in one translation unit, parts before Activity (whose members are parts).
const ActivityAssets ActivityAssets::nullobj{NullTag{}};
const ActivityTimestamps ActivityTimestamps::nullobj{NullTag{}};
const ActivityParty ActivityParty::nullobj{NullTag{}};
const ActivitySecrets ActivitySecrets::nullobj{NullTag{}};
const ActivityButton ActivityButton::nullobj{NullTag{}};
const Activity Activity::nullobj{NullTag{}};

// ---- ActivityAssets ----

ActivityAssets::ActivityAssets(ActivityAssets&& other) noexcept
  : valid_(std::exchange(other.valid_, false)), f_(std::move(other.f_)) {}
ActivityAssets& ActivityAssets::operator=(ActivityAssets&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        f_ = std::move(other.f_);
    }
    return *this;
}
std::optional<std::string> ActivityAssets::LargeImage() const { RequireValid(); return f_.largeImage; }
void ActivityAssets::SetLargeImage(std::optional<std::string> LargeImage) { RequireValid(); f_.largeImage = std::move(LargeImage); }
std::optional<std::string> ActivityAssets::LargeText() const { RequireValid(); return f_.largeText; }
void ActivityAssets::SetLargeText(std::optional<std::string> LargeText) { RequireValid(); f_.largeText = std::move(LargeText); }
std::optional<std::string> ActivityAssets::SmallImage() const { RequireValid(); return f_.smallImage; }
void ActivityAssets::SetSmallImage(std::optional<std::string> SmallImage) { RequireValid(); f_.smallImage = std::move(SmallImage); }
std::optional<std::string> ActivityAssets::SmallText() const { RequireValid(); return f_.smallText; }
void ActivityAssets::SetSmallText(std::optional<std::string> SmallText) { RequireValid(); f_.smallText = std::move(SmallText); }
std::optional<std::string> ActivityAssets::LargeUrl() const { RequireValid(); return f_.largeUrl; }
void ActivityAssets::SetLargeUrl(std::optional<std::string> LargeUrl) { RequireValid(); f_.largeUrl = std::move(LargeUrl); }
std::optional<std::string> ActivityAssets::SmallUrl() const { RequireValid(); return f_.smallUrl; }
void ActivityAssets::SetSmallUrl(std::optional<std::string> SmallUrl) { RequireValid(); f_.smallUrl = std::move(SmallUrl); }
std::optional<std::string> ActivityAssets::InviteCoverImage() const { RequireValid(); return f_.inviteCoverImage; }
void ActivityAssets::SetInviteCoverImage(std::optional<std::string> InviteCoverImage) {
    RequireValid();
    f_.inviteCoverImage = std::move(InviteCoverImage);
}

// ---- ActivityTimestamps ----

ActivityTimestamps::ActivityTimestamps(ActivityTimestamps&& other) noexcept
  : valid_(std::exchange(other.valid_, false)), start_(other.start_), end_(other.end_) {}
ActivityTimestamps& ActivityTimestamps::operator=(ActivityTimestamps&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        start_ = other.start_;
        end_ = other.end_;
    }
    return *this;
}
uint64_t ActivityTimestamps::Start() const { RequireValid(); return start_; }
void ActivityTimestamps::SetStart(uint64_t Start) { RequireValid(); start_ = Start; }
uint64_t ActivityTimestamps::End() const { RequireValid(); return end_; }
void ActivityTimestamps::SetEnd(uint64_t End) { RequireValid(); end_ = End; }

// ---- ActivityParty ----

ActivityParty::ActivityParty(ActivityParty&& other) noexcept
  : valid_(std::exchange(other.valid_, false)),
    id_(std::move(other.id_)),
    currentSize_(other.currentSize_),
    maxSize_(other.maxSize_),
    privacy_(other.privacy_) {}
ActivityParty& ActivityParty::operator=(ActivityParty&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        id_ = std::move(other.id_);
        currentSize_ = other.currentSize_;
        maxSize_ = other.maxSize_;
        privacy_ = other.privacy_;
    }
    return *this;
}
std::string ActivityParty::Id() const { RequireValid(); return id_; }
void ActivityParty::SetId(std::string Id) { RequireValid(); id_ = std::move(Id); }
int32_t ActivityParty::CurrentSize() const { RequireValid(); return currentSize_; }
void ActivityParty::SetCurrentSize(int32_t CurrentSize) { RequireValid(); currentSize_ = CurrentSize; }
int32_t ActivityParty::MaxSize() const { RequireValid(); return maxSize_; }
void ActivityParty::SetMaxSize(int32_t MaxSize) { RequireValid(); maxSize_ = MaxSize; }
ActivityPartyPrivacy ActivityParty::Privacy() const { RequireValid(); return privacy_; }
void ActivityParty::SetPrivacy(ActivityPartyPrivacy Privacy) { RequireValid(); privacy_ = Privacy; }

// ---- ActivitySecrets ----

ActivitySecrets::ActivitySecrets(ActivitySecrets&& other) noexcept
  : valid_(std::exchange(other.valid_, false)), join_(std::move(other.join_)) {}
ActivitySecrets& ActivitySecrets::operator=(ActivitySecrets&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        join_ = std::move(other.join_);
    }
    return *this;
}
std::string ActivitySecrets::Join() const { RequireValid(); return join_; }
void ActivitySecrets::SetJoin(std::string Join) { RequireValid(); join_ = std::move(Join); }

// ---- ActivityButton ----

ActivityButton::ActivityButton(ActivityButton&& other) noexcept
  : valid_(std::exchange(other.valid_, false)), label_(std::move(other.label_)), url_(std::move(other.url_)) {}
ActivityButton& ActivityButton::operator=(ActivityButton&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        label_ = std::move(other.label_);
        url_ = std::move(other.url_);
    }
    return *this;
}
std::string ActivityButton::Label() const { RequireValid(); return label_; }
void ActivityButton::SetLabel(std::string Label) { RequireValid(); label_ = std::move(Label); }
std::string ActivityButton::Url() const { RequireValid(); return url_; }
void ActivityButton::SetUrl(std::string Url) { RequireValid(); url_ = std::move(Url); }

// ---- Activity ----

Activity::Activity(Activity&& other) noexcept : valid_(std::exchange(other.valid_, false)), f_(std::move(other.f_)) {}
Activity& Activity::operator=(Activity&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        f_ = std::move(other.f_);
    }
    return *this;
}
std::string Activity::Name() const { RequireValid(); return f_.name; }
void Activity::SetName(std::string Name) { RequireValid(); f_.name = std::move(Name); }
ActivityTypes Activity::Type() const { RequireValid(); return f_.type; }
void Activity::SetType(ActivityTypes Type) { RequireValid(); f_.type = Type; }
std::optional<std::string> Activity::State() const { RequireValid(); return f_.state; }
void Activity::SetState(std::optional<std::string> State) { RequireValid(); f_.state = std::move(State); }
std::optional<std::string> Activity::Details() const { RequireValid(); return f_.details; }
void Activity::SetDetails(std::optional<std::string> Details) { RequireValid(); f_.details = std::move(Details); }
std::optional<std::string> Activity::StateUrl() const { RequireValid(); return f_.stateUrl; }
void Activity::SetStateUrl(std::optional<std::string> StateUrl) { RequireValid(); f_.stateUrl = std::move(StateUrl); }
std::optional<std::string> Activity::DetailsUrl() const { RequireValid(); return f_.detailsUrl; }
void Activity::SetDetailsUrl(std::optional<std::string> DetailsUrl) { RequireValid(); f_.detailsUrl = std::move(DetailsUrl); }
std::optional<StatusDisplayTypes> Activity::StatusDisplayType() const { RequireValid(); return f_.statusDisplayType; }
void Activity::SetStatusDisplayType(std::optional<StatusDisplayTypes> StatusDisplayType) {
    RequireValid();
    f_.statusDisplayType = StatusDisplayType;
}
std::optional<uint64_t> Activity::ParentApplicationId() const { RequireValid(); return f_.parentApplicationId; }
void Activity::SetParentApplicationId(std::optional<uint64_t> ParentApplicationId) {
    RequireValid();
    f_.parentApplicationId = ParentApplicationId;
}
ActivityGamePlatforms Activity::SupportedPlatforms() const { RequireValid(); return f_.supportedPlatforms; }
void Activity::SetSupportedPlatforms(ActivityGamePlatforms SupportedPlatforms) {
    RequireValid();
    f_.supportedPlatforms = SupportedPlatforms;
}
std::optional<uint64_t> Activity::ApplicationId() const { RequireValid(); return f_.applicationId; }
void Activity::SetApplicationId(std::optional<uint64_t> ApplicationId) { RequireValid(); f_.applicationId = ApplicationId; }
std::optional<ActivityAssets> Activity::Assets() const { RequireValid(); return f_.assets; }
void Activity::SetAssets(std::optional<ActivityAssets> Assets) { RequireValid(); f_.assets = std::move(Assets); }
std::optional<ActivityTimestamps> Activity::Timestamps() const { RequireValid(); return f_.timestamps; }
void Activity::SetTimestamps(std::optional<ActivityTimestamps> Timestamps) { RequireValid(); f_.timestamps = std::move(Timestamps); }
std::optional<ActivityParty> Activity::Party() const { RequireValid(); return f_.party; }
void Activity::SetParty(std::optional<ActivityParty> Party) { RequireValid(); f_.party = std::move(Party); }
std::optional<ActivitySecrets> Activity::Secrets() const { RequireValid(); return f_.secrets; }
void Activity::SetSecrets(std::optional<ActivitySecrets> Secrets) { RequireValid(); f_.secrets = std::move(Secrets); }
std::vector<ActivityButton> Activity::GetButtons() const { RequireValid(); return f_.buttons; }
void Activity::AddButton(ActivityButton button) { RequireValid(); f_.buttons.push_back(std::move(button)); }

namespace {

template <typename T, typename Same>
bool SameOptional(const std::optional<T>& a, const std::optional<T>& b, Same same) {
    if (a.has_value() != b.has_value()) return false;
    return !a || same(*a, *b);
}

}  // namespace

bool Activity::Equals(const Activity& other) const {
    RequireValid();
    other.RequireValid();
    const Fields& a = f_;
    const Fields& b = other.f_;
    if (a.name != b.name || a.type != b.type || a.state != b.state || a.details != b.details ||
        a.stateUrl != b.stateUrl || a.detailsUrl != b.detailsUrl || a.statusDisplayType != b.statusDisplayType ||
        a.applicationId != b.applicationId || a.parentApplicationId != b.parentApplicationId ||
        a.supportedPlatforms != b.supportedPlatforms || a.buttons.size() != b.buttons.size())
        return false;
    for (std::size_t i = 0; i < a.buttons.size(); ++i) {
        if (a.buttons[i].Label() != b.buttons[i].Label() || a.buttons[i].Url() != b.buttons[i].Url()) return false;
    }
    return SameOptional(a.assets, b.assets, [](const ActivityAssets& x, const ActivityAssets& y) {
               return x.LargeImage() == y.LargeImage() && x.LargeText() == y.LargeText() &&
                      x.SmallImage() == y.SmallImage() && x.SmallText() == y.SmallText() &&
                      x.InviteCoverImage() == y.InviteCoverImage() && x.LargeUrl() == y.LargeUrl() &&
                      x.SmallUrl() == y.SmallUrl();
           }) &&
           SameOptional(a.timestamps, b.timestamps, [](const ActivityTimestamps& x, const ActivityTimestamps& y) {
               return x.Start() == y.Start() && x.End() == y.End();
           }) &&
           SameOptional(a.party, b.party, [](const ActivityParty& x, const ActivityParty& y) {
               return x.Id() == y.Id() && x.CurrentSize() == y.CurrentSize() && x.MaxSize() == y.MaxSize() &&
                      x.Privacy() == y.Privacy();
           }) &&
           SameOptional(a.secrets, b.secrets,
                        [](const ActivitySecrets& x, const ActivitySecrets& y) { return x.Join() == y.Join(); });
}

}  // namespace platformpp
