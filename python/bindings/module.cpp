#include "bindings.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_platformpp, m, py::mod_gil_not_used(false)) {
    m.doc() = "platformpp's C++ core. Import the names from `platformpp`, which re-exports them.";
    // Errors first: the other areas translate C++ exceptions into these types.
    platformpp::python::BindErrors(m);
    platformpp::python::BindLogging(m);
    platformpp::python::BindClientResult(m);
    platformpp::python::BindAuthorization(m);
    platformpp::python::BindClient(m);
    platformpp::python::BindActivity(m);
    platformpp::python::BindGuild(m);
    platformpp::python::BindUser(m);
    platformpp::python::BindRelationship(m);
    platformpp::python::BindLobby(m);
    platformpp::python::BindMessage(m);
    platformpp::python::BindCallbacks(m);
    platformpp::python::BindVersioning(m);
    // The pure-Python glue that completes the classes (async methods, event subscription) lives beside
    // the module in platformpp/aio.py and platformpp/events.py; installing it here means every import
    // of the module (the package, stub generation, stubtest) sees the same classes.
    py::module_::import("platformpp._install").attr("install")(m);
}
