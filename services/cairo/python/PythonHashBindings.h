#pragma once

// The hash functions of the `_proofdesk_vm` module: Python hints and our helper modules hash with
// the native code (Keccak-256, SHA-256, Keccak-f[1600], Pedersen, Poseidon, BLAKE2s). Internal to
// services/cairo; include after Python.h.

namespace proofdesk::cairo {

PyObject* pyKeccak256(PyObject* self, PyObject* args);           // bytes -> 32 bytes
PyObject* pySha256(PyObject* self, PyObject* args);              // bytes -> 32 bytes (no OpenSSL)
PyObject* pyKeccakF(PyObject* self, PyObject* args);             // 25 lanes -> 25 lanes
PyObject* pyPedersen(PyObject* self, PyObject* args);            // (x, y) -> felt
PyObject* pyPoseidonHashMany(PyObject* self, PyObject* args);    // [felts] -> felt
PyObject* pyPoseidonPermutation(PyObject* self, PyObject* args); // [3 felts] -> [3 felts]
PyObject* pyBlake2sCompress(PyObject* self, PyObject* args);     // (h, m, t0, t1, f0, f1) -> h

} // namespace proofdesk::cairo
