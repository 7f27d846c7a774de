#pragma once
// Rich presence: the Activity a game shows on the player's profile (Client::UpdateRichPresence) and
// the activities of other users (UserHandle::GameActivity).
//
// These are value classes in the house style (see authorization.hpp): a getter named after each
// field, a Set<Field> setter returning void, noexcept move (the moved-from instance becomes invalid),
// copy giving an independent instance, `operator bool` and a static `nullobj`. Using an invalid
// instance throws NullHandleError.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace platformpp {

enum class ActivityTypes : int32_t {
    Playing = 0,
    Streaming = 1,
    Listening = 2,
    Watching = 3,
    CustomStatus = 4,
    Competing = 5,
    HangStatus = 6,
};

// Which field the one-line status under the user's name shows.
enum class StatusDisplayTypes : int32_t {
    Name = 0,
    State = 1,
    Details = 2,
};

// Where the game can be played, as bits (Activity::SupportedPlatforms; combine with |).
enum class ActivityGamePlatforms : int32_t {
    Desktop = 1,
    Xbox = 2,
    Samsung = 4,
    IOS = 8,
    Android = 16,
    Embedded = 32,
    PS4 = 64,
    PS5 = 128,
};
constexpr ActivityGamePlatforms operator|(ActivityGamePlatforms a, ActivityGamePlatforms b) noexcept {
    return static_cast<ActivityGamePlatforms>(static_cast<int32_t>(a) | static_cast<int32_t>(b));
}
constexpr ActivityGamePlatforms operator&(ActivityGamePlatforms a, ActivityGamePlatforms b) noexcept {
    return static_cast<ActivityGamePlatforms>(static_cast<int32_t>(a) & static_cast<int32_t>(b));
}

// Who may join the party: anyone who sees it (Public) or only those invited (Private).
enum class ActivityPartyPrivacy : int32_t {
    Private = 0,
    Public = 1,
};

// What an ActivityInvite asks: to join (an invite) or to be let in (a join request).
enum class ActivityActionTypes : int32_t {
    Invalid = 0,
    Join = 1,
    JoinRequest = 5,
};

const char* EnumToString(ActivityTypes value);
const char* EnumToString(StatusDisplayTypes value);
// A single platform's name; "Unknown" for a combination of bits.
const char* EnumToString(ActivityGamePlatforms value);
const char* EnumToString(ActivityPartyPrivacy value);
const char* EnumToString(ActivityActionTypes value);

// Images are an asset key of the application or a URL (at most 512 characters); texts at most 128.
class ActivityAssets {
public:
    static const ActivityAssets nullobj;

    ActivityAssets() = default;
    ActivityAssets(const ActivityAssets&) = default;
    ActivityAssets& operator=(const ActivityAssets&) = default;
    ActivityAssets(ActivityAssets&& other) noexcept;
    ActivityAssets& operator=(ActivityAssets&& other) noexcept;
    ~ActivityAssets() = default;

    explicit operator bool() const noexcept { return valid_; }

    std::optional<std::string> LargeImage() const;
    void SetLargeImage(std::optional<std::string> LargeImage);
    std::optional<std::string> LargeText() const;
    void SetLargeText(std::optional<std::string> LargeText);
    std::optional<std::string> SmallImage() const;
    void SetSmallImage(std::optional<std::string> SmallImage);
    std::optional<std::string> SmallText() const;
    void SetSmallText(std::optional<std::string> SmallText);
    // Where a click on the large or small image leads (an http(s) URL, at most 512 characters).
    std::optional<std::string> LargeUrl() const;
    void SetLargeUrl(std::optional<std::string> LargeUrl);
    std::optional<std::string> SmallUrl() const;
    void SetSmallUrl(std::optional<std::string> SmallUrl);
    // The cover image of this game's invites: a URL or an asset key.
    std::optional<std::string> InviteCoverImage() const;
    void SetInviteCoverImage(std::optional<std::string> InviteCoverImage);

private:
    struct NullTag {};
    explicit ActivityAssets(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    struct Fields {
        std::optional<std::string> largeImage, largeText, smallImage, smallText, inviteCoverImage, largeUrl, smallUrl;
    };
    bool valid_ = true;
    Fields f_;
};

// Unix times in milliseconds; 0 means unset.
class ActivityTimestamps {
public:
    static const ActivityTimestamps nullobj;

    ActivityTimestamps() = default;
    ActivityTimestamps(const ActivityTimestamps&) = default;
    ActivityTimestamps& operator=(const ActivityTimestamps&) = default;
    ActivityTimestamps(ActivityTimestamps&& other) noexcept;
    ActivityTimestamps& operator=(ActivityTimestamps&& other) noexcept;
    ~ActivityTimestamps() = default;

    explicit operator bool() const noexcept { return valid_; }

    uint64_t Start() const;
    void SetStart(uint64_t Start);
    uint64_t End() const;
    void SetEnd(uint64_t End);

private:
    struct NullTag {};
    explicit ActivityTimestamps(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    uint64_t start_ = 0;
    uint64_t end_ = 0;
};

class ActivityParty {
public:
    static const ActivityParty nullobj;

    ActivityParty() = default;
    ActivityParty(const ActivityParty&) = default;
    ActivityParty& operator=(const ActivityParty&) = default;
    ActivityParty(ActivityParty&& other) noexcept;
    ActivityParty& operator=(ActivityParty&& other) noexcept;
    ~ActivityParty() = default;

    explicit operator bool() const noexcept { return valid_; }

    std::string Id() const;  // at most 128 characters
    void SetId(std::string Id);
    int32_t CurrentSize() const;  // 0 <= CurrentSize <= MaxSize
    void SetCurrentSize(int32_t CurrentSize);
    int32_t MaxSize() const;
    void SetMaxSize(int32_t MaxSize);
    ActivityPartyPrivacy Privacy() const;  // Private by default
    void SetPrivacy(ActivityPartyPrivacy Privacy);

private:
    struct NullTag {};
    explicit ActivityParty(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    std::string id_;
    int32_t currentSize_ = 0;
    int32_t maxSize_ = 0;
    ActivityPartyPrivacy privacy_ = ActivityPartyPrivacy::Private;
};

class ActivitySecrets {
public:
    static const ActivitySecrets nullobj;

    ActivitySecrets() = default;
    ActivitySecrets(const ActivitySecrets&) = default;
    ActivitySecrets& operator=(const ActivitySecrets&) = default;
    ActivitySecrets(ActivitySecrets&& other) noexcept;
    ActivitySecrets& operator=(ActivitySecrets&& other) noexcept;
    ~ActivitySecrets() = default;

    explicit operator bool() const noexcept { return valid_; }

    // What another player's game receives to join this player (at most 128 characters).
    std::string Join() const;
    void SetJoin(std::string Join);

private:
    struct NullTag {};
    explicit ActivitySecrets(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    std::string join_;
};

class ActivityButton {
public:
    static const ActivityButton nullobj;

    ActivityButton() = default;
    ActivityButton(const ActivityButton&) = default;
    ActivityButton& operator=(const ActivityButton&) = default;
    ActivityButton(ActivityButton&& other) noexcept;
    ActivityButton& operator=(ActivityButton&& other) noexcept;
    ~ActivityButton() = default;

    explicit operator bool() const noexcept { return valid_; }

    std::string Label() const;  // 1–32 characters
    void SetLabel(std::string Label);
    std::string Url() const;  // an http(s) URL, at most 512 characters
    void SetUrl(std::string Url);

private:
    struct NullTag {};
    explicit ActivityButton(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    std::string label_;
    std::string url_;
};

// An activity invite (ActivityActionTypes::Join: come join my party) or join request (JoinRequest:
// let me into yours) another user sent the current user (Client::SetActivityInviteCreatedCallback).
class ActivityInvite {
public:
    static const ActivityInvite nullobj;
    ActivityInvite() = default;
    ActivityInvite(const ActivityInvite&) = default;
    ActivityInvite& operator=(const ActivityInvite&) = default;
    ActivityInvite(ActivityInvite&& other) noexcept;
    ActivityInvite& operator=(ActivityInvite&& other) noexcept;
    ~ActivityInvite() = default;
    explicit operator bool() const noexcept { return valid_; }

    uint64_t SenderId() const;
    void SetSenderId(uint64_t SenderId);
    uint64_t ChannelId() const;
    void SetChannelId(uint64_t ChannelId);
    uint64_t MessageId() const;  // what AcceptActivityInvite names
    void SetMessageId(uint64_t MessageId);
    ActivityActionTypes Type() const;
    void SetType(ActivityActionTypes Type);
    uint64_t ApplicationId() const;
    void SetApplicationId(uint64_t ApplicationId);
    uint64_t ParentApplicationId() const;
    void SetParentApplicationId(uint64_t ParentApplicationId);
    std::string PartyId() const;
    void SetPartyId(std::string PartyId);
    std::string SessionId() const;
    void SetSessionId(std::string SessionId);
    // False once the sender has left the party (ActivityInviteUpdated).
    bool IsValid() const;
    void SetIsValid(bool IsValid);

private:
    struct NullTag {};
    explicit ActivityInvite(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;
    struct Fields {
        uint64_t senderId = 0, channelId = 0, messageId = 0, applicationId = 0, parentApplicationId = 0;
        ActivityActionTypes type = ActivityActionTypes::Invalid;
        std::string partyId, sessionId;
        bool isValid = true;
    };
    bool valid_ = true;
    Fields f_;
};

class Activity {
public:
    static const Activity nullobj;

    Activity() = default;
    Activity(const Activity&) = default;
    Activity& operator=(const Activity&) = default;
    Activity(Activity&& other) noexcept;
    Activity& operator=(Activity&& other) noexcept;
    ~Activity() = default;

    explicit operator bool() const noexcept { return valid_; }

    // The displayed application name (1–128 characters).
    std::string Name() const;
    void SetName(std::string Name);
    ActivityTypes Type() const;
    void SetType(ActivityTypes Type);
    std::optional<std::string> State() const;  // at most 128 characters
    void SetState(std::optional<std::string> State);
    std::optional<std::string> Details() const;  // at most 128 characters
    void SetDetails(std::optional<std::string> Details);
    // Where a click on the state or details line leads (an http(s) URL, at most 512 characters).
    std::optional<std::string> StateUrl() const;
    void SetStateUrl(std::optional<std::string> StateUrl);
    std::optional<std::string> DetailsUrl() const;
    void SetDetailsUrl(std::optional<std::string> DetailsUrl);
    // Which field the status line shows (unset: the name).
    std::optional<StatusDisplayTypes> StatusDisplayType() const;
    void SetStatusDisplayType(std::optional<StatusDisplayTypes> StatusDisplayType);
    // The application that set it (other users' activities); ignored by UpdateRichPresence.
    std::optional<uint64_t> ApplicationId() const;
    void SetApplicationId(std::optional<uint64_t> ApplicationId);
    // The publisher's parent application of ApplicationId, when it has one.
    std::optional<uint64_t> ParentApplicationId() const;
    void SetParentApplicationId(std::optional<uint64_t> ParentApplicationId);
    // Where the game can be joined from (bits; all of them by default).
    ActivityGamePlatforms SupportedPlatforms() const;
    void SetSupportedPlatforms(ActivityGamePlatforms SupportedPlatforms);
    std::optional<ActivityAssets> Assets() const;
    void SetAssets(std::optional<ActivityAssets> Assets);
    std::optional<ActivityTimestamps> Timestamps() const;
    void SetTimestamps(std::optional<ActivityTimestamps> Timestamps);
    std::optional<ActivityParty> Party() const;
    void SetParty(std::optional<ActivityParty> Party);
    std::optional<ActivitySecrets> Secrets() const;
    void SetSecrets(std::optional<ActivitySecrets> Secrets);
    // At most two buttons.
    std::vector<ActivityButton> GetButtons() const;
    void AddButton(ActivityButton button);

    bool Equals(const Activity& other) const;

private:
    struct NullTag {};
    explicit Activity(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    struct Fields {
        std::string name;
        ActivityTypes type = ActivityTypes::Playing;
        std::optional<std::string> state, details, stateUrl, detailsUrl;
        std::optional<StatusDisplayTypes> statusDisplayType;
        std::optional<uint64_t> applicationId, parentApplicationId;
        ActivityGamePlatforms supportedPlatforms = static_cast<ActivityGamePlatforms>(255);
        std::optional<ActivityAssets> assets;
        std::optional<ActivityTimestamps> timestamps;
        std::optional<ActivityParty> party;
        std::optional<ActivitySecrets> secrets;
        std::vector<ActivityButton> buttons;
    };
    bool valid_ = true;
    Fields f_;
};

}  // namespace platformpp
