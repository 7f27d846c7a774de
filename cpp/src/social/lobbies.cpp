// Client's lobby calls (WIRE.md: Social SDK server API; docs/emulator-gateway.md: Lobbies).
#include <boost/json.hpp>

#include "social/common.hpp"

namespace platformpp {

using client::Begin;
using client::Needs;
using client::Share;

void Client::CreateOrJoinLobby(std::string secret, CreateOrJoinLobbyCallback callback) {
    CreateOrJoinLobbyWithMetadata(std::move(secret), {}, {}, std::move(callback));
}

void Client::CreateOrJoinLobbyWithMetadata(std::string secret, Properties lobbyMetadata, Properties memberMetadata,
                                           CreateOrJoinLobbyCallback callback) {
    Impl& impl = RequireImpl();
    auto shared = Share(std::move(callback));
    const auto token = Begin(impl, Needs::Token, shared,
        [&] {
            social::RequireLength(secret, "secret", 1, 250);
            social::RequireMetadata(lobbyMetadata, "lobbyMetadata");
            social::RequireMetadata(memberMetadata, "memberMetadata");
        },
        uint64_t{0});
    if (!token) return;
    client::ApiRequest request;
    request.method = "PUT";
    request.path = "/lobbies";
    request.token = *token;
    request.bodyKind = client::Body::Json;
    boost::json::object body{{"secret", secret}};
    if (!lobbyMetadata.empty()) body["lobby_metadata"] = social::ToJson(lobbyMetadata);
    if (!memberMetadata.empty()) body["member_metadata"] = social::ToJson(memberMetadata);
    request.json = std::move(body);
    impl.Call(std::move(request), [&impl, shared](ClientResult result, boost::json::value json) {
        uint64_t lobbyId = 0;
        if (result.Successful()) lobbyId = impl.social->ApplyLobby(impl, json);
        impl.Deliver([shared, result = std::move(result), lobbyId] { (*shared)(result, lobbyId); });
    });
}

void Client::LeaveLobby(uint64_t lobbyId, ResultCallback callback) {
    Impl& impl = RequireImpl();
    auto shared = Share(std::move(callback));
    const auto token = Begin(impl, Needs::Token, shared, [&] { social::RequireId(lobbyId, "lobbyId"); });
    if (!token) return;
    client::ApiRequest request;
    request.method = "DELETE";
    request.path = "/lobbies/" + std::to_string(lobbyId) + "/members/@me";
    request.token = *token;
    impl.Call(std::move(request), [&impl, shared, lobbyId](ClientResult result, boost::json::value) {
        if (result.Successful()) impl.social->RemoveLobby(impl, lobbyId);
        impl.Deliver([shared, result = std::move(result)] { (*shared)(result); });
    });
}

namespace {

// PATCH /lobbies/{id}/channel-linking with channel_id (0: null, unlink); the answer is the lobby.
void SetLinkedChannel(Client::Impl& impl, uint64_t lobbyId, uint64_t channelId,
                      std::shared_ptr<Client::LinkOrUnlinkChannelCallback> shared, bool linking) {
    const auto token = Begin(impl, Needs::Token, shared, [&] {
        social::RequireId(lobbyId, "lobbyId");
        if (linking) social::RequireId(channelId, "channelId");
    });
    if (!token) return;
    client::ApiRequest request;
    request.method = "PATCH";
    request.path = "/lobbies/" + std::to_string(lobbyId) + "/channel-linking";
    request.token = *token;
    request.bodyKind = client::Body::Json;
    boost::json::object body;
    if (linking) {
        body["channel_id"] = std::to_string(channelId);
    } else {
        body["channel_id"] = nullptr;
    }
    request.json = std::move(body);
    impl.Call(std::move(request), [&impl, shared](ClientResult result, boost::json::value json) {
        if (result.Successful()) impl.social->ApplyLobby(impl, json);
        impl.Deliver([shared, result = std::move(result)] { (*shared)(result); });
    });
}

}  // namespace

void Client::LinkChannelToLobby(uint64_t lobbyId, uint64_t channelId, LinkOrUnlinkChannelCallback callback) {
    SetLinkedChannel(RequireImpl(), lobbyId, channelId, Share(std::move(callback)), true);
}

void Client::UnlinkChannelFromLobby(uint64_t lobbyId, LinkOrUnlinkChannelCallback callback) {
    SetLinkedChannel(RequireImpl(), lobbyId, 0, Share(std::move(callback)), false);
}

void Client::JoinLinkedLobbyGuild(uint64_t lobbyId, ProvisionalUserMergeRequiredCallback provisionalUserMergeRequiredCallback,
                                  JoinLinkedLobbyGuildCallback callback) {
    Impl& impl = RequireImpl();
    auto shared = Share(std::move(callback));
    const auto token = Begin(impl, Needs::Token, shared, [&] { social::RequireId(lobbyId, "lobbyId"); }, std::string());
    if (!token) return;
    const auto me = GetCurrentUserV2();
    if (me && me->IsProvisional()) {
        // Guilds are for full accounts: the game is asked to merge the provisional account first.
        auto merge = std::make_shared<ProvisionalUserMergeRequiredCallback>(std::move(provisionalUserMergeRequiredCallback));
        impl.Deliver([merge, shared] {
            if (*merge) (*merge)();
            (*shared)(ClientResult::Failure(ErrorType::ValidationError,
                                            "JoinLinkedLobbyGuild: a provisional account must be merged into a full "
                                            "account before joining a guild"),
                      std::string());
        });
        return;
    }
    client::ApiRequest request;
    request.method = "POST";
    request.path = "/lobbies/" + std::to_string(lobbyId) + "/members/@me/invites";
    request.token = *token;
    const std::string webBase = impl.webBase;
    impl.Call(std::move(request), [&impl, shared, webBase](ClientResult result, boost::json::value json) {
        std::string url;
        if (result.Successful() && json.is_object()) {
            if (const auto* code = json.as_object().if_contains("code"); code && code->is_string())
                url = webBase + "/invite/" + std::string(code->as_string());
        }
        impl.Deliver([shared, result = std::move(result), url = std::move(url)] { (*shared)(result, url); });
    });
}

std::optional<LobbyHandle> Client::GetLobbyHandle(uint64_t lobbyId) const { return RequireImpl().social->Lobby(lobbyId); }
std::vector<uint64_t> Client::GetLobbyIds() const { return RequireImpl().social->LobbyIds(); }

using Slots = social::SocialState::Callbacks;
void Client::SetLobbyCreatedCallback(LobbyCallback callback) {
    RequireImpl().social->Set(&Slots::lobbyCreated, std::move(callback));
}
void Client::SetLobbyUpdatedCallback(LobbyCallback callback) {
    RequireImpl().social->Set(&Slots::lobbyUpdated, std::move(callback));
}
void Client::SetLobbyDeletedCallback(LobbyCallback callback) {
    RequireImpl().social->Set(&Slots::lobbyDeleted, std::move(callback));
}
void Client::SetLobbyMemberAddedCallback(LobbyMemberCallback callback) {
    RequireImpl().social->Set(&Slots::memberAdded, std::move(callback));
}
void Client::SetLobbyMemberRemovedCallback(LobbyMemberCallback callback) {
    RequireImpl().social->Set(&Slots::memberRemoved, std::move(callback));
}
void Client::SetLobbyMemberUpdatedCallback(LobbyMemberCallback callback) {
    RequireImpl().social->Set(&Slots::memberUpdated, std::move(callback));
}

}  // namespace platformpp
