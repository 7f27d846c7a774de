#include "platformpp/activity.hpp"

#include <pybind11/native_enum.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "call_table.hpp"
#include "handle_members.hpp"
#include "platformpp/client.hpp"
#include "py_callback.hpp"

namespace py = pybind11;

namespace platformpp::python {

void BindActivity(py::module_& m, py::class_<Client>& client) {
    py::native_enum<ActivityTypes>(m, "ActivityTypes", "enum.IntEnum", "What an activity shows the user doing.")
        .value("Playing", ActivityTypes::Playing)
        .value("Streaming", ActivityTypes::Streaming)
        .value("Listening", ActivityTypes::Listening)
        .value("Watching", ActivityTypes::Watching)
        .value("CustomStatus", ActivityTypes::CustomStatus, "The user's custom status (type 4), not a game's.")
        .value("Competing", ActivityTypes::Competing)
        .value("HangStatus", ActivityTypes::HangStatus, "Hanging out (type 6).")
        .finalize();
    py::native_enum<StatusDisplayTypes>(m, "StatusDisplayTypes", "enum.IntEnum",
                                        "Which field the status line under the user's name shows.")
        .value("Name", StatusDisplayTypes::Name)
        .value("State", StatusDisplayTypes::State)
        .value("Details", StatusDisplayTypes::Details)
        .finalize();
    py::native_enum<ActivityGamePlatforms>(m, "ActivityGamePlatforms", "enum.IntFlag",
                                           "Where the game can be played: bits, combined with |.")
        .value("Desktop", ActivityGamePlatforms::Desktop)
        .value("Xbox", ActivityGamePlatforms::Xbox)
        .value("Samsung", ActivityGamePlatforms::Samsung)
        .value("IOS", ActivityGamePlatforms::IOS)
        .value("Android", ActivityGamePlatforms::Android)
        .value("Embedded", ActivityGamePlatforms::Embedded)
        .value("PS4", ActivityGamePlatforms::PS4)
        .value("PS5", ActivityGamePlatforms::PS5)
        .finalize();
    py::native_enum<ActivityPartyPrivacy>(m, "ActivityPartyPrivacy", "enum.IntEnum", "Who may join the party.")
        .value("Private", ActivityPartyPrivacy::Private)
        .value("Public", ActivityPartyPrivacy::Public)
        .finalize();
    py::native_enum<ActivityActionTypes>(m, "ActivityActionTypes", "enum.IntEnum",
                                         "What an activity invite asks: to join, or to be let in.")
        .value("Invalid", ActivityActionTypes::Invalid)
        .value("Join", ActivityActionTypes::Join)
        .value("JoinRequest", ActivityActionTypes::JoinRequest)
        .finalize();
    m.def("enum_to_string", py::overload_cast<ActivityTypes>(&EnumToString), py::arg("value"), "The value's name.");
    m.def("enum_to_string", py::overload_cast<StatusDisplayTypes>(&EnumToString), py::arg("value"), "The value's name.");
    m.def("enum_to_string", py::overload_cast<ActivityGamePlatforms>(&EnumToString), py::arg("value"),
          "A single platform's name; 'Unknown' for a combination.");
    m.def("enum_to_string", py::overload_cast<ActivityPartyPrivacy>(&EnumToString), py::arg("value"), "The value's name.");
    m.def("enum_to_string", py::overload_cast<ActivityActionTypes>(&EnumToString), py::arg("value"), "The value's name.");

    py::class_<ActivityAssets> assets(m, "ActivityAssets", py::is_final(),
                                      "Images (asset keys or URLs, at most 512 characters) and their texts.");
    assets.def(py::init<>(), "No images.")
        .def_property("large_image", &ActivityAssets::LargeImage, &ActivityAssets::SetLargeImage, "Large image: key or URL.")
        .def_property("large_text", &ActivityAssets::LargeText, &ActivityAssets::SetLargeText, "The large image's text.")
        .def_property("small_image", &ActivityAssets::SmallImage, &ActivityAssets::SetSmallImage, "Small image: key or URL.")
        .def_property("small_text", &ActivityAssets::SmallText, &ActivityAssets::SetSmallText, "The small image's text.")
        .def_property("invite_cover_image", &ActivityAssets::InviteCoverImage, &ActivityAssets::SetInviteCoverImage,
                      "The cover image of this game's invites: a URL or an asset key.")
        .def_property("large_url", &ActivityAssets::LargeUrl, &ActivityAssets::SetLargeUrl,
                      "Where a click on the large image leads (URL).")
        .def_property("small_url", &ActivityAssets::SmallUrl, &ActivityAssets::SetSmallUrl,
                      "Where a click on the small image leads (URL).");
    DefHandleMembers(assets);

    py::class_<ActivityTimestamps> timestamps(m, "ActivityTimestamps", py::is_final(),
                                              "Start and end of the activity, Unix milliseconds (0: unset).");
    timestamps.def(py::init<>(), "Both unset.")
        .def_property("start", &ActivityTimestamps::Start, &ActivityTimestamps::SetStart, "Start, Unix ms.")
        .def_property("end", &ActivityTimestamps::End, &ActivityTimestamps::SetEnd, "End, Unix ms.");
    DefHandleMembers(timestamps);

    py::class_<ActivityParty> party(m, "ActivityParty", py::is_final(), "The player's party: id and sizes.");
    party.def(py::init<>(), "An empty party.")
        .def_property("id", &ActivityParty::Id, &ActivityParty::SetId, "The party's id (at most 128 characters).")
        .def_property("current_size", &ActivityParty::CurrentSize, &ActivityParty::SetCurrentSize,
                      "Players in the party (0 to max_size).")
        .def_property("max_size", &ActivityParty::MaxSize, &ActivityParty::SetMaxSize, "The party's capacity.")
        .def_property("privacy", &ActivityParty::Privacy, &ActivityParty::SetPrivacy,
                      "ActivityPartyPrivacy: Private (default) or Public.");
    DefHandleMembers(party);

    py::class_<ActivitySecrets> secrets(m, "ActivitySecrets", py::is_final(), "What other games receive to join.");
    secrets.def(py::init<>(), "No secrets.")
        .def_property("join", &ActivitySecrets::Join, &ActivitySecrets::SetJoin,
                      "The join secret (at most 128 characters).");
    DefHandleMembers(secrets);

    py::class_<ActivityButton> button(m, "ActivityButton", py::is_final(), "A button on the rich presence.");
    button.def(py::init<>(), "An empty button.")
        .def_property("label", &ActivityButton::Label, &ActivityButton::SetLabel, "1–32 characters.")
        .def_property("url", &ActivityButton::Url, &ActivityButton::SetUrl, "The URL it opens.");
    DefHandleMembers(button);

    py::class_<ActivityInvite> invite(m, "ActivityInvite", py::is_final(),
                                      "An activity invite (type Join) or join request (JoinRequest) another user sent.");
    invite.def(py::init<>(), "An empty invite.")
        .def_property("sender_id", &ActivityInvite::SenderId, &ActivityInvite::SetSenderId, "Who sent it.")
        .def_property("channel_id", &ActivityInvite::ChannelId, &ActivityInvite::SetChannelId, "Its channel.")
        .def_property("message_id", &ActivityInvite::MessageId, &ActivityInvite::SetMessageId,
                      "Its message (what accept_activity_invite names).")
        .def_property("type", &ActivityInvite::Type, &ActivityInvite::SetType, "ActivityActionTypes: Join or JoinRequest.")
        .def_property("application_id", &ActivityInvite::ApplicationId, &ActivityInvite::SetApplicationId, "The game.")
        .def_property("parent_application_id", &ActivityInvite::ParentApplicationId,
                      &ActivityInvite::SetParentApplicationId, "The game's parent application (0: none).")
        .def_property("party_id", &ActivityInvite::PartyId, &ActivityInvite::SetPartyId, "The party it is about.")
        .def_property("session_id", &ActivityInvite::SessionId, &ActivityInvite::SetSessionId, "The sender's session.")
        .def_property("is_valid", &ActivityInvite::IsValid, &ActivityInvite::SetIsValid,
                      "False once the sender left the party.");
    DefHandleMembers(invite);

    py::class_<Activity> activity(m, "Activity", py::is_final(),
                                  "Rich presence: what the player is doing in the game (Client.update_rich_presence).");
    activity.def(py::init<>(), "An empty Playing activity.")
        .def_property("name", &Activity::Name, &Activity::SetName, "The displayed application name (1–128 characters).")
        .def_property("type", &Activity::Type, &Activity::SetType, "The ActivityTypes value.")
        .def_property("state", &Activity::State, &Activity::SetState, "At most 128 characters.")
        .def_property("details", &Activity::Details, &Activity::SetDetails, "At most 128 characters.")
        .def_property("state_url", &Activity::StateUrl, &Activity::SetStateUrl, "Where a click on the state leads.")
        .def_property("details_url", &Activity::DetailsUrl, &Activity::SetDetailsUrl,
                      "Where a click on the details leads.")
        .def_property("status_display_type", &Activity::StatusDisplayType, &Activity::SetStatusDisplayType,
                      "StatusDisplayTypes: which field the status line shows (None: the name).")
        .def_property("parent_application_id", &Activity::ParentApplicationId, &Activity::SetParentApplicationId,
                      "The publisher's parent application, if any.")
        .def_property("supported_platforms", &Activity::SupportedPlatforms, &Activity::SetSupportedPlatforms,
                      "ActivityGamePlatforms bits (all by default).")
        .def_property("application_id", &Activity::ApplicationId, &Activity::SetApplicationId,
                      "The application that set it (other users' activities).")
        .def_property("assets", &Activity::Assets, &Activity::SetAssets, "Images and their texts.")
        .def_property("timestamps", &Activity::Timestamps, &Activity::SetTimestamps, "Start and end.")
        .def_property("party", &Activity::Party, &Activity::SetParty, "The player's party.")
        .def_property("secrets", &Activity::Secrets, &Activity::SetSecrets, "Join secret.")
        .def("get_buttons", &Activity::GetButtons, "The buttons (at most two).")
        .def("add_button", &Activity::AddButton, py::arg("button"), "Adds a button.")
        .def("equals", &Activity::Equals, py::arg("other"), "Whether both describe the same activity.");
    DefHandleMembers(activity);

    DefCall(
        client, "update_rich_presence",
        [](Client& self, Activity activity, PyCallback<ClientResult> callback) {
            self.UpdateRichPresence(std::move(activity), WrapCallback(std::move(callback), "update_rich_presence"));
        },
        py::arg("activity"), py::arg("callback"),
        "Shows activity as the user's rich presence in this game (activity.name is the displayed application "
        "name; assets.invite_cover_image a URL or asset key): callback(result).");
    client.def("clear_rich_presence", &Client::ClearRichPresence, "Clears this game's rich presence.");
    client
        .def("register_launch_command", &Client::RegisterLaunchCommand, py::arg("application_id"), py::arg("command"),
             "How the desktop client launches the game: on Linux the desktop entry "
             "$XDG_DATA_HOME/applications/platformpp-<id>.desktop running `command %u`. False on bad input.")
        .def("register_launch_steam_application", &Client::RegisterLaunchSteamApplication,
             py::arg("application_id"), py::arg("steam_app_id"),
             "The same, launching the Steam game steam_app_id (xdg-open steam://rungameid/<id>).")
        .def(
            "set_activity_join_callback",
            [](Client& self, std::optional<PyCallback<std::string>> callback) {
                self.SetActivityJoinCallback(callback ? WrapCallback(std::move(*callback), "activity join") : nullptr);
            },
            py::arg("callback").none(true),
            "callback(join_secret) when the player accepts an invite or clicks Join in the desktop client (ACTIVITY_JOIN "
            "over IPC; set_application_id first). None: stop.")
        .def(
            "set_activity_join_with_application_callback",
            [](Client& self, std::optional<PyCallback<uint64_t, std::string>> callback) {
                self.SetActivityJoinWithApplicationCallback(
                    callback ? WrapCallback(std::move(*callback), "activity join with application") : nullptr);
            },
            py::arg("callback").none(true),
            "callback(application_id, join_secret): the same, with the application joined. None: stop.");
    DefCall(
        client, "send_activity_invite",
        [](Client& self, uint64_t userId, const std::string& content, PyCallback<ClientResult> callback) {
            self.SendActivityInvite(userId, content, WrapCallback(std::move(callback), "send_activity_invite"));
        },
        py::arg("user_id"), py::arg("content"), py::arg("callback"),
        "Invites a friend to the current user's party (needs a party and a join secret): callback(result).");
    DefCall(
        client, "send_activity_join_request",
        [](Client& self, uint64_t userId, PyCallback<ClientResult> callback) {
            self.SendActivityJoinRequest(userId, WrapCallback(std::move(callback), "send_activity_join_request"));
        },
        py::arg("user_id"), py::arg("callback"), "Asks a friend with a party to let the user in: callback(result).");
    DefCall(
        client, "send_activity_join_request_reply",
        [](Client& self, ActivityInvite invite, PyCallback<ClientResult> callback) {
            self.SendActivityJoinRequestReply(std::move(invite),
                                              WrapCallback(std::move(callback), "send_activity_join_request_reply"));
        },
        py::arg("invite"), py::arg("callback"),
        "Answers a join request with an invite back to its sender: callback(result).");
    DefCall(
        client, "accept_activity_invite",
        [](Client& self, ActivityInvite invite, PyCallback<ClientResult, std::string> callback) {
            self.AcceptActivityInvite(std::move(invite), WrapCallback(std::move(callback), "accept_activity_invite"));
        },
        py::arg("invite"), py::arg("callback"),
        "Accepts an invite (type Join): callback(result, join_secret); fails once the sender left the party.");
    client
        .def(
            "set_activity_invite_created_callback",
            [](Client& self, std::optional<PyCallback<ActivityInvite>> callback) {
                self.SetActivityInviteCreatedCallback(callback ? WrapCallback(std::move(*callback), "activity invite created")
                                                               : nullptr);
            },
            py::arg("callback").none(true), "callback(invite) when an invite or join request arrives. None: stop.")
        .def(
            "set_activity_invite_updated_callback",
            [](Client& self, std::optional<PyCallback<ActivityInvite>> callback) {
                self.SetActivityInviteUpdatedCallback(callback ? WrapCallback(std::move(*callback), "activity invite updated")
                                                               : nullptr);
            },
            py::arg("callback").none(true), "callback(invite) when an invite changes (turns invalid). None: stop.");
}

}  // namespace platformpp::python
