#include "platformpp/client_options.hpp"

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "fast_property.hpp"
#include "handle_members.hpp"

namespace py = pybind11;

namespace platformpp::python {
namespace {

std::string Repr(const ClientCreateOptions& o) {
    if (!o) return "<ClientCreateOptions: null>";
    auto reprOf = [](const auto& value) { return py::repr(py::cast(value)).template cast<std::string>(); };
    return "ClientCreateOptions(api_base=" + reprOf(o.ApiBase()) + ", web_base=" + reprOf(o.WebBase()) +
           ", experimental_audio_system=" + reprOf(o.ExperimentalAudioSystem()) +
           ", cpu_affinity_mask=" + reprOf(o.CpuAffinityMask()) + ")";
}

}  // namespace

void BindClientOptions(py::module_& m) {
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

}  // namespace platformpp::python
