#pragma once

#include "CairoRun.h"
#include "TraceTable.h"

#include <map>
#include <stdexcept>
#include <string>

// The writers of the Cairo trace, one per AIR component: each fills the cells its constraints
// (services/stark/air/components) read, and records its pool cells; the pools are finished last.

namespace proofdesk::stark {

// A run whose trace the layout cannot hold, or that breaks a component's rule: the message says
// which and what to change.
class TraceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The trace's periodic columns for the run (TraceTable's `periods`): where the run leaves the
// Pedersen or ECDSA builtin unused, its instances all compute the same (Pedersen hashes one pair,
// ECDSA checks the dummy signature), so each column only its cells lie in repeats every instance
// of a repetition and is held and written for one period.
std::map<std::size_t, std::uint64_t>
periodicColumns(const air::LayoutSpec& layout, const CairoRun& run, std::uint64_t traceLength);

void writeCpu(TraceTable& trace, const CairoRun& run);
void writePedersen(TraceTable& trace, const CairoRun& run);
// The used instances; finishRangeCheckBuiltin writes the unused ones once the range-check pool
// filled their parts.
// `name`: range_check (128 bits) or range_check96.
void writeRangeCheckBuiltin(TraceTable& trace, const CairoRun& run, const std::string& name);
void finishRangeCheckBuiltin(TraceTable& trace, const CairoRun& run, const std::string& name);
void writeBitwise(TraceTable& trace, const CairoRun& run);
void writeEcdsa(TraceTable& trace, const CairoRun& run);
void writeEcOp(TraceTable& trace, const CairoRun& run);
void writePoseidon(TraceTable& trace, const CairoRun& run);
void writeKeccak(TraceTable& trace, const CairoRun& run);
// Every instance the trace holds: the run's, then padding on the private input's
// zero_value_address.
void writeAddMod(TraceTable& trace, const CairoRun& run);
void writeMulMod(TraceTable& trace, const CairoRun& run);

// The pools, after every component: the public memory's cells zeroed, unused cells filled with
// the addresses / values missing from the sorted order, the sorted copies written.
void finishMemory(TraceTable& trace, const CairoRun& run);
void finishRangeCheck(TraceTable& trace, const CairoRun& run);
void finishDiluted(TraceTable& trace);

// The interaction trace (the grand products, the diluted cumulative value) from the first trace
// and the interaction elements, by name.
void writeInteraction(TraceTable& interaction, const std::vector<std::vector<Fp>>& first,
                      const std::map<std::string, Fp>& elements);

// Helpers the writers share.
std::uint64_t smallValue(const Fp& value, const std::string& what); // < 2^64, else TraceError
Fp memoryAt(const CairoRun& run, std::uint64_t address, const std::string& what);
const struct MemorySegment& builtinSegment(const CairoRun& run, const std::string& name);

} // namespace proofdesk::stark
