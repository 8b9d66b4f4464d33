#pragma once

#include "Air.h"

#include <string>

namespace proofdesk::stark::air {

// What a component writes its constraints with: cells of the layout's virtual columns, named
// values, periodic columns, and the domains of rows a constraint holds on.
class AirBuilder {
public:
    explicit AirBuilder(Air& air) : m_air(air), m_layout(air.layout()) {}

    const LayoutSpec& layout() const { return m_layout; }
    std::uint64_t traceLength() const { return m_air.traceLength(); }

    // Instance `index` of a virtual column, relative to the row the constraint is evaluated at.
    Expr at(const std::string& column, std::int64_t index = 0);
    // The cell `rows` rows after a virtual column's first instance.
    Expr atRow(const std::string& column, std::int64_t rows);
    Expr value(const std::string& name) { return m_air.arena().value(name); }
    Expr constant(const Fp& value) { return m_air.arena().constant(value); }
    Expr constant(std::int64_t value) { return m_air.arena().constant(value); }
    Expr one() { return constant(1); }
    // 2^bits.
    Expr powerOfTwo(int bits);
    Expr periodic(std::uint32_t column) { return m_air.arena().periodic(column); }
    std::uint32_t addPeriodic(PeriodicColumn column) {
        return m_air.addPeriodic(std::move(column));
    }
    std::uint64_t step(const std::string& column) const { return m_layout.column(column).step; }

    // The rows r ≡ residue (mod period): x^(N/period) − g^(residue·N/period).
    DomainFactor rows(std::uint64_t period, std::uint64_t residue = 0) const;
    // The single row r (negative counts from the end): x − g^r.
    DomainFactor row(std::int64_t r) const;

    void constraint(const std::string& name, Expr expr, Domain numerator, Domain denominator);

private:
    Air& m_air;
    const LayoutSpec& m_layout;
};

// The components of the Cairo CPU AIR, each appending its constraints in Stone's order.
void addCpu(AirBuilder& b);
void addMemory(AirBuilder& b);
void addRangeCheck16(AirBuilder& b);
void addDilutedCheck(AirBuilder& b);
void addPedersen(AirBuilder& b);
void addRangeCheckBuiltin(AirBuilder& b);
void addEcdsa(AirBuilder& b);
void addBitwise(AirBuilder& b);
void addEcOp(AirBuilder& b);
void addKeccak(AirBuilder& b);
void addPoseidon(AirBuilder& b);
void addRangeCheck96(AirBuilder& b);
void addModBuiltin(AirBuilder& b, const std::string& name); // add_mod or mul_mod

} // namespace proofdesk::stark::air
