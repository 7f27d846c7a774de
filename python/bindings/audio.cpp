// platformpp/audio.hpp (AudioDevice, AudioSystem) and the Client's audio members. Out-of-range values
// raise ValidationError naming the parameter (the C++ API clamps and logs instead).
#include "platformpp/audio.hpp"

#include <pybind11/native_enum.h>
#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <string>

#include "bindings.hpp"
#include "call_table.hpp"
#include "handle_members.hpp"
#include "platformpp/client.hpp"
#include "platformpp/errors.hpp"
#include "py_callback.hpp"

namespace py = pybind11;

namespace platformpp::python {
namespace {

void RequireRange(const char* parameter, double value, double low, double high) {
    if (std::isnan(value) || value < low || value > high) {
        throw ValidationError(parameter, "must be within [" + std::to_string(static_cast<int>(low)) + ", " +
                                             std::to_string(static_cast<int>(high)) + "], got " + std::to_string(value));
    }
}

void BindDevices(py::class_<Client>& client) {
    client.def_static("get_default_audio_device_id", &Client::GetDefaultAudioDeviceId,
                      "The id that names the system's default device (and follows it).")
        .def(
            "set_device_change_callback",
            [](Client& self, std::optional<PyCallback<std::vector<AudioDevice>, std::vector<AudioDevice>>> callback) {
                self.SetDeviceChangeCallback(callback ? WrapCallback(std::move(*callback), "device change") : nullptr);
            },
            py::arg("callback").none(true),
            "callback(input_devices, output_devices) when devices appear, go or the default changes (None: stop).");
    DefCall(
        client, "get_input_devices",
        [](Client& self, PyCallback<std::vector<AudioDevice>> cb) {
            self.GetInputDevices(WrapCallback(std::move(cb), "get_input_devices"));
        },
        py::arg("cb"), "cb(devices): the input devices.");
    DefCall(
        client, "get_output_devices",
        [](Client& self, PyCallback<std::vector<AudioDevice>> cb) {
            self.GetOutputDevices(WrapCallback(std::move(cb), "get_output_devices"));
        },
        py::arg("cb"), "cb(devices): the output devices.");
    DefCall(
        client, "get_current_input_device",
        [](Client& self, PyCallback<AudioDevice> cb) {
            self.GetCurrentInputDevice(WrapCallback(std::move(cb), "get_current_input_device"));
        },
        py::arg("cb"), "cb(device): the input device in use.");
    DefCall(
        client, "get_current_output_device",
        [](Client& self, PyCallback<AudioDevice> cb) {
            self.GetCurrentOutputDevice(WrapCallback(std::move(cb), "get_current_output_device"));
        },
        py::arg("cb"), "cb(device): the output device in use.");
    DefCall(
        client, "set_input_device",
        [](Client& self, std::string deviceId, PyCallback<ClientResult> callback) {
            self.SetInputDevice(std::move(deviceId), WrapCallback(std::move(callback), "set_input_device"));
        },
        py::arg("device_id"), py::arg("callback"),
        "Uses that input device: callback(result); ValidationError for an unknown id (nothing changes).");
    DefCall(
        client, "set_output_device",
        [](Client& self, std::string deviceId, PyCallback<ClientResult> callback) {
            self.SetOutputDevice(std::move(deviceId), WrapCallback(std::move(callback), "set_output_device"));
        },
        py::arg("device_id"), py::arg("callback"),
        "Uses that output device: callback(result); ValidationError for an unknown id (nothing changes).");
}

void BindSettings(py::class_<Client>& client) {
    client.def("get_input_volume", &Client::GetInputVolume, "Microphone volume in percent [0, 100].")
        .def(
            "set_input_volume",
            [](Client& self, float volume) {
                RequireRange("input_volume", volume, 0, 100);
                self.SetInputVolume(volume);
            },
            py::arg("input_volume"), "Microphone volume in percent [0, 100]; ValidationError outside.")
        .def("get_output_volume", &Client::GetOutputVolume, "Output volume in percent [0, 200].")
        .def(
            "set_output_volume",
            [](Client& self, float volume) {
                RequireRange("output_volume", volume, 0, 200);
                self.SetOutputVolume(volume);
            },
            py::arg("output_volume"), "Output volume in percent [0, 200]; ValidationError outside.")
        .def("set_automatic_gain_control", &Client::SetAutomaticGainControl, py::arg("on"),
             "Automatic gain control (accepted; see docs/voice.md for what the engine does).")
        .def("set_echo_cancellation", &Client::SetEchoCancellation, py::arg("on"), "Echo cancellation.")
        .def("set_noise_suppression", &Client::SetNoiseSuppression, py::arg("on"), "Noise suppression.")
        .def("set_noise_cancellation", &Client::SetNoiseCancellation, py::arg("on"), "Noise cancellation.")
        .def(
            "set_no_audio_input_threshold",
            [](Client& self, float dbfs) {
                RequireRange("dbfs_threshold", dbfs, -100, 100);
                self.SetNoAudioInputThreshold(dbfs);
            },
            py::arg("dbfs_threshold"),
            "Below this level (dBFS [-100, 100]; -100: off) for 2 s the microphone counts as silent.")
        .def(
            "set_no_audio_input_callback",
            [](Client& self, std::optional<PyCallback<bool>> callback) {
                self.SetNoAudioInputCallback(callback ? WrapCallback(std::move(*callback), "no audio input") : nullptr);
            },
            py::arg("callback").none(true), "callback(input_detected) when the microphone goes silent or is heard again.")
        .def("set_opus_hardware_coding", &Client::SetOpusHardwareCoding, py::arg("encode"), py::arg("decode"),
             "Accepted; Opus is always coded in software (libopus).")
        .def("set_aec_dump", &Client::SetAecDump, py::arg("on"), "Accepted; no echo-canceller dump is written.")
        .def("set_engine_managed_audio_session", &Client::SetEngineManagedAudioSession, py::arg("is_engine_managed"),
             "Mobile only on the platform: no effect here.")
        .def(
            "set_speaker_mode",
            [](Client& self, bool speakerMode) {
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
                return self.SetSpeakerMode(speakerMode);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
            },
            py::arg("speaker_mode"), "Deprecated, mobile only: no effect here, returns False.")
        .def("show_audio_route_picker", &Client::ShowAudioRoutePicker, "Mobile only: no effect here, returns False.")
        .def(
            "add_voice_log_callback",
            [](Client& self, PyCallback<std::string, LoggingSeverity> callback, LoggingSeverity minSeverity) {
                self.AddVoiceLogCallback(WrapCallback(std::move(callback), "voice log"), minSeverity);
            },
            py::arg("callback"), py::arg("min_severity"),
            "Calls callback(message, severity) for each voice-engine log line at or above min_severity, secrets "
            "redacted (run_callbacks delivers them).")
        .def("set_voice_log_dir", &Client::SetVoiceLogDir, py::arg("path"), py::arg("min_severity"),
             "Also writes the voice log to <path>/platformpp-voice.log (rotated as set_log_dir's file); when it "
             "cannot be opened an error is logged and nothing changes; '' stops it.");
}

}  // namespace

void BindAudio(py::module_& m, py::class_<Client>& client) {
    py::native_enum<AudioSystem>(m, "AudioSystem", "enum.IntEnum",
                                 "The audio session on platforms that have several; one on desktop.")
        .value("Standard", AudioSystem::Standard)
        .value("Game", AudioSystem::Game)
        .finalize();

    py::class_<AudioDevice> device(m, "AudioDevice", py::is_final(), "An input or output audio device.");
    device.def(py::init<>(), "An empty record.")
        .def_property("id", &AudioDevice::Id, &AudioDevice::SetId, "Stable while the device exists.")
        .def_property("name", &AudioDevice::Name, &AudioDevice::SetName, "Human-readable name.")
        .def_property("is_default", &AudioDevice::IsDefault, &AudioDevice::SetIsDefault,
                      "Whether it is the system's default.")
        .def("equals", &AudioDevice::Equals, py::arg("rhs"), "Same id, name and default flag.")
        .def("__eq__", [](AudioDevice& self, AudioDevice other) { return self.Equals(std::move(other)); },
             py::arg("other"), "Same id, name and default flag.")
        .def("__repr__", [](const AudioDevice& self) {
            if (!self) return std::string("AudioDevice.nullobj");
            return "AudioDevice(id=" + py::repr(py::str(self.Id())).cast<std::string>() +
                   ", name=" + py::repr(py::str(self.Name())).cast<std::string>() +
                   ", is_default=" + (self.IsDefault() ? "True" : "False") + ")";
        });
    device.attr("__hash__") = py::none();
    DefHandleMembers(device);

    BindDevices(client);
    BindSettings(client);
}

}  // namespace platformpp::python
