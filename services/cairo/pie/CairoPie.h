#pragma once

#include "cairo/vm/Builtins.h"
#include "cairo/vm/ExecutionResources.h"
#include "cairo/vm/Memory.h"
#include "cairo/vm/Value.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace proofdesk::cairo {

class PieError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A Cairo PIE (cairo-lang cairo_pie.py, version 1.1): the stripped program, segment table,
// unrelocated memory, builtins' additional data and execution resources, as a zip.
struct CairoPie {
    struct Segment {
        std::int64_t index = 0;
        std::uint64_t size = 0;
    };

    std::vector<Felt> programData;
    std::vector<std::string> builtins;
    std::uint64_t main = 0;
    Segment programSegment;
    Segment executionSegment;
    Segment retFpSegment;
    Segment retPcSegment;
    std::vector<std::pair<std::string, Segment>> builtinSegments; // program builtin order
    std::vector<Segment> extraSegments;
    std::vector<std::string> simulatedBuiltins;
    std::vector<std::pair<Relocatable, Value>> memory;
    nlohmann::json additionalData = nlohmann::json::object();
    ExecutionResources resources;
    std::string version = "1.1";

    // (A finished non-proof run's PIE: CairoRunner::pie.)
    // Reads and validates a PIE zip; throws PieError naming the problem.
    static CairoPie fromZip(const std::string& zipBytes);
    static CairoPie fromFile(const std::string& path);

    static CairoPie parseZip(const std::string& zipBytes);

    std::string toZip() const;
    void writeFile(const std::string& path) const;

    // The output builtin's cells.
    std::vector<Felt> output() const;
    // The output builtin's pages and attributes (additional data "output_builtin"; none without
    // an output builtin). Throws PieError when malformed.
    OutputBuiltinState outputState() const;
    // The ecdsa builtin's signatures, [[segment, offset], [r, s]] in its additional data, by
    // unrelocated address. Throws PieError when malformed.
    std::vector<std::pair<Relocatable, std::pair<Felt, Felt>>> signatures() const;
    Felt programHash() const;
};

} // namespace proofdesk::cairo
