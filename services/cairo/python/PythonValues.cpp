// Python.h first, as CPython asks (it may set feature macros the standard headers read).
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "cairo/python/PythonValues.h"

namespace proofdesk::cairo {
namespace {

PyObject* g_prime = nullptr; // the field's modulus as a Python int

} // namespace

void initPythonValues() {
    if (!g_prime) {
        g_prime = PyLong_FromString(
            "0x800000000000011000000000000000000000000000000000000000000000001", nullptr, 16);
    }
}

PyObject* toPython(const Felt& felt) {
    std::uint8_t bytes[32];
    felt.toBytesLE(bytes);
    return _PyLong_FromByteArray(bytes, sizeof bytes, /*little_endian=*/1, /*is_signed=*/0);
}

PyObject* toPython(const Relocatable& address) {
    return Py_BuildValue("(LK)", static_cast<long long>(address.segment),
                         static_cast<unsigned long long>(address.offset));
}

PyObject* toPython(const Value& value) {
    return value.isAddress() ? toPython(value.address()) : toPython(value.felt());
}

bool feltFromPython(PyObject* object, Felt* out) {
    if (!PyLong_Check(object)) {
        PyErr_Format(PyExc_TypeError, "expected an int, got %s", Py_TYPE(object)->tp_name);
        return false;
    }
    PyObject* reduced = PyNumber_Remainder(object, g_prime);
    if (!reduced) {
        return false;
    }
    std::uint8_t bytes[32];
    const int failed = _PyLong_AsByteArray(reinterpret_cast<PyLongObject*>(reduced), bytes,
                                           sizeof bytes, /*little_endian=*/0, /*is_signed=*/0);
    Py_DECREF(reduced);
    if (failed) {
        return false;
    }
    *out = Felt::fromBytesBE(bytes, sizeof bytes);
    return true;
}

bool valueFromPython(PyObject* object, Value* out) {
    if (PyTuple_Check(object) && PyTuple_GET_SIZE(object) == 2) {
        const long long segment = PyLong_AsLongLong(PyTuple_GET_ITEM(object, 0));
        const long long offset = PyLong_AsLongLong(PyTuple_GET_ITEM(object, 1));
        if (PyErr_Occurred()) {
            return false;
        }
        if (offset < 0) {
            PyErr_SetString(PyExc_ValueError, "an address offset is not negative");
            return false;
        }
        *out = Value(Relocatable{segment, static_cast<std::uint64_t>(offset)});
        return true;
    }
    Felt felt;
    if (!feltFromPython(object, &felt)) {
        return false;
    }
    *out = Value(felt);
    return true;
}

PyObject* jsonToPython(const nlohmann::json& value) {
    if (value.is_number_integer()) {
        return PyLong_FromLongLong(value.get<long long>());
    }
    if (value.is_number_unsigned()) {
        return PyLong_FromUnsignedLongLong(value.get<unsigned long long>());
    }
    if (value.is_string()) {
        const std::string text = value.get<std::string>();
        return PyLong_FromString(text.c_str(), nullptr, 0);
    }
    Py_RETURN_NONE;
}

bool feltsFromSequence(PyObject* object, std::vector<Felt>* out) {
    PyObject* sequence = PySequence_Fast(object, "expected a sequence of ints");
    if (!sequence) {
        return false;
    }
    const Py_ssize_t size = PySequence_Fast_GET_SIZE(sequence);
    out->resize(static_cast<std::size_t>(size));
    for (Py_ssize_t i = 0; i < size; ++i) {
        if (!feltFromPython(PySequence_Fast_GET_ITEM(sequence, i),
                            &(*out)[static_cast<std::size_t>(i)])) {
            Py_DECREF(sequence);
            return false;
        }
    }
    Py_DECREF(sequence);
    return true;
}

} // namespace proofdesk::cairo
