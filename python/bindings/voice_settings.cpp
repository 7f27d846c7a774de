// platformpp/voice_settings.hpp (VoiceSettings, VoiceInputModeType) and the Client members that read
// the desktop client's state over IPC: is_platform_app_installed, get_voice_settings,
// set_voice_settings_updated_callback, get_platform_client_connected_user.
#include "platformpp/voice_settings.hpp"

#include <pybind11/native_enum.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "call_table.hpp"
#include "handle_members.hpp"
#include "platformpp/client.hpp"
#include "py_callback.hpp"

namespace py = pybind11;

namespace platformpp::python {

void BindVoiceSettings(py::module_& m, py::class_<Client>& client) {
    py::native_enum<VoiceInputModeType>(m, "VoiceInputModeType", "enum.IntEnum",
                                        "When the desktop client transmits the microphone.")
        .value("VoiceActivity", VoiceInputModeType::VoiceActivity)
        .value("PushToTalk", VoiceInputModeType::PushToTalk)
        .finalize();
    m.def("enum_to_string", py::overload_cast<VoiceInputModeType>(&EnumToString), py::arg("value"),
          "The VoiceInputModeType's name.");

    py::class_<VoiceSettings> settings(m, "VoiceSettings", py::is_final(),
                                       "A read-only snapshot of the desktop client user's voice settings (the "
                                       "client's own, not a call's); setters change this copy only.");
    settings.def(py::init<>(), "Settings with the desktop client's defaults.")
        .def_property("self_mute", &VoiceSettings::SelfMute, &VoiceSettings::SetSelfMute, "Self-mute.")
        .def_property("self_deaf", &VoiceSettings::SelfDeaf, &VoiceSettings::SetSelfDeaf, "Self-deafen.")
        .def_property("input_mode", &VoiceSettings::InputMode, &VoiceSettings::SetInputMode,
                      "VoiceActivity or PushToTalk.")
        .def_property("ptt_key", &VoiceSettings::PttKey, &VoiceSettings::SetPttKey,
                      "The push-to-talk key's label, such as 'SHIFT + F'; empty when none is bound.")
        .def_property("input_volume", &VoiceSettings::InputVolume, &VoiceSettings::SetInputVolume,
                      "Microphone volume, 0 to 100.")
        .def_property("output_volume", &VoiceSettings::OutputVolume, &VoiceSettings::SetOutputVolume,
                      "Output volume, 0 to 200.")
        .def_property("automatic_gain_control", &VoiceSettings::AutomaticGainControl,
                      &VoiceSettings::SetAutomaticGainControl, "Automatic gain control.")
        .def_property("echo_cancellation", &VoiceSettings::EchoCancellation, &VoiceSettings::SetEchoCancellation,
                      "Echo cancellation.")
        .def_property("noise_cancellation", &VoiceSettings::NoiseCancellation, &VoiceSettings::SetNoiseCancellation,
                      "Noise cancellation.")
        .def_property("noise_suppression", &VoiceSettings::NoiseSuppression, &VoiceSettings::SetNoiseSuppression,
                      "Noise suppression.");
    DefHandleMembers(settings);

    client.def(
        "is_platform_app_installed",
        [](Client& self, PyCallback<bool> callback) {
            self.IsPlatformAppInstalled(WrapCallback(std::move(callback), "is_platform_app_installed"));
        },
        py::arg("callback"), "callback(installed): whether the desktop client runs (its IPC socket answers).");
    DefCall(
        client, "get_voice_settings",
        [](Client& self, PyCallback<ClientResult, VoiceSettings> callback) {
            self.GetVoiceSettings(WrapCallback(std::move(callback), "get_voice_settings"));
        },
        py::arg("callback"),
        "The desktop client user's voice settings over IPC: callback(result, settings); RPCError and "
        "VoiceSettings.nullobj when no desktop client runs.");
    client.def(
        "set_voice_settings_updated_callback",
        [](Client& self, std::optional<PyCallback<VoiceSettings>> callback) {
            self.SetVoiceSettingsUpdatedCallback(
                callback ? WrapCallback(std::move(*callback), "voice settings updated") : nullptr);
        },
        py::arg("callback").none(true),
        "callback(settings) when the desktop user changes their voice settings (None: stop); needs a token.");
    DefCall(
        client, "get_platform_client_connected_user",
        [](Client& self, uint64_t applicationId, PyCallback<ClientResult, std::optional<UserHandle>> callback) {
            self.GetPlatformClientConnectedUser(applicationId,
                                                WrapCallback(std::move(callback), "get_platform_client_connected_user"));
        },
        py::arg("application_id"), py::arg("callback"),
        "The user signed in to the desktop client, from the READY of an IPC handshake as application_id (no "
        "token needed): callback(result, user); RPCError and None when no desktop client runs or it refuses "
        "the application id.");
}

}  // namespace platformpp::python
