#include "HintProcessor.h"

#include <regex>

namespace proofdesk::cairo {

const HintRegistry& HintRegistry::instance() {
    static const HintRegistry registry = [] {
        HintRegistry r;
        registerBasicHints(r);
        registerMathHints(r);
        registerDictHints(r);
        registerEcHints(r);
        registerCommonHints(r);
        registerKeccakHints(r);
        registerBlake2sHints(r);
        registerSecpHints(r);
        registerSha256Hints(r);
        registerModuloHints(r);
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

void ExecutionScopes::exit() {
    if (m_scopes.size() <= 1) {
        throw VmError("vm_exit_scope() with no scope to exit");
    }
    m_scopes.pop_back();
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

ResolvedReference HintContext::resolve(const std::string& path) {
    const auto dot = path.find('.');
    const std::string name = path.substr(0, dot);
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
        fail("ids." + name + " is not a reference visible to this hint");
    }
    RegisterState registers{m_vm.ap, m_vm.fp};
    if (def->value.find("ap") != std::string::npos) {
        if (def->apTracking.group != m_spec.apTracking.group) {
            fail("ids." + name + " is an ap-based reference of another ap-tracking group");
        }
        registers.ap = m_vm.ap - (m_spec.apTracking.offset - def->apTracking.offset);
    }
    ResolvedReference current = evaluateReference(def->value, registers, memory());
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

HintProcessor::HintProcessor(const Program& program, nlohmann::json programInput)
    : m_program(program), m_programInput(std::move(programInput)) {}

void HintProcessor::attach(Vm& vm, const std::vector<std::unique_ptr<BuiltinRunner>>& builtins) {
    m_builtins = &builtins;
    std::vector<bool> sites(m_program.data.size(), false);
    for (const auto& [pc, hints] : m_program.hints) {
        if (pc < sites.size()) {
            sites[pc] = true;
        }
        auto& compiled = m_compiled[pc];
        for (const HintSpec& spec : hints) {
            const HintFn* fn = HintRegistry::instance().find(spec.code);
            if (!fn) {
                fn = programInputHint(spec.code);
            }
            compiled.emplace_back(&spec, fn);
        }
    }
    vm.setHintSites(std::move(sites), [this](Vm& v, std::uint64_t pc) { run(v, pc); });
}

const HintFn* HintProcessor::programInputHint(const std::string& code) {
    // Program-specific input hints: `ids.<name> = program_input['<key>']`, one line.
    static const std::regex pattern(R"(^ids\.(\w+) = program_input\['(\w+)'\]$)");
    std::smatch match;
    if (!std::regex_match(code, match, pattern)) {
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

void HintProcessor::run(Vm& vm, std::uint64_t pcOffset) {
    auto it = m_compiled.find(pcOffset);
    if (it == m_compiled.end()) {
        return;
    }
    for (const auto& [spec, fn] : it->second) {
        if (!fn) {
            throw VmError("unknown hint at pc " + std::to_string(pcOffset) +
                          " (no native implementation; Python hints are not supported):\n" +
                          spec->code);
        }
        HintContext context(vm, m_program, *spec, m_scopes, m_programInput, *m_builtins);
        try {
            (*fn)(context);
        } catch (const VmError& error) {
            throw VmError("hint at pc " + std::to_string(pcOffset) + " failed: " + error.what());
        }
    }
}

} // namespace proofdesk::cairo
