#pragma once
// Lobby messages and game direct messages. Client::GetMessageHandle and the message calls return
// read-only SNAPSHOTS of a message as the Client's cache held it (see user.hpp for the handle
// semantics); the message callbacks say when one was created, edited or deleted.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "platformpp/guild.hpp"
#include "platformpp/lobby.hpp"
#include "platformpp/user.hpp"

namespace platformpp {

// What a message carries besides its text (MessageHandle::AdditionalContent): messages from the
// platform's client in a linked channel may hold attachments, a poll, a voice message, a thread,
// embeds or stickers, which a game shows as a summary.
enum class AdditionalContentType : int32_t {
    Other = 0,
    Attachment = 1,
    Poll = 2,
    VoiceMessage = 3,
    Thread = 4,
    Embed = 5,
    Sticker = 6,
};

// Auto-generated messages that explain an integration to users (MessageHandle::DisclosureType).
enum class DisclosureTypes : int32_t {
    // Sent to a lobby when it is linked to a guild channel: its messages are now visible on the platform.
    MessageDataVisibleOnPlatform = 3,
};

// A value class in the house style (see authorization.hpp).
class AdditionalContent {
public:
    static const AdditionalContent nullobj;

    AdditionalContent() = default;
    AdditionalContent(const AdditionalContent&) = default;
    AdditionalContent& operator=(const AdditionalContent&) = default;
    AdditionalContent(AdditionalContent&& other) noexcept;
    AdditionalContent& operator=(AdditionalContent&& other) noexcept;
    ~AdditionalContent() = default;

    explicit operator bool() const noexcept { return valid_; }

    bool Equals(AdditionalContent rhs) const;
    static std::string TypeToString(AdditionalContentType type);

    AdditionalContentType Type() const;
    void SetType(AdditionalContentType Type);
    // The poll's question, the embed's or the thread's title, the sticker's or the file's name.
    std::optional<std::string> Title() const;
    void SetTitle(std::optional<std::string> Title);
    // How many of them (attachments, embeds, stickers); 1 for a poll, a thread or a voice message.
    uint8_t Count() const;
    void SetCount(uint8_t Count);

private:
    struct NullTag {};
    explicit AdditionalContent(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    AdditionalContentType type_ = AdditionalContentType::Other;
    std::optional<std::string> title_;
    uint8_t count_ = 0;
};

// One direct message conversation of the current user (Client::GetUserMessageSummaries).
class UserMessageSummary {
public:
    static const UserMessageSummary nullobj;

    UserMessageSummary(uint64_t userId, uint64_t lastMessageId) noexcept;  // SDK-internal
    UserMessageSummary(const UserMessageSummary&) = default;
    UserMessageSummary& operator=(const UserMessageSummary&) = default;
    UserMessageSummary(UserMessageSummary&& other) noexcept;
    UserMessageSummary& operator=(UserMessageSummary&& other) noexcept;
    ~UserMessageSummary() = default;

    explicit operator bool() const noexcept { return valid_; }

    // The other participant.
    uint64_t UserId() const;
    // The conversation's newest message.
    uint64_t LastMessageId() const;

private:
    struct NullTag {};
    explicit UserMessageSummary(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    uint64_t userId_ = 0, lastMessageId_ = 0;
};

namespace detail {
struct MessageView;
}  // namespace detail

class MessageHandle {
public:
    static const MessageHandle nullobj;

    explicit MessageHandle(std::shared_ptr<const detail::MessageView> view) noexcept;  // SDK-internal
    MessageHandle(const MessageHandle&) = default;
    MessageHandle& operator=(const MessageHandle&) = default;
    MessageHandle(MessageHandle&&) noexcept = default;
    MessageHandle& operator=(MessageHandle&&) noexcept = default;
    ~MessageHandle() = default;

    explicit operator bool() const noexcept { return view_ != nullptr; }

    uint64_t Id() const;
    // The text as a game shows it: mentions of known users (<@id>) become @name, of known channels
    // (<#id>) #name, custom emojis (<:name:id>) :name:.
    std::string Content() const;
    // The text as sent, markup included.
    std::string RawContent() const;
    uint64_t AuthorId() const;
    std::optional<UserHandle> Author() const;
    // The lobby's id for a lobby message; for a direct message, the id of the conversation's other
    // participant as seen by the current user (game direct messages have no channel of their own).
    uint64_t ChannelId() const;
    // Set for lobby messages.
    std::optional<uint64_t> LobbyId() const;
    // For direct messages: the user it was sent to (0 for lobby messages).
    uint64_t RecipientId() const;
    // That user, when the SDK knows them.
    std::optional<UserHandle> Recipient() const;
    // The lobby of a lobby message, when the cache holds it.
    std::optional<LobbyHandle> Lobby() const;
    // The channel it was sent in (Client::GetChannelHandle(ChannelId())), when the cache knows it.
    std::optional<ChannelHandle> Channel() const;
    // True when sent from a game with the SDK; false for messages from the platform's client in a
    // linked channel (and the platform's own disclosure messages).
    bool SentFromGame() const;
    // Set on the platform's auto-generated messages that explain an integration.
    std::optional<DisclosureTypes> DisclosureType() const;
    // Attachments, a poll, embeds, ... the message carries besides its text.
    std::optional<platformpp::AdditionalContent> AdditionalContent() const;
    std::optional<uint64_t> ApplicationId() const;
    // Metadata the sender attached (SendLobbyMessageWithMetadata, SendUserMessageWithMetadata).
    std::unordered_map<std::string, std::string> Metadata() const;
    // Custom key-value pairs set by the game's backend (seed: Message handle, ModerationMetadata).
    std::unordered_map<std::string, std::string> ModerationMetadata() const;
    // The author's additional name in the lobby, set by the game's backend; read-only in the SDK.
    std::optional<std::string> AdditionalName() const;
    // Unix milliseconds; EditedTimestamp is 0 for a message never edited.
    uint64_t SentTimestamp() const;
    uint64_t EditedTimestamp() const;

private:
    const detail::MessageView& View() const;
    std::shared_ptr<const detail::MessageView> view_;
};

}  // namespace platformpp
