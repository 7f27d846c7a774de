#pragma once
// Lobby messages and game direct messages. Client::GetMessageHandle and the message calls return
// read-only SNAPSHOTS of a message as the Client's cache held it (see user.hpp for the handle
// semantics); the message callbacks say when one was created, edited or deleted.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "platformpp/user.hpp"

namespace platformpp {

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
    std::string Content() const;
    uint64_t AuthorId() const;
    std::optional<UserHandle> Author() const;
    // The lobby's id for a lobby message; for a direct message, the id of the conversation's other
    // participant as seen by the current user (game direct messages have no channel of their own).
    uint64_t ChannelId() const;
    // Set for lobby messages.
    std::optional<uint64_t> LobbyId() const;
    // Set for direct messages: the user it was sent to.
    std::optional<uint64_t> RecipientId() const;
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
