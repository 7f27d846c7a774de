#include "py_callback.hpp"

#include <atomic>
#include <mutex>
#include <vector>

namespace py = pybind11;

namespace platformpp::python {
namespace {

std::mutex gParkedMutex;
std::vector<PyObject*> gParked;
std::atomic<bool> gHaveParked{false};

// The error hook set with platformpp.set_callback_error_hook (None: log).
py::object& ErrorHook() {
    static py::object* hook = new py::object();  // lives as long as the interpreter; never destroyed late
    return *hook;
}

}  // namespace

void GilSafeDeleter::operator()(py::object* callable) const {
    if (!Py_IsInitialized()) {
        callable->release();  // the interpreter is gone: nothing left to release into
    } else if (PyGILState_Check()) {
        delete callable;
        return;
    } else {
        std::lock_guard lock(gParkedMutex);
        gParked.push_back(callable->release().ptr());
        gHaveParked.store(true, std::memory_order_release);
    }
    delete callable;  // holds no reference any more
}

SharedCallable Share(py::object callable) {
    return SharedCallable(new py::object(std::move(callable)), GilSafeDeleter{});
}

void ReleaseParkedCallbacks() {
    if (!gHaveParked.load(std::memory_order_acquire)) return;
    std::vector<PyObject*> parked;
    {
        std::lock_guard lock(gParkedMutex);
        parked.swap(gParked);
        gHaveParked.store(false, std::memory_order_release);
    }
    for (PyObject* object : parked) Py_DECREF(object);
}

namespace {

void Report(py::handle type, py::handle value, py::handle trace, const std::string& what) {
    try {
        py::object hook = ErrorHook();
        if (hook && !hook.is_none()) {
            hook(value);
        } else {
            py::module_::import("logging").attr("getLogger")("platformpp").attr("error")(
                "exception in a platformpp %s callback", what,
                py::arg("exc_info") = py::make_tuple(type, value, trace));
        }
    } catch (py::error_already_set& hookError) {
        // The hook itself failed: fall back to the interpreter's unraisable-exception report.
        hookError.discard_as_unraisable(py::str("platformpp callback error hook"));
    }
}

}  // namespace

void ReportCallbackError(py::error_already_set& error, const char* what) {
    Report(error.type(), error.value(), error.trace(), what);
}

void ReportCallbackError(py::handle exception, const std::string& what) {
    Report(py::type::handle_of(exception), exception, exception.attr("__traceback__"), what);
}

py::cpp_function CallbackErrorReporter() {
    return py::cpp_function(
        [](const py::object& exception, const std::string& what) {
            if (!PyExceptionInstance_Check(exception.ptr())) throw py::type_error("exception: expected an exception");
            ReportCallbackError(exception, what);
        },
        py::arg("exception"), py::arg("what"));
}

void BindCallbackSupport(py::module_& m) {
    m.def(
        "set_callback_error_hook",
        [](py::object hook) {
            if (!hook.is_none() && !PyCallable_Check(hook.ptr())) {
                throw py::type_error("hook: expected a callable taking the exception, or None");
            }
            ErrorHook() = std::move(hook);
        },
        py::arg("hook").none(true),
        "Sets what is called with the exception when an SDK callback raises (None: log it to the "
        "`platformpp` logger with its traceback). Exceptions never stop other callbacks.");
    m.def("get_callback_error_hook", [] { return ErrorHook(); }, "The hook set with set_callback_error_hook, or None.");
}

}  // namespace platformpp::python
