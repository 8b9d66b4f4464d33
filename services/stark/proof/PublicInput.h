#pragma once

#include "air/Layout.h"
#include "field/Fp.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace proofdesk::stark {

struct MemorySegment {
    std::uint64_t begin = 0;
    std::uint64_t stop = 0;
};

struct PublicMemoryCell {
    std::uint64_t address = 0;
    Fp value;
    std::uint64_t page = 0;
};

// Stone's AIR public input (public_input in a proof, air_public_input.json of a run).
struct PublicInput {
    std::string layout;
    std::uint64_t nSteps = 0;
    std::uint64_t rcMin = 0;
    std::uint64_t rcMax = 0;
    std::map<std::string, MemorySegment> segments;
    std::vector<PublicMemoryCell> publicMemory; // in the file's order; the first pads
    std::map<std::string, std::uint64_t> dynamicParams;

    const MemorySegment* segment(const std::string& name) const;
    // The output segment's cells as the public memory holds them, continuous pages included (a
    // bootloader's tasks), in address order: hex felts. A statement's output leaves those out.
    std::vector<std::string> outputCells() const;
};

// Which public input serialisation seeds the channel: Stone v5 and earlier (stone5), or Stone v6
// on, which puts n_verifier_friendly_commitment_layers first (stone6).
enum class SeedVariant { Stone5, Stone6 };
const char* seedVariantName(SeedVariant variant);

// Reads a public input object; throws Rejection (Stage::PublicInput) naming what is wrong.
PublicInput parsePublicInput(const nlohmann::json& json);

// Checks the statement against its layout before any cryptography: n_steps a power of two, the
// segments the layout names present and ordered, builtin segments within their capacity, the
// range-check bounds, the public memory's pages continuous. Throws Rejection.
void validatePublicInput(const PublicInput& input, const air::LayoutSpec& layout);

// The bytes Stone hashes into the channel's seed (CpuAirStatement::GetInitialHashChainSeed).
// pageHash is proof_parameters.statement.page_hash ("keccak256" or "pedersen").
std::vector<std::uint8_t> publicInputSeedBytes(const PublicInput& input,
                                               const air::LayoutSpec& layout, SeedVariant variant,
                                               std::uint64_t verifierFriendlyLayers,
                                               const std::string& pageHash);

// The values the AIR's constraints read that come from the public input: registers at the first
// and last step, range-check bounds, every builtin segment's first address.
std::map<std::string, Fp> publicValues(const PublicInput& input, const air::LayoutSpec& layout);

// The memory permutation's final product given the interaction elements: z^n / Π(z − (a + αv))
// over the public cells and the padding cell repeated up to n, the public memory column's size.
Fp publicMemoryProduct(const PublicInput& input, const Fp& z, const Fp& alpha,
                       std::uint64_t columnSize);

// The diluted check's final cumulative value for spacing and bit count (r_1 = 1,
// r_{j+1} = r_j·(1 + z·u_j) + α·u_j², u_j the difference of consecutive diluted values).
Fp dilutedFinalValue(std::uint64_t spacing, std::uint64_t bits, const Fp& z, const Fp& alpha);

// Adds to `values`, which holds the interaction elements, the values they fix: the public
// memory's product ("memory/public_memory_prod") and, in a layout with a diluted pool, the
// diluted check's final value ("diluted/final_cum_val").
void addInteractionProducts(std::map<std::string, Fp>& values, const PublicInput& input,
                            const air::LayoutSpec& layout, std::uint64_t traceLength);

} // namespace proofdesk::stark
