// Client's lobby and direct message calls (docs/emulator-gateway.md: Lobby messages, Game direct
// messages) and the message cache's getters.
#include <boost/json.hpp>

#include <algorithm>

#include "core/json_fields.hpp"
#include "social/common.hpp"

namespace platformpp {

using client::Begin;
using client::Needs;
using client::Share;

namespace {

void SendMessage(Client::Impl& impl, const std::string& path, std::string route, std::string content, const Client::Properties& metadata,
                 std::shared_ptr<Client::SendMessageCallback> shared, const char* idField, uint64_t id) {
    const auto token = Begin(impl, Needs::Token, shared,
        [&] {
            social::RequireId(id, idField);
            social::RequireLength(content, "content", 1, 2000);
            social::RequireMetadata(metadata, "metadata");
        },
        uint64_t{0});
    if (!token) return;
    client::ApiRequest request;
    request.method = "POST";
    request.path = path;
    request.route = std::move(route);
    request.token = *token;
    request.bodyKind = client::Body::Json;
    boost::json::object body{{"content", content}};
    if (!metadata.empty()) body["metadata"] = social::ToJson(metadata);
    request.json = std::move(body);
    impl.Call(std::move(request), [&impl, shared](ClientResult result, boost::json::value json) {
        uint64_t messageId = 0;
        if (result.Successful()) {
            if (auto stored = impl.social->ApplyMessage(impl, json, true)) messageId = stored->id;
        }
        impl.Deliver([shared, result = std::move(result), messageId] { (*shared)(result, messageId); });
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
                Share(std::move(callback)), "lobbyId", lobbyId);
}

void Client::SendUserMessage(uint64_t recipientId, std::string content, SendMessageCallback callback) {
    SendUserMessageWithMetadata(recipientId, std::move(content), {}, std::move(callback));
}

void Client::SendUserMessageWithMetadata(uint64_t recipientId, std::string content, Properties metadata,
                                         SendMessageCallback callback) {
    Impl& impl = RequireImpl();
    SendMessage(impl, "/users/" + std::to_string(recipientId) + "/messages", "POST /users/{id}/messages", std::move(content), metadata,
                Share(std::move(callback)), "recipientId", recipientId);
}

void Client::EditUserMessage(uint64_t recipientId, uint64_t messageId, std::string content, ResultCallback callback) {
    Impl& impl = RequireImpl();
    auto shared = Share(std::move(callback));
    const auto token = Begin(impl, Needs::Token, shared, [&] {
        social::RequireId(recipientId, "recipientId");
        social::RequireId(messageId, "messageId");
        social::RequireLength(content, "content", 1, 2000);
    });
    if (!token) return;
    client::ApiRequest request;
    request.method = "PATCH";
    request.path = "/users/" + std::to_string(recipientId) + "/messages/" + std::to_string(messageId);
    request.route = "PATCH /users/{id}/messages/{id}";
    request.token = *token;
    request.bodyKind = client::Body::Json;
    request.json = boost::json::object{{"content", content}};
    impl.Call(std::move(request), [&impl, shared](ClientResult result, boost::json::value json) {
        if (result.Successful()) impl.social->ApplyMessage(impl, json, true);
        impl.Deliver([shared, result = std::move(result)] { (*shared)(result); });
    });
}

void Client::DeleteUserMessage(uint64_t recipientId, uint64_t messageId, ResultCallback callback) {
    Impl& impl = RequireImpl();
    auto shared = Share(std::move(callback));
    const auto token = Begin(impl, Needs::Token, shared, [&] {
        social::RequireId(recipientId, "recipientId");
        social::RequireId(messageId, "messageId");
    });
    if (!token) return;
    client::ApiRequest request;
    request.method = "DELETE";
    request.path = "/users/" + std::to_string(recipientId) + "/messages/" + std::to_string(messageId);
    request.route = "DELETE /users/{id}/messages/{id}";
    request.token = *token;
    impl.Call(std::move(request), [&impl, shared, messageId](ClientResult result, boost::json::value) {
        if (result.Successful()) impl.social->RemoveMessage(impl, messageId);
        impl.Deliver([shared, result = std::move(result)] { (*shared)(result); });
    });
}

void Client::GetLobbyMessagesWithLimit(uint64_t lobbyId, int32_t limit, GetMessagesCallback callback) {
    Impl& impl = RequireImpl();
    auto shared = Share(std::move(callback));
    const auto token = Begin(impl, Needs::Token, shared,
        [&] {
            social::RequireId(lobbyId, "lobbyId");
            social::RequireLimit(limit);
        },
        std::vector<MessageHandle>());
    if (!token) return;
    client::ApiRequest request;
    request.path = "/lobbies/" + std::to_string(lobbyId) + "/messages?limit=" + std::to_string(limit);
    request.route = "GET /lobbies/" + std::to_string(lobbyId) + "/messages";
    request.token = *token;
    impl.Call(std::move(request), [&impl, shared](ClientResult result, boost::json::value json) {
        auto handles = result.Successful() ? OldestFirst(impl, json) : std::vector<MessageHandle>();
        impl.Deliver([shared, result = std::move(result), handles = std::move(handles)] { (*shared)(result, handles); });
    });
}

void Client::GetUserMessagesWithLimit(uint64_t recipientId, int32_t limit, GetMessagesCallback callback) {
    Impl& impl = RequireImpl();
    auto shared = Share(std::move(callback));
    const auto token = Begin(impl, Needs::Token, shared,
        [&] {
            social::RequireId(recipientId, "recipientId");
            social::RequireLimit(limit);
        },
        std::vector<MessageHandle>());
    if (!token) return;
    bool live = false;
    {
        std::lock_guard lock(impl.mutex);
        live = impl.status == Status::Ready;
    }
    // Only a live Gateway session keeps a conversation's cache complete up to its newest message.
    if (live) {
        if (auto cached = impl.social->CachedConversation(recipientId, limit)) {
            impl.Log(LoggingSeverity::Verbose, "GetUserMessagesWithLimit answered from the cache");
            impl.Deliver([shared, handles = std::move(*cached)] { (*shared)(ClientResult::Success(), handles); });
            return;
        }
    }
    client::ApiRequest request;
    request.path = "/users/" + std::to_string(recipientId) + "/messages?limit=" + std::to_string(limit);
    request.route = "GET /users/{id}/messages";
    request.token = *token;
    impl.Call(std::move(request), [&impl, shared, recipientId, limit](ClientResult result, boost::json::value json) {
        std::vector<MessageHandle> handles;
        if (result.Successful()) handles = impl.social->ApplyConversation(impl, recipientId, json, limit);
        impl.Deliver([shared, result = std::move(result), handles = std::move(handles)] { (*shared)(result, handles); });
    });
}

std::optional<MessageHandle> Client::GetMessageHandle(uint64_t messageId) const {
    return RequireImpl().social->Message(messageId);
}

void Client::GetUserMessageSummaries(UserMessageSummariesCallback callback) {
    Impl& impl = RequireImpl();
    auto shared = Share(std::move(callback));
    const auto token = Begin(impl, Needs::Token, shared, [] {}, std::vector<UserMessageSummary>());
    if (!token) return;
    client::ApiRequest request;
    request.path = "/users/@me/messages/summaries";
    request.token = *token;
    impl.Call(std::move(request), [&impl, shared](ClientResult result, boost::json::value json) {
        std::vector<UserMessageSummary> summaries;
        if (result.Successful() && json.is_array()) {
            for (const auto& item : json.as_array()) {
                if (!item.is_object()) continue;
                summaries.emplace_back(json_fields::Snowflake(item.as_object(), "user_id"),
                                       json_fields::Snowflake(item.as_object(), "last_message_id"));
            }
        }
        impl.Deliver([shared, result = std::move(result), summaries = std::move(summaries)] { (*shared)(result, summaries); });
    });
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
    auto shared = Share(std::move(callback));
    const auto token = Begin(impl, Needs::Token, shared, [&] { social::RequireId(messageId, "messageId"); });
    if (!token) return;
    const auto me = GetCurrentUserV2();
    if (me && me->IsProvisional()) {
        auto merge = std::make_shared<ProvisionalUserMergeRequiredCallback>(std::move(provisionalUserMergeRequiredCallback));
        impl.Deliver([merge, shared] {
            if (*merge) (*merge)();
            (*shared)(ClientResult::Failure(ErrorType::ValidationError,
                                            "OpenMessageInPlatform: a provisional account must be merged into a full "
                                            "account first"));
        });
        return;
    }
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
        impl.Deliver([shared, failure] { (*shared)(failure); });
        return;
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
