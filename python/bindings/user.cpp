#include "platformpp/user.hpp"

#include <pybind11/native_enum.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "call_table.hpp"
#include "handle_members.hpp"
#include "platformpp/client.hpp"
#include "py_callback.hpp"

namespace py = pybind11;

namespace platformpp::python {

py::class_<UserHandle> BindUser(py::module_& m, py::class_<Client>& client) {
    py::native_enum<StatusType>(m, "StatusType", "enum.IntEnum", "A user's online status as their friends see it.")
        .value("Online", StatusType::Online)
        .value("Offline", StatusType::Offline)
        .value("Blocked", StatusType::Blocked)
        .value("Idle", StatusType::Idle)
        .value("Dnd", StatusType::Dnd)
        .value("Invisible", StatusType::Invisible)
        .value("Streaming", StatusType::Streaming)
        .value("Unknown", StatusType::Unknown)
        .finalize();

    py::native_enum<ExternalIdentityProviderType>(m, "ExternalIdentityProviderType", "enum.IntEnum",
                                                  "The kind of external identity provider behind a profile.")
        .value("OIDC", ExternalIdentityProviderType::OIDC)
        .value("EpicOnlineServices", ExternalIdentityProviderType::EpicOnlineServices)
        .value("Steam", ExternalIdentityProviderType::Steam)
        .value("Unity", ExternalIdentityProviderType::Unity)
        .value("PlatformBot", ExternalIdentityProviderType::PlatformBot)
        .value("None_", ExternalIdentityProviderType::None, "No external identity (spelt None_ in Python: None is a keyword).")
        .value("Unknown", ExternalIdentityProviderType::Unknown)
        .finalize();

    py::class_<UserApplicationProfileHandle> profile(
        m, "UserApplicationProfileHandle", py::is_final(),
        "Game identity data from an external provider; a read-only snapshot.");
    profile.def_property_readonly("application_id", &UserApplicationProfileHandle::ApplicationId, "The game.")
        .def_property_readonly("user_id", &UserApplicationProfileHandle::UserId, "The user.")
        .def_property_readonly("provider_type", &UserApplicationProfileHandle::ProviderType,
                               "The provider's ExternalIdentityProviderType (None without an identity).")
        .def_property_readonly("provider_id", &UserApplicationProfileHandle::ProviderId,
                               "The provider's own id (an OIDC issuer) when known, else None.")
        .def_property_readonly("username", &UserApplicationProfileHandle::Username, "The name the profile shows.")
        .def_property_readonly("avatar_hash", &UserApplicationProfileHandle::AvatarHash,
                               "The avatar hash the profile shows ('' when none).")
        .def_property_readonly("provider_issued_user_id", &UserApplicationProfileHandle::ProviderIssuedUserId,
                               "The user's id at the provider.")
        .def_property_readonly("metadata", &UserApplicationProfileHandle::Metadata, "The game stats, a JSON object.");
    DefHandleMembers(profile);

    py::class_<UserHandle> user(m, "UserHandle", py::is_final(),
                                "A user as the Client's cache held them when obtained: a read-only snapshot.");
    py::native_enum<UserHandle::AvatarType>(user, "AvatarType", "enum.IntEnum", "Image formats of an avatar.")
        .value("Gif", UserHandle::AvatarType::Gif)
        .value("Webp", UserHandle::AvatarType::Webp)
        .value("Png", UserHandle::AvatarType::Png)
        .value("Jpeg", UserHandle::AvatarType::Jpeg)
        .finalize();
    user.def_static("avatar_type_to_string", &UserHandle::AvatarTypeToString, py::arg("type"), "The format's name.");
    m.def("enum_to_string", py::overload_cast<UserHandle::AvatarType>(&EnumToString), py::arg("value"),
          "The value's C++ name.");
    user.def_property_readonly("id", &UserHandle::Id, "The user's id.")
        .def_property_readonly("username", &UserHandle::Username, "The unique username.")
        .def_property_readonly("global_name", &UserHandle::GlobalName, "The display name they chose, or None.")
        .def_property_readonly("display_name", &UserHandle::DisplayName, "global_name when set, else username.")
        .def_property_readonly("avatar", &UserHandle::Avatar, "The avatar hash, or None.")
        .def("avatar_url", &UserHandle::AvatarUrl, py::arg("animated_type"), py::arg("static_type"),
             "The avatar's CDN URL: an animated avatar in animated_type's format, a still one in static_type's "
             "(Gif is refused for a still avatar: ValidationError); the default avatar's URL without one.")
        .def_property_readonly("is_provisional", &UserHandle::IsProvisional, "Whether a provisional account.")
        .def_property_readonly("status", &UserHandle::Status, "The StatusType (Offline when not visible).")
        .def_property_readonly("game_activity", &UserHandle::GameActivity, "Their rich presence in this game, or None.")
        .def_property_readonly("activities", &UserHandle::Activities, "All of their visible activities.")
        .def_property_readonly("user_application_profiles", &UserHandle::UserApplicationProfiles,
             "The profiles fetched by Client.get_user_application_profiles.");
    DefHandleMembers(user);

    client.def("get_current_user", &Client::GetCurrentUserV2, "The current user, once the Gateway is Ready (else None).")
        .def("get_current_user_v2", &Client::GetCurrentUserV2,
             "The current user, once the Gateway is Ready (else None): the SDK 1.10 name of get_current_user.")
        .def("get_user", &Client::GetUser, py::arg("user_id"), "A user the SDK knows, or None.")
        .def(
            "set_user_updated_callback",
            [](Client& self, std::optional<PyCallback<uint64_t>> callback) {
                self.SetUserUpdatedCallback(callback ? WrapCallback(std::move(*callback), "user updated") : nullptr);
            },
            py::arg("callback").none(true), "callback(user_id) when a known user changes (None: stop).");
    DefCall(
        client, "get_user_application_profiles",
        [](Client& self, uint64_t userId, PyCallback<ClientResult, std::vector<UserApplicationProfileHandle>> callback) {
            self.GetUserApplicationProfiles(userId, WrapCallback(std::move(callback), "get_user_application_profiles"));
        },
        py::arg("user_id"), py::arg("callback"),
        "Fetches the game identity data of the current user or a friend: callback(result, profiles).");
    client.def("get_user_application_profiles_no_lock", &Client::GetUserApplicationProfilesNoLock, py::arg("user_id"),
             "The profiles kept by the last get_user_application_profiles, read without taking the Client's lock.");
    DefCall(
        client, "open_connected_games_settings_in_platform",
        [](Client& self, PyCallback<ClientResult> callback) {
            self.OpenConnectedGamesSettingsInPlatform(
                WrapCallback(std::move(callback), "open_connected_games_settings_in_platform"));
        },
        py::arg("callback"),
        "Opens the platform's connected-games settings (webBase + '/settings/connected-games') through the "
        "authorize URL opener: callback(result); ValidationError for a provisional account.");
    return user;
}

}  // namespace platformpp::python
