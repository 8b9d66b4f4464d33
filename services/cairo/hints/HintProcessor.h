#pragma once

#include "cairo/vm/Builtins.h"
#include "cairo/vm/Program.h"
#include "cairo/vm/References.h"
#include "cairo/vm/Vm.h"

#include <any>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace proofdesk::cairo {

class HintContext;
using HintFn = std::function<void(HintContext&)>;

struct CairoPie;
// How the bootloader's CairoPiePath tasks become PIEs: the PIE a path names (throws when there is
// none). Empty: such tasks are refused.
using CairoPieSource = std::function<std::shared_ptr<const CairoPie>(const std::string& path)>;

// One native hint: the code text cairo-lang's compiler emits, and the function doing what it says.
struct NativeHint {
    std::string code;
    HintFn fn;
};

// Native hints, matched by the exact code text of the compiled program (as cairo-vm does).
class HintRegistry {
public:
    static const HintRegistry& instance();
    // The implementation for this code, or nullptr.
    const HintFn* find(const std::string& code) const;
    void add(std::string code, HintFn fn);
    void add(const std::vector<NativeHint>& hints);
    // Every registered code text, in order.
    std::vector<std::string> codes() const;

private:
    std::map<std::string, HintFn> m_hints;
};

// Execution scopes (vm_enter_scope / vm_exit_scope) holding hint variables of any type. Each level
// has an id of its own, so Python hints (PythonHints.h) can keep their scope dictionaries in step.
class ExecutionScopes {
public:
    ExecutionScopes() : m_scopes(1), m_levelIds{0} {}
    std::uint64_t enter(std::map<std::string, std::any> locals = {}) {
        m_scopes.push_back(std::move(locals));
        m_levelIds.push_back(++m_lastLevelId);
        return m_lastLevelId;
    }
    void exit();
    std::any* find(const std::string& name); // innermost scope only, as in cairo-lang
    void set(const std::string& name, std::any value) { m_scopes.back()[name] = std::move(value); }
    void erase(const std::string& name) { m_scopes.back().erase(name); }
    std::size_t depth() const { return m_scopes.size(); }
    const std::vector<std::uint64_t>& levelIds() const { return m_levelIds; }
    // The innermost scope's variables that hold a field element.
    std::map<std::string, Felt> innermostFelts() const;
    // A variable shared by the whole run (e.g. __dict_manager), created on first use.
    template <class T> T& global(const std::string& name) {
        auto it = m_globals.find(name);
        if (it == m_globals.end()) {
            it = m_globals.emplace(name, std::make_shared<T>()).first;
        }
        return *std::static_pointer_cast<T>(it->second);
    }

private:
    std::vector<std::map<std::string, std::any>> m_scopes;
    std::vector<std::uint64_t> m_levelIds;
    std::uint64_t m_lastLevelId = 0;
    std::map<std::string, std::shared_ptr<void>> m_globals;
};

// What a native hint sees: ids, memory, registers, segments, scopes, constants, program_input.
class HintContext {
public:
    HintContext(Vm& vm, const Program& program, const HintSpec& spec, ExecutionScopes& scopes,
                const nlohmann::json& programInput,
                const std::vector<std::unique_ptr<BuiltinRunner>>& builtins);

    Vm& vm() { return m_vm; }
    Memory& memory() { return m_vm.memory(); }
    ExecutionScopes& scopes() { return m_scopes; }
    // program_input: the innermost scope's (a bootloader task's input), else the run's.
    const nlohmann::json& programInput();
    const Program& program() const { return m_program; }

    // ids.<path>, where path may name struct members ("locs.bit").
    Value ids(const std::string& path);
    Felt idsFelt(const std::string& path) { return ids(path).felt(); }
    Relocatable idsAddress(const std::string& path) { return ids(path).address(); }
    void setIds(const std::string& path, const Value& value);
    // The cell an ids path lives in (ids.x.address_ in cairo-lang).
    Relocatable idsCell(const std::string& path);
    // ids.CONST (a const identifier reachable from the hint's scopes), or a struct's SIZE.
    Felt constant(const std::string& name);

    BuiltinRunner* builtin(const std::string& name) const;
    const std::vector<std::unique_ptr<BuiltinRunner>>& builtins() const { return m_builtins; }

    // The reference `name` evaluated at this hint (no struct members), or nullopt if the hint
    // has no reference of that name.
    std::optional<ResolvedReference> reference(const std::string& name);
    // An identifier (constant, struct, function, namespace) visible from the hint's scopes,
    // innermost first, aliases followed.
    struct IdentifierMatch {
        std::string fullName;
        const nlohmann::json* definition = nullptr;
    };
    std::optional<IdentifierMatch> lookupIdentifier(const std::string& name) const;

    [[noreturn]] void fail(const std::string& message) const;

    // vm_load_program: the program's hints run when the VM reaches `base + pc`.
    using ProgramLoader =
        std::function<void(std::shared_ptr<const Program> program, const Relocatable& base)>;
    void setProgramLoader(ProgramLoader loader) { m_programLoader = std::move(loader); }
    void loadProgram(std::shared_ptr<const Program> program, const Relocatable& base);

    // Whether hints may write files their input names (cairo-run: yes; a server: no).
    bool fileWritesAllowed() const { return m_fileWritesAllowed; }
    void setFileWritesAllowed(bool allowed) { m_fileWritesAllowed = allowed; }
    // Where the PIEs of CairoPiePath tasks come from (empty: such tasks are refused).
    const CairoPieSource* cairoPies() const { return m_cairoPies; }
    void setCairoPies(const CairoPieSource* source) { m_cairoPies = source; }

    // segments.write_arg: the values in consecutive cells from `start`.
    void writeArg(const Relocatable& start, const std::vector<Felt>& values);

    // A variable of the current scope with the type a previous hint stored.
    template <class T> T& scopeVar(const std::string& name) {
        std::any* value = m_scopes.find(name);
        if (!value || value->type() != typeid(T)) {
            fail("scope variable " + name + " is not set");
        }
        return *std::any_cast<T>(value);
    }

private:
    ResolvedReference resolve(const std::string& path);

    Vm& m_vm;
    const Program& m_program;
    const HintSpec& m_spec;
    ExecutionScopes& m_scopes;
    const nlohmann::json& m_programInput;
    const std::vector<std::unique_ptr<BuiltinRunner>>& m_builtins;
    ProgramLoader m_programLoader;
    bool m_fileWritesAllowed = true;
    const CairoPieSource* m_cairoPies = nullptr;
};

// Runs the hints that have no native implementation: the embedded Python engine
// (PythonHints.h) implements it, and the runner hands it to the processor, so this module does
// not depend on the Python one.
class FallbackHintEngine {
public:
    virtual ~FallbackHintEngine() = default;
    // Compiles a hint's code once, returning its index; throws VmError if it does not compile.
    virtual int compile(const HintSpec& spec, std::uint64_t pc) = 0;
    // Runs a compiled hint; throws VmError when it fails.
    virtual void run(HintContext& context, int index, std::uint64_t pc) = 0;
};

// Makes one run's fallback engine: the run's program input (as JSON and as the file's text),
// its builtins, and the time the run may spend in fallback hints.
using FallbackHintEngineFactory = std::function<std::unique_ptr<FallbackHintEngine>(
    const nlohmann::json& programInput, const std::vector<std::unique_ptr<BuiltinRunner>>& builtins,
    std::chrono::milliseconds timeLimit, const std::string& programInputText)>;

// Where hints without a native implementation go (the spec's cairoVm: rust = NativeOnly,
// python = NativeThenPython). PythonOnly runs every hint as Python, to check the Python path
// against the native one.
enum class HintExecution { NativeOnly, NativeThenPython, PythonOnly };

struct HintOptions {
    HintExecution execution = HintExecution::NativeOnly;
    std::chrono::milliseconds pythonTimeLimit{std::chrono::minutes(5)}; // per run, all hints
    bool allowFileWrites = true; // e.g. the bootloader's fact_topologies_path; off on a server
    // The bootloader's CairoPiePath tasks: the PIEs this run may load, by path. Empty: the file at
    // the path is read when allowFileReads (cairo-run), else such tasks are refused (a server).
    CairoPieSource cairoPies;
    bool allowFileReads = true;
    // The program input file's text, for Python hints (integers beyond 64 bits stay ints).
    std::string programInputText;
    // The engine of the hints without a native implementation (the runner's default: Python).
    FallbackHintEngineFactory fallbackEngine;
};

// Compiles a program's hints against the registry and runs them before their instructions.
// An unknown hint fails the run when it is reached, naming its code and pc.
class HintProcessor {
public:
    HintProcessor(const Program& program, nlohmann::json programInput, HintOptions options = {});
    ~HintProcessor();
    void attach(Vm& vm, const std::vector<std::unique_ptr<BuiltinRunner>>& builtins);
    void run(Vm& vm, const Relocatable& pc);
    // vm_load_program: a program loaded into memory at `base` by a hint (a bootloader task); its
    // hints run with its own identifiers and references.
    void loadProgram(Vm& vm, std::shared_ptr<const Program> program, const Relocatable& base);

    // Whether a hint's code has a native implementation (cairoVm=rust runs it).
    static bool hasNativeImplementation(const std::string& code);

private:
    struct CompiledHint {
        const Program* program = nullptr;
        std::uint64_t programPc = 0; // the hint's pc in its program
        const HintSpec* spec = nullptr;
        const HintFn* native = nullptr;
        int python = -1; // index in m_fallback, when the hint runs as Python
    };
    const HintFn* programInputHint(const std::string& code);
    CompiledHint compile(const Program& program, const HintSpec& spec, std::uint64_t pc);

    const Program& m_program;
    nlohmann::json m_programInput;
    HintOptions m_options;
    std::deque<HintFn> m_patternHints;
    ExecutionScopes m_scopes;
    const std::vector<std::unique_ptr<BuiltinRunner>>* m_builtins = nullptr;
    std::unique_ptr<FallbackHintEngine> m_fallback;
    std::map<std::uint64_t, std::vector<CompiledHint>> m_compiled; // by packed pc
    std::vector<std::shared_ptr<const Program>> m_loadedPrograms;
};

// Families of native hints, each registering its code strings.
void registerBasicHints(HintRegistry& registry);
void registerMathHints(HintRegistry& registry);
void registerDictHints(HintRegistry& registry);
void registerEcHints(HintRegistry& registry);
void registerSortHints(HintRegistry& registry);
void registerKeccakHints(HintRegistry& registry);
void registerBlake2sHints(HintRegistry& registry);
void registerSecpHints(HintRegistry& registry);
void registerSecpPointHints(HintRegistry& registry);
void registerSha256Hints(HintRegistry& registry);
void registerModuloHints(HintRegistry& registry);
void registerBootloaderHints(HintRegistry& registry);
void registerExecuteTaskHints(HintRegistry& registry);
// The run's output builtin, which the bootloaders' hints need (the hint fails without it).
OutputBuiltin& outputBuiltin(HintContext& ctx);
void registerUintHints(HintRegistry& registry);
void registerEcRecoverHints(HintRegistry& registry);

} // namespace proofdesk::cairo
