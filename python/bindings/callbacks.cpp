#include "platformpp/callbacks.hpp"

#include "bindings.hpp"

namespace py = pybind11;

namespace platformpp::python {

void BindCallbacks(py::module_& m) {
    m.def("run_callbacks", &RunCallbacks,
          "Runs every SDK callback queued since the last call, on this thread, in the order they happened. "
          "Call it once per frame.");
}

}  // namespace platformpp::python
