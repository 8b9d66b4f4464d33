#pragma once

#include "Expression.h"
#include "Layout.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace proofdesk::stark::air {

// A factor x^power − g^shift of a constraint's domain polynomial, g the trace generator (of
// order N, the trace length): it vanishes on the rows r with r·power ≡ shift (mod N).
struct DomainFactor {
    std::uint64_t power = 1;
    std::uint64_t shift = 0;
};
using Domain = std::vector<DomainFactor>; // a product; empty is 1

// One constraint of the composition polynomial: expr · numerator / denominator must be a
// polynomial, i.e. expr vanishes where the denominator does, except where the numerator does.
struct Constraint {
    std::string name;
    Expr expr;
    Domain numerator;
    Domain denominator;
};

// A column known to both sides, periodic over the trace: row i·step holds values[i mod P].
struct PeriodicColumn {
    std::string name;
    std::vector<Fp> values;
    std::uint64_t step = 1;
};

// The Cairo CPU AIR of one layout at one trace length: its constraints in Stone's order, the mask
// (every trace cell a constraint reads, relative to its row, in the order Stone sends their
// out-of-domain values), the periodic columns, and the named values (the public input's and the
// interaction elements) the constraints use.
class Air {
public:
    Air(const LayoutSpec& layout, std::uint64_t nSteps);

    const LayoutSpec& layout() const { return m_layout; }
    std::uint64_t traceLength() const { return m_traceLength; }
    const std::vector<Constraint>& constraints() const { return m_constraints; }
    const std::vector<MaskItem>& mask() const { return m_mask; }
    const std::vector<PeriodicColumn>& periodicColumns() const { return m_periodic; }
    const ExprArena& arena() const { return m_arena; }
    // The values the constraints read (value names of the arena); the caller supplies each.
    const std::vector<std::string>& valueNames() const { return m_arena.valueNames(); }
    // The interaction elements, in the order Stone draws them.
    const std::vector<std::string>& interactionElements() const { return m_interactionElements; }

    // Σ_i α^i · constraint_i(point), the mask values given in mask order and the named values by
    // name. Throws std::out_of_range naming a value that is missing.
    Fp compositionAt(const Fp& point, const std::vector<Fp>& maskValues,
                     const std::map<std::string, Fp>& values, const Fp& alpha) const;
    // One constraint's value expr·numerator/denominator at a point (for diagnostics).
    Fp constraintValue(std::size_t index, const Fp& point, const std::vector<Fp>& maskValues,
                       const std::map<std::string, Fp>& values) const;
    // A periodic column's value at a point (its interpolant in x^(N/(P·step))).
    Fp periodicAt(std::size_t column, const Fp& point) const;
    // The trace generator g, of order N.
    const Fp& traceGenerator() const { return m_generator; }

    // Used while building (by AirBuilder).
    ExprArena& arena() { return m_arena; }
    void addConstraint(Constraint constraint) { m_constraints.push_back(std::move(constraint)); }
    std::uint32_t addPeriodic(PeriodicColumn column);
    void setInteractionElements(std::vector<std::string> names) {
        m_interactionElements = std::move(names);
    }
    void finish();

private:
    // The powers x^power of the point and g^shift of the generator met so far.
    struct DomainPowers {
        std::map<std::uint64_t, Fp> ofPoint;
        std::map<std::uint64_t, Fp> ofGenerator;
    };
    Fp domainAt(const Domain& domain, const Fp& point, DomainPowers& powers) const;

    LayoutSpec m_layout;
    std::uint64_t m_traceLength;
    Fp m_generator;
    ExprArena m_arena;
    std::vector<Constraint> m_constraints;
    std::vector<PeriodicColumn> m_periodic;
    std::vector<MaskItem> m_mask;
    std::vector<std::uint32_t> m_cellToMask; // arena cell slot -> mask index
    std::vector<std::string> m_interactionElements;
};

// Builds the AIR of a layout for a run of nSteps steps (a power of two). Throws
// std::runtime_error when the layout has a component this build cannot describe.
std::unique_ptr<Air> buildAir(const LayoutSpec& layout, std::uint64_t nSteps);

} // namespace proofdesk::stark::air
