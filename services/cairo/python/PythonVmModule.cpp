// Python.h first, as CPython asks (it may set feature macros the standard headers read).
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "cairo/python/PythonVmModule.h"

#include "cairo/hints/HintProcessor.h"
#include "cairo/python/PythonHashBindings.h"
#include "cairo/python/PythonSources.h"
#include "cairo/python/PythonValues.h"
#include "cairo/vm/Builtins.h"

#include <cstring>

namespace proofdesk::cairo {
namespace {

// The hint being run on this thread; the `_proofdesk_vm` functions act on it.
thread_local HintContext* t_context = nullptr;

PyObject* g_vmError = nullptr; // _proofdesk_vm.VmError

// --- the _proofdesk_vm module -----------------------------------------------------------------

HintContext* context() {
    if (!t_context) {
        PyErr_SetString(g_vmError, "the Cairo VM is only reachable while a hint runs");
    }
    return t_context;
}

// Runs `body` with C++ failures turned into Python exceptions.
template <class F> PyObject* guarded(F&& body) {
    try {
        return body();
    } catch (const std::exception& failure) {
        PyErr_SetString(g_vmError, failure.what());
        return nullptr;
    }
}

PyObject* memGet(PyObject*, PyObject* args) {
    long long segment = 0;
    unsigned long long offset = 0;
    if (!PyArg_ParseTuple(args, "LK", &segment, &offset)) {
        return nullptr;
    }
    HintContext* ctx = context();
    if (!ctx) {
        return nullptr;
    }
    return guarded([&]() -> PyObject* {
        Value value;
        if (!ctx->memory().tryGet(Relocatable{segment, offset}, &value)) {
            Py_RETURN_NONE;
        }
        return toPython(value);
    });
}

PyObject* memSet(PyObject*, PyObject* args) {
    long long segment = 0;
    unsigned long long offset = 0;
    PyObject* object = nullptr;
    if (!PyArg_ParseTuple(args, "LKO", &segment, &offset, &object)) {
        return nullptr;
    }
    HintContext* ctx = context();
    Value value;
    if (!ctx || !valueFromPython(object, &value)) {
        return nullptr;
    }
    return guarded([&]() -> PyObject* {
        ctx->memory().set(Relocatable{segment, offset}, value);
        Py_RETURN_NONE;
    });
}

PyObject* addSegment(PyObject*, PyObject*) {
    HintContext* ctx = context();
    return ctx ? guarded([&] { return toPython(ctx->memory().addSegment()); }) : nullptr;
}

PyObject* addTempSegment(PyObject*, PyObject*) {
    HintContext* ctx = context();
    return ctx ? guarded([&] { return toPython(ctx->memory().addTempSegment()); }) : nullptr;
}

PyObject* addRelocationRule(PyObject*, PyObject* args) {
    long long srcSegment = 0, dstSegment = 0;
    unsigned long long srcOffset = 0, dstOffset = 0;
    if (!PyArg_ParseTuple(args, "LKLK", &srcSegment, &srcOffset, &dstSegment, &dstOffset)) {
        return nullptr;
    }
    HintContext* ctx = context();
    return ctx ? guarded([&]() -> PyObject* {
        ctx->memory().addRelocationRule(Relocatable{srcSegment, srcOffset},
                                        Relocatable{dstSegment, dstOffset});
        Py_RETURN_NONE;
    })
               : nullptr;
}

PyObject* segmentUsedSize(PyObject*, PyObject* args) {
    long long segment = 0;
    if (!PyArg_ParseTuple(args, "L", &segment)) {
        return nullptr;
    }
    HintContext* ctx = context();
    return ctx ? guarded([&] {
        return PyLong_FromUnsignedLongLong(ctx->memory().segmentUsedSize(segment));
    })
               : nullptr;
}

PyObject* enterScope(PyObject*, PyObject* args) {
    PyObject* felts = nullptr;
    if (!PyArg_ParseTuple(args, "O!", &PyDict_Type, &felts)) {
        return nullptr;
    }
    HintContext* ctx = context();
    if (!ctx) {
        return nullptr;
    }
    std::map<std::string, std::any> locals;
    PyObject* key = nullptr;
    PyObject* item = nullptr;
    Py_ssize_t pos = 0;
    while (PyDict_Next(felts, &pos, &key, &item)) {
        Felt felt;
        const char* name = PyUnicode_AsUTF8(key);
        if (!name || !feltFromPython(item, &felt)) {
            return nullptr;
        }
        locals.emplace(name, felt);
    }
    return PyLong_FromUnsignedLongLong(ctx->scopes().enter(std::move(locals)));
}

PyObject* exitScope(PyObject*, PyObject*) {
    HintContext* ctx = context();
    return ctx ? guarded([&]() -> PyObject* {
        ctx->scopes().exit();
        Py_RETURN_NONE;
    })
               : nullptr;
}

// ids.<name>: ("ref", type, value or None, cell or None), ("const", value), ("struct", name),
// ("label", name, pc), ("namespace", name), or None.
PyObject* idsLookup(PyObject*, PyObject* args) {
    const char* name = nullptr;
    int absolute = 0;
    if (!PyArg_ParseTuple(args, "sp", &name, &absolute)) {
        return nullptr;
    }
    HintContext* ctx = context();
    if (!ctx) {
        return nullptr;
    }
    return guarded([&]() -> PyObject* {
        if (!absolute) {
            if (const auto ref = ctx->reference(name)) {
                PyObject* value = ref->value ? toPython(*ref->value) : Py_NewRef(Py_None);
                PyObject* cell = ref->cell ? toPython(*ref->cell) : Py_NewRef(Py_None);
                return Py_BuildValue("(ssNN)", "ref", ref->type.c_str(), value, cell);
            }
        }
        std::optional<HintContext::IdentifierMatch> match;
        if (absolute) {
            if (const nlohmann::json* def = ctx->program().identifier(name)) {
                match = HintContext::IdentifierMatch{name, def};
            }
        } else {
            match = ctx->lookupIdentifier(name);
        }
        if (!match) {
            // A namespace that is only a prefix of other identifiers.
            const std::vector<std::string> prefixes =
                absolute ? std::vector<std::string>{name} : std::vector<std::string>{};
            for (const std::string& candidate : prefixes) {
                for (const auto& [key, unused] : ctx->program().identifiers.items()) {
                    if (key.rfind(candidate + ".", 0) == 0) {
                        return Py_BuildValue("(ss)", "namespace", candidate.c_str());
                    }
                }
            }
            Py_RETURN_NONE;
        }
        const nlohmann::json& def = *match->definition;
        const std::string type = def.value("type", std::string());
        if (type == "const") {
            PyObject* value = def.contains("value") ? jsonToPython(def["value"]) : nullptr;
            if (!value) {
                return nullptr;
            }
            return Py_BuildValue("(sN)", "const", value);
        }
        if (type == "struct") {
            return Py_BuildValue("(ss)", "struct", match->fullName.c_str());
        }
        if (type == "label" || type == "function") {
            return Py_BuildValue("(ssN)", "label", match->fullName.c_str(),
                                 jsonToPython(def.value("pc", nlohmann::json(0))));
        }
        return Py_BuildValue("(ss)", "namespace", match->fullName.c_str());
    });
}

PyObject* idsSet(PyObject*, PyObject* args) {
    const char* name = nullptr;
    PyObject* object = nullptr;
    if (!PyArg_ParseTuple(args, "sO", &name, &object)) {
        return nullptr;
    }
    HintContext* ctx = context();
    Value value;
    if (!ctx || !valueFromPython(object, &value)) {
        return nullptr;
    }
    return guarded([&]() -> PyObject* {
        const auto ref = ctx->reference(name);
        if (!ref) {
            PyErr_Format(PyExc_AttributeError,
                         "ids.%s: no reference of that name is visible to this hint", name);
            return nullptr;
        }
        if (!ref->cell) {
            PyErr_Format(PyExc_AttributeError,
                         "ids.%s does not reference memory and cannot be assigned", name);
            return nullptr;
        }
        ctx->memory().set(*ref->cell, value);
        Py_RETURN_NONE;
    });
}

// (size, {member: (offset, type)}) of a struct, or None.
PyObject* structDef(PyObject*, PyObject* args) {
    const char* name = nullptr;
    if (!PyArg_ParseTuple(args, "s", &name)) {
        return nullptr;
    }
    HintContext* ctx = context();
    if (!ctx) {
        return nullptr;
    }
    return guarded([&]() -> PyObject* {
        const nlohmann::json* def = ctx->program().identifier(name);
        if (!def || def->value("type", std::string()) != "struct") {
            Py_RETURN_NONE;
        }
        PyObject* members = PyDict_New();
        if (def->contains("members") && (*def)["members"].is_object()) {
            for (const auto& [member, info] : (*def)["members"].items()) {
                PyObject* entry =
                    Py_BuildValue("(Ls)", info.value("offset", 0LL),
                                  info.value("cairo_type", std::string("felt")).c_str());
                PyDict_SetItemString(members, member.c_str(), entry);
                Py_DECREF(entry);
            }
        }
        return Py_BuildValue("(LN)", def->value("size", 0LL), members);
    });
}

PyObject* addSignature(PyObject*, PyObject* args) {
    long long segment = 0;
    unsigned long long offset = 0;
    PyObject* r = nullptr;
    PyObject* s = nullptr;
    if (!PyArg_ParseTuple(args, "LKOO", &segment, &offset, &r, &s)) {
        return nullptr;
    }
    HintContext* ctx = context();
    Felt rFelt, sFelt;
    if (!ctx || !feltFromPython(r, &rFelt) || !feltFromPython(s, &sFelt)) {
        return nullptr;
    }
    return guarded([&]() -> PyObject* {
        BuiltinRunner* ecdsa = ctx->builtin("ecdsa");
        if (!ecdsa) {
            PyErr_SetString(g_vmError, "the program has no ecdsa builtin");
            return nullptr;
        }
        ecdsa->addSignature(Relocatable{segment, offset}, rFelt, sFelt);
        Py_RETURN_NONE;
    });
}

PyObject* moduleSource(PyObject*, PyObject* args) {
    const char* name = nullptr;
    if (!PyArg_ParseTuple(args, "s", &name)) {
        return nullptr;
    }
    const PythonSource* source = findPythonSource(name);
    if (!source) {
        Py_RETURN_NONE;
    }
    return Py_BuildValue("(s#O)", source->text, static_cast<Py_ssize_t>(source->size),
                         source->isPackage ? Py_True : Py_False);
}

PyMethodDef kMethods[] = {
    {"mem_get", memGet, METH_VARARGS, "memory[segment:offset], or None when unset"},
    {"mem_set", memSet, METH_VARARGS, "write-once memory write"},
    {"add_segment", addSegment, METH_NOARGS, "a new segment's base"},
    {"add_temp_segment", addTempSegment, METH_NOARGS, "a new temporary segment's base"},
    {"add_relocation_rule", addRelocationRule, METH_VARARGS, "temporary segment relocation"},
    {"segment_used_size", segmentUsedSize, METH_VARARGS, "a segment's used size"},
    {"enter_scope", enterScope, METH_VARARGS, "pushes a scope; returns its id"},
    {"exit_scope", exitScope, METH_NOARGS, "pops the innermost scope"},
    {"ids_lookup", idsLookup, METH_VARARGS, "resolves ids.<name>"},
    {"ids_set", idsSet, METH_VARARGS, "assigns ids.<name>"},
    {"struct_def", structDef, METH_VARARGS, "a struct's size and members"},
    {"add_signature", addSignature, METH_VARARGS, "ecdsa_builtin.add_signature"},
    {"keccak256", pyKeccak256, METH_VARARGS, "Keccak-256 of bytes"},
    {"sha256", pySha256, METH_VARARGS, "SHA-256 of bytes"},
    {"keccak_f", pyKeccakF, METH_VARARGS, "Keccak-f[1600] of 25 lanes"},
    {"pedersen", pyPedersen, METH_VARARGS, "StarkWare Pedersen hash of two felts"},
    {"poseidon_hash_many", pyPoseidonHashMany, METH_VARARGS, "Poseidon hash of felts"},
    {"poseidon_perm", pyPoseidonPermutation, METH_VARARGS, "Hades permutation of 3 felts"},
    {"blake2s_compress", pyBlake2sCompress, METH_VARARGS, "BLAKE2s compression"},
    {"module_source", moduleSource, METH_VARARGS, "the source of a shipped helper module"},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef kModule = {PyModuleDef_HEAD_INIT,
                       "_proofdesk_vm",
                       "Proofdesk's Cairo VM, as Python hints reach it",
                       -1,
                       kMethods,
                       nullptr,
                       nullptr,
                       nullptr,
                       nullptr};

} // namespace

PyObject* initProofdeskVmModule() {
    PyObject* module = PyModule_Create(&kModule);
    if (!module) {
        return nullptr;
    }
    g_vmError = PyErr_NewException("_proofdesk_vm.VmError", nullptr, nullptr);
    Py_INCREF(g_vmError);
    PyModule_AddObject(module, "VmError", g_vmError);
    return module;
}

CurrentHint::CurrentHint(HintContext& context) : m_outer(t_context) {
    t_context = &context;
}

CurrentHint::~CurrentHint() {
    t_context = m_outer;
}

} // namespace proofdesk::cairo
