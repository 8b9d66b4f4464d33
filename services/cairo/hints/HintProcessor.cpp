#include "cairo/hints/HintProcessor.h"

#include "cairo/pie/CairoPie.h"

#include <regex>

namespace proofdesk::cairo {

const HintRegistry& HintRegistry::instance() {
    static const HintRegistry registry = [] {
        HintRegistry r;
        registerBasicHints(r);
        registerMathHints(r);
        registerDictHints(r);
        registerEcHints(r);
        registerSortHints(r);
        registerKeccakHints(r);
        registerBlake2sHints(r);
        registerSecpHints(r);
        registerSecpPointHints(r);
        registerSha256Hints(r);
        registerModuloHints(r);
        registerBootloaderHints(r);
        registerExecuteTaskHints(r);
        registerUintHints(r);
        registerEcRecoverHints(r);
        return r;
    }();
    return registry;
}

const HintFn* HintRegistry::find(const std::string& code) const {
    auto it = m_hints.find(code);
    if (it != m_hints.end()) {
        return &it->second;
    }
    return nullptr;
}

void HintRegistry::add(std::string code, HintFn fn) {
    if (!m_hints.emplace(code, std::move(fn)).second) {
        throw std::logic_error("hint code registered twice: " + code);
    }
}

void HintRegistry::add(const std::vector<NativeHint>& hints) {
    for (const NativeHint& hint : hints) {
        add(hint.code, hint.fn);
    }
}

std::vector<std::string> HintRegistry::codes() const {
    std::vector<std::string> out;
    out.reserve(m_hints.size());
    for (const auto& [code, fn] : m_hints) {
        out.push_back(code);
    }
    return out;
}

void ExecutionScopes::exit() {
    if (m_scopes.size() <= 1) {
        throw VmError("vm_exit_scope() with no scope to exit");
    }
    m_scopes.pop_back();
    m_levelIds.pop_back();
}

std::map<std::string, Felt> ExecutionScopes::innermostFelts() const {
    std::map<std::string, Felt> felts;
    for (const auto& [name, value] : m_scopes.back()) {
        if (value.type() == typeid(Felt)) {
            felts.emplace(name, std::any_cast<const Felt&>(value));
        }
    }
    return felts;
}

std::any* ExecutionScopes::find(const std::string& name) {
    auto& scope = m_scopes.back();
    auto it = scope.find(name);
    return it == scope.end() ? nullptr : &it->second;
}

HintContext::HintContext(Vm& vm, const Program& program, const HintSpec& spec,
                         ExecutionScopes& scopes, const nlohmann::json& programInput,
                         const std::vector<std::unique_ptr<BuiltinRunner>>& builtins)
    : m_vm(vm), m_program(program), m_spec(spec), m_scopes(scopes), m_programInput(programInput),
      m_builtins(builtins) {}

void HintContext::fail(const std::string& message) const {
    throw VmError(message);
}

const nlohmann::json& HintContext::programInput() {
    if (std::any* scoped = m_scopes.find("program_input")) {
        if (scoped->type() == typeid(nlohmann::json)) {
            return *std::any_cast<nlohmann::json>(scoped);
        }
    }
    return m_programInput;
}

void HintContext::loadProgram(std::shared_ptr<const Program> program, const Relocatable& base) {
    if (!m_programLoader) {
        fail("vm_load_program is not available to this hint");
    }
    m_programLoader(std::move(program), base);
}

std::optional<ResolvedReference> HintContext::reference(const std::string& name) {
    const ReferenceDef* def = nullptr;
    for (auto scope = m_spec.accessibleScopes.rbegin(); scope != m_spec.accessibleScopes.rend();
         ++scope) {
        auto it = m_spec.referenceIds.find(*scope + "." + name);
        if (it != m_spec.referenceIds.end()) {
            if (it->second < 0 ||
                static_cast<std::size_t>(it->second) >= m_program.references.size()) {
                fail("hint reference " + name + " points outside the reference manager");
            }
            def = &m_program.references[static_cast<std::size_t>(it->second)];
            break;
        }
    }
    if (!def) {
        return std::nullopt;
    }
    RegisterState registers{m_vm.ap, m_vm.fp};
    if (def->value.find("ap") != std::string::npos) {
        if (def->apTracking.group != m_spec.apTracking.group) {
            fail("ids." + name + " is an ap-based reference of another ap-tracking group");
        }
        registers.ap = m_vm.ap - (m_spec.apTracking.offset - def->apTracking.offset);
    }
    return evaluateReference(def->value, registers, memory());
}

std::optional<HintContext::IdentifierMatch>
HintContext::lookupIdentifier(const std::string& name) const {
    for (auto scope = m_spec.accessibleScopes.rbegin(); scope != m_spec.accessibleScopes.rend();
         ++scope) {
        const std::string fullName = *scope + "." + name;
        if (const nlohmann::json* def = m_program.identifier(fullName)) {
            return IdentifierMatch{fullName, def};
        }
    }
    return std::nullopt;
}

ResolvedReference HintContext::resolve(const std::string& path) {
    const auto dot = path.find('.');
    const std::string name = path.substr(0, dot);
    const std::optional<ResolvedReference> top = reference(name);
    if (!top) {
        fail("ids." + name + " is not a reference visible to this hint");
    }
    ResolvedReference current = *top;
    std::size_t pos = dot;
    while (pos != std::string::npos) {
        const auto next = path.find('.', pos + 1);
        const std::string member =
            path.substr(pos + 1, next == std::string::npos ? std::string::npos : next - pos - 1);
        pos = next;
        const bool isPointer = !current.type.empty() && current.type.back() == '*';
        const auto field = structMember(m_program, current.type, member);
        if (!field) {
            fail("ids." + path + ": " + current.type + " has no member " + member);
        }
        Relocatable base;
        if (isPointer) {
            if (!current.value) {
                fail("ids." + path + ": the pointer is an unknown memory cell");
            }
            base = current.value->address();
        } else {
            if (!current.cell) {
                fail("ids." + path + ": the struct is not in memory");
            }
            base = *current.cell;
        }
        ResolvedReference memberRef;
        memberRef.cell = base + field->offset;
        memberRef.type = field->type;
        Value value;
        if (memory().tryGet(*memberRef.cell, &value)) {
            memberRef.value = value;
        }
        current = memberRef;
    }
    return current;
}

Value HintContext::ids(const std::string& path) {
    const ResolvedReference ref = resolve(path);
    if (!ref.value) {
        fail("ids." + path + " is an unknown memory cell");
    }
    return *ref.value;
}

Relocatable HintContext::idsCell(const std::string& path) {
    const ResolvedReference ref = resolve(path);
    if (!ref.cell) {
        fail("ids." + path + " is not stored in memory");
    }
    return *ref.cell;
}

void HintContext::writeArg(const Relocatable& start, const std::vector<Felt>& values) {
    for (std::size_t i = 0; i < values.size(); ++i) {
        memory().set(start + static_cast<std::int64_t>(i), values[i]);
    }
}

void HintContext::setIds(const std::string& path, const Value& value) {
    memory().set(idsCell(path), value);
}

Felt HintContext::constant(const std::string& name) {
    if (auto value = m_program.constant(name, m_spec.accessibleScopes)) {
        return *value;
    }
    // "Struct.SIZE"
    const auto dot = name.rfind('.');
    if (dot != std::string::npos && name.substr(dot + 1) == "SIZE") {
        const std::string structName = name.substr(0, dot);
        for (auto scope = m_spec.accessibleScopes.rbegin(); scope != m_spec.accessibleScopes.rend();
             ++scope) {
            if (auto size = structSize(m_program, *scope + "." + structName)) {
                return Felt::fromI64(*size);
            }
        }
    }
    fail("ids." + name + " is not a constant visible to this hint");
}

BuiltinRunner* HintContext::builtin(const std::string& name) const {
    for (const auto& b : m_builtins) {
        if (b->name() == name) {
            return b.get();
        }
    }
    return nullptr;
}

HintProcessor::HintProcessor(const Program& program, nlohmann::json programInput,
                             HintOptions options)
    : m_program(program), m_programInput(std::move(programInput)), m_options(std::move(options)) {
    if (!m_options.cairoPies && m_options.allowFileReads) {
        m_options.cairoPies = [](const std::string& path) {
            return std::make_shared<const CairoPie>(CairoPie::fromFile(path));
        };
    }
}

HintProcessor::~HintProcessor() = default;

namespace {
const std::regex& programInputPattern() {
    static const std::regex pattern(R"(^ids\.(\w+) = program_input\['(\w+)'\]$)");
    return pattern;
}
} // namespace

bool HintProcessor::hasNativeImplementation(const std::string& code) {
    return HintRegistry::instance().find(code) || std::regex_match(code, programInputPattern());
}

HintProcessor::CompiledHint HintProcessor::compile(const Program& program, const HintSpec& spec,
                                                   std::uint64_t pc) {
    CompiledHint hint{&program, pc, &spec, nullptr, -1};
    if (m_options.execution != HintExecution::PythonOnly) {
        hint.native = HintRegistry::instance().find(spec.code);
        if (!hint.native) {
            hint.native = programInputHint(spec.code);
        }
    }
    if (!hint.native && m_options.execution != HintExecution::NativeOnly) {
        if (!m_fallback) {
            if (!m_options.fallbackEngine) {
                throw VmError("hints without a native implementation cannot run here: no "
                              "fallback hint engine was given");
            }
            m_fallback = m_options.fallbackEngine(
                m_programInput, *m_builtins, m_options.pythonTimeLimit, m_options.programInputText);
        }
        hint.python = m_fallback->compile(spec, pc);
    }
    return hint;
}

void HintProcessor::attach(Vm& vm, const std::vector<std::unique_ptr<BuiltinRunner>>& builtins) {
    m_builtins = &builtins;
    std::vector<bool> sites(m_program.data.size(), false);
    for (const auto& [pc, hints] : m_program.hints) {
        if (pc < sites.size()) {
            sites[pc] = true;
        }
        auto& compiled = m_compiled[packAddress({0, pc})];
        for (const HintSpec& spec : hints) {
            compiled.push_back(compile(m_program, spec, pc));
        }
    }
    vm.setHintSites(std::move(sites), [this](Vm& v, const Relocatable& pc) { run(v, pc); });
}

void HintProcessor::loadProgram(Vm& vm, std::shared_ptr<const Program> program,
                                const Relocatable& base) {
    if (base.segment <= 0) {
        throw VmError("vm_load_program: a program is loaded into a segment of its own, not " +
                      base.toString());
    }
    for (const auto& [pc, hints] : program->hints) {
        const Relocatable site = base + static_cast<std::int64_t>(pc);
        auto& compiled = m_compiled[packAddress(site)];
        if (!compiled.empty()) {
            throw VmError("vm_load_program: " + site.toString() + " already has hints");
        }
        for (const HintSpec& spec : hints) {
            compiled.push_back(compile(*program, spec, pc));
        }
        vm.addHintSite(site);
    }
    m_loadedPrograms.push_back(std::move(program));
}

const HintFn* HintProcessor::programInputHint(const std::string& code) {
    // Program-specific input hints: `ids.<name> = program_input['<key>']`, one line.
    std::smatch match;
    if (!std::regex_match(code, match, programInputPattern())) {
        return nullptr;
    }
    const std::string name = match[1].str();
    const std::string key = match[2].str();
    m_patternHints.push_back([name, key](HintContext& ctx) {
        const nlohmann::json& input = ctx.programInput();
        if (!input.is_object() || !input.contains(key)) {
            ctx.fail("program_input has no \"" + key + "\" (pass --program_input)");
        }
        const nlohmann::json& value = input[key];
        std::optional<Felt> felt;
        if (value.is_number_integer()) {
            felt = Felt::fromI64(value.get<std::int64_t>());
        } else if (value.is_number_unsigned()) {
            felt = Felt::fromU64(value.get<std::uint64_t>());
        } else if (value.is_string()) {
            felt = Felt::parse(value.get<std::string>());
        }
        if (!felt) {
            ctx.fail("program_input[\"" + key + "\"] is not an integer");
        }
        ctx.setIds(name, *felt);
    });
    return &m_patternHints.back();
}

void HintProcessor::run(Vm& vm, const Relocatable& pc) {
    auto it = m_compiled.find(packAddress(pc));
    if (it == m_compiled.end()) {
        return;
    }
    for (const CompiledHint& hint : it->second) {
        // Only an error names the hint's place: no text is built on the way to a hint.
        const auto where = [&pc, &hint] {
            return pc.segment == 0 ? "pc " + std::to_string(pc.offset)
                                   : "pc " + pc.toString() + " (pc " +
                                         std::to_string(hint.programPc) + " of a loaded program)";
        };
        if (!hint.native && hint.python < 0) {
            throw VmError("unknown hint at " + where() +
                          " (no native implementation; run with cairoVm=python to run it as "
                          "Python):\n" +
                          hint.spec->code);
        }
        HintContext context(vm, *hint.program, *hint.spec, m_scopes, m_programInput, *m_builtins);
        context.setProgramLoader(
            [this, &vm](std::shared_ptr<const Program> program, const Relocatable& base) {
                loadProgram(vm, std::move(program), base);
            });
        context.setFileWritesAllowed(m_options.allowFileWrites);
        context.setCairoPies(&m_options.cairoPies);
        if (hint.python >= 0) {
            m_fallback->run(context, hint.python, hint.programPc);
            continue;
        }
        try {
            (*hint.native)(context);
        } catch (const VmError& error) {
            throw VmError("hint at " + where() + " failed: " + error.what());
        }
    }
}

} // namespace proofdesk::cairo
