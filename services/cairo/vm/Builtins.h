#pragma once

#include "cairo/vm/Layout.h"
#include "cairo/vm/Memory.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace proofdesk::cairo {

// An address as the run's relocated memory has it (valid once the run ended).
using Relocation = std::function<std::uint64_t(const Relocatable&)>;

// One builtin's segment: its cell layout, deductions, validations and accounting.
class BuiltinRunner {
public:
    BuiltinRunner(std::string name, int cellsPerInstance, int inputCells, LayoutBuiltin spec,
                  bool included);
    virtual ~BuiltinRunner() = default;

    const std::string& name() const { return m_name; }
    int cellsPerInstance() const { return m_cellsPerInstance; }
    int inputCells() const { return m_inputCells; }
    int ratio() const { return m_spec.ratio; }
    int instancesPerComponent() const { return m_spec.instancesPerComponent; }
    bool included() const { return m_included; } // declared by the program
    const Relocatable& base() const { return m_base; }

    void initializeSegment(Memory& memory);
    // The value of an output cell whose inputs are all known; nullopt otherwise.
    virtual std::optional<Value> deduce(const Memory& memory, const Relocatable& address) const;

    std::uint64_t usedCells(const Memory& memory) const;
    std::uint64_t usedInstances(const Memory& memory) const;
    // Instances the layout allocates for n steps (throws VmError if n is below the minimum).
    std::uint64_t allocatedInstances(std::uint64_t steps) const;
    virtual std::uint64_t rangeCheckUnitsPerCell() const { return 0; }
    virtual std::uint64_t dilutedUnitsPerInstance() const { return 0; }
    virtual std::uint64_t extraMemoryUnitsPerInstance() const { return 0; }
    // Range-check bounds contributed (16-bit parts of range-check cells), if any.
    virtual void rangeCheckBounds(const Memory&, std::uint64_t* /*min*/,
                                  std::uint64_t* /*max*/) const {}
    // Entries for air_private_input.json under this builtin's name: by default, one object per
    // instance whose inputs are all set, {"index", <input names>: hex}.
    virtual nlohmann::json airPrivateInput(const Memory& memory, const Relocation& relocate) const;
    // Zero cells the builtin needs in the run's zero segment (cairo-lang's allocated zeros: the
    // mod builtins pad their unused instances with operations on them), and where they are.
    virtual std::uint64_t neededZeros() const { return 0; }
    virtual void setZeros(const Relocatable&) {}
    // Checks run when the run ends (the mod builtins verify every operation); throws VmError.
    virtual void verifyAtEnd(const Memory&) const {}
    // The ecdsa builtin's signature registry (ecdsa_builtin.add_signature); others refuse.
    virtual void addSignature(const Relocatable& address, const Felt& r, const Felt& s);
    // The signatures registered so far, by address (r, s); empty for the other builtins.
    virtual std::vector<std::pair<Relocatable, std::pair<Felt, Felt>>> signaturesByAddress() const {
        return {};
    }

protected:
    // Names of the input cells in the AIR private input (empty: the builtin lists none).
    virtual std::vector<std::string> privateInputNames() const { return {}; }
    virtual Value compute(const Memory& memory, const Relocatable& instanceBase,
                          int outputIndex) const;
    virtual void installValidators(Memory&) {}
    bool inputsOf(const Memory& memory, const Relocatable& instanceBase,
                  std::vector<Felt>* out) const;

    std::string m_name;
    int m_cellsPerInstance;
    int m_inputCells;
    LayoutBuiltin m_spec;
    bool m_included;
    Relocatable m_base;
};

// A page of the output builtin (cairo-lang's PublicMemoryPage): offsets from the output's base.
struct OutputPage {
    std::uint64_t start = 0;
    std::uint64_t size = 0;
};

// What output_builtin.get_state() returns and new_state()/set_state() replace.
struct OutputBuiltinState {
    Relocatable base;
    std::map<std::uint64_t, OutputPage> pages; // page id -> page (id 0 is the implicit rest)
    nlohmann::json attributes = nlohmann::json::object();
};

// The output builtin. A bootloader moves it to other segments while its tasks run and splits
// the output into pages (the fact topology); the AIR public input and the PIE show the pages.
class OutputBuiltin : public BuiltinRunner {
public:
    using BuiltinRunner::BuiltinRunner;
    std::optional<Value> deduce(const Memory&, const Relocatable&) const override {
        return std::nullopt;
    }
    nlohmann::json airPrivateInput(const Memory&, const Relocation&) const override {
        return nullptr;
    }

    OutputBuiltinState state() const { return {m_base, m_pages, m_attributes}; }
    void newState(const Relocatable& base);
    void setState(const OutputBuiltinState& state);
    // Throws VmError if the page is not in the current segment or its id is taken.
    void addPage(std::uint64_t id, const Relocatable& start, std::uint64_t size);
    void addAttribute(const std::string& name, nlohmann::json value);
    const std::map<std::uint64_t, OutputPage>& pages() const { return m_pages; }
    const nlohmann::json& attributes() const { return m_attributes; }
    // The page of the output cell at `offset` in the segment (0 when no page holds it).
    std::uint64_t pageOf(std::uint64_t offset) const;
    // The PIE's additional data: {"pages": {"<id>": [start, size]}, "attributes": {...}}.
    nlohmann::json additionalData() const;

private:
    std::map<std::uint64_t, OutputPage> m_pages;
    nlohmann::json m_attributes = nlohmann::json::object();
};

std::unique_ptr<BuiltinRunner> makeBuiltinRunner(const std::string& name, const LayoutBuiltin& spec,
                                                 bool included);

} // namespace proofdesk::cairo
