#pragma once
// Properties for the hot scalar and string fields of handle classes, without pybind11's generic
// dispatcher (which costs more than the field access itself: bench_binding.py measures it).
//
// Each property is a small data descriptor (FastProperty) whose __get__ / __set__ slots reach the C++
// object directly, without the call a `property` makes to its getter and setter. Like a property it
// has `fget` and `fset` (CPython functions, METH_O / METH_FASTCALL, for code that calls them) and a
// `__doc__`, so pybind11-stubgen and stubtest treat it as one. The types are final, so an exact type
// check suffices. The getter and setter docstrings follow pybind11's signature format so
// pybind11-stubgen types them.
// Conversions are strict: str only for strings (no bytes), int only for integers (no bool, no float).

#include <pybind11/pybind11.h>
#include <structmember.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace platformpp::python {

// Whether a string property keeps the str it last set or returned, with the instance it belongs to:
// a get on that instance hands it back without copying the C++ string (the seed's getters return by
// value) or decoding a new str; on another instance, the str is still reused when the C++ value equals
// it. Sound for fields that only the property's setter changes while Python holds the object (so a
// kept str cannot go stale), and only for fields that are not secrets (the str outlives its owner).
enum class KeepLastStr { No, Yes };

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

// The text of a str, or nullopt for anything else (None).
inline std::optional<std::string_view> StrView(PyObject* object) {
    if (object == nullptr || !PyUnicode_Check(object)) return std::nullopt;
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(object, &size);  // kept by the str: ASCII ones share it
    if (data == nullptr) {
        PyErr_Clear();
        return std::nullopt;
    }
    return std::string_view(data, static_cast<std::size_t>(size));
}

// The descriptor: what a `property` would hold, plus the field's direct accessors.
struct Descriptor {
    PyObject_HEAD
    PyObject* fget;
    PyObject* fset;
    PyObject* doc;
    PyObject* (*get)(PyObject* instance);
    int (*set)(PyObject* instance, PyObject* value);
};

inline PyObject* DescriptorGet(PyObject* self, PyObject* instance, PyObject*) {
    if (instance == nullptr || instance == Py_None) {  // looked up on the class
        Py_INCREF(self);
        return self;
    }
    return reinterpret_cast<Descriptor*>(self)->get(instance);
}

inline int DescriptorSet(PyObject* self, PyObject* instance, PyObject* value) {
    if (value == nullptr) {
        PyErr_SetString(PyExc_AttributeError, "can't delete attribute");
        return -1;
    }
    return reinterpret_cast<Descriptor*>(self)->set(instance, value);
}

inline void DescriptorDealloc(PyObject* self) {
    auto* descriptor = reinterpret_cast<Descriptor*>(self);
    PyTypeObject* type = Py_TYPE(self);
    Py_CLEAR(descriptor->fget);
    Py_CLEAR(descriptor->fset);
    Py_CLEAR(descriptor->doc);
    PyObject_Free(self);
    Py_DECREF(type);
}

// The descriptor type, made once per process (the extension is loaded once).
inline PyTypeObject* DescriptorType() {
    static PyTypeObject* type = [] {
        static PyMemberDef members[] = {
            {"fget", T_OBJECT, offsetof(Descriptor, fget), READONLY, "The getter: fget(instance) -> value."},
            {"fset", T_OBJECT, offsetof(Descriptor, fset), READONLY, "The setter: fset(instance, value)."},
            {"__doc__", T_OBJECT, offsetof(Descriptor, doc), READONLY, nullptr},
            {nullptr, 0, 0, 0, nullptr},
        };
        static PyType_Slot slots[] = {
            {Py_tp_descr_get, reinterpret_cast<void*>(&DescriptorGet)},
            {Py_tp_descr_set, reinterpret_cast<void*>(&DescriptorSet)},
            {Py_tp_dealloc, reinterpret_cast<void*>(&DescriptorDealloc)},
            {Py_tp_members, members},
            {0, nullptr},
        };
        static PyType_Spec spec = {"platformpp._platformpp.FastProperty", static_cast<int>(sizeof(Descriptor)), 0,
                                   Py_TPFLAGS_DEFAULT, slots};
        auto* made = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
        if (made == nullptr) throw py::error_already_set();
        return made;  // kept for the process's lifetime
    }();
    return type;
}

// Forgets an instance in the fields that keep a str for it, before the class's own dealloc runs (so a
// new instance at the same address is never taken for it). Installed once per class.
template <typename Handle>
struct Forget {
    static inline destructor original = nullptr;
    static inline std::vector<PyObject**> owners;  // each keeping field's owner

    static void Dealloc(PyObject* self) {
        for (PyObject** owner : owners) {
            if (*owner == self) *owner = nullptr;
        }
        original(self);
    }

    static void Track(PyTypeObject* type, PyObject** owner) {
        if (original == nullptr) {
            original = type->tp_dealloc;
            type->tp_dealloc = &Dealloc;
        }
        owners.push_back(owner);
    }
};

// One instantiation per bound field: its static state is that field's property.
template <typename Handle, auto Getter, auto Setter, KeepLastStr Keep>
struct Field {
    using Value = std::decay_t<decltype((std::declval<const Handle&>().*Getter)())>;
    static constexpr bool kKeepsStr = Keep == KeepLastStr::Yes && std::is_same_v<Value, std::string>;

    static inline PyTypeObject* type = nullptr;
    static inline std::string name, getterDoc, setterDoc;
    static inline PyMethodDef getterDef{};
    static inline PyMethodDef setterDef{};
    // kKeepsStr (all under the GIL): the str last set or returned, and the instance it was for (not a
    // reference: Forget clears it when that instance goes).
    static inline PyObject* lastStr = nullptr;
    static inline PyObject* owner = nullptr;

    static PyObject* Get(PyObject*, PyObject* self) {
        Handle* handle = Unwrap<Handle>(self, type);
        if (handle == nullptr) return nullptr;
        try {
            if constexpr (kKeepsStr) {
                if (owner == self) {
                    Py_INCREF(lastStr);
                    return lastStr;
                }
                const std::string value = (handle->*Getter)();
                if (StrView(lastStr) != std::string_view(value)) {
                    PyObject* str = Codec<Value>::ToPython(value);
                    if (str == nullptr) return nullptr;
                    Py_XSETREF(lastStr, str);
                }
                owner = self;
                Py_INCREF(lastStr);
                return lastStr;
            } else {
                return Codec<Value>::ToPython((handle->*Getter)());
            }
        } catch (...) {
            py::detail::try_translate_exceptions();
            return nullptr;
        }
    }

    static PyObject* GetInstance(PyObject* self) { return Get(nullptr, self); }

    // The descriptor's __set__: 0, or -1 with the exception set.
    static int Store(PyObject* self, PyObject* object) {
        Handle* handle = Unwrap<Handle>(self, type);
        if (handle == nullptr) return -1;
        Value value;
        if (!Codec<Value>::FromPython(object, value, name.c_str())) return -1;
        try {
            (handle->*Setter)(std::move(value));
        } catch (...) {
            py::detail::try_translate_exceptions();
            return -1;
        }
        if constexpr (kKeepsStr) {
            if (PyUnicode_CheckExact(object)) {  // a str subclass is not what a get returns
                Py_INCREF(object);
                Py_XSETREF(lastStr, object);
                owner = self;
            } else if (owner == self) {
                owner = nullptr;
            }
        }
        return 0;
    }

    static PyObject* Set(PyObject*, PyObject* const* args, Py_ssize_t count) {
        if (count != 2) {
            PyErr_Format(PyExc_TypeError, "%s setter takes (self, value)", name.c_str());
            return nullptr;
        }
        if (Store(args[0], args[1]) != 0) return nullptr;
        Py_RETURN_NONE;
    }
};

}  // namespace fast_property_detail

template <auto Getter, auto Setter, KeepLastStr Keep = KeepLastStr::No, typename Handle, typename... Options>
void DefFastProperty(pybind11::class_<Handle, Options...>& cls, const char* name, const char* doc) {
    namespace py = pybind11;
    using F = fast_property_detail::Field<Handle, Getter, Setter, Keep>;
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
    py::object docstring = py::str(doc);
    auto* descriptor = PyObject_New(fast_property_detail::Descriptor, fast_property_detail::DescriptorType());
    if (descriptor == nullptr) throw py::error_already_set();
    descriptor->fget = getter.release().ptr();
    descriptor->fset = setter.release().ptr();
    descriptor->doc = docstring.release().ptr();
    if constexpr (F::kKeepsStr) fast_property_detail::Forget<Handle>::Track(F::type, &F::owner);
    descriptor->get = &F::GetInstance;
    descriptor->set = &F::Store;
    cls.attr(name) = py::reinterpret_steal<py::object>(reinterpret_cast<PyObject*>(descriptor));
}

}  // namespace platformpp::python
