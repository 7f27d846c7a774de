#include "platformpp/logging.hpp"

#include <pybind11/native_enum.h>

#include "bindings.hpp"

namespace py = pybind11;

namespace platformpp::python {

void BindLogging(py::module_& m) {
    py::native_enum<LoggingSeverity>(m, "LoggingSeverity", "enum.IntEnum",
                                     "Severity of an SDK log line; None as a minimum turns a log callback off.")
        .value("Verbose", LoggingSeverity::Verbose)
        .value("Info", LoggingSeverity::Info)
        .value("Warning", LoggingSeverity::Warning)
        .value("Error", LoggingSeverity::Error)
        .value("None_", LoggingSeverity::None, "No lines (spelt None_ in Python: None is a keyword).")
        .finalize();
}

}  // namespace platformpp::python
