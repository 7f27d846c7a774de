#include "platformpp/enum_to_string.hpp"

#include "bindings.hpp"
#include "platformpp/client.hpp"

namespace py = pybind11;

namespace platformpp::python {
namespace {

template <typename Enum>
void DefEnumToString(py::module_& m) {
    m.def("enum_to_string", py::overload_cast<Enum>(&EnumToString), py::arg("value"), "The value's C++ name.");
}

}  // namespace

void BindEnumToString(py::module_& m) {
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
    DefEnumToString<ChannelType>(m);
    DefEnumToString<AdditionalContentType>(m);
    DefEnumToString<AudioSystem>(m);
    DefEnumToString<Call::Error>(m);
    DefEnumToString<AudioModeType>(m);
    DefEnumToString<Call::Status>(m);
    DefEnumToString<StatusType>(m);
    DefEnumToString<DisclosureTypes>(m);
    DefEnumToString<ExternalIdentityProviderType>(m);
}

}  // namespace platformpp::python
