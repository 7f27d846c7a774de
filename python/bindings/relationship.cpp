#include "platformpp/relationship.hpp"

#include <pybind11/native_enum.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "call_table.hpp"
#include "handle_members.hpp"
#include "platformpp/client.hpp"
#include "py_callback.hpp"

namespace py = pybind11;

namespace platformpp::python {

void BindRelationship(py::module_& m, py::class_<Client>& client, py::class_<UserHandle>& user) {
    py::native_enum<RelationshipType>(m, "RelationshipType", "enum.IntEnum", "A relationship between two users.")
        .value("None_", RelationshipType::None, "No relationship (spelt None_ in Python: None is a keyword).")
        .value("Friend", RelationshipType::Friend)
        .value("Blocked", RelationshipType::Blocked)
        .value("PendingIncoming", RelationshipType::PendingIncoming)
        .value("PendingOutgoing", RelationshipType::PendingOutgoing)
        .value("Implicit", RelationshipType::Implicit, "Related by the platform without a request.")
        .value("Suggestion", RelationshipType::Suggestion, "Suggested by the platform as a friend.")
        .finalize();
    py::native_enum<RelationshipGroupType>(m, "RelationshipGroupType", "enum.IntEnum",
                                           "The groups of the friends list (Client.get_relationships_by_group).")
        .value("OnlinePlayingGame", RelationshipGroupType::OnlinePlayingGame)
        .value("OnlineElsewhere", RelationshipGroupType::OnlineElsewhere)
        .value("Offline", RelationshipGroupType::Offline)
        .finalize();
    m.def("enum_to_string", py::overload_cast<RelationshipType>(&EnumToString), py::arg("value"), "The value's name.");
    m.def("enum_to_string", py::overload_cast<RelationshipGroupType>(&EnumToString), py::arg("value"),
          "The value's name.");

    py::class_<RelationshipHandle> relationship(m, "RelationshipHandle", py::is_final(),
                                                "The current user's relationship with another: a read-only snapshot.");
    relationship.def_property_readonly("id", &RelationshipHandle::Id, "The other user's id.")
        .def_property_readonly("platform_relationship_type", &RelationshipHandle::PlatformRelationshipType,
                               "The relationship across every game.")
        .def_property_readonly("game_relationship_type", &RelationshipHandle::GameRelationshipType,
                               "The relationship in this game only.")
        .def_property_readonly("is_spam_request", &RelationshipHandle::IsSpamRequest,
                               "Whether the platform's spam filter flagged this incoming request.")
        .def_property_readonly("user", &RelationshipHandle::User, "The other user, when known.");
    DefHandleMembers(relationship);
    // Bound here, once RelationshipHandle exists, so that its type appears in the signature.
    user.def_property_readonly("relationship", &UserHandle::Relationship,
                               "The current user's relationship with this user (types None_ when none).");

    client.def("get_relationships", &Client::GetRelationships, "The current user's relationships.")
        .def("get_relationship_handle", &Client::GetRelationshipHandle, py::arg("user_id"),
             "The relationship with a user (types None_ when none).");
    using Action = void (Client::*)(uint64_t, Client::ResultCallback);
    const std::pair<const char*, Action> actions[] = {
        {"send_friend_request_by_id", &Client::SendFriendRequestById},
        {"send_platform_friend_request_by_id", &Client::SendPlatformFriendRequestById},
        {"accept_platform_friend_request", &Client::AcceptPlatformFriendRequest},
        {"reject_platform_friend_request", &Client::RejectPlatformFriendRequest},
        {"cancel_platform_friend_request", &Client::CancelPlatformFriendRequest},
        {"send_game_friend_request_by_id", &Client::SendGameFriendRequestById},
        {"accept_friend_request", &Client::AcceptFriendRequest},
        {"accept_game_friend_request", &Client::AcceptGameFriendRequest},
        {"reject_friend_request", &Client::RejectFriendRequest},
        {"reject_game_friend_request", &Client::RejectGameFriendRequest},
        {"cancel_friend_request", &Client::CancelFriendRequest},
        {"cancel_game_friend_request", &Client::CancelGameFriendRequest},
        {"remove_friend", &Client::RemoveFriend},
        {"remove_game_friend", &Client::RemoveGameFriend},
        {"block_user", &Client::BlockUser},
        {"unblock_user", &Client::UnblockUser},
    };
    for (const auto& [name, action] : actions) {
        DefCall(
            client, name,
            [action = action, name = name](Client& self, uint64_t userId, PyCallback<ClientResult> callback) {
                (self.*action)(userId, WrapCallback(std::move(callback), name));
            },
            py::arg("user_id"), py::arg("callback"),
            "A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting "
            "and cancelling need the matching pending request, else a ValidationError result naming user_id.");
    }
    client
        .def(
            "set_relationship_created_callback",
            [](Client& self, std::optional<PyCallback<uint64_t, bool>> callback) {
                self.SetRelationshipCreatedCallback(callback ? WrapCallback(std::move(*callback), "relationship created")
                                                             : nullptr);
            },
            py::arg("callback").none(true),
            "callback(user_id, is_platform_relationship_update) when a relationship appears or changes (None: stop).")
        .def(
            "set_relationship_deleted_callback",
            [](Client& self, std::optional<PyCallback<uint64_t, bool>> callback) {
                self.SetRelationshipDeletedCallback(callback ? WrapCallback(std::move(*callback), "relationship deleted")
                                                             : nullptr);
            },
            py::arg("callback").none(true),
            "callback(user_id, is_platform_relationship_update) when a relationship goes away (None: stop).");

    // The reference's relationship members.
    for (const auto& [name, game] : {std::pair{"send_platform_friend_request", false},
                                     std::pair{"send_game_friend_request", true}}) {
        DefCall(
            client, name,
            [game = game, name = name](Client& self, const std::string& username, PyCallback<ClientResult> callback) {
                auto cb = WrapCallback(std::move(callback), name);
                game ? self.SendGameFriendRequest(username, std::move(cb))
                     : self.SendPlatformFriendRequest(username, std::move(cb));
            },
            py::arg("username"), py::arg("callback"),
            "A friend request (platform, or this game only) to the user with this unique username, or accepting "
            "theirs: callback(result).");
    }
    DefCall(
        client, "remove_platform_and_game_friend",
        [](Client& self, uint64_t userId, PyCallback<ClientResult> callback) {
            self.RemovePlatformAndGameFriend(userId, WrapCallback(std::move(callback), "remove_platform_and_game_friend"));
        },
        py::arg("user_id"), py::arg("callback"), "Ends the friendship on the platform and in this game: callback(result).");
    client
        .def("search_friends_by_username", &Client::SearchFriendsByUsername, py::arg("search_str"),
             "Friends whose username or display name contains search_str, ignoring case.")
        .def("get_relationships_by_group", &Client::GetRelationshipsByGroup, py::arg("group_type"),
             "Friends in one RelationshipGroupType, by display name.")
        .def(
            "set_relationship_groups_updated_callback",
            [](Client& self, std::optional<PyCallback<uint64_t>> callback) {
                self.SetRelationshipGroupsUpdatedCallback(
                    callback ? WrapCallback(std::move(*callback), "relationship groups updated") : nullptr);
            },
            py::arg("callback").none(true),
            "callback(user_id) when a friend moves to another RelationshipGroupType (None: stop).");

    // Presence's SetOnlineStatus is bound here, after BindUser has bound StatusType (its signature names it).
    DefCall(
        client, "set_online_status",
        [](Client& self, StatusType status, PyCallback<ClientResult> callback) {
            self.SetOnlineStatus(status, WrapCallback(std::move(callback), "set_online_status"));
        },
        py::arg("status"), py::arg("callback"),
        "The user's chosen online status (Online, Idle, Dnd, Invisible; Offline appears offline): callback(result).");
}

}  // namespace platformpp::python
