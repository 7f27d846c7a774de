#include "platformpp/callbacks.hpp"

#include "bindings.hpp"
#include "py_callback.hpp"

namespace py = pybind11;

namespace platformpp::python {
namespace {

// run_callbacks() is called every frame, mostly with nothing queued: a plain CPython function keeps
// that path to the cost of a call (bench: benchmarks/bench_callbacks.py).
PyObject* RunCallbacksFast(PyObject*, PyObject*) {
    try {
        ReleaseParkedCallbacks();
        RunCallbacks();
    } catch (py::error_already_set& error) {
        error.restore();
        return nullptr;
    } catch (...) {
        py::detail::try_translate_exceptions();
        return nullptr;
    }
    Py_RETURN_NONE;
}

PyMethodDef gRunCallbacksDef{
    "run_callbacks", &RunCallbacksFast, METH_NOARGS,
    "run_callbacks() -> None\n\nRuns every SDK callback queued since the last call, on this thread, in the order "
    "they happened. Call it once per frame. An exception raised by a callback is reported (see "
    "set_callback_error_hook) and does not stop the others."};

}  // namespace

void BindCallbacks(py::module_& m) {
    BindCallbackSupport(m);
    py::object runCallbacks = py::reinterpret_steal<py::object>(PyCFunction_NewEx(&gRunCallbacksDef, nullptr, m.attr("__name__").ptr()));
    if (!runCallbacks) throw py::error_already_set();
    m.attr("run_callbacks") = runCallbacks;
    m.def("callback_wakeup_fd", &CallbackWakeupFd,
          "A file descriptor that is readable while callbacks wait for run_callbacks() (for select/poll or "
          "asyncio's add_reader). Owned by the SDK: do not read from or close it.");
}

}  // namespace platformpp::python
