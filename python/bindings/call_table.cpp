#include "call_table.hpp"

namespace py = pybind11;

namespace platformpp::python {

std::vector<CallRecord>& CallTable() {
    static std::vector<CallRecord> table;
    return table;
}

py::list CallTableAsPython() {
    py::list table;
    for (const auto& call : CallTable()) {
        py::list parameters;
        for (const auto& [name, annotation] : call.parameters) parameters.append(py::make_tuple(name, annotation));
        py::list values;
        for (const auto& value : call.values) values.append(value);
        table.append(py::make_tuple(call.name, py::tuple(parameters), py::tuple(values), call.hasResult,
                                    call.callbackName));
    }
    return table;
}

}  // namespace platformpp::python
