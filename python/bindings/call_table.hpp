#pragma once
// Client methods that complete through one callback: callback(result, values...), or callback(values...)
// for the few that cannot fail (EndCall, the device getters). DefCall binds one and records it, with its
// parameters and the values its callback receives typed as pybind11 types them, in the table
// platformpp.aio derives each `<name>_async` coroutine from: what is a call, and its types, come from
// the C++ signatures themselves.

#include <pybind11/pybind11.h>

#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "platformpp/client.hpp"
#include "py_callback.hpp"

namespace platformpp::python {

struct CallRecord {
    std::string name;
    std::vector<std::pair<std::string, std::string>> parameters;  // (name, annotation), the callback excluded
    std::vector<std::string> values;                              // the callback's arguments after the result
    bool hasResult = true;                                        // the callback's first argument is a ClientResult
    std::string callbackName;                                     // "callback", or "cb" as the reference names it
};

// The calls bound so far, in binding order.
std::vector<CallRecord>& CallTable();
// The table as Python data:
// [(name, ((parameter, annotation), ...), (value annotation, ...), has_result, callback name), ...].
pybind11::list CallTableAsPython();

namespace calls_detail {

// pybind11's own spelling of a type (detail API: the same function writes the bound signatures), as a
// parameter or as a value handed to Python.
template <typename T>
std::string ParameterAnnotation() {
    return pybind11::detail::generate_type_signature<T>();
}
template <typename T>
std::string ValueAnnotation() {
    static constexpr auto descr = pybind11::detail::return_descr(pybind11::detail::make_caster<T>::name);
    PYBIND11_DESCR_CONSTEXPR auto types = decltype(descr)::types();
    pybind11::detail::function_record record;
    std::size_t typeIndex = 0, argumentIndex = 0;
    return pybind11::detail::generate_function_signature(descr.text, &record, types.data(), typeIndex, argumentIndex);
}

template <typename Callback>
struct Completion;  // callback(values...): a completion that cannot fail
template <typename... Values>
struct Completion<PyCallback<Values...>> {
    static constexpr bool kHasResult = false;
    static std::vector<std::string> ValueAnnotations() { return {ValueAnnotation<Values>()...}; }
};
template <typename... Values>
struct Completion<PyCallback<ClientResult, Values...>> {  // callback(result, values...)
    static constexpr bool kHasResult = true;
    static std::vector<std::string> ValueAnnotations() { return {ValueAnnotation<Values>()...}; }
};

template <typename Method>
struct Shape;  // of a binding lambda: (Client&, parameters..., callback)
template <typename Lambda, typename... Arguments>
struct Shape<void (Lambda::*)(Client&, Arguments...) const> {
    using Decayed = std::tuple<std::decay_t<Arguments>...>;
    static constexpr std::size_t kParameters = sizeof...(Arguments) - 1;
    using Callback = std::tuple_element_t<kParameters, Decayed>;
    template <std::size_t... I>
    static std::vector<std::string> ParameterAnnotations(std::index_sequence<I...>) {
        return {ParameterAnnotation<std::tuple_element_t<I, Decayed>>()...};
    }
};

}  // namespace calls_detail

// Binds `function` (a lambda taking the Client, the parameters, then the completion callback) as the
// method `name`, with `extra` as for class_::def (a py::arg per parameter, the last one "callback", or
// "cb" where the reference's parameter is so named).
template <typename Function, typename... Extra>
void DefCall(pybind11::class_<Client>& cls, const char* name, Function&& function, const Extra&... extra) {
    static_assert(!(std::is_base_of_v<pybind11::arg_v, Extra> || ...), "a call's parameters have no defaults");
    using Shape = calls_detail::Shape<decltype(&std::decay_t<Function>::operator())>;
    std::vector<std::string> names;
    (..., [&](const auto& item) {
        if constexpr (std::is_base_of_v<pybind11::arg, std::decay_t<decltype(item)>>) names.emplace_back(item.name);
    }(extra));
    if (names.size() != Shape::kParameters + 1 || (names.back() != "callback" && names.back() != "cb")) {
        pybind11::pybind11_fail(std::string("DefCall(") + name + "): name every parameter, the last one \"callback\"");
    }
    using Completion = calls_detail::Completion<typename Shape::Callback>;
    CallRecord record{name, {}, Completion::ValueAnnotations(), Completion::kHasResult, names.back()};
    const auto annotations = Shape::ParameterAnnotations(std::make_index_sequence<Shape::kParameters>());
    for (std::size_t i = 0; i < Shape::kParameters; ++i) record.parameters.emplace_back(names[i], annotations[i]);
    cls.def(name, std::forward<Function>(function), extra...);
    CallTable().push_back(std::move(record));
}

}  // namespace platformpp::python
