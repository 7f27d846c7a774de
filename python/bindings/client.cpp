#include "platformpp/client.hpp"
#include "platformpp/errors.hpp"

#include <pybind11/native_enum.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "call_table.hpp"
#include "py_callback.hpp"

namespace py = pybind11;

namespace platformpp::python {
namespace {

using Status = Client::Status;
using ClientError = Client::Error;
using TokenCallback = PyCallback<ClientResult, std::string, std::string, AuthorizationTokenType, int32_t, std::string>;
using ChildTokenCallback = PyCallback<ClientResult, std::string, AuthorizationTokenType, int32_t, std::string>;

void BindEnums(py::module_& m, py::class_<Client>& cls) {
    py::native_enum<Status>(cls, "Status", "enum.IntEnum", "The Client's connection state.")
        .value("Disconnected", Status::Disconnected)
        .value("Connecting", Status::Connecting)
        .value("Connected", Status::Connected)
        .value("Ready", Status::Ready)
        .value("Reconnecting", Status::Reconnecting)
        .value("Disconnecting", Status::Disconnecting)
        .value("HttpWait", Status::HttpWait, "Waiting on the HTTP API before the Gateway (connect() discovering it).")
        .finalize();
    py::native_enum<ClientError>(cls, "Error", "enum.IntEnum", "Why the connection state changed, if by a failure.")
        .value("None_", ClientError::None, "No failure (spelt None_ in Python: None is a keyword).")
        .value("ConnectionFailed", ClientError::ConnectionFailed)
        .value("UnexpectedClose", ClientError::UnexpectedClose)
        .value("ConnectionCanceled", ClientError::ConnectionCanceled)
        .finalize();
    py::native_enum<Client::Thread>(cls, "Thread", "enum.IntEnum", "The SDK's threads (set_thread_priority).")
        .value("Client", Client::Thread::Client, "The SDK's own thread (here the network thread).")
        .value("Voice", Client::Thread::Voice, "The voice engine's audio thread.")
        .value("Network", Client::Thread::Network, "The network thread (HTTP, Gateway, IPC).")
        .finalize();
    py::native_enum<AuthorizationTokenType>(m, "AuthorizationTokenType", "enum.IntEnum", "The kind of an access token.")
        .value("User", AuthorizationTokenType::User)
        .value("Bearer", AuthorizationTokenType::Bearer)
        .finalize();
    py::native_enum<AuthenticationExternalAuthType>(m, "AuthenticationExternalAuthType", "enum.IntEnum",
                                                    "How an identity provider's token is understood (provisional accounts).")
        .value("OIDC", AuthenticationExternalAuthType::OIDC)
        .value("EpicOnlineServicesAccessToken", AuthenticationExternalAuthType::EpicOnlineServicesAccessToken)
        .value("EpicOnlineServicesIdToken", AuthenticationExternalAuthType::EpicOnlineServicesIdToken)
        .value("SteamSessionTicket", AuthenticationExternalAuthType::SteamSessionTicket)
        .value("UnityServicesIdToken", AuthenticationExternalAuthType::UnityServicesIdToken)
        .value("PlatformBotIssuedAccessToken", AuthenticationExternalAuthType::PlatformBotIssuedAccessToken)
        .value("AppleIdToken", AuthenticationExternalAuthType::AppleIdToken)
        .value("PlayStationNetworkIdToken", AuthenticationExternalAuthType::PlayStationNetworkIdToken)
        .finalize();
}

// Optional event callbacks: None clears them.
template <typename... Args>
std::function<void(Args...)> WrapOptional(const std::optional<PyCallback<Args...>>& callable, const char* what) {
    if (!callable) return nullptr;
    return WrapCallback<Args...>(*callable, what);
}

// Every Client's log lines go to the `platformpp` logger, from the level it has when the Client is
// made (so a default WARNING logger costs nothing for VERBOSE lines).
std::unique_ptr<Client> WithPythonLogging(std::unique_ptr<Client> client) {
    py::object logger = py::module_::import("logging").attr("getLogger")("platformpp");
    const int level = logger.attr("getEffectiveLevel")().cast<int>();
    const LoggingSeverity minimum = level <= 10   ? LoggingSeverity::Verbose
                                    : level <= 20 ? LoggingSeverity::Info
                                    : level <= 30 ? LoggingSeverity::Warning
                                    : level <= 40 ? LoggingSeverity::Error
                                                  : LoggingSeverity::None;
    if (minimum == LoggingSeverity::None) return client;
    client->AddLogCallback(
        [log = Share(logger.attr("log"))](std::string line, LoggingSeverity severity) {
            static constexpr int kLevels[] = {10, 10, 20, 30, 40, 50};  // logging's levels by LoggingSeverity
            InvokeReported(log, "log", kLevels[static_cast<int>(severity)], "%s", std::move(line));
        },
        minimum);
    return client;
}

void BindConfiguration(py::class_<Client>& cls) {
    cls.def(
           "set_application_id",
           [](Client& self, const py::int_& applicationId) {
               // An id is an unsigned 64-bit snowflake: a negative or wider int breaks that rule, said
               // as a ValidationError naming the field (not pybind11's "incompatible function arguments").
               const unsigned long long id = PyLong_AsUnsignedLongLong(applicationId.ptr());
               if (id == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
                   PyErr_Clear();
                   throw platformpp::ValidationError("application_id",
                                         "must be an application id, an integer from 0 (none) to 2**64 - 1, got " +
                                             py::str(applicationId).cast<std::string>());
               }
               self.SetApplicationId(static_cast<uint64_t>(id));
           },
           py::arg("application_id"),
           "Sets the default client_id of AuthorizationArgs: an application id, an integer from 0 (none) to "
           "2**64 - 1 (ValidationError otherwise).")
        .def("get_application_id", &Client::GetApplicationId, "The id given to set_application_id (0 if none).")
        .def("get_api_base", &Client::GetApiBase, "The HTTP API base URL, e.g. 'http://127.0.0.1:5123/api/v10'.")
        .def("get_web_base", &Client::GetWebBase, "The web base URL of the OAuth2 pages.")
        .def("set_http_request_timeout", &Client::SetHttpRequestTimeout, py::arg("http_timeout_in_milliseconds"),
             "Timeout of each HTTP request (connect, send and receive). ValidationError if <= 0.")
        .def(
            "add_log_callback",
            [](Client& self, PyCallback<std::string, LoggingSeverity> callback, LoggingSeverity minSeverity) {
                self.AddLogCallback(WrapCallback(std::move(callback), "log"), minSeverity);
            },
            py::arg("callback"), py::arg("min_severity"),
            "Calls callback(message, severity) for each SDK log line at or above min_severity, secrets redacted.");
}

// The SDK's threads, its version hash and its log file.
void BindThreadsAndLogs(py::class_<Client>& cls) {
    cls.def_static("get_version_hash", &Client::GetVersionHash,
                   "The git commit the SDK was built from, or 'unknown'.")
        .def_static("thread_to_string", &Client::ThreadToString, py::arg("type"), "The thread's name.")
        .def("set_thread_priority", &Client::SetThreadPriority, py::arg("thread"), py::arg("priority"),
             "A nice value (-20 highest .. 19 lowest) for the SDK's thread; ValidationError outside that range.")
        .def("set_log_dir", &Client::SetLogDir, py::arg("path"), py::arg("min_severity"),
             "Also writes log lines at or above min_severity to <path>/platformpp.log (secrets redacted, rotated "
             "at 5 MiB, three old files kept). False when the file cannot be opened; '' stops it.");
}

void BindConnection(py::class_<Client>& cls) {
    cls.def("connect", &Client::Connect,
            "Connects the Gateway with the token given to update_token; watch set_status_changed_callback.")
        .def("disconnect", &Client::Disconnect, "Closes the Gateway connection.")
        .def("get_status", &Client::GetStatus, "The connection state.")
        .def(
            "set_status_changed_callback",
            [](Client& self, std::optional<PyCallback<Status, ClientError, int32_t>> callback) {
                self.SetStatusChangedCallback(WrapOptional<Status, ClientError, int32_t>(callback, "status changed"));
            },
            py::arg("callback").none(true),
            "Calls callback(status, error, error_detail) on every change of state (None: stop). error_detail is the "
            "Gateway close code or HTTP status behind a failure.");
}

void BindAuthorization(py::class_<Client>& cls) {
    DefCall(
        cls, "authorize",
        [](Client& self, AuthorizationArgs args, PyCallback<ClientResult, std::string, std::string> callback) {
            self.Authorize(std::move(args), WrapCallback(std::move(callback), "authorize"));
        },
        py::arg("args"), py::arg("callback"),
        "Starts OAuth2 authorization: opens the authorize URL and calls callback(result, code, redirect_uri) when "
        "the redirect comes back (handle_authorize_redirect) or the attempt fails.");
    cls.def("abort_authorize", &Client::AbortAuthorize, "Ends a pending authorize() with ErrorType.Aborted.")
        .def("handle_authorize_redirect", &Client::HandleAuthorizeRedirect, py::arg("url"),
             "Feeds back the redirect URL the OS handed the game. False when it is for no pending authorization.")
        .def(
            "set_authorize_url_opener",
            [](Client& self, std::optional<PyCallback<std::string>> opener) {
                self.SetAuthorizeUrlOpener(WrapOptional<std::string>(opener, "authorize URL opener"));
            },
            py::arg("opener").none(true), "Replaces how the authorize URL is opened (None: the system browser).")
        .def(
            "set_emulator_consent_user",
            [](Client& self, std::string user, std::string adminSecret) {
                self.SetEmulatorConsentUser(std::move(user), std::move(adminSecret));
            },
            py::arg("user"), py::arg("admin_secret") = "",
            "Emulator only: consent headlessly as this test user (id or username) instead of opening a browser. "
            "'' turns it off. admin_secret: the emulator's admin secret (Emulator.admin_secret, or the one the "
            "CLI prints), which an emulator listening beyond loopback requires for headless consent; it is sent "
            "as a bearer header, never in a URL, and never logged or shown.")
        .def("create_authorization_code_verifier", &Client::CreateAuthorizationCodeVerifier,
             "A fresh PKCE pair: 32 CSPRNG bytes as a base64url verifier and its S256 challenge.");
    DefCall(
        cls, "get_token",
        [](Client& self, uint64_t applicationId, std::string code, std::string codeVerifier, std::string redirectUri,
           TokenCallback callback) {
            self.GetToken(applicationId, std::move(code), std::move(codeVerifier), std::move(redirectUri),
                          WrapCallback(std::move(callback), "get_token"));
        },
        py::arg("application_id"), py::arg("code"), py::arg("code_verifier"), py::arg("redirect_uri"),
        py::arg("callback"),
        "Exchanges an authorization code (with its PKCE verifier) for tokens: callback(result, access_token, "
        "refresh_token, token_type, expires_in, scopes).");
    DefCall(
        cls, "refresh_token",
        [](Client& self, uint64_t applicationId, std::string refreshToken, TokenCallback callback) {
            self.RefreshToken(applicationId, std::move(refreshToken), WrapCallback(std::move(callback), "refresh_token"));
        },
        py::arg("application_id"), py::arg("refresh_token"), py::arg("callback"),
        "Trades a refresh token for a new pair. result.deauthorized is True on invalid_grant: unlink the user.");
    DefCall(
        cls, "revoke_token",
        [](Client& self, uint64_t applicationId, std::string token, PyCallback<ClientResult> callback) {
            self.RevokeToken(applicationId, std::move(token), WrapCallback(std::move(callback), "revoke_token"));
        },
        py::arg("application_id"), py::arg("token"), py::arg("callback"),
        "Revokes the whole authorization (access and refresh token both), as unlinking requires.");
    DefCall(
        cls, "update_token",
        [](Client& self, AuthorizationTokenType tokenType, std::string token, PyCallback<ClientResult> callback) {
            self.UpdateToken(tokenType, std::move(token), WrapCallback(std::move(callback), "update_token"));
        },
        py::arg("token_type"), py::arg("token"), py::arg("callback"),
        "Sets the token the Client acts with, after checking it with the platform (the previous one is kept if "
        "the check fails).");
    cls.def("is_authenticated", &Client::IsAuthenticated, "Whether update_token has set a working token.");
    DefCall(
        cls, "fetch_current_user",
        [](Client& self, AuthorizationTokenType tokenType, std::string token,
           PyCallback<ClientResult, uint64_t, std::string> callback) {
            self.FetchCurrentUser(tokenType, std::move(token), WrapCallback(std::move(callback), "fetch_current_user"));
        },
        py::arg("token_type"), py::arg("token"), py::arg("callback"),
        "Looks up the user a token belongs to: callback(result, id, name).");
    DefCall(
        cls, "get_provisional_token",
        [](Client& self, uint64_t applicationId, AuthenticationExternalAuthType type, std::string externalToken,
           TokenCallback callback) {
            self.GetProvisionalToken(applicationId, type, std::move(externalToken),
                                     WrapCallback(std::move(callback), "get_provisional_token"));
        },
        py::arg("application_id"), py::arg("external_auth_type"), py::arg("external_auth_token"), py::arg("callback"),
        "A provisional account's token from an identity provider's token: callback(result, access_token, "
        "refresh_token, token_type, expires_in, scopes).");
    DefCall(
        cls, "exchange_child_token",
        [](Client& self, std::string parentToken, uint64_t childApplicationId, ChildTokenCallback callback) {
            self.ExchangeChildToken(std::move(parentToken), childApplicationId,
                                    WrapCallback(std::move(callback), "exchange_child_token"));
        },
        py::arg("parent_application_token"), py::arg("child_application_id"), py::arg("callback"),
        "Publisher-level linking: callback(result, access_token, token_type, expires_in, scopes) for the child.");
    DefCall(
        cls, "unmerge_into_provisional_account",
        [](Client& self, uint64_t applicationId, AuthenticationExternalAuthType type, std::string externalToken,
           PyCallback<ClientResult> callback) {
            self.UnmergeIntoProvisionalAccount(applicationId, type, std::move(externalToken),
                                               WrapCallback(std::move(callback), "unmerge"));
        },
        py::arg("application_id"), py::arg("external_auth_type"), py::arg("external_auth_token"), py::arg("callback"),
        "Splits a merged account back into a provisional one: callback(result).");
    cls.def(
           "set_token_expiration_callback",
           [](Client& self, std::optional<PyCallback<>> callback) {
               self.SetTokenExpirationCallback(WrapOptional<>(callback, "token expiration"));
           },
           py::arg("callback").none(true),
           "Calls callback() when the access token is about to expire or is rejected (None: stop).")
        .def(
            "register_authorize_request_callback",
            [](Client& self, PyCallback<> callback) {
                self.RegisterAuthorizeRequestCallback(WrapCallback(std::move(callback), "authorize request"));
            },
            py::arg("callback"), "Calls callback() for authorization requests from a client entry point.")
        .def("remove_authorize_request_callback", &Client::RemoveAuthorizeRequestCallback,
             "Stops the authorize request callback.");
}

}  // namespace

py::class_<Client> BindClient(py::module_& m) {
    py::class_<Client> cls(m, "Client", py::is_final(), py::release_gil_before_calling_cpp_dtor(),
                           "The SDK's entry point: one per signed-in player. Its callbacks run inside run_callbacks().");
    BindEnums(m, cls);
    cls.def(py::init([] { return WithPythonLogging(std::make_unique<Client>()); }),
            "A client of the configured service (the PLATFORMPP_API_BASE / PLATFORMPP_WEB_BASE environment variables "
            "when set).")
        .def(py::init([](std::string apiBase, std::string webBase) {
                 return WithPythonLogging(std::make_unique<Client>(std::move(apiBase), std::move(webBase)));
             }),
             py::arg("api_base"), py::arg("web_base"),
             "A client of another deployment, e.g. an emulator: Client(emu.api_base, emu.web_base).")
        .def(py::init([](ClientCreateOptions options) {
                 return WithPythonLogging(std::make_unique<Client>(std::move(options)));
             }),
             py::arg("options"), "A client made with ClientCreateOptions (bases, CPU affinity, audio system).")
        .def("__bool__", [](const Client& self) { return static_cast<bool>(self); },
             "True when the instance holds a client; False for Client.nullobj.")
        .def_static("get_default_communication_scopes", &Client::GetDefaultCommunicationScopes,
                    "'openid sdk.social_layer': everything the communication features need.")
        .def_static("get_default_presence_scopes", &Client::GetDefaultPresenceScopes,
                    "'openid sdk.social_layer_presence': everything rich presence needs.")
        .def_static("get_version_major", &Client::GetVersionMajor, "The SDK's major version.")
        .def_static("get_version_minor", &Client::GetVersionMinor, "The SDK's minor version.")
        .def_static("get_version_patch", &Client::GetVersionPatch, "The SDK's patch version.")
        .def_static("status_to_string", &Client::StatusToString, py::arg("status"), "The status's name.")
        .def_static("error_to_string", &Client::ErrorToString, py::arg("error"), "The error's name.");
    BindConfiguration(cls);
    BindThreadsAndLogs(cls);
    BindConnection(cls);
    BindAuthorization(cls);
    // Client is move-only; Python shares the one static null instance by reference.
    cls.attr("nullobj") = py::cast(&Client::nullobj, py::return_value_policy::reference);
    return cls;
}

}  // namespace platformpp::python
