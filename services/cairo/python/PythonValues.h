#pragma once

// Conversions between Cairo values and Python objects for the embedded interpreter
// (PythonHints.cpp, PythonHashBindings.cpp). Internal to services/cairo; include after Python.h.

#include "cairo/vm/Value.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace proofdesk::cairo {

// Once, when the interpreter has started: the field's modulus as a Python int.
void initPythonValues();

PyObject* toPython(const Felt& felt);
PyObject* toPython(const Relocatable& address); // (segment, offset)
PyObject* toPython(const Value& value);
// An int reduced mod p; false with a Python error set otherwise.
bool feltFromPython(PyObject* object, Felt* out);
// A felt, or an address as (segment, offset).
bool valueFromPython(PyObject* object, Value* out);
// An identifier's integer (a JSON number, or a decimal / hex string kept exact), else None.
PyObject* jsonToPython(const nlohmann::json& value);
bool feltsFromSequence(PyObject* object, std::vector<Felt>* out);

} // namespace proofdesk::cairo
