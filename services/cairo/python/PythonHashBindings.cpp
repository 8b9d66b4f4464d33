// Python.h first, as CPython asks (it may set feature macros the standard headers read).
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "cairo/python/PythonHashBindings.h"

#include <algorithm>

#include "cairo/python/PythonValues.h"

#include "crypto/Blake2s.h"
#include "crypto/Keccak.h"
#include "crypto/KeccakF.h"
#include "crypto/Pedersen.h"
#include "crypto/Poseidon.h"

#include <QByteArray>
#include <QCryptographicHash>

#include <array>
#include <vector>

namespace proofdesk::cairo {

PyObject* pyKeccak256(PyObject*, PyObject* args) {
    Py_buffer data;
    if (!PyArg_ParseTuple(args, "y*", &data)) {
        return nullptr;
    }
    const QByteArray digest = crypto::keccak256(
        QByteArray(static_cast<const char*>(data.buf), static_cast<qsizetype>(data.len)));
    PyBuffer_Release(&data);
    return PyBytes_FromStringAndSize(digest.constData(), digest.size());
}

// SHA-256 without OpenSSL (hashlib would load it into the interpreter for our helpers).
PyObject* pySha256(PyObject*, PyObject* args) {
    Py_buffer data;
    if (!PyArg_ParseTuple(args, "y*", &data)) {
        return nullptr;
    }
    const QByteArray digest = QCryptographicHash::hash(
        QByteArrayView(static_cast<const char*>(data.buf), static_cast<qsizetype>(data.len)),
        QCryptographicHash::Sha256);
    PyBuffer_Release(&data);
    return PyBytes_FromStringAndSize(digest.constData(), digest.size());
}

PyObject* pyKeccakF(PyObject*, PyObject* args) {
    PyObject* list = nullptr;
    if (!PyArg_ParseTuple(args, "O", &list)) {
        return nullptr;
    }
    PyObject* sequence = PySequence_Fast(list, "keccak_f takes 25 lanes");
    if (!sequence) {
        return nullptr;
    }
    if (PySequence_Fast_GET_SIZE(sequence) != 25) {
        Py_DECREF(sequence);
        PyErr_SetString(PyExc_ValueError, "keccak_f takes 25 lanes of 64 bits");
        return nullptr;
    }
    std::array<std::uint64_t, 25> lanes{};
    for (int i = 0; i < 25; ++i) {
        lanes[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(sequence, i));
    }
    Py_DECREF(sequence);
    if (PyErr_Occurred()) {
        return nullptr;
    }
    crypto::keccakF1600(lanes);
    PyObject* out = PyList_New(25);
    for (int i = 0; i < 25; ++i) {
        PyList_SET_ITEM(out, i, PyLong_FromUnsignedLongLong(lanes[i]));
    }
    return out;
}

PyObject* pyPedersen(PyObject*, PyObject* args) {
    PyObject* a = nullptr;
    PyObject* b = nullptr;
    Felt x, y;
    if (!PyArg_ParseTuple(args, "OO", &a, &b) || !feltFromPython(a, &x) || !feltFromPython(b, &y)) {
        return nullptr;
    }
    return toPython(crypto::pedersenHash(x, y));
}

PyObject* pyPoseidonHashMany(PyObject*, PyObject* args) {
    PyObject* list = nullptr;
    std::vector<Felt> values;
    if (!PyArg_ParseTuple(args, "O", &list) || !feltsFromSequence(list, &values)) {
        return nullptr;
    }
    return toPython(crypto::poseidonHashMany(values));
}

PyObject* pyPoseidonPermutation(PyObject*, PyObject* args) {
    PyObject* list = nullptr;
    std::vector<Felt> values;
    if (!PyArg_ParseTuple(args, "O", &list) || !feltsFromSequence(list, &values)) {
        return nullptr;
    }
    if (values.size() != 3) {
        PyErr_SetString(PyExc_ValueError, "the Poseidon permutation takes 3 elements");
        return nullptr;
    }
    std::array<Felt, 3> state{values[0], values[1], values[2]};
    crypto::hadesPermutation(state);
    return Py_BuildValue("[NNN]", toPython(state[0]), toPython(state[1]), toPython(state[2]));
}

PyObject* pyBlake2sCompress(PyObject*, PyObject* args) {
    PyObject* hList = nullptr;
    PyObject* messageList = nullptr;
    PyObject* counters = nullptr; // (t0, t1, f0, f1)
    if (!PyArg_ParseTuple(args, "OOO", &hList, &messageList, &counters)) {
        return nullptr;
    }
    std::vector<Felt> h, message, flags;
    if (!feltsFromSequence(hList, &h) || !feltsFromSequence(messageList, &message) ||
        !feltsFromSequence(counters, &flags)) {
        return nullptr;
    }
    if (h.size() != 8 || message.size() != 16 || flags.size() != 4) {
        PyErr_SetString(PyExc_ValueError, "blake2s_compress takes 8 state and 16 message words");
        return nullptr;
    }
    // Every input is a 32-bit word: a wider one is refused, as the native hints refuse it.
    std::vector<std::uint32_t> words;
    for (const auto* part : {&h, &message, &flags}) {
        for (const Felt& value : *part) {
            if (!value.fitsU64() || value.low64() > 0xffffffffULL) {
                PyErr_SetString(PyExc_ValueError, "a blake2s_compress input exceeds 32 bits");
                return nullptr;
            }
            words.push_back(static_cast<std::uint32_t>(value.low64()));
        }
    }
    std::array<std::uint32_t, 8> state{};
    std::array<std::uint32_t, 16> block{};
    std::copy_n(words.begin(), 8, state.begin());
    std::copy_n(words.begin() + 8, 16, block.begin());
    const auto out =
        crypto::blake2sCompress(state, block, words[24], words[25], words[26], words[27]);
    PyObject* list = PyList_New(8);
    for (std::size_t i = 0; i < 8; ++i) {
        PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), PyLong_FromUnsignedLong(out[i]));
    }
    return list;
}

} // namespace proofdesk::cairo
