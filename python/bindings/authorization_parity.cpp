// The SDK 1.10 members of the auth and client areas (issue 17): DeviceAuthorizationArgs and the device
// authorization calls, the provisional-account calls, ClientCreateOptions, Client.Thread, the log file,
// the version hash and the namespace-level enum_to_string overloads of these areas.
#include <pybind11/native_enum.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "callback.hpp"
#include "calls.hpp"
#include "fast_property.hpp"
#include "handle_members.hpp"
#include "platformpp/client.hpp"

namespace py = pybind11;

namespace platformpp::python {
namespace {

using TokenCallback = PyCallback<ClientResult, std::string, std::string, AuthorizationTokenType, int32_t, std::string>;

std::string Repr(const DeviceAuthorizationArgs& a) {
    if (!a) return "<DeviceAuthorizationArgs: null>";
    return "DeviceAuthorizationArgs(client_id=" + std::to_string(a.ClientId()) +
           ", scopes=" + py::repr(py::str(a.Scopes())).cast<std::string>() + ")";
}

std::string Repr(const ClientCreateOptions& o) {
    if (!o) return "<ClientCreateOptions: null>";
    auto reprOf = [](const auto& value) { return py::repr(py::cast(value)).template cast<std::string>(); };
    return "ClientCreateOptions(api_base=" + reprOf(o.ApiBase()) + ", web_base=" + reprOf(o.WebBase()) +
           ", experimental_audio_system=" + reprOf(o.ExperimentalAudioSystem()) +
           ", cpu_affinity_mask=" + reprOf(o.CpuAffinityMask()) + ")";
}

void BindDeviceAuthorizationArgs(py::module_& m) {
    py::class_<DeviceAuthorizationArgs> cls(m, "DeviceAuthorizationArgs", py::is_final(),
                                            "What Client.get_token_from_device asks for (RFC 8628 device grant).");
    cls.def(py::init([](uint64_t clientId, std::string scopes) {
                DeviceAuthorizationArgs args;
                args.SetClientId(clientId);
                args.SetScopes(std::move(scopes));
                return args;
            }),
            py::kw_only(), py::arg("client_id") = 0, py::arg("scopes") = "",
            "client_id 0 means the Client's application id; scopes e.g. Client.get_default_communication_scopes().")
        .def("__repr__", py::overload_cast<const DeviceAuthorizationArgs&>(&Repr));
    DefFastProperty<&DeviceAuthorizationArgs::ClientId, &DeviceAuthorizationArgs::SetClientId>(
        cls, "client_id", "Application id of the game; 0: the Client's (set_application_id).");
    DefFastProperty<&DeviceAuthorizationArgs::Scopes, &DeviceAuthorizationArgs::SetScopes>(
        cls, "scopes", "Space-separated OAuth2 scopes.");
    DefHandleMembers(cls);
}

void BindClientCreateOptions(py::module_& m) {
    py::class_<ClientCreateOptions> cls(m, "ClientCreateOptions", py::is_final(),
                                        "What a Client is created with: Client(options).");
    cls.def(py::init<>(), "The bases Client() uses (PLATFORMPP_API_BASE / PLATFORMPP_WEB_BASE when set).")
        .def_property("experimental_audio_system", &ClientCreateOptions::ExperimentalAudioSystem,
                      &ClientCreateOptions::SetExperimentalAudioSystem,
                      "The audio session voice uses where a system has several (no effect on Linux).")
        .def_property("cpu_affinity_mask", &ClientCreateOptions::CpuAffinityMask,
                      &ClientCreateOptions::SetCpuAffinityMask,
                      "CPUs the SDK's network thread may run on (bit n = CPU n); None: any.")
        .def("__repr__", py::overload_cast<const ClientCreateOptions&>(&Repr));
    DefFastProperty<&ClientCreateOptions::ApiBase, &ClientCreateOptions::SetApiBase>(
        cls, "api_base", "The HTTP API base, e.g. 'http://127.0.0.1:8787/api/v10'.");
    DefFastProperty<&ClientCreateOptions::WebBase, &ClientCreateOptions::SetWebBase>(
        cls, "web_base", "The web base (OAuth2 pages), e.g. 'http://127.0.0.1:8787'.");
    DefFastProperty<&ClientCreateOptions::ExperimentalAndroidPreventCommsForBluetooth,
                    &ClientCreateOptions::SetExperimentalAndroidPreventCommsForBluetooth>(
        cls, "experimental_android_prevent_comms_for_bluetooth", "Android only; kept, no effect elsewhere.");
    DefHandleMembers(cls);
}

void BindThreads(py::class_<Client>& cls) {
    py::native_enum<Client::Thread>(cls, "Thread", "enum.IntEnum", "The SDK's threads (set_thread_priority).")
        .value("Client", Client::Thread::Client, "The SDK's own thread (here the network thread).")
        .value("Voice", Client::Thread::Voice, "The voice engine's audio thread.")
        .value("Network", Client::Thread::Network, "The network thread (HTTP, Gateway, IPC).")
        .finalize();
    cls.def_static("get_version_hash", &Client::GetVersionHash,
                   "The git commit the SDK was built from, or 'unknown'.")
        .def_static("thread_to_string", &Client::ThreadToString, py::arg("type"), "The thread's name.")
        .def("set_thread_priority", &Client::SetThreadPriority, py::arg("thread"), py::arg("priority"),
             "A nice value (-20 highest .. 19 lowest) for the SDK's thread; ValidationError outside that range.")
        .def("set_log_dir", &Client::SetLogDir, py::arg("path"), py::arg("min_severity"),
             "Also writes log lines at or above min_severity to <path>/platformpp.log (secrets redacted, rotated "
             "at 5 MiB, three old files kept). False when the file cannot be opened; '' stops it.");
}

void BindDeviceAuthorization(py::class_<Client>& cls) {
    DefCall(
        cls, "get_token_from_device",
        [](Client& self, DeviceAuthorizationArgs args, TokenCallback callback) {
            self.GetTokenFromDevice(std::move(args), WrapCallback(std::move(callback), "get_token_from_device"));
        },
        py::arg("args"), py::arg("callback"),
        "Device authorization (consoles, TVs): shows the user code (open_authorize_device_screen), polls until the "
        "user approves on another device: callback(result, access_token, refresh_token, token_type, expires_in, "
        "scopes).");
    DefCall(
        cls, "get_token_from_device_provisional_merge",
        [](Client& self, DeviceAuthorizationArgs args, AuthenticationExternalAuthType type, std::string externalToken,
           TokenCallback callback) {
            self.GetTokenFromDeviceProvisionalMerge(std::move(args), type, externalToken,
                                                    WrapCallback(std::move(callback), "device provisional merge"));
        },
        py::arg("args"), py::arg("external_auth_type"), py::arg("external_auth_token"), py::arg("callback"),
        "get_token_from_device, merging the provisional account of the external token into the approving user.");
    DefCall(
        cls, "get_token_from_provisional_merge",
        [](Client& self, uint64_t applicationId, std::string code, std::string codeVerifier, std::string redirectUri,
           AuthenticationExternalAuthType type, std::string externalToken, TokenCallback callback) {
            self.GetTokenFromProvisionalMerge(applicationId, code, codeVerifier, redirectUri, type, externalToken,
                                              WrapCallback(std::move(callback), "provisional merge"));
        },
        py::arg("application_id"), py::arg("code"), py::arg("code_verifier"), py::arg("redirect_uri"),
        py::arg("external_auth_type"), py::arg("external_auth_token"), py::arg("callback"),
        "get_token that also merges the provisional account of the external token into the user.");
    DefCall(
        cls, "update_provisional_account_display_name",
        [](Client& self, std::string name, PyCallback<ClientResult> callback) {
            self.UpdateProvisionalAccountDisplayName(name, WrapCallback(std::move(callback), "display name"));
        },
        py::arg("name"), py::arg("callback"), "Sets the current provisional account's display name (1-32 characters).");
    cls.def("abort_get_token_from_device", &Client::AbortGetTokenFromDevice,
            "Ends a running get_token_from_device with ErrorType.Aborted.")
        .def("open_authorize_device_screen", &Client::OpenAuthorizeDeviceScreen, py::arg("client_id"),
             py::arg("user_code"),
             "Shows where to enter the user code: the verification URL goes to the authorize URL opener, and the log.")
        .def("close_authorize_device_screen", &Client::CloseAuthorizeDeviceScreen,
             "Closes the device screen (if open); the screen-closed callback runs.")
        .def(
            "set_authorize_device_screen_closed_callback",
            [](Client& self, std::optional<PyCallback<>> callback) {
                self.SetAuthorizeDeviceScreenClosedCallback(
                    callback ? WrapCallback<>(*callback, "device screen closed") : nullptr);
            },
            py::arg("cb").none(true), "Calls cb() when the device screen closes (None: stop).")
        .def("provisional_user_merge_completed", &Client::ProvisionalUserMergeCompleted, py::arg("success"),
             "The game's answer to a provisional-merge request.")
        .def("set_game_window_pid", &Client::SetGameWindowPid, py::arg("pid"),
             "The game window's process id (Windows on the platform; validated and kept here).");
}

template <typename Enum>
void DefEnumToString(py::module_& m) {
    m.def("enum_to_string", py::overload_cast<Enum>(&EnumToString), py::arg("value"), "The value's C++ name.");
}

}  // namespace

void BindSdkParity(py::module_& m, py::class_<Client>& client) {
    BindDeviceAuthorizationArgs(m);
    BindClientCreateOptions(m);
    BindThreads(client);
    BindDeviceAuthorization(client);
    DefEnumToString<ErrorType>(m);
    DefEnumToString<HttpStatusCode>(m);
    DefEnumToString<LoggingSeverity>(m);
    DefEnumToString<AuthenticationCodeChallengeMethod>(m);
    DefEnumToString<IntegrationType>(m);
    DefEnumToString<AuthorizationTokenType>(m);
    DefEnumToString<AuthenticationExternalAuthType>(m);
    DefEnumToString<Client::Error>(m);
    DefEnumToString<Client::Status>(m);
    DefEnumToString<Client::Thread>(m);
}

}  // namespace platformpp::python
