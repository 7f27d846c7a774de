#include "platformpp/client.hpp"

#include "bindings.hpp"

namespace py = pybind11;

namespace platformpp::python {

void BindClient(py::module_& m) {
    py::class_<Client> cls(m, "Client", py::is_final(), "The SDK's entry point: one per signed-in player.");
    cls.def(py::init<>(), "A client with no application id set.")
        .def("__bool__", [](const Client& self) { return static_cast<bool>(self); },
             "True when the instance holds a client; False for Client.nullobj.")
        .def("set_application_id", &Client::SetApplicationId, py::arg("application_id"),
             "Sets the default client_id of AuthorizationArgs.")
        .def("get_application_id", &Client::GetApplicationId, "The id given to set_application_id (0 if none).")
        .def("create_authorization_code_verifier", &Client::CreateAuthorizationCodeVerifier,
             "A fresh PKCE pair: 32 CSPRNG bytes as a base64url verifier and its S256 challenge.")
        .def_static("get_default_communication_scopes", &Client::GetDefaultCommunicationScopes,
                    "'openid sdk.social_layer': everything the communication features need.")
        .def_static("get_default_presence_scopes", &Client::GetDefaultPresenceScopes,
                    "'openid sdk.social_layer_presence': everything rich presence needs.")
        .def_static("get_version_major", &Client::GetVersionMajor, "The SDK's major version.")
        .def_static("get_version_minor", &Client::GetVersionMinor, "The SDK's minor version.")
        .def_static("get_version_patch", &Client::GetVersionPatch, "The SDK's patch version.");
    // Client is move-only; Python shares the one static null instance by reference.
    cls.attr("nullobj") = py::cast(&Client::nullobj, py::return_value_policy::reference);
}

}  // namespace platformpp::python
