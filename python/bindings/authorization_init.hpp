#pragma once
// AuthorizationArgs(**keywords) without pybind11's generic dispatcher: a vectorcall __init__ that
// reads the keywords straight into the C++ object (benchmarks/bench_binding.py: construction with
// keywords cost 1.8× a pure-Python class through the dispatcher). It accepts and refuses exactly what
// the dispatcher did, with TypeErrors naming the keyword, and keeps pybind11's signature format in its
// docstring so the stub types it like any bound __init__.

#include <pybind11/pybind11.h>

#include "platformpp/authorization.hpp"

namespace platformpp::python {

// Installs AuthorizationArgs.__init__ on `cls` (the bound AuthorizationArgs class).
void DefAuthorizationArgsInit(pybind11::class_<AuthorizationArgs>& cls, const char* doc);

}  // namespace platformpp::python
