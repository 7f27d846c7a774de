#pragma once
// Python callables as the core's std::function callbacks.
//
// The core copies and destroys its callbacks on its network thread, where the GIL is not held, and
// runs them only inside platformpp.run_callbacks() on the game's thread. So:
// - a callable is held through a shared reference whose last release, if it happens without the GIL,
//   parks the object until the next run_callbacks() (which holds the GIL) instead of touching it;
// - running it takes the GIL, and an exception it raises is reported (the error hook, else the
//   `platformpp` logger with its traceback) and never propagates: other callbacks still run;
// - a callback that returns an awaitable (an `async def` given where a plain function is expected) is
//   reported the same way, since its body would silently never run.

#include <pybind11/pybind11.h>
#include <pybind11/typing.h>

#include <functional>
#include <memory>
#include <string>

namespace platformpp::python {

// Releases Python references parked by callbacks destroyed without the GIL. Needs the GIL.
void ReleaseParkedCallbacks();

// Reports an exception raised by (or about) a callback: the error hook, else the `platformpp` logger
// with its traceback; a failing hook goes to sys.unraisablehook. Needs the GIL; clears nothing it does
// not own. `what` names the callback in the log line.
void ReportCallbackError(pybind11::error_already_set& error, const char* what);
void ReportCallbackError(pybind11::handle exception, const std::string& what);
// ReportCallbackError for Python code (platformpp.events' handlers), given to it at install.
pybind11::cpp_function CallbackErrorReporter();

// Drops a callable's reference: now if the GIL is held, else at the next run_callbacks().
struct GilSafeDeleter {
    void operator()(pybind11::object* callable) const;
};
using SharedCallable = std::shared_ptr<pybind11::object>;
SharedCallable Share(pybind11::object callable);

// Calls `callable(args...)` under the GIL, reporting failures as described above.
template <typename... Args>
void InvokeReported(const SharedCallable& callable, const char* what, Args&&... args) {
    pybind11::gil_scoped_acquire gil;
    try {
        pybind11::object result = (*callable)(std::forward<Args>(args)...);
        if (!result.is_none() && pybind11::hasattr(result, "__await__")) {
            if (pybind11::hasattr(result, "close")) result.attr("close")();
            PyErr_SetString(PyExc_TypeError,
                            "the callback returned an awaitable, which never runs here: pass a plain function "
                            "(or use the *_async method)");
            throw pybind11::error_already_set();
        }
    } catch (pybind11::error_already_set& error) {
        ReportCallbackError(error, what);
    } catch (const std::exception&) {
        // e.g. an argument that cannot be converted: reported like a Python exception.
        pybind11::detail::try_translate_exceptions();
        pybind11::error_already_set error;
        ReportCallbackError(error, what);
    }
}

// A Python callable taking Args and returning None: typed as such in signatures and stubs.
template <typename... Args>
using PyCallback = pybind11::typing::Callable<void(Args...)>;

// A std::function for the core that calls the Python callable; `what` names it in reports.
template <typename... Args>
std::function<void(Args...)> WrapCallback(PyCallback<Args...> callable, const char* what) {
    return [shared = Share(std::move(callable)), what](Args... args) {
        InvokeReported(shared, what, std::move(args)...);
    };
}

void BindCallbackSupport(pybind11::module_& m);

}  // namespace platformpp::python
