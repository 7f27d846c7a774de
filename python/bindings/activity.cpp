#include "platformpp/activity.hpp"

#include <pybind11/native_enum.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "callback.hpp"
#include "calls.hpp"
#include "handle_members.hpp"
#include "platformpp/client.hpp"

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
        .finalize();

    py::class_<ActivityAssets> assets(m, "ActivityAssets", py::is_final(),
                                      "Images (asset keys or URLs, at most 512 characters) and their texts.");
    assets.def(py::init<>(), "No images.")
        .def_property("large_image", &ActivityAssets::LargeImage, &ActivityAssets::SetLargeImage, "Large image: key or URL.")
        .def_property("large_text", &ActivityAssets::LargeText, &ActivityAssets::SetLargeText, "The large image's text.")
        .def_property("small_image", &ActivityAssets::SmallImage, &ActivityAssets::SetSmallImage, "Small image: key or URL.")
        .def_property("small_text", &ActivityAssets::SmallText, &ActivityAssets::SetSmallText, "The small image's text.")
        .def_property("invite_cover_image", &ActivityAssets::InviteCoverImage, &ActivityAssets::SetInviteCoverImage,
                      "The cover image of this game's invites: a URL or an asset key.");
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
        .def_property("max_size", &ActivityParty::MaxSize, &ActivityParty::SetMaxSize, "The party's capacity.");
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

    py::class_<Activity> activity(m, "Activity", py::is_final(),
                                  "Rich presence: what the player is doing in the game (Client.update_rich_presence).");
    activity.def(py::init<>(), "An empty Playing activity.")
        .def_property("name", &Activity::Name, &Activity::SetName, "The displayed application name (1–128 characters).")
        .def_property("type", &Activity::Type, &Activity::SetType, "The ActivityTypes value.")
        .def_property("state", &Activity::State, &Activity::SetState, "At most 128 characters.")
        .def_property("details", &Activity::Details, &Activity::SetDetails, "At most 128 characters.")
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
}

}  // namespace platformpp::python
