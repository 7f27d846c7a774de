#include "platformpp/authorization.hpp"

#include <pybind11/native_enum.h>
#include <pybind11/stl.h>

#include "authorization_init.hpp"
#include "bindings.hpp"
#include "fast_property.hpp"
#include "handle_members.hpp"

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

}  // namespace

void BindAuthorization(py::module_& m) {
    BindEnums(m);
    BindCodeChallenge(m);
    BindCodeVerifier(m);
    BindAuthorizationArgs(m);
}

}  // namespace platformpp::python
