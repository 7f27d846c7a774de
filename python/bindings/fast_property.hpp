#pragma once
// Properties for the hot scalar and string fields of handle classes, without pybind11's generic
// dispatcher (which costs more than the field access itself: bench_binding.py measures it).
//
// Each property is a plain Python `property` whose getter and setter are CPython functions
// (METH_O / METH_FASTCALL) that reach the C++ object directly. The types are final, so an exact type
// check suffices. The docstrings follow pybind11's signature format so pybind11-stubgen types them.
// Conversions are strict: str only for strings (no bytes), int only for integers (no bool, no float).

#include <pybind11/pybind11.h>

#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

namespace platformpp::python {
namespace fast_property_detail {

namespace py = pybind11;

template <typename T>
struct Codec;

template <>
struct Codec<uint64_t> {
    static constexpr const char* kPythonType = "int";
    static PyObject* ToPython(uint64_t value) { return PyLong_FromUnsignedLongLong(value); }
    static bool FromPython(PyObject* object, uint64_t& out, const char* field) {
        if (PyLong_CheckExact(object) || (PyLong_Check(object) && !PyBool_Check(object))) {
            const unsigned long long value = PyLong_AsUnsignedLongLong(object);
            if (!(value == static_cast<unsigned long long>(-1) && PyErr_Occurred())) {
                out = value;
                return true;
            }
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: expected an int in [0, 2**64), got %R", field, object);
            return false;
        }
        PyErr_Format(PyExc_TypeError, "%s: expected an int, got %.100s", field, Py_TYPE(object)->tp_name);
        return false;
    }
};

template <>
struct Codec<int32_t> {
    static constexpr const char* kPythonType = "int";
    static PyObject* ToPython(int32_t value) { return PyLong_FromLong(value); }
    static bool FromPython(PyObject* object, int32_t& out, const char* field) {
        if (PyLong_Check(object) && !PyBool_Check(object)) {
            int overflow = 0;
            const long long value = PyLong_AsLongLongAndOverflow(object, &overflow);
            if (overflow == 0 && value >= INT32_MIN && value <= INT32_MAX) {
                out = static_cast<int32_t>(value);
                return true;
            }
            PyErr_Format(PyExc_TypeError, "%s: expected an int in [-2**31, 2**31), got %R", field, object);
            return false;
        }
        PyErr_Format(PyExc_TypeError, "%s: expected an int, got %.100s", field, Py_TYPE(object)->tp_name);
        return false;
    }
};

template <>
struct Codec<bool> {
    static constexpr const char* kPythonType = "bool";
    static PyObject* ToPython(bool value) { return PyBool_FromLong(value); }
    static bool FromPython(PyObject* object, bool& out, const char* field) {
        if (!PyBool_Check(object)) {
            PyErr_Format(PyExc_TypeError, "%s: expected a bool, got %.100s", field, Py_TYPE(object)->tp_name);
            return false;
        }
        out = object == Py_True;
        return true;
    }
};

template <>
struct Codec<float> {
    static constexpr const char* kPythonType = "float";
    static PyObject* ToPython(float value) { return PyFloat_FromDouble(value); }
    static bool FromPython(PyObject* object, float& out, const char* field) {
        if (PyFloat_Check(object) || (PyLong_Check(object) && !PyBool_Check(object))) {
            const double value = PyFloat_AsDouble(object);
            if (value == -1.0 && PyErr_Occurred()) return false;
            out = static_cast<float>(value);
            return true;
        }
        PyErr_Format(PyExc_TypeError, "%s: expected a float, got %.100s", field, Py_TYPE(object)->tp_name);
        return false;
    }
};

template <>
struct Codec<std::string> {
    static constexpr const char* kPythonType = "str";
    static PyObject* ToPython(const std::string& value) {
        return PyUnicode_DecodeUTF8(value.data(), static_cast<Py_ssize_t>(value.size()), nullptr);
    }
    static bool FromPython(PyObject* object, std::string& out, const char* field) {
        if (!PyUnicode_Check(object)) {
            PyErr_Format(PyExc_TypeError, "%s: expected a str, got %.100s", field, Py_TYPE(object)->tp_name);
            return false;
        }
        Py_ssize_t size = 0;
        const char* data = PyUnicode_AsUTF8AndSize(object, &size);
        if (data == nullptr) return false;
        out.assign(data, static_cast<std::size_t>(size));
        return true;
    }
};

template <typename T>
struct Codec<std::optional<T>> {
    static inline const std::string kPythonTypeStorage = std::string(Codec<T>::kPythonType) + " | None";
    static inline const char* kPythonType = kPythonTypeStorage.c_str();
    static PyObject* ToPython(const std::optional<T>& value) {
        if (!value) Py_RETURN_NONE;
        return Codec<T>::ToPython(*value);
    }
    static bool FromPython(PyObject* object, std::optional<T>& out, const char* field) {
        if (object == Py_None) {
            out.reset();
            return true;
        }
        T value;
        if (!Codec<T>::FromPython(object, value, field)) return false;
        out = std::move(value);
        return true;
    }
};

template <typename Handle>
Handle* Unwrap(PyObject* object, PyTypeObject* type) {
    if (Py_TYPE(object) != type) {
        PyErr_Format(PyExc_TypeError, "expected %.100s, got %.100s", type->tp_name, Py_TYPE(object)->tp_name);
        return nullptr;
    }
    auto* instance = reinterpret_cast<py::detail::instance*>(object);
    void* value = instance->get_value_and_holder().value_ptr();
    if (value == nullptr) {
        PyErr_Format(PyExc_TypeError, "%.100s instance is not initialized (__init__ was not called)", type->tp_name);
        return nullptr;
    }
    return static_cast<Handle*>(value);
}

// One instantiation per bound field: its static state is that field's property.
template <typename Handle, auto Getter, auto Setter>
struct Field {
    using Value = std::decay_t<decltype((std::declval<const Handle&>().*Getter)())>;

    static inline PyTypeObject* type = nullptr;
    static inline std::string name, getterDoc, setterDoc;
    static inline PyMethodDef getterDef{};
    static inline PyMethodDef setterDef{};

    static PyObject* Get(PyObject*, PyObject* self) {
        Handle* handle = Unwrap<Handle>(self, type);
        if (handle == nullptr) return nullptr;
        try {
            return Codec<Value>::ToPython((handle->*Getter)());
        } catch (...) {
            py::detail::try_translate_exceptions();
            return nullptr;
        }
    }

    static PyObject* Set(PyObject*, PyObject* const* args, Py_ssize_t count) {
        if (count != 2) {
            PyErr_Format(PyExc_TypeError, "%s setter takes (self, value)", name.c_str());
            return nullptr;
        }
        Handle* handle = Unwrap<Handle>(args[0], type);
        if (handle == nullptr) return nullptr;
        Value value;
        if (!Codec<Value>::FromPython(args[1], value, name.c_str())) return nullptr;
        try {
            (handle->*Setter)(std::move(value));
        } catch (...) {
            py::detail::try_translate_exceptions();
            return nullptr;
        }
        Py_RETURN_NONE;
    }
};

}  // namespace fast_property_detail

template <auto Getter, auto Setter, typename Handle, typename... Options>
void DefFastProperty(pybind11::class_<Handle, Options...>& cls, const char* name, const char* doc) {
    namespace py = pybind11;
    using F = fast_property_detail::Field<Handle, Getter, Setter>;
    using Codec = fast_property_detail::Codec<typename F::Value>;
    const std::string qualified = py::str(cls.attr("__module__")).cast<std::string>() + "." +
                                  py::str(cls.attr("__qualname__")).cast<std::string>();
    F::type = reinterpret_cast<PyTypeObject*>(cls.ptr());
    F::name = name;
    F::getterDoc = "(self: " + qualified + ") -> " + Codec::kPythonType + "\n";
    F::setterDoc = "(self: " + qualified + ", value: " + Codec::kPythonType + ") -> None\n";
    F::getterDef = {F::name.c_str(), reinterpret_cast<PyCFunction>(&F::Get), METH_O, F::getterDoc.c_str()};
    F::setterDef = {F::name.c_str(), reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&F::Set)),
                    METH_FASTCALL, F::setterDoc.c_str()};
    py::object getter = py::reinterpret_steal<py::object>(PyCFunction_New(&F::getterDef, nullptr));
    py::object setter = py::reinterpret_steal<py::object>(PyCFunction_New(&F::setterDef, nullptr));
    if (!getter || !setter) throw py::error_already_set();
    cls.attr(name) = py::module_::import("builtins").attr("property")(getter, setter, py::none(), doc);
}

}  // namespace platformpp::python
