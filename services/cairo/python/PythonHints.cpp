// Python.h first, as CPython asks (it may set feature macros the standard headers read).
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "cairo/python/PythonHints.h"

#include "cairo/hints/HintProcessor.h"
#include "cairo/python/PythonValues.h"
#include "cairo/python/PythonVmModule.h"
#include "cairo/vm/Builtins.h"

#include <array>
#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#if defined(PROOFDESK_ADDRESS_SANITIZER)
// Sanitizer builds: the embedded interpreter is never finalized (a hint's thread may outlive the
// run), so the objects libpython allocated are still there at exit and LeakSanitizer would report
// them. Leaks whose allocation does not pass through libpython are still reported.
extern "C" const char* __lsan_default_suppressions();
extern "C" const char* __lsan_default_options();
extern "C" const char* __lsan_default_options() {
    return "print_suppressions=0";
}
extern "C" const char* __lsan_default_suppressions() {
    return "leak:libpython3\n";
}
#endif

namespace proofdesk::cairo {
namespace {

// Hint code is the user's: no sockets, no new processes, no foreign code.
int auditHook(const char* event, PyObject*, void*) {
    static const char* const refused[] = {"socket.",        "subprocess.", "os.system", "os.exec",
                                          "os.posix_spawn", "os.fork",     "os.spawn",  "pty.",
                                          "ctypes.",        "os.startfile"};
    for (const char* prefix : refused) {
        if (std::strncmp(event, prefix, std::strlen(prefix)) == 0) {
            PyErr_Format(PyExc_PermissionError,
                         "%s is not allowed in Cairo hints (no network, no processes)", event);
            return -1;
        }
    }
    return 0;
}

// Imports of our helper modules come from the sources compiled into the binary.
const char* kBootstrap = R"(
import sys, importlib.abc, importlib.util, _proofdesk_vm

class _ShippedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        entry = _proofdesk_vm.module_source(fullname)
        if entry is None:
            return None
        return importlib.util.spec_from_loader(fullname, self, is_package=entry[1])

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        source, is_package = _proofdesk_vm.module_source(module.__name__)
        filename = "<proofdesk>/" + module.__name__.replace(".", "/") + (
            "/__init__.py" if is_package else ".py")
        exec(compile(source, filename, "exec", dont_inherit=True), module.__dict__)

sys.meta_path.insert(0, _ShippedModules())
sys.dont_write_bytecode = True
import proofdesk_hints
)";

// --- the interpreter --------------------------------------------------------------------------

struct Interpreter {
    bool running = false;
    std::string failure;
};

std::string fetchPythonError() {
    PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
    PyErr_Fetch(&type, &value, &traceback);
    PyErr_NormalizeException(&type, &value, &traceback);
    std::string text = "unknown Python error";
    if (value) {
        if (PyObject* str = PyObject_Str(value)) {
            if (const char* utf8 = PyUnicode_AsUTF8(str)) {
                text = std::string(type ? reinterpret_cast<PyTypeObject*>(type)->tp_name : "") +
                       ": " + utf8;
            }
            Py_DECREF(str);
        }
    }
    PyErr_Clear();
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(traceback);
    return text;
}

Interpreter& interpreter() {
    static Interpreter state = [] {
        Interpreter s;
        PySys_AddAuditHook(auditHook, nullptr);
        PyImport_AppendInittab("_proofdesk_vm", &initProofdeskVmModule);
        PyConfig config;
        PyConfig_InitIsolatedConfig(&config);
        config.site_import = 0;
        config.install_signal_handlers = 0;
        config.write_bytecode = 0;
        config.parse_argv = 0;
        const PyStatus status = Py_InitializeFromConfig(&config);
        PyConfig_Clear(&config);
        if (PyStatus_Exception(status)) {
            s.failure = std::string("the embedded Python interpreter did not start: ") +
                        (status.err_msg ? status.err_msg : "unknown reason");
            return s;
        }
        initPythonValues();
        PyObject* main = PyImport_AddModule("__main__");
        PyObject* globals = PyModule_GetDict(main);
        PyObject* result = PyRun_String(kBootstrap, Py_file_input, globals, globals);
        if (!result) {
            s.failure = "the hint runtime did not load: " + fetchPythonError();
        } else {
            Py_DECREF(result);
            s.running = true;
        }
        PyEval_SaveThread(); // other threads take the GIL per hint
        return s;
    }();
    return state;
}

class Gil {
public:
    Gil() : m_state(PyGILState_Ensure()) {}
    ~Gil() { PyGILState_Release(m_state); }
    Gil(const Gil&) = delete;
    Gil& operator=(const Gil&) = delete;

private:
    PyGILState_STATE m_state;
};

// Interrupts Python hints that outlive their deadline (a TimeoutError raised in their thread).
class Watchdog {
public:
    static Watchdog& instance() {
        static Watchdog* watchdog = new Watchdog(); // lives until the process ends
        return *watchdog;
    }
    std::uint64_t arm(unsigned long threadId, std::chrono::steady_clock::time_point deadline) {
        std::lock_guard lock(m_mutex);
        const std::uint64_t token = ++m_lastToken;
        m_entries[token] = Entry{threadId, deadline, false};
        m_wake.notify_all();
        return token;
    }
    // Called with the GIL held; true if the deadline fired.
    bool disarm(std::uint64_t token) {
        std::lock_guard lock(m_mutex);
        auto it = m_entries.find(token);
        const bool fired = it != m_entries.end() && it->second.fired;
        if (it != m_entries.end()) {
            PyThreadState_SetAsyncExc(it->second.threadId, nullptr); // drop an undelivered one
            m_entries.erase(it);
        }
        return fired;
    }

private:
    struct Entry {
        unsigned long threadId;
        std::chrono::steady_clock::time_point deadline;
        bool fired;
    };
    Watchdog() : m_thread([this] { loop(); }) { m_thread.detach(); }
    void loop() {
        std::unique_lock lock(m_mutex);
        for (;;) {
            auto next = std::chrono::steady_clock::time_point::max();
            std::vector<std::uint64_t> due;
            const auto now = std::chrono::steady_clock::now();
            for (const auto& [token, entry] : m_entries) {
                if (entry.fired) {
                    continue;
                }
                if (entry.deadline <= now) {
                    due.push_back(token);
                } else {
                    next = std::min(next, entry.deadline);
                }
            }
            if (due.empty()) {
                if (next == std::chrono::steady_clock::time_point::max()) {
                    m_wake.wait(lock);
                } else {
                    m_wake.wait_until(lock, next);
                }
                continue;
            }
            lock.unlock();
            {
                Gil gil;
                std::lock_guard again(m_mutex);
                for (std::uint64_t token : due) {
                    auto it = m_entries.find(token);
                    if (it != m_entries.end() && !it->second.fired) {
                        PyThreadState_SetAsyncExc(it->second.threadId, PyExc_TimeoutError);
                        it->second.fired = true;
                    }
                }
            }
            lock.lock();
        }
    }
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::map<std::uint64_t, Entry> m_entries;
    std::uint64_t m_lastToken = 0;
    std::thread m_thread;
};

std::string formatSeconds(std::chrono::milliseconds ms) {
    const auto whole = ms.count() / 1000;
    const auto tenths = (ms.count() % 1000) / 100;
    return std::to_string(whole) + (tenths ? "." + std::to_string(tenths) : "") + " s";
}

} // namespace

bool pythonHintsAvailable(std::string* why) {
    const Interpreter& state = interpreter();
    if (!state.running && why) {
        *why = state.failure;
    }
    return state.running;
}

struct PythonHintEngine::State {
    PyObject* session = nullptr;
    std::chrono::milliseconds timeLimit;
    std::chrono::nanoseconds used{0};
};

PythonHintEngine::PythonHintEngine(const nlohmann::json& programInput,
                                   const std::vector<std::unique_ptr<BuiltinRunner>>& builtins,
                                   std::chrono::milliseconds timeLimit,
                                   const std::string& programInputText)
    : m_state(std::make_unique<State>()) {
    m_state->timeLimit = timeLimit;
    std::string why;
    if (!pythonHintsAvailable(&why)) {
        throw VmError("Python hints cannot run: " + why);
    }
    Gil gil;
    PyObject* json = PyImport_ImportModule("json");
    PyObject* runtime = PyImport_ImportModule("proofdesk_hints");
    PyObject* input =
        json ? PyObject_CallMethod(
                   json, "loads", "s",
                   (programInputText.empty() ? programInput.dump() : programInputText).c_str())
             : nullptr;
    PyObject* builtinList = PyList_New(0);
    for (const auto& builtin : builtins) {
        PyObject* entry = Py_BuildValue("(sN)", builtin->name().c_str(), toPython(builtin->base()));
        PyList_Append(builtinList, entry);
        Py_DECREF(entry);
    }
    if (runtime && input) {
        m_state->session = PyObject_CallMethod(runtime, "Session", "OO", input, builtinList);
    }
    const std::string error = m_state->session ? std::string() : fetchPythonError();
    Py_XDECREF(json);
    Py_XDECREF(runtime);
    Py_XDECREF(input);
    Py_DECREF(builtinList);
    if (!m_state->session) {
        throw VmError("Python hints cannot run: " + error);
    }
}

FallbackHintEngineFactory PythonHintEngine::factory() {
    return [](const nlohmann::json& programInput,
              const std::vector<std::unique_ptr<BuiltinRunner>>& builtins,
              std::chrono::milliseconds timeLimit, const std::string& programInputText) {
        return std::make_unique<PythonHintEngine>(programInput, builtins, timeLimit,
                                                  programInputText);
    };
}

PythonHintEngine::~PythonHintEngine() {
    if (m_state->session) {
        Gil gil;
        Py_DECREF(m_state->session);
    }
}

int PythonHintEngine::compile(const HintSpec& spec, std::uint64_t pc) {
    Gil gil;
    PyObject* index = PyObject_CallMethod(m_state->session, "compile", "sK", spec.code.c_str(),
                                          static_cast<unsigned long long>(pc));
    if (!index) {
        throw VmError("the hint at pc " + std::to_string(pc) +
                      " is not valid Python: " + fetchPythonError() + "\n" + spec.code);
    }
    const long value = PyLong_AsLong(index);
    Py_DECREF(index);
    return static_cast<int>(value);
}

void PythonHintEngine::run(HintContext& context, int index, std::uint64_t pc) {
    const auto remaining =
        m_state->timeLimit - std::chrono::duration_cast<std::chrono::milliseconds>(m_state->used);
    if (remaining.count() <= 0) {
        throw VmError("Python hints used up the run's time limit (" +
                      formatSeconds(m_state->timeLimit) + ")");
    }
    Gil gil;
    PyObject* levels = PyList_New(0);
    for (std::uint64_t id : context.scopes().levelIds()) {
        PyObject* item = PyLong_FromUnsignedLongLong(id);
        PyList_Append(levels, item);
        Py_DECREF(item);
    }
    const std::uint64_t startLevel = context.scopes().levelIds().back();
    PyObject* felts = PyDict_New();
    for (const auto& [name, felt] : context.scopes().innermostFelts()) {
        PyObject* item = toPython(felt);
        PyDict_SetItemString(felts, name.c_str(), item);
        Py_DECREF(item);
    }
    // A bootloader task's own program_input, which a native hint put in the task's scope.
    PyObject* scopeInput = nullptr;
    if (std::any* scoped = context.scopes().find("program_input");
        scoped && scoped->type() == typeid(nlohmann::json)) {
        PyObject* json = PyImport_ImportModule("json");
        scopeInput =
            json ? PyObject_CallMethod(json, "loads", "s",
                                       std::any_cast<nlohmann::json>(scoped)->dump().c_str())
                 : nullptr;
        Py_XDECREF(json);
        if (!scopeInput) {
            const std::string error = fetchPythonError();
            Py_DECREF(levels);
            Py_DECREF(felts);
            throw VmError("the task's program_input cannot be given to Python hints: " + error);
        }
    } else {
        Py_INCREF(Py_None);
        scopeInput = Py_None;
    }
    Vm& vm = context.vm();

    auto current = std::make_optional<CurrentHint>(context);
    const auto started = std::chrono::steady_clock::now();
    const std::uint64_t token =
        Watchdog::instance().arm(PyThread_get_thread_ident(), started + remaining);
    PyObject* result = PyObject_CallMethod(m_state->session, "run", "iNNNNNKN", index, levels,
                                           felts, toPython(vm.pc), toPython(vm.ap), toPython(vm.fp),
                                           static_cast<unsigned long long>(vm.steps()), scopeInput);
    const bool timedOut = Watchdog::instance().disarm(token);
    m_state->used += std::chrono::steady_clock::now() - started;
    current.reset();

    std::string failure;
    if (!result) {
        failure = fetchPythonError();
    } else if (PyTuple_Check(result) && PyTuple_GET_SIZE(result) == 2 &&
               PyTuple_GET_ITEM(result, 0) != Py_None) {
        const char* text = PyUnicode_AsUTF8(PyTuple_GET_ITEM(result, 0));
        failure = text ? text : fetchPythonError();
    } else if (PyTuple_Check(result) && PyTuple_GET_SIZE(result) == 2 &&
               context.scopes().levelIds().back() == startLevel) {
        // Integers the hint left in its scope, for native hints that read them.
        PyObject* ints = PyTuple_GET_ITEM(result, 1);
        PyObject* key = nullptr;
        PyObject* item = nullptr;
        Py_ssize_t pos = 0;
        while (PyDict_Next(ints, &pos, &key, &item)) {
            Felt felt;
            const char* name = PyUnicode_AsUTF8(key);
            if (!name || !feltFromPython(item, &felt)) {
                PyErr_Clear();
                continue;
            }
            std::any* existing = context.scopes().find(name);
            if (!existing || existing->type() == typeid(Felt)) {
                context.scopes().set(name, felt);
            }
        }
    }
    Py_XDECREF(result);
    if (timedOut) {
        throw VmError("Python hint at pc " + std::to_string(pc) +
                      " was stopped: the run's Python hints passed their time limit (" +
                      formatSeconds(m_state->timeLimit) + ")");
    }
    if (!failure.empty()) {
        throw VmError("Python hint at pc " + std::to_string(pc) + " raised:\n" + failure);
    }
}

} // namespace proofdesk::cairo
