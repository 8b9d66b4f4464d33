#pragma once

// `_proofdesk_vm`: the module through which Python hints reach the Cairo VM (memory, segments,
// scopes, ids, the builtins' hashes, and the sources of our shipped helper modules). Its
// functions act on the hint running on the calling thread, set by a CurrentHint.

#include <Python.h>

namespace proofdesk::cairo {

class HintContext;

// The module's init function, for PyImport_AppendInittab.
PyObject* initProofdeskVmModule();

// Makes `context` the hint `_proofdesk_vm` acts on in this thread while it lives; restores the
// previous one (a hint run from within a hint) when it goes.
class CurrentHint {
public:
    explicit CurrentHint(HintContext& context);
    ~CurrentHint();
    CurrentHint(const CurrentHint&) = delete;
    CurrentHint& operator=(const CurrentHint&) = delete;

private:
    HintContext* m_outer;
};

} // namespace proofdesk::cairo
