#pragma once
// The platform SDK's object members, as Python sees them: bool(), copy.copy / copy.deepcopy giving
// independent instances, and the class attribute `nullobj`.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

namespace platformpp::python {

template <typename Handle, typename... Options>
void DefHandleMembers(pybind11::class_<Handle, Options...>& cls) {
    namespace py = pybind11;
    cls.def("__bool__", [](const Handle& self) { return static_cast<bool>(self); },
            "True when the instance holds an object; False for `nullobj` and moved-from instances.");
    cls.def("__copy__", [](const Handle& self) { return Handle(self); }, "An independent copy.");
    cls.def("__deepcopy__", [](const Handle& self, const py::dict&) { return Handle(self); }, py::arg("memo"),
            "An independent copy (the instance holds no Python objects).");
    cls.attr("nullobj") = py::cast(Handle::nullobj);
}

// `repr()` text for a secret: whether it is set, never its value.
inline const char* Hidden(bool isSet) { return isSet ? "<hidden>" : "None"; }

}  // namespace platformpp::python
