#include "bindings.hpp"
#include "call_table.hpp"
#include "py_callback.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_platformpp, m, py::mod_gil_not_used(false)) {
    namespace python = platformpp::python;
    m.doc() = "platformpp's C++ core. Import the names from `platformpp`, which re-exports them.";
    // Errors first: the other areas translate C++ exceptions into these types.
    python::BindErrors(m);
    python::BindLogging(m);
    python::BindClientResult(m);
    python::BindAuthorization(m);
    auto client = python::BindClient(m);
    python::BindActivity(m, client);
    python::BindGuild(m, client);
    auto user = python::BindUser(m, client);
    python::BindRelationship(m, client, user);
    python::BindCall(m, client);
    python::BindAudio(m, client);
    python::BindLobby(m, client);
    python::BindMessage(m, client);
    python::BindVoiceSettings(m, client);
    python::BindDeviceAuthorization(m, client);
    python::BindClientOptions(m);
    python::BindEnumToString(m);
    python::BindCallbacks(m);
    python::BindVersioning(m);
    // The pure-Python glue that completes the classes (async methods, event subscription) lives beside
    // the module in platformpp/aio.py and platformpp/events.py; installing it here means every import
    // of the module (the package, stub generation, stubtest) sees the same classes. It gets the table
    // of the Client's calls (call_table.hpp) to derive the async methods from, and the one report of
    // callback errors (py_callback.hpp) for the event handlers.
    py::module_::import("platformpp._install").attr("install")(m, python::CallTableAsPython(),
                                                               python::CallbackErrorReporter());
}
