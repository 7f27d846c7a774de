// SDK parity, the rest of issue 17: the namespace-level enum_to_string overloads of the guild, message,
// audio, call and user enums, and Client.open_connected_games_settings_in_platform. Bound last among
// the areas (module.cpp), once every enum named here is registered, so signatures show Python names.
#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "callback.hpp"
#include "calls.hpp"
#include "platformpp/client.hpp"

namespace py = pybind11;

namespace platformpp::python {

namespace {

template <typename Enum>
void DefEnumToString(py::module_& m) {
    m.def("enum_to_string", py::overload_cast<Enum>(&EnumToString), py::arg("value"), "The value's C++ name.");
}

}  // namespace

void BindParityRest(py::module_& m, py::class_<Client>& client) {
    DefEnumToString<ChannelType>(m);
    DefEnumToString<AdditionalContentType>(m);
    DefEnumToString<AudioSystem>(m);
    DefEnumToString<Call::Error>(m);
    DefEnumToString<AudioModeType>(m);
    DefEnumToString<Call::Status>(m);
    DefEnumToString<StatusType>(m);
    DefEnumToString<DisclosureTypes>(m);
    DefEnumToString<ExternalIdentityProviderType>(m);
    DefCall(
        client, "open_connected_games_settings_in_platform",
        [](Client& self, PyCallback<ClientResult> callback) {
            self.OpenConnectedGamesSettingsInPlatform(
                WrapCallback(std::move(callback), "open_connected_games_settings_in_platform"));
        },
        py::arg("callback"),
        "Opens the platform's connected-games settings (webBase + '/settings/connected-games') through the "
        "authorize URL opener: callback(result); ValidationError for a provisional account.");
}

}  // namespace platformpp::python
