#include "authorization_init.hpp"

#include <pybind11/stl.h>

#include <array>
#include <memory>
#include <optional>
#include <string>

namespace py = pybind11;

namespace platformpp::python {
namespace {

// The keywords, in the order of the signature.
enum Keyword { kClientId, kScopes, kState, kNonce, kCodeChallenge, kIntegrationType, kCustomSchemeParam, kCount };
constexpr std::array<const char*, kCount> kNames = {"client_id",      "scopes",           "state", "nonce",
                                                    "code_challenge", "integration_type", "custom_scheme_param"};
std::array<PyObject*, kCount> gInterned{};  // the names as interned str, compared by identity first
PyTypeObject* gType = nullptr;
py::detail::type_info* gTypeInfo = nullptr;
std::string gDoc;
PyMethodDef gDef{};

int KeywordIndex(PyObject* name) {
    for (int i = 0; i < kCount; ++i) {
        if (name == gInterned[i]) return i;
    }
    for (int i = 0; i < kCount; ++i) {  // a name built at run time: equal, not identical
        if (PyUnicode_Compare(name, gInterned[i]) == 0) return i;
    }
    return -1;
}

bool TypeError(const char* keyword, const char* expected, PyObject* got) {
    PyErr_Format(PyExc_TypeError, "AuthorizationArgs(): %s: expected %s, got %.100s", keyword, expected,
                 Py_TYPE(got)->tp_name);
    return false;
}

// An integer in [0, 2**64): an int (bool included) or an object with __index__, as pybind11 takes it.
bool ReadClientId(PyObject* value, uint64_t& out) {
    if (PyFloat_Check(value) || !PyIndex_Check(value)) return TypeError("client_id", "an int", value);
    py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(value));
    if (!index) return false;
    const unsigned long long id = PyLong_AsUnsignedLongLong(index.ptr());
    if (id == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "AuthorizationArgs(): client_id: expected an int in [0, 2**64), got %R", value);
        return false;
    }
    out = id;
    return true;
}

// str only (bytes refused, as the keywords typed `str` always did).
bool ReadString(PyObject* value, const char* keyword, std::string& out) {
    if (!PyUnicode_Check(value)) return TypeError(keyword, "a str", value);
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(value, &size);
    if (data == nullptr) return false;
    out.assign(data, static_cast<std::size_t>(size));
    return true;
}

bool ReadOptionalString(PyObject* value, const char* keyword, std::optional<std::string>& out) {
    if (value == Py_None) {
        out.reset();
        return true;
    }
    std::string text;
    if (!ReadString(value, keyword, text)) return false;
    out = std::move(text);
    return true;
}

// A bound class or enum (or None), converted as pybind11 converts an argument.
template <typename T>
bool ReadOptionalBound(PyObject* value, const char* keyword, const char* expected, std::optional<T>& out) {
    if (value == Py_None) {
        out.reset();
        return true;
    }
    py::detail::make_caster<T> caster;
    if (!caster.load(value, true)) return TypeError(keyword, expected, value);
    out = py::detail::cast_op<T>(std::move(caster));
    return true;
}

bool Apply(AuthorizationArgs& args, int keyword, PyObject* value) {
    switch (keyword) {
        case kClientId: {
            uint64_t id = 0;
            if (!ReadClientId(value, id)) return false;
            args.SetClientId(id);
            return true;
        }
        case kScopes: {
            std::string scopes;
            if (!ReadString(value, "scopes", scopes)) return false;
            args.SetScopes(std::move(scopes));
            return true;
        }
        case kState:
        case kNonce:
        case kCustomSchemeParam: {
            std::optional<std::string> text;
            if (!ReadOptionalString(value, kNames[keyword], text)) return false;
            if (keyword == kState) args.SetState(std::move(text));
            if (keyword == kNonce) args.SetNonce(std::move(text));
            if (keyword == kCustomSchemeParam) args.SetCustomSchemeParam(std::move(text));
            return true;
        }
        case kCodeChallenge: {
            std::optional<AuthorizationCodeChallenge> challenge;
            if (!ReadOptionalBound(value, "code_challenge", "an AuthorizationCodeChallenge or None", challenge)) return false;
            args.SetCodeChallenge(std::move(challenge));
            return true;
        }
        case kIntegrationType: {
            std::optional<IntegrationType> integration;
            if (!ReadOptionalBound(value, "integration_type", "an IntegrationType or None", integration)) return false;
            args.SetIntegrationType(integration);
            return true;
        }
        default: return false;
    }
}

// METH_FASTCALL | METH_KEYWORDS: the keyword values follow the positional ones in `args`.
PyObject* Init(PyObject* self, PyObject* const* args, Py_ssize_t positional, PyObject* kwnames) {
    if (positional != 0) {
        PyErr_Format(PyExc_TypeError, "AuthorizationArgs() takes keyword arguments only (%zd positional given)",
                     positional);
        return nullptr;
    }
    if (Py_TYPE(self) != gType) {  // the class is final
        PyErr_Format(PyExc_TypeError, "AuthorizationArgs.__init__ needs an AuthorizationArgs, got %.100s",
                     Py_TYPE(self)->tp_name);
        return nullptr;
    }
    auto* instance = reinterpret_cast<py::detail::instance*>(self);
    auto holder = instance->get_value_and_holder(gTypeInfo);
    if (holder.instance_registered()) Py_RETURN_NONE;  // __init__ again: ignored, as pybind11 does
    try {
        auto value = std::make_unique<AuthorizationArgs>();
        const Py_ssize_t keywords = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
        for (Py_ssize_t i = 0; i < keywords; ++i) {
            PyObject* name = PyTuple_GET_ITEM(kwnames, i);
            const int keyword = KeywordIndex(name);
            if (keyword < 0) {
                PyErr_Format(PyExc_TypeError, "AuthorizationArgs() got an unexpected keyword argument '%U'", name);
                return nullptr;
            }
            if (!Apply(*value, keyword, args[positional + i])) return nullptr;
        }
        // What pybind11's dispatcher does for a constructor: the value, then its holder and registration.
        holder.value_ptr() = value.release();
        gTypeInfo->init_instance(instance, nullptr);
    } catch (py::error_already_set& error) {
        error.restore();
        return nullptr;
    } catch (...) {
        py::detail::try_translate_exceptions();
        return nullptr;
    }
    Py_RETURN_NONE;
}

}  // namespace

void DefAuthorizationArgsInit(py::class_<AuthorizationArgs>& cls, const char* doc) {
    for (int i = 0; i < kCount; ++i) {
        gInterned[i] = PyUnicode_InternFromString(kNames[i]);
        if (gInterned[i] == nullptr) throw py::error_already_set();
    }
    gType = reinterpret_cast<PyTypeObject*>(cls.ptr());
    gTypeInfo = py::detail::get_type_info(gType);
    const std::string module = py::str(cls.attr("__module__"));
    gDoc = "__init__(self: " + module + ".AuthorizationArgs, *, client_id: typing.SupportsInt | typing.SupportsIndex = 0, "
           "scopes: str = '', state: str | None = None, nonce: str | None = None, code_challenge: " + module +
           ".AuthorizationCodeChallenge | None = None, integration_type: " + module +
           ".IntegrationType | None = None, custom_scheme_param: str | None = None) -> None\n\n" + doc + "\n";
    gDef = {"__init__", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&Init)),
            METH_FASTCALL | METH_KEYWORDS, gDoc.c_str()};
    py::object method = py::reinterpret_steal<py::object>(PyDescr_NewMethod(gType, &gDef));
    if (!method) throw py::error_already_set();
    cls.attr("__init__") = method;
}

}  // namespace platformpp::python
