#include "platformpp/authorization.hpp"

#include <pybind11/native_enum.h>
#include <pybind11/stl.h>

#include "authorization_init.hpp"
#include "bindings.hpp"
#include "call_table.hpp"
#include "fast_property.hpp"
#include "handle_members.hpp"
#include "platformpp/client.hpp"
#include "py_callback.hpp"

namespace py = pybind11;

namespace platformpp::python {
namespace {

std::string Repr(const AuthorizationCodeChallenge& c) {
    if (!c) return "<AuthorizationCodeChallenge: null>";
    return "AuthorizationCodeChallenge(method=" + py::repr(py::cast(c.Method())).cast<std::string>() +
           ", challenge=" + Hidden(!c.Challenge().empty()) + ")";
}

std::string Repr(const AuthorizationCodeVerifier& v) {
    if (!v) return "<AuthorizationCodeVerifier: null>";
    return "AuthorizationCodeVerifier(challenge=" + Repr(v.Challenge()) + ", verifier=" + Hidden(!v.Verifier().empty()) +
           ")";
}

// State, nonce and the code challenge are secrets of the flow in progress: shown only as set or unset.
std::string Repr(const AuthorizationArgs& a) {
    if (!a) return "<AuthorizationArgs: null>";
    auto reprOf = [](const auto& value) { return py::repr(py::cast(value)).template cast<std::string>(); };
    return "AuthorizationArgs(client_id=" + std::to_string(a.ClientId()) + ", scopes=" + reprOf(a.Scopes()) +
           ", state=" + Hidden(a.State().has_value()) + ", nonce=" + Hidden(a.Nonce().has_value()) +
           ", code_challenge=" + Hidden(a.CodeChallenge().has_value()) +
           ", integration_type=" + reprOf(a.IntegrationType()) +
           ", custom_scheme_param=" + reprOf(a.CustomSchemeParam()) + ")";
}

void BindEnums(py::module_& m) {
    py::native_enum<IntegrationType>(m, "IntegrationType", "enum.IntEnum",
                                     "The installation context an application is authorized for.")
        .value("GuildInstall", IntegrationType::GuildInstall, "Installed to a guild.")
        .value("UserInstall", IntegrationType::UserInstall, "Installed to the user's account.")
        .finalize();
    py::native_enum<AuthenticationCodeChallengeMethod>(m, "AuthenticationCodeChallengeMethod", "enum.IntEnum",
                                                       "PKCE code challenge method (RFC 7636); only S256.")
        .value("S256", AuthenticationCodeChallengeMethod::S256, "base64url(SHA-256(verifier)).")
        .finalize();
}

void BindCodeChallenge(py::module_& m) {
    py::class_<AuthorizationCodeChallenge> cls(m, "AuthorizationCodeChallenge", py::is_final(),
                                               "The PKCE challenge sent with the authorization request.");
    cls.def(py::init<>(), "An empty S256 challenge; usually made by Client.create_authorization_code_verifier().")
        .def_property("method", &AuthorizationCodeChallenge::Method, &AuthorizationCodeChallenge::SetMethod,
                      "The challenge method (always AuthenticationCodeChallengeMethod.S256).")
        .def("__repr__", py::overload_cast<const AuthorizationCodeChallenge&>(&Repr));
    DefFastProperty<&AuthorizationCodeChallenge::Challenge, &AuthorizationCodeChallenge::SetChallenge>(
        cls, "challenge", "base64url(SHA-256(verifier)) without padding.");
    DefHandleMembers(cls);
}

void BindCodeVerifier(py::module_& m) {
    py::class_<AuthorizationCodeVerifier> cls(m, "AuthorizationCodeVerifier", py::is_final(),
                                              "A PKCE pair: the challenge to send now and the verifier to keep secret "
                                              "until the token exchange.");
    cls.def(py::init<>(), "An empty pair; usually made by Client.create_authorization_code_verifier().")
        .def_property("challenge", &AuthorizationCodeVerifier::Challenge, &AuthorizationCodeVerifier::SetChallenge,
                      "The challenge to put in AuthorizationArgs.code_challenge (a copy).")
        .def("__repr__", py::overload_cast<const AuthorizationCodeVerifier&>(&Repr));
    DefFastProperty<&AuthorizationCodeVerifier::Verifier, &AuthorizationCodeVerifier::SetVerifier>(
        cls, "verifier", "The secret verifier for Client.get_token.");
    DefHandleMembers(cls);
}

void BindAuthorizationArgs(py::module_& m) {
    py::class_<AuthorizationArgs> cls(m, "AuthorizationArgs", py::is_final(),
                                      "The arguments of Client.authorize (OAuth2 authorization of a user).");
    DefAuthorizationArgsInit(cls, "Every field is optional here; scopes must be set before Client.authorize.");
    cls.def_property("code_challenge", &AuthorizationArgs::CodeChallenge, &AuthorizationArgs::SetCodeChallenge,
                     "PKCE challenge for the Client.get_token flow (a copy).")
        .def_property("integration_type", &AuthorizationArgs::IntegrationType, &AuthorizationArgs::SetIntegrationType,
                      "The installation context the application is installed as.")
        .def("__repr__", py::overload_cast<const AuthorizationArgs&>(&Repr));
    DefFastProperty<&AuthorizationArgs::ClientId, &AuthorizationArgs::SetClientId>(
        cls, "client_id", "Application id of the game; 0 means the id given to Client.set_application_id.");
    DefFastProperty<&AuthorizationArgs::Scopes, &AuthorizationArgs::SetScopes, KeepLastStr::Yes>(
        cls, "scopes", "Space-separated OAuth2 scopes, e.g. Client.get_default_communication_scopes().");
    DefFastProperty<&AuthorizationArgs::State, &AuthorizationArgs::SetState>(
        cls, "state", "OAuth2 state; leave None so the SDK generates a secure random one.");
    DefFastProperty<&AuthorizationArgs::Nonce, &AuthorizationArgs::SetNonce>(
        cls, "nonce", "OpenID Connect nonce, echoed in the ID token.");
    DefFastProperty<&AuthorizationArgs::CustomSchemeParam, &AuthorizationArgs::SetCustomSchemeParam>(
        cls, "custom_scheme_param", "Custom URI scheme: the redirect becomes <scheme>:/authorize/callback.");
    DefHandleMembers(cls);

    m.def("resolve_authorize_redirect_uri", &authorize::ResolveRedirectUri, py::arg("args"),
          py::arg("default_application_id"),
          "The redirect URI Client.authorize uses: <custom_scheme_param>:/authorize/callback, else "
          "platform-<application id>:/authorize/callback. Raises ValidationError naming the field.");
    m.def("resolve_authorize_state", &authorize::ResolveState, py::arg("args"),
          "The state Client.authorize sends: args.state, else 32 fresh CSPRNG bytes as base64url.");
}

using TokenCallback = PyCallback<ClientResult, std::string, std::string, AuthorizationTokenType, int32_t, std::string>;

std::string Repr(const DeviceAuthorizationArgs& a) {
    if (!a) return "<DeviceAuthorizationArgs: null>";
    return "DeviceAuthorizationArgs(client_id=" + std::to_string(a.ClientId()) +
           ", scopes=" + py::repr(py::str(a.Scopes())).cast<std::string>() + ")";
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

void BindDeviceAuthorizationCalls(py::class_<Client>& cls) {
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

}  // namespace

void BindAuthorization(py::module_& m) {
    BindEnums(m);
    BindCodeChallenge(m);
    BindCodeVerifier(m);
    BindAuthorizationArgs(m);
}

void BindDeviceAuthorization(py::module_& m, py::class_<Client>& client) {
    BindDeviceAuthorizationArgs(m);
    BindDeviceAuthorizationCalls(client);
}

}  // namespace platformpp::python
