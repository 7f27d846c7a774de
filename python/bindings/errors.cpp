// platformpp.Error and its subclasses, and the translation of the core's exceptions into them.
#include "platformpp/errors.hpp"

#include "bindings.hpp"

namespace py = pybind11;

namespace platformpp::python {
namespace {

// Owned by the module (stored as its attributes); kept here for the translator.
PyObject* gValidationErrorType = nullptr;

}  // namespace

void BindErrors(py::module_& m) {
    auto& error = py::register_exception<Error>(m, "Error");
    error.doc() = "Base class of every error platformpp raises.";
    auto& nullHandle = py::register_exception<NullHandleError>(m, "NullHandleError", error.ptr());
    nullHandle.doc() = "A handle that holds no object (its class's nullobj, or moved from) was used.";

    // ValidationError is also a ValueError, so code that catches ValueError keeps working.
    py::tuple bases = py::make_tuple(error, py::handle(PyExc_ValueError));
    gValidationErrorType = PyErr_NewExceptionWithDoc(
        "platformpp._platformpp.ValidationError",
        "An argument breaks a rule. `field` names the field; the message names the field and the rule.",
        bases.ptr(), nullptr);
    if (gValidationErrorType == nullptr) throw py::error_already_set();
    m.add_object("ValidationError", py::reinterpret_steal<py::object>(gValidationErrorType));

    // Failures of the async layer (platformpp.aio): a ClientResult that was not successful, raised as an
    // exception carrying it (`.result`). One class per ErrorType; the core never throws these.
    auto newError = [&m](const char* name, const char* doc, py::handle base) {
        const std::string qualified = std::string("platformpp._platformpp.") + name;
        PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base.ptr(), nullptr);
        if (type == nullptr) throw py::error_already_set();
        m.add_object(name, py::reinterpret_steal<py::object>(type));
        return m.attr(name);
    };
    py::object clientError = newError(
        "ClientError", "An SDK call failed: `result` is its ClientResult (type, status, error_code, error...).", error);
    newError("NetworkError", "No HTTP answer: connect, TLS, timeout or a dropped connection.", clientError);
    newError("HTTPError", "The platform answered with an error status (result.status, result.error_code).", clientError);
    newError("ClientNotReady", "The call needs a connected or authenticated Client.", clientError);
    newError("Disabled", "The feature is turned off.", clientError);
    newError("ClientDestroyed", "The Client was destroyed before the call completed.", clientError);
    newError("Aborted", "The call was cancelled (e.g. abort_authorize()).", clientError);
    newError("AuthorizationFailed",
             "OAuth2 refused: state mismatch, consent denied, invalid_grant (result.deauthorized)...", clientError);
    newError("RPCError", "A client entry point request failed.", clientError);

    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const ValidationError& e) {
            py::object exc = py::reinterpret_borrow<py::object>(gValidationErrorType)(e.what());
            exc.attr("field") = e.Field();
            PyErr_SetObject(gValidationErrorType, exc.ptr());
        }
    });
}

}  // namespace platformpp::python
