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
};

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
    // The cover image of this game's invites: a URL or an asset key.
    std::optional<std::string> InviteCoverImage() const;
    void SetInviteCoverImage(std::optional<std::string> InviteCoverImage);

private:
    struct NullTag {};
    explicit ActivityAssets(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    struct Fields {
        std::optional<std::string> largeImage, largeText, smallImage, smallText, inviteCoverImage;
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

private:
    struct NullTag {};
    explicit ActivityParty(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    std::string id_;
    int32_t currentSize_ = 0;
    int32_t maxSize_ = 0;
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
    // The application that set it (other users' activities); ignored by UpdateRichPresence.
    std::optional<uint64_t> ApplicationId() const;
    void SetApplicationId(std::optional<uint64_t> ApplicationId);
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
        std::optional<std::string> state, details;
        std::optional<uint64_t> applicationId;
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
