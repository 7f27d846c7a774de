#pragma once
// One Bind* function per area, each in the file named after the header it binds.

#include <pybind11/pybind11.h>

namespace platformpp::python {

void BindErrors(pybind11::module_& m);
void BindLogging(pybind11::module_& m);
void BindClientResult(pybind11::module_& m);
void BindAuthorization(pybind11::module_& m);
void BindClient(pybind11::module_& m);
void BindCallbacks(pybind11::module_& m);
void BindVersioning(pybind11::module_& m);

}  // namespace platformpp::python
