// platformpp.Error and its subclasses, and the translation of the core's exceptions into them.
#include "platformpp/errors.hpp"

#include "bindings.hpp"

namespace py = pybind11;

namespace platformpp::python {
namespace {

// Owned by the module (stored as its attributes); kept here for the translator.
PyObject* gValidationErrorType = nullptr;
PyObject* gNullHandleErrorType = nullptr;
PyObject* gErrorType = nullptr;

}  // namespace

void BindErrors(py::module_& m) {
    // The classes are pure Python (platformpp/_errors.py) so that platformpp.ipc, which never loads this
    // extension, raises the same ones; the module adopts them under the names it always had.
    py::module_ errors = py::module_::import("platformpp._errors");
    for (const char* name : {"Error", "NullHandleError", "ValidationError", "ClientError", "NetworkError", "HTTPError",
                             "ClientNotReady", "Disabled", "ClientDestroyed", "Aborted", "AuthorizationFailed",
                             "RPCError"}) {
        m.add_object(name, errors.attr(name));
    }
    gValidationErrorType = m.attr("ValidationError").ptr();   // owned by the module
    gNullHandleErrorType = m.attr("NullHandleError").ptr();
    gErrorType = m.attr("Error").ptr();

    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const ValidationError& e) {
            py::object exc = py::reinterpret_borrow<py::object>(gValidationErrorType)(e.what());
            exc.attr("field") = e.Field();
            PyErr_SetObject(gValidationErrorType, exc.ptr());
        } catch (const NullHandleError& e) {
            PyErr_SetString(gNullHandleErrorType, e.what());
        } catch (const Error& e) {
            PyErr_SetString(gErrorType, e.what());
        }
    });
}

}  // namespace platformpp::python
