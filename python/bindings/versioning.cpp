#include "platformpp/versioning.hpp"

#include <pybind11/stl.h>

#include "bindings.hpp"

namespace py = pybind11;

namespace platformpp::python {
namespace {

bool IsDate(PyObject* object) {
    // Held for the life of the process, like the datetime module itself.
    static PyObject* const dateType = py::object(py::module_::import("datetime").attr("date")).release().ptr();
    const int result = PyObject_IsInstance(object, dateType);
    if (result < 0) PyErr_Clear();
    return result == 1;
}

// A datetime.date (or datetime.datetime), named as such in signatures and stubs; pybind11 raises
// TypeError for anything else.
class PyDate : public py::object {
public:
    PYBIND11_OBJECT_DEFAULT(PyDate, py::object, IsDate)
};

}  // namespace
}  // namespace platformpp::python

template <>
struct pybind11::detail::handle_type_name<platformpp::python::PyDate> {
    static constexpr auto name = const_name("datetime.date");
};

namespace platformpp::python {
namespace {

using versioning::Date;
using versioning::MinorVersion;
using VersionTuple = std::pair<int32_t, int32_t>;

struct ReleaseCalendar {};

PyDate ToPyDate(const Date& d) {
    return py::reinterpret_steal<PyDate>(py::module_::import("datetime").attr("date")(d.year, d.month, d.day).release());
}

// None means today, in UTC.
Date FromPyDate(const std::optional<PyDate>& on) {
    py::object date = on.has_value() ? py::object(*on)
                                     : py::module_::import("datetime").attr("datetime").attr("now")(
                                           py::module_::import("datetime").attr("timezone").attr("utc"));
    return Date{date.attr("year").cast<int32_t>(), date.attr("month").cast<int32_t>(), date.attr("day").cast<int32_t>()};
}

}  // namespace

void BindVersioning(py::module_& m) {
    // Static methods of one class rather than a submodule, so the module keeps a single .pyi file.
    py::class_<ReleaseCalendar> v(m, "ReleaseCalendar", py::is_final(),
                                  "The SDK release calendar (three minors a year; five supported). Use it through "
                                  "platformpp.versioning.");
    v.attr("SUPPORTED_MINOR_COUNT") = versioning::kSupportedMinorCount;
    v.def_static("release_date", [](int32_t major, int32_t minor) { return ToPyDate(versioning::ReleaseDate(major, minor)); },
          py::arg("major"), py::arg("minor"),
          "The first day of the month the minor ships in: April, July or November (1.10: July 2026).");
    v.def_static("end_of_life", [](int32_t major, int32_t minor) { return ToPyDate(versioning::EndOfLife(major, minor)); },
          py::arg("major"), py::arg("minor"), "The day the minor stops getting patches (five minors later).");
    v.def_static(
        "supported_minors",
        [](const std::optional<PyDate>& on) {
            std::vector<VersionTuple> out;
            for (const MinorVersion& mv : versioning::SupportedMinors(FromPyDate(on))) out.emplace_back(mv.major, mv.minor);
            return out;
        },
        py::arg("on") = py::none(), "The five most recent minors released on `on` (default today), oldest first.");
    v.def_static(
        "is_supported",
        [](const VersionTuple& version, const std::optional<PyDate>& on) {
            return versioning::IsSupported(MinorVersion{version.first, version.second}, FromPyDate(on));
        },
        py::arg("version"), py::kw_only(), py::arg("on") = py::none(),
        "Whether (major, minor) is among the supported minors on `on` (default today).");
}

}  // namespace platformpp::python
