#pragma once
// One Bind* function per area, each in the file named after the header it binds.

#include <pybind11/pybind11.h>

namespace platformpp::python {

void BindErrors(pybind11::module_& m);
void BindLogging(pybind11::module_& m);
void BindClientResult(pybind11::module_& m);
void BindAuthorization(pybind11::module_& m);
void BindClient(pybind11::module_& m);
// The social areas add their classes, and their Client methods to the bound Client (after BindClient).
void BindActivity(pybind11::module_& m);
void BindGuild(pybind11::module_& m);
void BindUser(pybind11::module_& m);
void BindRelationship(pybind11::module_& m);  // after BindUser: adds UserHandle.relationship
void BindLobby(pybind11::module_& m);
void BindMessage(pybind11::module_& m);
void BindCallbacks(pybind11::module_& m);
void BindVersioning(pybind11::module_& m);

}  // namespace platformpp::python
