#include "AirBuilder.h"

#include <stdexcept>

namespace proofdesk::stark::air {

Expr AirBuilder::at(const std::string& column, std::int64_t index) {
    const VirtualColumn& vc = m_layout.column(column);
    return m_air.arena().cell({vc.column, vc.offset + index * std::int64_t(vc.step)});
}

Expr AirBuilder::atRow(const std::string& column, std::int64_t rows) {
    const VirtualColumn& vc = m_layout.column(column);
    return m_air.arena().cell({vc.column, vc.offset + rows});
}

Expr AirBuilder::powerOfTwo(int bits) {
    return constant(Fp::fromU64(2).pow(std::uint64_t(bits)));
}

DomainFactor AirBuilder::rows(std::uint64_t period, std::uint64_t residue) const {
    const std::uint64_t n = traceLength();
    if (period == 0 || n % period != 0) {
        // Only a parametric layout's values can get here (a static layout's periods divide).
        throw std::runtime_error("layout " + m_layout.name + ": a period of " +
                                 std::to_string(period) + " rows does not divide the trace of " +
                                 std::to_string(n) + " rows");
    }
    return {n / period, (residue % period) * (n / period)};
}

DomainFactor AirBuilder::row(std::int64_t r) const {
    const std::int64_t n = std::int64_t(traceLength());
    return {1, std::uint64_t(((r % n) + n) % n)};
}

void AirBuilder::constraint(const std::string& name, Expr expr, Domain numerator,
                            Domain denominator) {
    m_air.addConstraint({name, expr, std::move(numerator), std::move(denominator)});
}

} // namespace proofdesk::stark::air
