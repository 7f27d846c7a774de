#include "platformpp/message.hpp"

#include <pybind11/native_enum.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "call_table.hpp"
#include "handle_members.hpp"
#include "platformpp/client.hpp"
#include "py_callback.hpp"

namespace py = pybind11;

namespace platformpp::python {

void BindMessage(py::module_& m, py::class_<Client>& client) {
    py::native_enum<AdditionalContentType>(m, "AdditionalContentType", "enum.IntEnum",
                                           "What a message carries besides its text.")
        .value("Other", AdditionalContentType::Other)
        .value("Attachment", AdditionalContentType::Attachment)
        .value("Poll", AdditionalContentType::Poll)
        .value("VoiceMessage", AdditionalContentType::VoiceMessage)
        .value("Thread", AdditionalContentType::Thread)
        .value("Embed", AdditionalContentType::Embed)
        .value("Sticker", AdditionalContentType::Sticker)
        .finalize();
    py::native_enum<DisclosureTypes>(m, "DisclosureTypes", "enum.IntEnum",
                                     "Auto-generated messages that explain an integration.")
        .value("MessageDataVisibleOnPlatform", DisclosureTypes::MessageDataVisibleOnPlatform)
        .finalize();

    py::class_<AdditionalContent> extra(m, "AdditionalContent", py::is_final(),
                                        "What a message carries besides its text: type, title and count.");
    extra.def(py::init<>(), "An empty record (type Other).")
        .def("equals", &AdditionalContent::Equals, py::arg("rhs"), "Same type, title and count.")
        .def_static("type_to_string", &AdditionalContent::TypeToString, py::arg("type"), "The type's name.")
        .def_property("type", &AdditionalContent::Type, &AdditionalContent::SetType, "The AdditionalContentType.")
        .def_property("title", &AdditionalContent::Title, &AdditionalContent::SetTitle,
                      "The poll's question, the embed's or thread's title, the file's or sticker's name; or None.")
        .def_property("count", &AdditionalContent::Count, &AdditionalContent::SetCount, "How many (0–255).");
    DefHandleMembers(extra);

    py::class_<UserMessageSummary> summary(m, "UserMessageSummary", py::is_final(),
                                           "One direct message conversation: the other user and its newest message.");
    summary.def_property_readonly("user_id", &UserMessageSummary::UserId, "The other participant.")
        .def_property_readonly("last_message_id", &UserMessageSummary::LastMessageId, "The newest message.");
    DefHandleMembers(summary);

    py::class_<MessageHandle> message(m, "MessageHandle", py::is_final(),
                                      "A lobby or direct message as the cache held it when obtained: a snapshot.");
    message.def_property_readonly("id", &MessageHandle::Id, "The message's id.")
        .def_property_readonly("content", &MessageHandle::Content,
                               "The text, mentions of known users and channels and custom emojis resolved.")
        .def_property_readonly("raw_content", &MessageHandle::RawContent, "The text as sent, markup included.")
        .def_property_readonly("recipient", &MessageHandle::Recipient, "The recipient of a direct message, when known.")
        .def_property_readonly("lobby", &MessageHandle::Lobby, "The lobby of a lobby message, when cached.")
        .def_property_readonly("channel", &MessageHandle::Channel, "The channel it was sent in, when known.")
        .def_property_readonly("sent_from_game", &MessageHandle::SentFromGame,
                               "False for messages from the platform's client in a linked channel.")
        .def_property_readonly("disclosure_type", &MessageHandle::DisclosureType,
                               "Set on the platform's auto-generated disclosure messages, else None.")
        .def_property_readonly("additional_content", &MessageHandle::AdditionalContent,
                               "Attachments, a poll, embeds, ... besides the text, or None.")
        .def_property_readonly("author_id", &MessageHandle::AuthorId, "The author's user id.")
        .def_property_readonly("author", &MessageHandle::Author, "The author, when known.")
        .def_property_readonly("channel_id", &MessageHandle::ChannelId,
                               "The lobby's id, or for a direct message the other participant's id.")
        .def_property_readonly("lobby_id", &MessageHandle::LobbyId, "The lobby (lobby messages), else None.")
        .def_property_readonly("recipient_id", &MessageHandle::RecipientId, "The recipient (direct messages), else 0.")
        .def_property_readonly("application_id", &MessageHandle::ApplicationId, "The game it was sent from.")
        .def_property_readonly("metadata", &MessageHandle::Metadata, "Metadata the sender attached.")
        .def_property_readonly("moderation_metadata", &MessageHandle::ModerationMetadata,
                               "Key-value pairs set by the game's backend.")
        .def_property_readonly("additional_name", &MessageHandle::AdditionalName,
                               "The author's additional name in the lobby (set by the game's backend), or None.")
        .def_property_readonly("sent_timestamp", &MessageHandle::SentTimestamp, "Unix milliseconds.")
        .def_property_readonly("edited_timestamp", &MessageHandle::EditedTimestamp, "Unix milliseconds; 0 if never edited.");
    DefHandleMembers(message);

    using SendCallback = PyCallback<ClientResult, uint64_t>;
    using MessagesCallback = PyCallback<ClientResult, std::vector<MessageHandle>>;
    DefCall(
        client, "send_lobby_message",
        [](Client& self, uint64_t lobbyId, std::string content, SendCallback callback) {
            self.SendLobbyMessage(lobbyId, std::move(content), WrapCallback(std::move(callback), "send_lobby_message"));
        },
        py::arg("lobby_id"), py::arg("content"), py::arg("callback"),
        "Sends content (1–2000 characters) to the lobby: callback(result, message_id).");
    DefCall(
        client, "send_lobby_message_with_metadata",
        [](Client& self, uint64_t lobbyId, std::string content, Client::Properties metadata, SendCallback callback) {
            self.SendLobbyMessageWithMetadata(lobbyId, std::move(content), std::move(metadata),
                                              WrapCallback(std::move(callback), "send_lobby_message_with_metadata"));
        },
        py::arg("lobby_id"), py::arg("content"), py::arg("metadata"), py::arg("callback"),
        "send_lobby_message with metadata.");
    DefCall(
        client, "send_user_message",
        [](Client& self, uint64_t recipientId, std::string content, SendCallback callback) {
            self.SendUserMessage(recipientId, std::move(content), WrapCallback(std::move(callback), "send_user_message"));
        },
        py::arg("recipient_id"), py::arg("content"), py::arg("callback"),
        "A direct message to another user of this game: callback(result, message_id).");
    DefCall(
        client, "send_user_message_with_metadata",
        [](Client& self, uint64_t recipientId, std::string content, Client::Properties metadata,
           SendCallback callback) {
            self.SendUserMessageWithMetadata(recipientId, std::move(content), std::move(metadata),
                                             WrapCallback(std::move(callback), "send_user_message_with_metadata"));
        },
        py::arg("recipient_id"), py::arg("content"), py::arg("metadata"), py::arg("callback"),
        "send_user_message with metadata.");
    DefCall(
        client, "edit_user_message",
        [](Client& self, uint64_t recipientId, uint64_t messageId, std::string content,
           PyCallback<ClientResult> callback) {
            self.EditUserMessage(recipientId, messageId, std::move(content),
                                 WrapCallback(std::move(callback), "edit_user_message"));
        },
        py::arg("recipient_id"), py::arg("message_id"), py::arg("content"), py::arg("callback"),
        "Edits one's own direct message: callback(result).");
    DefCall(
        client, "delete_user_message",
        [](Client& self, uint64_t recipientId, uint64_t messageId, PyCallback<ClientResult> callback) {
            self.DeleteUserMessage(recipientId, messageId, WrapCallback(std::move(callback), "delete_user_message"));
        },
        py::arg("recipient_id"), py::arg("message_id"), py::arg("callback"),
        "Deletes one's own direct message: callback(result).");
    DefCall(
        client, "get_lobby_messages_with_limit",
        [](Client& self, uint64_t lobbyId, int32_t limit, MessagesCallback callback) {
            self.GetLobbyMessagesWithLimit(lobbyId, limit, WrapCallback(std::move(callback), "get_lobby_messages"));
        },
        py::arg("lobby_id"), py::arg("limit"), py::arg("callback"),
        "The latest limit (1–200) lobby messages, oldest first: callback(result, messages).");
    DefCall(
        client, "get_user_messages_with_limit",
        [](Client& self, uint64_t recipientId, int32_t limit, MessagesCallback callback) {
            self.GetUserMessagesWithLimit(recipientId, limit, WrapCallback(std::move(callback), "get_user_messages"));
        },
        py::arg("recipient_id"), py::arg("limit"), py::arg("callback"),
        "The latest limit (1–200) messages with a user, oldest first, from the cache when it holds them: "
        "callback(result, messages).");
    client.def("get_message_handle", &Client::GetMessageHandle, py::arg("message_id"), "A cached message, or None.");
    DefCall(
        client, "get_user_message_summaries",
        [](Client& self, PyCallback<ClientResult, std::vector<UserMessageSummary>> callback) {
            self.GetUserMessageSummaries(WrapCallback(std::move(callback), "get_user_message_summaries"));
        },
        py::arg("callback"), "The user's direct message conversations: callback(result, summaries).");
    client.def("can_open_message_in_platform", &Client::CanOpenMessageInPlatform, py::arg("message_id"),
               "Whether the platform keeps the message where its client can show it.");
    DefCall(
        client, "open_message_in_platform",
        [](Client& self, uint64_t messageId, std::optional<PyCallback<>> mergeRequired,
           PyCallback<ClientResult> callback) {
            self.OpenMessageInPlatform(
                messageId,
                mergeRequired ? WrapCallback(std::move(*mergeRequired), "provisional user merge required") : nullptr,
                WrapCallback(std::move(callback), "open_message_in_platform"));
        },
        py::arg("message_id"), py::arg("provisional_user_merge_required_callback").none(true), py::arg("callback"),
        "Opens the message in the platform's client (through the URL opener): callback(result).");
    client.def("set_showing_chat", &Client::SetShowingChat, py::arg("showing_chat"),
               "Whether the game shows its chat (while not, new messages are announced in the log).");
    client.def("get_channel_handle", &Client::GetChannelHandle, py::arg("channel_id"),
               "A channel the Client knows (a lobby's, a conversation's, a linked guild channel), or None.");
    using MessageEvent = void (Client::*)(Client::MessageCallback);
    const std::pair<const char*, MessageEvent> events[] = {
        {"set_message_created_callback", &Client::SetMessageCreatedCallback},
        {"set_message_updated_callback", &Client::SetMessageUpdatedCallback},
    };
    for (const auto& [name, setter] : events) {
        client.def(
            name,
            [setter = setter, name = name](Client& self, std::optional<PyCallback<uint64_t>> callback) {
                (self.*setter)(callback ? WrapCallback(std::move(*callback), name) : nullptr);
            },
            py::arg("callback").none(true), "callback(message_id) when a message is created or edited (None: stop).");
    }
    client.def(
        "set_message_deleted_callback",
        [](Client& self, std::optional<PyCallback<uint64_t, uint64_t>> callback) {
            self.SetMessageDeletedCallback(callback ? WrapCallback(std::move(*callback), "message deleted") : nullptr);
        },
        py::arg("callback").none(true), "callback(message_id, channel_id) when a message is deleted (None: stop).");
}

}  // namespace platformpp::python
