// Client's lobby calls (docs/wire.md: Social SDK server API; docs/emulator-gateway.md: Lobbies).
#include <boost/json.hpp>

#include "core/json_fields.hpp"
#include "social/common.hpp"

namespace platformpp {

using client::Begin;
using client::Needs;
using client::Request;

void Client::CreateOrJoinLobby(std::string secret, CreateOrJoinLobbyCallback callback) {
    CreateOrJoinLobbyWithMetadata(std::move(secret), {}, {}, std::move(callback));
}

void Client::CreateOrJoinLobbyWithMetadata(std::string secret, Properties lobbyMetadata, Properties memberMetadata,
                                           CreateOrJoinLobbyCallback callback) {
    Impl& impl = RequireImpl();
    const auto call = Begin(impl, Needs::Token, std::move(callback), [&] {
        social::RequireLength(secret, "secret", 1, 250);
        social::RequireMetadata(lobbyMetadata, "lobbyMetadata");
        social::RequireMetadata(memberMetadata, "memberMetadata");
    });
    if (!call) return;
    boost::json::object body{{"secret", secret}};
    if (!lobbyMetadata.empty()) body["lobby_metadata"] = social::ToJson(lobbyMetadata);
    if (!memberMetadata.empty()) body["member_metadata"] = social::ToJson(memberMetadata);
    call->Rest(Request("PUT", "/lobbies", std::move(body)),
               [&impl](const boost::json::value& json) { return impl.social->ApplyLobby(impl, json); });
}

void Client::LeaveLobby(uint64_t lobbyId, ResultCallback callback) {
    Impl& impl = RequireImpl();
    const auto call = Begin(impl, Needs::Token, std::move(callback), [&] { social::RequireId(lobbyId, "lobbyId"); });
    if (call) call->Rest(Request("DELETE", "/lobbies/" + std::to_string(lobbyId) + "/members/@me"),
                         [&impl, lobbyId](const boost::json::value&) { impl.social->RemoveLobby(impl, lobbyId); });
}

namespace {

// PATCH /lobbies/{id}/channel-linking with channel_id (0: null, unlink); the answer is the lobby.
void SetLinkedChannel(Client::Impl& impl, uint64_t lobbyId, uint64_t channelId,
                      Client::LinkOrUnlinkChannelCallback callback, bool linking) {
    const auto call = Begin(impl, Needs::Token, std::move(callback), [&] {
        social::RequireId(lobbyId, "lobbyId");
        if (linking) social::RequireId(channelId, "channelId");
    });
    boost::json::value channel = linking ? boost::json::value(std::to_string(channelId)) : boost::json::value(nullptr);
    if (call) call->Rest(Request("PATCH", "/lobbies/" + std::to_string(lobbyId) + "/channel-linking",
                                 boost::json::object{{"channel_id", std::move(channel)}}),
                         [&impl](const boost::json::value& json) { impl.social->ApplyLobby(impl, json); });
}

}  // namespace

void Client::LinkChannelToLobby(uint64_t lobbyId, uint64_t channelId, LinkOrUnlinkChannelCallback callback) {
    SetLinkedChannel(RequireImpl(), lobbyId, channelId, std::move(callback), true);
}

void Client::UnlinkChannelFromLobby(uint64_t lobbyId, LinkOrUnlinkChannelCallback callback) {
    SetLinkedChannel(RequireImpl(), lobbyId, 0, std::move(callback), false);
}

void Client::JoinLinkedLobbyGuild(uint64_t lobbyId, ProvisionalUserMergeRequiredCallback provisionalUserMergeRequiredCallback,
                                  JoinLinkedLobbyGuildCallback callback) {
    Impl& impl = RequireImpl();
    const auto call = Begin(impl, Needs::Token, std::move(callback), [&] { social::RequireId(lobbyId, "lobbyId"); });
    if (!call || social::RequireFullAccount(impl, *this, std::move(provisionalUserMergeRequiredCallback), call->callback,
                                            "JoinLinkedLobbyGuild: a provisional account must be merged into a full "
                                            "account before joining a guild"))
        return;
    call->Rest(Request("POST", "/lobbies/" + std::to_string(lobbyId) + "/members/@me/invites"),
               [webBase = impl.webBase](const boost::json::value& json) {
                   const auto code = json.is_object() ? json_fields::OptionalString(json.as_object(), "code") : std::nullopt;
                   return code ? webBase + "/invite/" + *code : std::string();
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
