#include "cairo/Runner.h"

#include "cairo/hints/HintProcessor.h"
#include "cairo/python/PythonHints.h"

#include <algorithm>
#include <sstream>

namespace proofdesk::cairo {
namespace {

void writeU64(std::ostream& out, std::uint64_t value) {
    char bytes[8];
    for (int i = 0; i < 8; ++i) {
        bytes[i] = static_cast<char>((value >> (8 * i)) & 0xff);
    }
    out.write(bytes, 8);
}

} // namespace

CairoRunner::CairoRunner(const Program& program, RunOptions options)
    : m_program(program), m_options(std::move(options)) {
    if (m_options.layout == "auto") {
        // Probe: run once, unpadded, on a layout that covers the builtins, for the step count.
        RunOptions probeOptions = m_options;
        probeOptions.layout = autoLayout(program.builtins, 0);
        if (probeOptions.layout.empty()) {
            throw VmError("no layout has every builtin the program uses");
        }
        probeOptions.padTrace = false;
        probeOptions.traceEnabled = false;
        probeOptions.allowMissingBuiltins = true;
        CairoRunner probe(program, probeOptions);
        probe.run();
        // The layout needs the builtins the run used and, but for a bootloader's run over a
        // PIE, every builtin the program declares.
        RunDemand demand = probe.runDemand();
        if (!m_options.autoLayoutByUsedBuiltins) {
            for (const std::string& name : program.builtins) {
                if (std::find(demand.required.begin(), demand.required.end(), name) ==
                    demand.required.end()) {
                    demand.required.push_back(name);
                }
            }
        }
        m_options.layout = cheapestLayout(demand);
        if (m_options.layout.empty()) {
            throw VmError("no layout has every builtin the program uses");
        }
    }
    if (m_options.layout == "dynamic") {
        if (!m_options.dynamicLayoutParams) {
            m_options.dynamicLayoutParams = defaultDynamicParams(program.builtins);
        }
        try {
            m_layout = dynamicLayout(*m_options.dynamicLayoutParams);
        } catch (const std::runtime_error& e) {
            throw VmError(e.what());
        }
    } else {
        auto layout = layoutNamed(m_options.layout);
        if (!layout) {
            throw VmError("unknown layout \"" + m_options.layout + "\"");
        }
        m_layout = *layout;
    }
}

CairoRunner::~CairoRunner() = default;

void CairoRunner::initialize() {
    const bool proof = m_options.proofMode;
    const bool allowMissing = m_options.allowMissingBuiltins.value_or(proof);
    for (const std::string& name : m_program.builtins) {
        if (!m_layout.has(name) && !allowMissing) {
            throw VmError("builtin " + name + " is not present in layout " + m_layout.name);
        }
    }
    if (proof && (!m_program.start || !m_program.end)) {
        throw VmError("--proof_mode needs a program compiled with --proof_mode (it has no "
                      "__start__/__end__ labels)");
    }

    m_memory.addSegment(); // program
    m_memory.addSegment(); // execution
    for (const LayoutBuiltin& spec : m_layout.builtins) {
        const bool included = std::find(m_program.builtins.begin(), m_program.builtins.end(),
                                        spec.name) != m_program.builtins.end();
        if (proof || included) {
            m_builtins.push_back(makeBuiltinRunner(spec.name, spec, included));
        }
    }
    for (auto& builtin : m_builtins) {
        builtin->initializeSegment(m_memory);
    }

    std::vector<Value> stack;
    for (const std::string& name : m_program.builtins) {
        auto it = std::find_if(m_builtins.begin(), m_builtins.end(),
                               [&name](const auto& b) { return b->name() == name; });
        stack.push_back(it == m_builtins.end() ? Value(Felt::zero()) : Value((*it)->base()));
    }

    Relocatable entry;
    if (proof) {
        std::vector<Value> prefixed = {Value(executionBase() + 2), Value(Felt::zero())};
        prefixed.insert(prefixed.end(), stack.begin(), stack.end());
        stack = std::move(prefixed);
        for (std::size_t i = 0; i < stack.size(); ++i) {
            m_executionPublicMemory.push_back(i);
        }
        entry = programBase() + static_cast<std::int64_t>(*m_program.start);
        m_initialAp = executionBase() + 2;
        m_endPc = programBase() + static_cast<std::int64_t>(*m_program.end);
    } else {
        const Relocatable returnFp = m_memory.addSegment();
        m_endPc = m_memory.addSegment();
        stack.push_back(returnFp);
        stack.push_back(m_endPc);
        entry = programBase() + static_cast<std::int64_t>(m_program.main);
        m_initialAp = executionBase() + static_cast<std::int64_t>(stack.size());
    }
    // cairo-lang's zero segment, after the others: as many zeros as a builtin needs (the mod
    // builtins pad the AIR's unused instances with operations on them).
    std::uint64_t zeros = 0;
    for (const auto& builtin : m_builtins) {
        zeros = std::max(zeros, builtin->neededZeros());
    }
    if (zeros > 0) {
        const Relocatable zeroSegment = m_memory.addSegment();
        for (std::uint64_t i = 0; i < zeros; ++i) {
            m_memory.set(zeroSegment + static_cast<std::int64_t>(i), Felt::zero());
            m_memory.markAccessed(zeroSegment + static_cast<std::int64_t>(i));
        }
        for (const auto& builtin : m_builtins) {
            if (builtin->neededZeros() > 0) {
                builtin->setZeros(zeroSegment);
            }
        }
    }
    for (std::size_t i = 0; i < m_program.data.size(); ++i) {
        m_memory.set(programBase() + static_cast<std::int64_t>(i), m_program.data[i]);
    }
    for (std::size_t i = 0; i < stack.size(); ++i) {
        m_memory.set(executionBase() + static_cast<std::int64_t>(i), stack[i]);
    }

    m_vm = std::make_unique<Vm>(m_memory, m_program.data.size());
    m_vm->pc = entry;
    m_vm->ap = m_initialAp;
    m_vm->fp = m_initialAp;
    m_vm->setTraceEnabled(m_options.traceEnabled);
    for (auto& builtin : m_builtins) {
        m_vm->addBuiltin(builtin.get());
    }
    if (m_program.cairo1) {
        m_cairo1Io.arguments = m_options.arguments;
        m_cairo1Hints = std::make_unique<cairo1::HintProcessor>(m_program, m_cairo1Io);
        m_cairo1Hints->attach(*m_vm, m_builtins);
        return;
    }
    if (!m_options.arguments.empty()) {
        throw VmError("arguments are for Cairo 1 executables; a Cairo 0 program takes its input "
                      "as program input");
    }
    HintOptions hints = m_options.hints;
    if (!hints.fallbackEngine) {
        hints.fallbackEngine = PythonHintEngine::factory(); // cairoVm=python runs them as Python
    }
    m_hints = std::make_unique<HintProcessor>(m_program, m_options.programInput, std::move(hints));
    m_hints->attach(*m_vm, m_builtins);
}

void CairoRunner::runToEnd() {
    try {
        runUntilPc(m_endPc);
    } catch (const VmError&) {
        // A Cairo 1 executable's wrapper asserts its panic flag right after marking the panic
        // data: failing there is the program's panic, which reads as its message.
        if (m_program.cairo1 && m_cairo1Io.lastMarkerPc && m_vm->pc == *m_cairo1Io.lastMarkerPc &&
            !m_cairo1Io.markers.empty()) {
            throw VmError(cairo1::panicMessage(m_cairo1Io.markers.back()));
        }
        throw;
    }
}

void CairoRunner::runUntilPc(const Relocatable& end) {
    while (!(m_vm->pc == end)) {
        if (m_options.maxSteps && m_vm->steps() >= *m_options.maxSteps) {
            throw VmError("the run did not end within " + std::to_string(*m_options.maxSteps) +
                          " steps (--max_steps); pc is " + m_vm->pc.toString());
        }
        m_vm->step();
    }
}

void CairoRunner::runForSteps(std::uint64_t count) {
    for (std::uint64_t i = 0; i < count; ++i) {
        if (m_options.maxSteps && m_vm->steps() >= *m_options.maxSteps) {
            throw VmError("padding the trace needs more than " +
                          std::to_string(*m_options.maxSteps) + " steps (--max_steps)");
        }
        m_vm->step();
    }
}

std::uint64_t CairoRunner::memoryHoles(bool finalized) const {
    std::uint64_t holes = 0;
    for (std::size_t segment = 0; segment < m_memory.segmentCount(); ++segment) {
        const bool isBuiltin =
            std::any_of(m_builtins.begin(), m_builtins.end(), [&](const auto& b) {
                return static_cast<std::size_t>(b->base().segment) == segment;
            });
        if (isBuiltin) {
            continue;
        }
        const std::uint64_t size =
            finalized ? segmentSize(static_cast<std::int64_t>(segment))
                      : m_memory.segmentUsedSize(static_cast<std::int64_t>(segment));
        const std::uint64_t accessed = m_memory.accessedCount(static_cast<std::int64_t>(segment));
        holes += size > accessed ? size - accessed : 0;
    }
    return holes;
}

bool CairoRunner::checkUsedCells() {
    return fitsAt(m_layout, runDemand(), m_vm->steps());
}

void CairoRunner::readReturnValues() {
    // The final stack holds one stop pointer per declared builtin, last declared on top.
    Relocatable pointer = m_vm->ap;
    m_stopPointers.assign(m_builtins.size(), Relocatable{});
    for (std::size_t i = 0; i < m_builtins.size(); ++i) {
        m_stopPointers[i] = m_builtins[i]->base(); // builtins the program does not declare
    }
    for (auto name = m_program.builtins.rbegin(); name != m_program.builtins.rend(); ++name) {
        pointer = pointer - 1;
        auto it = std::find_if(m_builtins.begin(), m_builtins.end(),
                               [&](const auto& b) { return b->name() == *name; });
        if (it == m_builtins.end()) {
            continue; // declared but missing from the layout (allow_missing_builtins)
        }
        BuiltinRunner& builtin = **it;
        const Value stop = m_memory.get(pointer);
        if (!stop.isAddress() || stop.address().segment != builtin.base().segment) {
            throw VmError("the " + builtin.name() +
                          " builtin's stop pointer is not in its segment");
        }
        if (builtin.usedCells(m_memory) > stop.address().offset) {
            throw VmError("the " + builtin.name() + " builtin's stop pointer " +
                          stop.address().toString() + " is below its used cells");
        }
        m_stopPointers[static_cast<std::size_t>(it - m_builtins.begin())] = stop.address();
    }
    if (m_options.proofMode) {
        for (std::uint64_t offset = pointer.offset; offset < m_vm->ap.offset; ++offset) {
            m_executionPublicMemory.push_back(offset);
        }
    }
}

void CairoRunner::finalizeSegments() {
    m_finalSizes.assign(m_memory.segmentCount(), std::nullopt);
    m_finalSizes[0] = m_program.data.size();
    for (const auto& builtin : m_builtins) {
        const auto segment = static_cast<std::size_t>(builtin->base().segment);
        if (builtin->ratio() == 0) {
            m_finalSizes[segment] = builtin->usedCells(m_memory);
        } else {
            m_finalSizes[segment] = builtin->allocatedInstances(m_vm->steps()) *
                                    static_cast<std::uint64_t>(builtin->cellsPerInstance());
        }
    }
}

std::uint64_t CairoRunner::segmentSize(std::int64_t segment) const {
    const auto index = static_cast<std::size_t>(segment);
    if (index < m_finalSizes.size() && m_finalSizes[index]) {
        return *m_finalSizes[index];
    }
    if (auto finalized = m_memory.finalizedSize(segment)) {
        return *finalized;
    }
    return m_memory.segmentUsedSize(segment);
}

void CairoRunner::computeRelocation() {
    m_bases.assign(m_memory.segmentCount() + 1, 0);
    m_bases[0] = 1;
    for (std::size_t i = 0; i < m_memory.segmentCount(); ++i) {
        m_bases[i + 1] = m_bases[i] + segmentSize(static_cast<std::int64_t>(i));
    }
}

void CairoRunner::run() {
    if (m_finished) {
        throw VmError("a runner runs once");
    }
    initialize();
    if (m_options.steps) {
        if (*m_options.steps < m_vm->steps()) {
            throw VmError("--steps is below the steps already run");
        }
        runForSteps(*m_options.steps - m_vm->steps());
    } else {
        runToEnd();
        if (m_options.proofMode) {
            runForSteps(1); // the last executed pc is __end__
        }
    }
    if (m_options.minSteps && m_vm->steps() < *m_options.minSteps) {
        runForSteps(*m_options.minSteps - m_vm->steps());
    }
    m_originalSteps = m_vm->steps();
    m_memory.relocateTemporarySegments();
    if (m_options.proofMode && m_options.padTrace) {
        for (;;) {
            std::uint64_t steps = m_vm->steps();
            std::uint64_t target = 1;
            while (target < steps) {
                target <<= 1;
            }
            if (target > (1ULL << 28)) {
                throw VmError("the run does not fit layout " + m_layout.name +
                              " even padded to 2^28 steps");
            }
            runForSteps(target - steps);
            if (checkUsedCells()) {
                break;
            }
            runForSteps(1);
        }
    }
    readReturnValues();
    for (const auto& builtin : m_builtins) {
        builtin->verifyAtEnd(m_memory);
    }
    if (m_options.proofMode && m_options.padTrace) {
        finalizeSegments();
    }
    computeRelocation();
    m_finished = true;
}

std::vector<Felt> CairoRunner::output() const {
    std::vector<Felt> out;
    for (const auto& builtin : m_builtins) {
        if (builtin->name() == "output" && builtin->included()) {
            for (const auto& cell : m_memory.segmentCells(builtin->base().segment)) {
                out.push_back(cell.isSet() && !cell.isAddress() ? cell.value().felt()
                                                                : Felt::zero());
            }
        }
    }
    return out;
}

RunDemand CairoRunner::runDemand() const {
    RunDemand demand;
    demand.steps = m_originalSteps;
    std::uint64_t rcMin = m_vm->rcMin();
    std::uint64_t rcMax = m_vm->rcMax();
    for (const auto& builtin : m_builtins) {
        const std::uint64_t used = builtin->usedInstances(m_memory);
        const std::uint64_t cells = builtin->usedCells(m_memory); // read once: a segment scan
        if (builtin->included() && (used > 0 || cells > 0)) {
            demand.required.push_back(builtin->name());
        }
        demand.instances[builtin->name()] = used;
        demand.rangeCheckUnits += cells * builtin->rangeCheckUnitsPerCell();
        builtin->rangeCheckBounds(m_memory, &rcMin, &rcMax);
    }
    demand.rangeCheckSpan = rcMax >= rcMin ? rcMax - rcMin : 0;
    demand.memoryHoles = memoryHoles(false);
    return demand;
}

ExecutionResources CairoRunner::executionResources() const {
    ExecutionResources resources;
    resources.nSteps = m_originalSteps;
    resources.nMemoryHoles = memoryHoles(m_options.proofMode);
    for (const auto& builtin : m_builtins) {
        if (builtin->included()) {
            resources.builtinInstanceCounter.emplace_back(builtin->name() + "_builtin",
                                                          builtin->usedInstances(m_memory));
        }
    }
    return resources;
}

std::uint64_t CairoRunner::relocate(const Relocatable& address) const {
    if (address.segment < 0 || static_cast<std::size_t>(address.segment) >= m_bases.size() - 1) {
        throw VmError("cannot relocate " + address.toString());
    }
    return m_bases[static_cast<std::size_t>(address.segment)] + address.offset;
}

void CairoRunner::writeTrace(std::ostream& out) const {
    for (const TraceEntry& entry : m_vm->trace()) {
        writeU64(out, relocate(unpackAddress(entry.ap)));
        writeU64(out, relocate(unpackAddress(entry.fp)));
        writeU64(out, relocate(unpackAddress(entry.pc)));
    }
}

void CairoRunner::writeMemory(std::ostream& out) const {
    for (std::size_t segment = 0; segment < m_memory.segmentCount(); ++segment) {
        const auto& cells = m_memory.segmentCells(static_cast<std::int64_t>(segment));
        for (std::size_t offset = 0; offset < cells.size(); ++offset) {
            if (!cells[offset].isSet()) {
                continue;
            }
            writeU64(out, m_bases[segment] + offset);
            const Value value = cells[offset].value();
            std::uint8_t le[32];
            if (value.isAddress()) {
                Felt::fromU64(relocate(value.address())).toBytesLE(le);
            } else {
                value.felt().toBytesLE(le);
            }
            out.write(reinterpret_cast<const char*>(le), 32);
        }
    }
}

std::string CairoRunner::printedOutput() const {
    std::ostringstream out;
    out << "Program output:\n";
    for (const auto& builtin : m_builtins) {
        if (builtin->name() == "output" && builtin->included()) {
            for (const auto& cell : m_memory.segmentCells(builtin->base().segment)) {
                out << "  "
                    << (cell.isSet() ? (cell.isAddress() ? cell.value().toString()
                                                         : cell.value().felt().toSignedDecimal())
                                     : std::string("<missing>"))
                    << "\n";
            }
        }
    }
    out << "\n";
    return out.str();
}

} // namespace proofdesk::cairo
