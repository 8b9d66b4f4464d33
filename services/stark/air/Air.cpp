#include "Air.h"

#include "AirBuilder.h"

#include <algorithm>
#include <bit>
#include <map>
#include <stdexcept>

namespace proofdesk::stark::air {

Air::Air(const LayoutSpec& layout, std::uint64_t nSteps)
    : m_layout(layout), m_traceLength(nSteps * layout.cpuRows()),
      m_generator(rootOfUnity(std::countr_zero(m_traceLength))) {}

std::uint32_t Air::addPeriodic(PeriodicColumn column) {
    m_periodic.push_back(std::move(column));
    return std::uint32_t(m_periodic.size() - 1);
}

void Air::finish() {
    m_cellToMask.clear();
    if (!m_layout.mask.empty()) {
        // A parametric layout fixes the mask (with repeats); a cell is read from its first place.
        m_mask = m_layout.mask;
        std::map<MaskItem, std::uint32_t> firstPlace;
        for (std::size_t i = m_mask.size(); i-- > 0;) {
            firstPlace[m_mask[i]] = std::uint32_t(i);
        }
        for (const MaskItem& cell : m_arena.cells()) {
            const auto it = firstPlace.find(cell);
            if (it == firstPlace.end()) {
                throw std::runtime_error(
                    "layout " + m_layout.name + ": the constraints read column " +
                    std::to_string(cell.column) + " at row " + std::to_string(cell.row) +
                    ", which the layout's mask does not list (inconsistent dynamic_params)");
            }
            m_cellToMask.push_back(it->second);
        }
        return;
    }
    // Stone sends the out-of-domain values of a static layout's mask ordered by column, then row.
    m_mask = m_arena.cells();
    std::sort(m_mask.begin(), m_mask.end());
    for (const MaskItem& cell : m_arena.cells()) {
        m_cellToMask.push_back(
            std::uint32_t(std::lower_bound(m_mask.begin(), m_mask.end(), cell) - m_mask.begin()));
    }
}

Fp Air::domainAt(const Domain& domain, const Fp& point, DomainPowers& powers) const {
    Fp product = Fp::one();
    for (const DomainFactor& factor : domain) {
        auto it = powers.ofPoint.find(factor.power);
        if (it == powers.ofPoint.end()) {
            it = powers.ofPoint.emplace(factor.power, point.pow(factor.power)).first;
        }
        // The Keccak builtin's domains alone hold some 21,600 factors, most of them shared.
        auto shift = powers.ofGenerator.find(factor.shift);
        if (shift == powers.ofGenerator.end()) {
            shift = powers.ofGenerator.emplace(factor.shift, m_generator.pow(factor.shift)).first;
        }
        product *= it->second - shift->second;
    }
    return product;
}

Fp Air::periodicAt(std::size_t column, const Fp& point) const {
    const PeriodicColumn& periodic = m_periodic[column];
    const std::uint64_t period = periodic.values.size();
    const Fp y = point.pow(m_traceLength / (period * periodic.step));
    const Fp omega = rootOfUnity(std::countr_zero(period));
    // Barycentric form of the interpolant over the subgroup of order P:
    // q(y) = (y^P − 1)/P · Σ v_i·ω^i/(y − ω^i).
    std::vector<Fp> differences(period);
    std::vector<Fp> roots(period);
    Fp root = Fp::one();
    for (std::uint64_t i = 0; i < period; ++i) {
        roots[i] = root;
        differences[i] = y - root;
        if (differences[i].isZero()) {
            return periodic.values[i];
        }
        root *= omega;
    }
    invertAll(differences);
    Fp sum = Fp::zero();
    for (std::uint64_t i = 0; i < period; ++i) {
        sum += periodic.values[i] * roots[i] * differences[i];
    }
    return (y.pow(period) - Fp::one()) * Fp::fromU64(period).inverse() * sum;
}

Fp Air::constraintValue(std::size_t index, const Fp& point, const std::vector<Fp>& maskValues,
                        const std::map<std::string, Fp>& values) const {
    std::vector<Fp> cells(m_cellToMask.size());
    for (std::size_t slot = 0; slot < cells.size(); ++slot) {
        cells[slot] = maskValues.at(m_cellToMask[slot]);
    }
    std::vector<Fp> periodic;
    for (std::size_t i = 0; i < m_periodic.size(); ++i) {
        periodic.push_back(periodicAt(i, point));
    }
    std::vector<Fp> named;
    for (const std::string& name : m_arena.valueNames()) {
        named.push_back(values.at(name));
    }
    const std::vector<Fp> nodes = m_arena.evaluate(cells, periodic, named);
    DomainPowers powers;
    const Constraint& constraint = m_constraints[index];
    return nodes[constraint.expr.index()] * domainAt(constraint.numerator, point, powers) *
           domainAt(constraint.denominator, point, powers).inverse();
}

Fp Air::compositionAt(const Fp& point, const std::vector<Fp>& maskValues,
                      const std::map<std::string, Fp>& values, const Fp& alpha) const {
    std::vector<Fp> cells(m_cellToMask.size());
    for (std::size_t slot = 0; slot < cells.size(); ++slot) {
        cells[slot] = maskValues.at(m_cellToMask[slot]);
    }
    std::vector<Fp> periodic;
    for (std::size_t i = 0; i < m_periodic.size(); ++i) {
        periodic.push_back(periodicAt(i, point));
    }
    std::vector<Fp> named;
    for (const std::string& name : m_arena.valueNames()) {
        const auto it = values.find(name);
        if (it == values.end()) {
            throw std::out_of_range("the AIR needs the value " + name);
        }
        named.push_back(it->second);
    }
    const std::vector<Fp> nodes = m_arena.evaluate(cells, periodic, named);

    DomainPowers powers;
    std::vector<Fp> denominators;
    std::vector<Fp> numerators;
    for (const Constraint& constraint : m_constraints) {
        denominators.push_back(domainAt(constraint.denominator, point, powers));
        numerators.push_back(domainAt(constraint.numerator, point, powers));
    }
    invertAll(denominators);
    Fp sum = Fp::zero();
    Fp coefficient = Fp::one();
    for (std::size_t i = 0; i < m_constraints.size(); ++i) {
        sum += coefficient * nodes[m_constraints[i].expr.index()] * numerators[i] * denominators[i];
        coefficient *= alpha;
    }
    return sum;
}

namespace {

void addBuiltin(AirBuilder& b, const std::string& name) {
    if (name == "pedersen") {
        addPedersen(b);
    } else if (name == "range_check") {
        addRangeCheckBuiltin(b);
    } else if (name == "ecdsa") {
        addEcdsa(b);
    } else if (name == "bitwise") {
        addBitwise(b);
    } else if (name == "ec_op") {
        addEcOp(b);
    } else if (name == "keccak") {
        addKeccak(b);
    } else if (name == "poseidon") {
        addPoseidon(b);
    } else if (name == "range_check96") {
        addRangeCheck96(b);
    } else if (name == "add_mod" || name == "mul_mod") {
        addModBuiltin(b, name);
    } else {
        throw std::runtime_error("layout " + b.layout().name + ": unknown builtin " + name);
    }
}

} // namespace

std::unique_ptr<Air> buildAir(const LayoutSpec& layout, std::uint64_t nSteps) {
    auto air = std::make_unique<Air>(layout, nSteps);
    AirBuilder b(*air);
    std::vector<std::string> interaction = {"memory/perm/z", "memory/perm/alpha", "rc16/perm/z"};
    if (layout.dilutedSpacing) {
        interaction.insert(interaction.end(), {"diluted/perm/z", "diluted/z", "diluted/alpha"});
    }
    if (layout.has("add_mod")) {
        interaction.push_back("add_mod/z");
    }
    if (layout.has("mul_mod")) {
        interaction.push_back("mul_mod/z");
    }
    if (interaction.size() != layout.interactionElements) {
        throw std::runtime_error(
            "layout " + layout.name + ": " + std::to_string(layout.interactionElements) +
            " interaction elements, the components need " + std::to_string(interaction.size()));
    }
    air->setInteractionElements(interaction);

    addCpu(b);
    addMemory(b);
    addRangeCheck16(b);
    if (layout.dilutedSpacing) {
        addDilutedCheck(b);
    }
    for (const BuiltinSpec& builtin : layout.builtins) {
        if (builtin.name == "output" || !builtin.constrained) {
            continue;
        }
        if (!builtin.used) {
            for (std::size_t i = 0; i < builtin.placeholderConstraints; ++i) {
                air->addConstraint(
                    {builtin.name + ": not used by this run", air->arena().constant(0), {}, {}});
            }
            continue;
        }
        try {
            addBuiltin(b, builtin.name);
        } catch (const std::out_of_range& missing) {
            throw std::runtime_error("layout " + layout.name + ": the " + builtin.name +
                                     " builtin is not described for this layout yet (" +
                                     missing.what() + ")");
        }
    }
    air->finish();
    return air;
}

} // namespace proofdesk::stark::air
