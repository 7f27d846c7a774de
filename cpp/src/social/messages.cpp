// Client's lobby and direct message calls (docs/emulator-gateway.md: Lobby messages, Game direct
// messages) and the message cache's getters.
#include <boost/json.hpp>

#include <algorithm>

#include "core/json_fields.hpp"
#include "social/common.hpp"

namespace platformpp {

using client::Begin;
using client::Needs;
using client::Request;

namespace {

void SendMessage(Client::Impl& impl, const std::string& path, std::string route, std::string content, const Client::Properties& metadata,
                 Client::SendMessageCallback callback, const char* idField, uint64_t id) {
    const auto call = Begin(impl, Needs::Token, std::move(callback), [&] {
        social::RequireId(id, idField);
        social::RequireLength(content, "content", 1, 2000);
        social::RequireMetadata(metadata, "metadata");
    });
    if (!call) return;
    boost::json::object body{{"content", content}};
    if (!metadata.empty()) body["metadata"] = social::ToJson(metadata);
    call->Rest(Request("POST", path, std::move(body), std::move(route)), [&impl](const boost::json::value& json) {
        const auto stored = impl.social->ApplyMessage(impl, json, true);
        return stored ? stored->id : uint64_t{0};
    });
}

std::vector<MessageHandle> OldestFirst(Client::Impl& impl, const boost::json::value& json) {
    std::vector<MessageHandle> handles;
    if (!json.is_array()) return handles;
    for (const auto& item : json.as_array()) {
        if (auto stored = impl.social->ApplyMessage(impl, item, false)) {
            if (auto handle = impl.social->Message(stored->id)) handles.push_back(std::move(*handle));
        }
    }
    std::sort(handles.begin(), handles.end(), [](const auto& a, const auto& b) { return a.Id() < b.Id(); });
    return handles;
}

}  // namespace

void Client::SendLobbyMessage(uint64_t lobbyId, std::string content, SendMessageCallback callback) {
    SendLobbyMessageWithMetadata(lobbyId, std::move(content), {}, std::move(callback));
}

void Client::SendLobbyMessageWithMetadata(uint64_t lobbyId, std::string content, Properties metadata,
                                          SendMessageCallback callback) {
    Impl& impl = RequireImpl();
    SendMessage(impl, "/lobbies/" + std::to_string(lobbyId) + "/messages", "", std::move(content), metadata,
                std::move(callback), "lobbyId", lobbyId);
}

void Client::SendUserMessage(uint64_t recipientId, std::string content, SendMessageCallback callback) {
    SendUserMessageWithMetadata(recipientId, std::move(content), {}, std::move(callback));
}

void Client::SendUserMessageWithMetadata(uint64_t recipientId, std::string content, Properties metadata,
                                         SendMessageCallback callback) {
    Impl& impl = RequireImpl();
    SendMessage(impl, "/users/" + std::to_string(recipientId) + "/messages", "POST /users/{id}/messages", std::move(content), metadata,
                std::move(callback), "recipientId", recipientId);
}

void Client::EditUserMessage(uint64_t recipientId, uint64_t messageId, std::string content, ResultCallback callback) {
    Impl& impl = RequireImpl();
    const auto call = Begin(impl, Needs::Token, std::move(callback), [&] {
        social::RequireId(recipientId, "recipientId");
        social::RequireId(messageId, "messageId");
        social::RequireLength(content, "content", 1, 2000);
    });
    if (call) call->Rest(Request("PATCH", "/users/" + std::to_string(recipientId) + "/messages/" + std::to_string(messageId),
                                 boost::json::object{{"content", content}}, "PATCH /users/{id}/messages/{id}"),
                         [&impl](const boost::json::value& json) { impl.social->ApplyMessage(impl, json, true); });
}

void Client::DeleteUserMessage(uint64_t recipientId, uint64_t messageId, ResultCallback callback) {
    Impl& impl = RequireImpl();
    const auto call = Begin(impl, Needs::Token, std::move(callback), [&] {
        social::RequireId(recipientId, "recipientId");
        social::RequireId(messageId, "messageId");
    });
    if (call) call->Rest(Request("DELETE", "/users/" + std::to_string(recipientId) + "/messages/" + std::to_string(messageId),
                                 nullptr, "DELETE /users/{id}/messages/{id}"),
                         [&impl, messageId](const boost::json::value&) { impl.social->RemoveMessage(impl, messageId); });
}

void Client::GetLobbyMessagesWithLimit(uint64_t lobbyId, int32_t limit, GetMessagesCallback callback) {
    Impl& impl = RequireImpl();
    const auto call = Begin(impl, Needs::Token, std::move(callback), [&] {
        social::RequireId(lobbyId, "lobbyId");
        social::RequireLimit(limit);
    });
    const std::string path = "/lobbies/" + std::to_string(lobbyId) + "/messages";
    if (call) call->Rest(Request("GET", path + "?limit=" + std::to_string(limit), nullptr, "GET " + path),
                         [&impl](const boost::json::value& json) { return OldestFirst(impl, json); });
}

void Client::GetUserMessagesWithLimit(uint64_t recipientId, int32_t limit, GetMessagesCallback callback) {
    Impl& impl = RequireImpl();
    const auto call = Begin(impl, Needs::Token, std::move(callback), [&] {
        social::RequireId(recipientId, "recipientId");
        social::RequireLimit(limit);
    });
    if (!call) return;
    bool live = false;
    {
        std::lock_guard lock(impl.mutex);
        live = impl.status == Status::Ready;
    }
    // Only a live Gateway session keeps a conversation's cache complete up to its newest message.
    if (live) {
        if (auto cached = impl.social->CachedConversation(recipientId, limit)) {
            impl.Log(LoggingSeverity::Verbose, "GetUserMessagesWithLimit answered from the cache");
            return client::Answer(impl, call->callback, ClientResult::Success(), std::make_tuple(std::move(*cached)));
        }
    }
    call->Rest(Request("GET", "/users/" + std::to_string(recipientId) + "/messages?limit=" + std::to_string(limit), nullptr,
                       "GET /users/{id}/messages"),
               [&impl, recipientId, limit](const boost::json::value& json) {
                   return impl.social->ApplyConversation(impl, recipientId, json, limit);
               });
}

std::optional<MessageHandle> Client::GetMessageHandle(uint64_t messageId) const {
    return RequireImpl().social->Message(messageId);
}

void Client::GetUserMessageSummaries(UserMessageSummariesCallback callback) {
    const auto call = Begin(RequireImpl(), Needs::Token, std::move(callback));
    if (call) call->Rest(Request("GET", "/users/@me/messages/summaries"), social::MessageSummariesFromJson);
}

std::optional<ChannelHandle> Client::GetChannelHandle(uint64_t channelId) const {
    return RequireImpl().social->Channel(channelId);
}

bool Client::CanOpenMessageInPlatform(uint64_t messageId) {
    return RequireImpl().social->CanOpenInPlatform(messageId);
}

void Client::OpenMessageInPlatform(uint64_t messageId, ProvisionalUserMergeRequiredCallback provisionalUserMergeRequiredCallback,
                                   OpenMessageInPlatformCallback callback) {
    Impl& impl = RequireImpl();
    const auto call = Begin(impl, Needs::Token, std::move(callback), [&] { social::RequireId(messageId, "messageId"); });
    if (!call || social::RequireFullAccount(impl, *this, std::move(provisionalUserMergeRequiredCallback), call->callback,
                                            "OpenMessageInPlatform: a provisional account must be merged into a full "
                                            "account first"))
        return;
    const auto shared = call->callback;
    const auto url = impl.social->PlatformUrl(messageId);
    std::shared_ptr<AuthorizeUrlOpener> opener;
    {
        std::lock_guard lock(impl.mutex);
        opener = impl.opener;
    }
    if (!url || !opener) {
        auto failure = ClientResult::Failure(
            ErrorType::ValidationError,
            !url ? "messageId: the platform does not keep this message (CanOpenMessageInPlatform is false)"
                 : "OpenMessageInPlatform: no URL opener is set (SetAuthorizeUrlOpener)");
        return client::Answer(impl, shared, std::move(failure), std::tuple<>());
    }
    const std::string full = impl.webBase + *url;
    impl.Deliver([opener, shared, full] {
        (*opener)(full);
        (*shared)(ClientResult::Success());
    });
}

void Client::SetShowingChat(bool showingChat) { RequireImpl().social->SetShowingChat(showingChat); }

using Slots = social::SocialState::Callbacks;
void Client::SetMessageCreatedCallback(MessageCallback callback) {
    RequireImpl().social->Set(&Slots::messageCreated, std::move(callback));
}
void Client::SetMessageUpdatedCallback(MessageCallback callback) {
    RequireImpl().social->Set(&Slots::messageUpdated, std::move(callback));
}
void Client::SetMessageDeletedCallback(MessageDeletedCallback callback) {
    RequireImpl().social->Set(&Slots::messageDeleted, std::move(callback));
}

}  // namespace platformpp
