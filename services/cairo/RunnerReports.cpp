// CairoRunner's reports: cairo-run's printed info, the AIR public and private inputs that
// Stone's cpu_air_prover reads, and a non-proof run's Cairo PIE.

#include "cairo/Runner.h"
#include "cairo/pie/CairoPie.h"

#include <optional>
#include <sstream>

namespace proofdesk::cairo {
namespace {

std::string hexValue(const Value& value, const CairoRunner& runner) {
    return value.isAddress() ? Felt::fromU64(runner.relocate(value.address())).toHex()
                             : value.felt().toHex();
}

} // namespace

std::string CairoRunner::printedInfo(bool relocated) const {
    auto reg = [&](const Relocatable& value) {
        return relocated ? std::to_string(relocate(value)) : value.toString();
    };
    std::ostringstream out;
    out << "Number of steps: " << m_vm->steps() << " ";
    if (m_options.proofMode) {
        out << "(originally, " << m_originalSteps << ")";
    }
    out << "\nUsed memory cells: " << m_memory.cellCount() << "\n";
    out << "Register values after execution:\n";
    out << "pc = " << reg(m_vm->pc) << "\n";
    out << "ap = " << reg(m_vm->ap) << "\n";
    out << "fp = " << reg(m_vm->fp) << "\n";
    if (m_options.proofMode) {
        out << "Builtin usage:\n";
        for (const auto& builtin : m_builtins) {
            const std::uint64_t used = builtin->usedCells(m_memory);
            const std::uint64_t size = segmentSize(builtin->base().segment);
            out << builtin->name() << ": ";
            if (size == 0) {
                out << "100%\n";
            } else {
                char percent[32];
                std::snprintf(percent, sizeof percent, "%.2f%%",
                              static_cast<double>(used) * 100.0 / static_cast<double>(size));
                out << percent << "\n";
            }
        }
    }
    return out.str();
}

std::string CairoRunner::printedMemory(bool relocated) const {
    // "Addr  Value", then one line per written cell in address order ("⋮" marks a gap), values
    // as signed field elements, as cairo-run --print_memory shows them.
    std::ostringstream out;
    out << "Addr  Value\n-----------\n";
    std::optional<std::uint64_t> previous;
    for (std::size_t segment = 0; segment < m_memory.segmentCount(); ++segment) {
        const auto& cells = m_memory.segmentCells(static_cast<std::int64_t>(segment));
        for (std::size_t offset = 0; offset < cells.size(); ++offset) {
            if (!cells[offset].isSet()) {
                continue;
            }
            const Value value = cells[offset].value();
            const std::uint64_t address = m_bases[segment] + offset;
            if (previous && address != *previous + 1) {
                out << "\u22ee\n";
            }
            previous = address;
            std::string addressText =
                relocated ? std::to_string(address)
                          : Relocatable{static_cast<std::int64_t>(segment), offset}.toString();
            addressText.resize(std::max<std::size_t>(addressText.size(), 5), ' ');
            std::string valueText;
            if (value.isAddress()) {
                valueText =
                    relocated ? std::to_string(relocate(value.address())) : value.toString();
            } else {
                valueText = value.felt().toSignedDecimal();
            }
            out << addressText << " " << valueText << "\n";
        }
    }
    out << "\n";
    return out.str();
}

std::string CairoRunner::printedSegments() const {
    std::ostringstream out;
    out << "Segment relocation table:\n";
    for (std::size_t segment = 0; segment < m_memory.segmentCount(); ++segment) {
        std::string index = std::to_string(segment);
        index.resize(std::max<std::size_t>(index.size(), 5), ' ');
        out << index << " " << m_bases[segment] << "\n";
    }
    out << "\n";
    return out.str();
}

nlohmann::ordered_json CairoRunner::airPublicInput() const {
    if (!m_options.proofMode) {
        throw VmError("the AIR public input needs --proof_mode");
    }
    const auto& trace = m_vm->trace();
    if (trace.empty()) {
        throw VmError("the AIR public input needs the trace (it was disabled)");
    }
    std::uint64_t rcMin = m_vm->rcMin();
    std::uint64_t rcMax = m_vm->rcMax();
    for (const auto& builtin : m_builtins) {
        builtin->rangeCheckBounds(m_memory, &rcMin, &rcMax);
    }
    nlohmann::ordered_json segments = nlohmann::ordered_json::object();
    segments["program"] = {{"begin_addr", relocate(unpackAddress(trace.front().pc))},
                           {"stop_ptr", relocate(unpackAddress(trace.back().pc))}};
    segments["execution"] = {{"begin_addr", relocate(unpackAddress(trace.front().ap))},
                             {"stop_ptr", relocate(unpackAddress(trace.back().ap))}};
    for (std::size_t i = 0; i < m_builtins.size(); ++i) {
        segments[m_builtins[i]->name()] = {{"begin_addr", relocate(m_builtins[i]->base())},
                                           {"stop_ptr", relocate(m_stopPointers[i])}};
    }
    // A dynamic layout has a segment for each of its builtins: those its parameters leave out are
    // empty, placed after the relocated memory (as in Stone's dynamic proofs).
    if (m_layout.name == "dynamic") {
        const std::uint64_t end = m_bases.back();
        for (const std::string& name : dynamicLayoutBuiltins()) {
            if (!segments.contains(name)) {
                segments[name] = {{"begin_addr", end}, {"stop_ptr", end}};
            }
        }
    }
    nlohmann::ordered_json publicMemory = nlohmann::ordered_json::array();
    auto add = [&](const Relocatable& address, std::uint64_t page = 0) {
        publicMemory.push_back({{"address", relocate(address)},
                                {"value", hexValue(m_memory.get(address), *this)},
                                {"page", page}});
    };
    for (std::size_t i = 0; i < m_program.data.size(); ++i) {
        add(programBase() + static_cast<std::int64_t>(i));
    }
    for (std::uint64_t offset : m_executionPublicMemory) {
        add({executionBase().segment, offset});
    }
    for (const auto& builtin : m_builtins) {
        if (const auto* output = dynamic_cast<const OutputBuiltin*>(builtin.get())) {
            const auto& cells = m_memory.segmentCells(builtin->base().segment);
            for (std::size_t i = 0; i < cells.size(); ++i) {
                add(builtin->base() + static_cast<std::int64_t>(i), output->pageOf(i));
            }
        }
    }
    // A dynamic layout's parameters go with the run, as given (Stone's dynamic_params).
    nlohmann::ordered_json dynamicParams = nullptr;
    if (m_layout.name == "dynamic" && m_options.dynamicLayoutParams) {
        dynamicParams = nlohmann::ordered_json::parse(m_options.dynamicLayoutParams->dump());
    }
    return nlohmann::ordered_json{{"layout", m_layout.name},
                                  {"rc_min", rcMin},
                                  {"rc_max", rcMax},
                                  {"n_steps", m_vm->steps()},
                                  {"memory_segments", segments},
                                  {"public_memory", publicMemory},
                                  {"dynamic_params", dynamicParams}};
}

nlohmann::ordered_json CairoRunner::airPrivateInput(const std::string& tracePath,
                                                    const std::string& memoryPath) const {
    if (!m_options.proofMode) {
        throw VmError("the AIR private input needs --proof_mode");
    }
    nlohmann::ordered_json out = {{"trace_path", tracePath}, {"memory_path", memoryPath}};
    const Relocation relocation = [this](const Relocatable& address) { return relocate(address); };
    for (const auto& builtin : m_builtins) {
        if (builtin->name() != "output") {
            out[builtin->name()] = nlohmann::ordered_json::parse(
                builtin->airPrivateInput(m_memory, relocation).dump());
        }
    }
    return out;
}

CairoPie CairoRunner::pie() const {
    if (m_options.proofMode) {
        throw PieError("a Cairo PIE cannot be made from a proof-mode run");
    }
    const Program& program = m_program;
    const Memory& memory = this->memory();
    CairoPie pie;
    pie.programData = program.data;
    pie.builtins = program.builtins;
    pie.main = program.main;
    pie.programSegment = {0, program.data.size()};
    pie.executionSegment = {1, vm().ap.offset};
    for (const auto& builtin : builtins()) {
        if (builtin->included()) {
            pie.builtinSegments.emplace_back(
                builtin->name(),
                CairoPie::Segment{builtin->base().segment, builtin->usedCells(memory)});
        }
    }
    const auto n = static_cast<std::int64_t>(pie.builtinSegments.size());
    pie.retFpSegment = {2 + n, 0};
    pie.retPcSegment = {3 + n, 0};
    for (std::int64_t segment = 4 + n; segment < static_cast<std::int64_t>(memory.segmentCount());
         ++segment) {
        pie.extraSegments.push_back({segment, memory.segmentUsedSize(segment)});
    }
    for (std::size_t segment = 0; segment < memory.segmentCount(); ++segment) {
        const auto& cells = memory.segmentCells(static_cast<std::int64_t>(segment));
        for (std::size_t offset = 0; offset < cells.size(); ++offset) {
            if (cells[offset].isSet()) {
                pie.memory.emplace_back(Relocatable{static_cast<std::int64_t>(segment), offset},
                                        cells[offset].value());
            }
        }
    }
    for (const auto& [name, segment] : pie.builtinSegments) {
        nlohmann::json data;
        if (name == "output") {
            data = {{"pages", nlohmann::json::object()}, {"attributes", nlohmann::json::object()}};
            for (const auto& builtin : builtins()) {
                if (const auto* output = dynamic_cast<const OutputBuiltin*>(builtin.get())) {
                    data = output->additionalData();
                }
            }
        } else if (name == "ecdsa") {
            // [[segment, offset], [r, s]] per signature, r and s kept exact as decimal text
            // (written as JSON numbers, as cairo-lang does).
            data = nlohmann::json::array();
            for (const auto& builtin : builtins()) {
                for (const auto& [address, rs] : builtin->signaturesByAddress()) {
                    data.push_back({{address.segment, address.offset},
                                    {rs.first.toDecimal(), rs.second.toDecimal()}});
                }
            }
        } else if (name == "pedersen") {
            data = nlohmann::json::array();
            for (std::uint64_t offset = 2; offset < segment.size; offset += 3) {
                if (memory.isSet({segment.index, offset})) {
                    data.push_back({segment.index, offset});
                }
            }
        }
        pie.additionalData[name + "_builtin"] = data;
    }
    pie.resources = executionResources();
    return pie;
}

} // namespace proofdesk::cairo
