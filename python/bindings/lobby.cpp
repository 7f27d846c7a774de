#include "platformpp/lobby.hpp"

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "call_table.hpp"
#include "handle_members.hpp"
#include "platformpp/client.hpp"
#include "py_callback.hpp"

namespace py = pybind11;

namespace platformpp::python {
namespace {

template <typename... Args>
std::function<void(Args...)> Optional(std::optional<PyCallback<Args...>> callback, const char* what) {
    return callback ? WrapCallback<Args...>(std::move(*callback), what) : nullptr;
}

}  // namespace

void BindLinkedValues(py::module_& m) {
    py::class_<LinkedLobby> linkedLobby(m, "LinkedLobby", py::is_final(),
                                        "The lobby a guild channel is linked to: its game and its id.");
    linkedLobby.def(py::init<>(), "An empty record.")
        .def_property("application_id", &LinkedLobby::ApplicationId, &LinkedLobby::SetApplicationId,
                      "The lobby's game.")
        .def_property("lobby_id", &LinkedLobby::LobbyId, &LinkedLobby::SetLobbyId, "The lobby's id.");
    DefHandleMembers(linkedLobby);

    py::class_<LinkedChannel> linkedChannel(m, "LinkedChannel", py::is_final(),
                                            "The guild channel a lobby is linked to.");
    linkedChannel.def(py::init<>(), "An empty record.")
        .def_property("id", &LinkedChannel::Id, &LinkedChannel::SetId, "The channel's id.")
        .def_property("name", &LinkedChannel::Name, &LinkedChannel::SetName, "The channel's name.")
        .def_property("guild_id", &LinkedChannel::GuildId, &LinkedChannel::SetGuildId, "The channel's guild.");
    DefHandleMembers(linkedChannel);
}

void BindLobby(py::module_& m, py::class_<Client>& client) {
    py::class_<LobbyMemberHandle> member(m, "LobbyMemberHandle", py::is_final(),
                                         "A member of a lobby, as in the lobby snapshot it came from.");
    member.def_property_readonly("id", &LobbyMemberHandle::Id, "The member's user id.")
        .def_property_readonly("lobby_id", &LobbyMemberHandle::LobbyId, "The lobby's id.")
        .def_property_readonly("metadata", &LobbyMemberHandle::Metadata, "The member's metadata.")
        .def_property_readonly("can_link_lobby", &LobbyMemberHandle::CanLinkLobby,
                               "Member flag CanLinkLobby: may link the lobby to a guild channel.")
        .def_property_readonly("additional_name", &LobbyMemberHandle::AdditionalName,
                               "Set by the game's backend; read-only in the SDK.")
        .def_property_readonly("user", &LobbyMemberHandle::User, "The member as a user, when known.")
        .def_property_readonly("connected", &LobbyMemberHandle::Connected,
                               "Whether the member is connected to the platform now (online, or the current user).");
    DefHandleMembers(member);

    py::class_<LobbyHandle> lobby(m, "LobbyHandle", py::is_final(),
                                  "A lobby as the Client's cache held it when obtained: a read-only snapshot.");
    lobby.def_property_readonly("id", &LobbyHandle::Id, "The lobby's id.")
        .def_property_readonly("application_id", &LobbyHandle::ApplicationId, "The game it belongs to.")
        .def_property_readonly("metadata", &LobbyHandle::Metadata, "The lobby's metadata.")
        .def_property_readonly("lobby_member_ids", &LobbyHandle::LobbyMemberIds, "The members' user ids.")
        .def_property_readonly("lobby_members", &LobbyHandle::LobbyMembers, "The members.")
        .def("get_lobby_member_handle", &LobbyHandle::GetLobbyMemberHandle, py::arg("member_id"),
             "One member, or None.")
        .def_property_readonly("linked_channel", &LobbyHandle::LinkedChannel,
                               "The guild channel the lobby is linked to, or None.")
        .def("get_call_info_handle", &LobbyHandle::GetCallInfoHandle,
             "The lobby's call as this Client's voice states show it; None when nobody is in it.");
    DefHandleMembers(lobby);

    DefCall(
        client, "create_or_join_lobby",
        [](Client& self, std::string secret, PyCallback<ClientResult, uint64_t> callback) {
            self.CreateOrJoinLobby(std::move(secret), WrapCallback(std::move(callback), "create_or_join_lobby"));
        },
        py::arg("secret"), py::arg("callback"),
        "Creates this game's lobby for secret (1–250 characters) or joins it: callback(result, lobby_id).");
    DefCall(
        client, "create_or_join_lobby_with_metadata",
        [](Client& self, std::string secret, Client::Properties lobbyMetadata, Client::Properties memberMetadata,
           PyCallback<ClientResult, uint64_t> callback) {
            self.CreateOrJoinLobbyWithMetadata(std::move(secret), std::move(lobbyMetadata), std::move(memberMetadata),
                                               WrapCallback(std::move(callback), "create_or_join_lobby_with_metadata"));
        },
        py::arg("secret"), py::arg("lobby_metadata"), py::arg("member_metadata"), py::arg("callback"),
        "create_or_join_lobby with the lobby's metadata (for a new lobby) and the caller's member metadata.");
    DefCall(
        client, "leave_lobby",
        [](Client& self, uint64_t lobbyId, PyCallback<ClientResult> callback) {
            self.LeaveLobby(lobbyId, WrapCallback(std::move(callback), "leave_lobby"));
        },
        py::arg("lobby_id"), py::arg("callback"), "Leaves the lobby: callback(result).");
    DefCall(
        client, "link_channel_to_lobby",
        [](Client& self, uint64_t lobbyId, uint64_t channelId, PyCallback<ClientResult> callback) {
            self.LinkChannelToLobby(lobbyId, channelId, WrapCallback(std::move(callback), "link_channel_to_lobby"));
        },
        py::arg("lobby_id"), py::arg("channel_id"), py::arg("callback"),
        "Links the lobby to a guild channel (CanLinkLobby; GuildChannel.is_linkable): callback(result).");
    DefCall(
        client, "unlink_channel_from_lobby",
        [](Client& self, uint64_t lobbyId, PyCallback<ClientResult> callback) {
            self.UnlinkChannelFromLobby(lobbyId, WrapCallback(std::move(callback), "unlink_channel_from_lobby"));
        },
        py::arg("lobby_id"), py::arg("callback"), "Removes the lobby's channel link: callback(result).");
    DefCall(
        client, "join_linked_lobby_guild",
        [](Client& self, uint64_t lobbyId, std::optional<PyCallback<>> mergeRequired,
           PyCallback<ClientResult, std::string> callback) {
            self.JoinLinkedLobbyGuild(
                lobbyId, mergeRequired ? WrapCallback(std::move(*mergeRequired), "provisional user merge required") : nullptr,
                WrapCallback(std::move(callback), "join_linked_lobby_guild"));
        },
        py::arg("lobby_id"), py::arg("provisional_user_merge_required_callback").none(true), py::arg("callback"),
        "An invite to the guild of the lobby's linked channel: callback(result, invite_url).");
    client.def("get_lobby_handle", &Client::GetLobbyHandle, py::arg("lobby_id"), "A snapshot of the lobby, or None.")
        .def("get_lobby_ids", &Client::GetLobbyIds, "The ids of the user's lobbies.");
    using LobbyEvent = void (Client::*)(Client::LobbyCallback);
    const std::pair<const char*, LobbyEvent> lobbyEvents[] = {
        {"set_lobby_created_callback", &Client::SetLobbyCreatedCallback},
        {"set_lobby_updated_callback", &Client::SetLobbyUpdatedCallback},
        {"set_lobby_deleted_callback", &Client::SetLobbyDeletedCallback},
    };
    for (const auto& [name, setter] : lobbyEvents) {
        client.def(
            name,
            [setter = setter, name = name](Client& self, std::optional<PyCallback<uint64_t>> callback) {
                (self.*setter)(Optional<uint64_t>(std::move(callback), name));
            },
            py::arg("callback").none(true),
            "callback(lobby_id) when a lobby appears in, changes its metadata in, or leaves the cache (None: stop).");
    }
    using MemberEvent = void (Client::*)(Client::LobbyMemberCallback);
    const std::pair<const char*, MemberEvent> memberEvents[] = {
        {"set_lobby_member_added_callback", &Client::SetLobbyMemberAddedCallback},
        {"set_lobby_member_removed_callback", &Client::SetLobbyMemberRemovedCallback},
        {"set_lobby_member_updated_callback", &Client::SetLobbyMemberUpdatedCallback},
    };
    for (const auto& [name, setter] : memberEvents) {
        client.def(
            name,
            [setter = setter, name = name](Client& self, std::optional<PyCallback<uint64_t, uint64_t>> callback) {
                (self.*setter)(Optional<uint64_t, uint64_t>(std::move(callback), name));
            },
            py::arg("callback").none(true),
            "callback(lobby_id, member_id) when a member is added, removed or changed (None: stop).");
    }
}

}  // namespace platformpp::python
