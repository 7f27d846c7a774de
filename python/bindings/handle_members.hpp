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

// Setters for string fields that take `str` only: pybind11 would also accept bytes for std::string,
// and a str field given bytes is a caller's mistake to report as TypeError.
template <typename Handle>
auto StrSetter(void (Handle::*set)(std::string)) {
    return [set](Handle& self, const pybind11::str& value) { (self.*set)(value.cast<std::string>()); };
}

inline std::optional<std::string> ToOptionalString(const std::optional<pybind11::str>& value) {
    return value ? std::optional<std::string>(value->cast<std::string>()) : std::nullopt;
}

template <typename Handle>
auto OptionalStrSetter(void (Handle::*set)(std::optional<std::string>)) {
    return [set](Handle& self, const std::optional<pybind11::str>& value) {
        (self.*set)(ToOptionalString(value));
    };
}

// `repr()` text for a secret: whether it is set, never its value.
inline const char* Hidden(bool isSet) { return isSet ? "<hidden>" : "None"; }

}  // namespace platformpp::python
