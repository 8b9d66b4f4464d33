#include "StarkProver.h"

#include "CommittedTable.h"
#include "FriProver.h"
#include "Ntt.h"
#include "Polynomials.h"
#include "air/Air.h"
#include "channel/ProofWriter.h"
#include "trace/TraceComponents.h"
#include "verifier/Rejection.h"
#include "verifier/StarkVerifier.h"

#include <malloc.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <mutex>
#include <set>

namespace proofdesk::stark {
namespace {

using Clock = std::chrono::steady_clock;

// The trace writer of each builtin the prover knows.
using BuiltinWriter = void (*)(TraceTable&, const CairoRun&);
const std::map<std::string, BuiltinWriter>& builtinWriters() {
    static const std::map<std::string, BuiltinWriter> writers = {
        {"output", nullptr},
        {"pedersen", writePedersen},
        {"range_check", writeRangeCheckBuiltin},
        {"ecdsa", writeEcdsa},
        {"bitwise", writeBitwise},
        {"ec_op", writeEcOp},
        {"poseidon", writePoseidon},
    };
    return writers;
}

bool layoutIsProvable(const air::LayoutSpec& layout) {
    for (const air::BuiltinSpec& builtin : layout.builtins) {
        if (!builtinWriters().contains(builtin.name)) {
            return false;
        }
    }
    return true;
}

// Phases and the share of a run's time each takes (for the overall fraction).
struct PhasePlan {
    const char* name;
    double weight;
};
constexpr PhasePlan kPhases[] = {
    {"trace", 0.05},        {"trace commitment", 0.35}, {"interaction", 0.1},
    {"composition", 0.25},  {"out of domain", 0.04},    {"fri", 0.06},
    {"proof of work", 0.1}, {"decommitment", 0.05},
};

class ProgressReporter {
public:
    ProgressReporter(const ProverOptions& options, ProverResult& result)
        : m_options(options), m_result(result) {}

    void begin(std::size_t phase) {
        finish();
        m_phase = phase;
        m_started = Clock::now();
        report(0);
    }
    void report(double fraction) const {
        m_options.cancel.check();
        if (!m_options.progress) {
            return;
        }
        double done = 0;
        for (std::size_t i = 0; i < m_phase; ++i) {
            done += kPhases[i].weight;
        }
        done += kPhases[m_phase].weight * std::clamp(fraction, 0.0, 1.0);
        m_options.progress({kPhases[m_phase].name, done});
    }
    void finish() {
        if (m_phase == kNone) {
            return;
        }
        m_result.timings.push_back(
            {kPhases[m_phase].name,
             std::chrono::duration<double>(Clock::now() - m_started).count()});
        m_phase = kNone;
    }

private:
    static constexpr std::size_t kNone = ~std::size_t(0);
    const ProverOptions& m_options;
    ProverResult& m_result;
    std::size_t m_phase = kNone;
    Clock::time_point m_started;
};

std::vector<std::span<const Fp>> spansOf(const std::vector<std::vector<Fp>>& columns) {
    return {columns.begin(), columns.end()};
}

// The layout columns the interaction reads (the pools and their sorted copies).
std::set<std::size_t> interactionSources(const air::LayoutSpec& layout) {
    std::set<std::size_t> columns;
    for (const char* name : {"mem_pool/addr", "mem_pool/value", "memory/sorted/addr",
                             "memory/sorted/value", "range_check16_pool", "range_check16/sorted",
                             "diluted_pool", "diluted_check/permuted_values"}) {
        if (const auto it = layout.columns.find(name); it != layout.columns.end()) {
            columns.insert(it->second.column);
        }
    }
    return columns;
}

// A column's coefficients become its trace values (on the rows, in order).
void valuesInPlace(std::vector<Fp>& coefficients) {
    forwardNtt(coefficients);
    bitReversePermute(coefficients);
}

// p(x)/(x − a) in place: p's coefficients become the quotient's (the top one 0). Returns the
// remainder p(a).
Fp divideInPlace(std::vector<Fp>& p, const Fp& a) {
    Fp carry = Fp::zero();
    Fp next = p.back();
    for (std::size_t k = p.size() - 1; k >= 1; --k) {
        carry = next + a * carry;
        next = p[k - 1];
        p[k - 1] = carry;
    }
    p.back() = Fp::zero();
    return next + a * carry;
}

// The DEEP composition's coefficients: Σ_i α^i (T_{c_i}(x) − v_i)/(x − z·g^{r_i}) over the mask
// plus Σ_k α^{M+k} (C_k(x) − w_k)/(x − z²), the divisions exact.
std::vector<Fp> deepComposition(const air::Air& air,
                                const std::vector<const std::vector<Fp>*>& columns,
                                const std::vector<const std::vector<Fp>*>& composition,
                                const std::vector<Fp>& oods, const Fp& z, const Fp& alpha,
                                const CancelFlag& cancel) {
    const std::vector<air::MaskItem>& mask = air.mask();
    const std::uint64_t n = air.traceLength();
    std::vector<Fp> powers(oods.size());
    Fp power = Fp::one();
    for (Fp& p : powers) {
        p = power;
        power *= alpha;
    }
    // Terms grouped by their point: mask rows, then z² for the composition columns.
    struct Group {
        Fp point;
        std::vector<std::pair<const std::vector<Fp>*, std::size_t>> terms; // (poly, oods index)
    };
    std::map<std::int64_t, Group> byRow;
    for (std::size_t i = 0; i < mask.size(); ++i) {
        Group& group = byRow[mask[i].row];
        const std::uint64_t e =
            std::uint64_t(((mask[i].row % std::int64_t(n)) + std::int64_t(n)) % std::int64_t(n));
        group.point = z * air.traceGenerator().pow(e);
        group.terms.emplace_back(columns[mask[i].column], i);
    }
    std::vector<Group> groups;
    for (auto& [row, group] : byRow) {
        groups.push_back(std::move(group));
    }
    Group last{z.square(), {}};
    for (std::size_t k = 0; k < composition.size(); ++k) {
        last.terms.emplace_back(composition[k], mask.size() + k);
    }
    groups.push_back(std::move(last));

    // One group at a time, each loop split over the workers: two vectors of n in all.
    std::vector<Fp> total(n);
    std::vector<Fp> p(n);
    Workers& workers = Workers::shared();
    for (const Group& group : groups) {
        cancel.check();
        Fp constant = Fp::zero();
        for (const auto& [poly, index] : group.terms) {
            constant += powers[index] * oods[index];
        }
        workers.forRange(n, 1 << 12, [&](std::size_t begin, std::size_t end) {
            for (std::size_t k = begin; k < end; ++k) {
                Fp sum = Fp::zero();
                for (const auto& [poly, index] : group.terms) {
                    sum += powers[index] * (*poly)[k];
                }
                p[k] = sum;
            }
        });
        p[0] -= constant;
        if (!divideInPlace(p, group.point).isZero()) {
            throw std::logic_error("internal error: a DEEP quotient is not exact");
        }
        workers.forRange(n, 1 << 12, [&](std::size_t begin, std::size_t end) {
            for (std::size_t k = begin; k < end; ++k) {
                total[k] += p[k];
            }
        });
    }
    return total;
}

} // namespace

ConstraintCheckFailed::ConstraintCheckFailed(ConstraintViolation violation)
    : std::runtime_error([&] {
          std::string text = "constraint " + violation.constraint + " fails at row " +
                             std::to_string(violation.row);
          for (const auto& [cell, value] : violation.cells) {
              text += "\n  " + cell + " = " + value.toFelt().toHex();
          }
          return text;
      }()),
      m_violation(std::move(violation)) {}

const std::vector<std::string>& provableLayouts() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const std::string& name : air::layoutNames()) {
            if (layoutIsProvable(*air::layoutNamed(name))) {
                out.push_back(name);
            }
        }
        return out;
    }();
    return names;
}

ProverResult proveCairoRun(const CairoRun& run, const ProverOptions& options) {
#ifdef __GLIBC__
    // The prover's vectors are megabytes each: map every one of them and give it back when freed
    // (glibc otherwise raises its mmap threshold after the first free and keeps freed columns in
    // the heap, which the next phase's peak then adds to).
    static const bool mapped = [] {
        return mallopt(M_MMAP_THRESHOLD, 1 << 20) == 1 && mallopt(M_TRIM_THRESHOLD, 1 << 20) == 1;
    }();
    (void)mapped;
#endif
    ProverResult result;
    ProgressReporter progress(options, result);
    const PublicInput& input = run.publicInput;
    const ProofParameters& parameters = options.parameters;
    const air::LayoutSpec* layoutSpec = air::layoutNamed(input.layout);
    if (!layoutSpec || !layoutIsProvable(*layoutSpec)) {
        std::string known;
        for (const std::string& name : provableLayouts()) {
            known += (known.empty() ? "" : ", ") + name;
        }
        throw std::invalid_argument("the prover does not prove layout " + input.layout +
                                    " yet; it proves " + known);
    }
    const air::LayoutSpec& layout = *layoutSpec;
    try {
        checkParametersFit(parameters, input);
    } catch (const Rejection& e) {
        throw std::invalid_argument(e.what());
    }
    const std::unique_ptr<air::Air> air = air::buildAir(layout, input.nSteps);
    const std::uint64_t n = air->traceLength();
    const int logTrace = std::countr_zero(n);
    const int logDomain = logTrace + parameters.logCosets;
    result.traceLength = n;
    result.traceColumns = layout.columnsFirst + layout.columnsInteraction;
    const CommitmentHashes hashes{*NamedHash::named(parameters.commitmentHash),
                                  *NamedHash::named(parameters.verifierFriendlyCommitmentHash),
                                  parameters.verifierFriendlyLayers};
    const CancelFlag& cancel = options.cancel;

    // The trace.
    progress.begin(0);
    std::vector<std::vector<Fp>> first;
    {
        TraceTable table(layout, n, layout.columnsFirst, 0);
        writeCpu(table, run);
        for (const air::BuiltinSpec& builtin : layout.builtins) {
            if (const BuiltinWriter writer = builtinWriters().at(builtin.name)) {
                writer(table, run);
            }
        }
        finishRangeCheck(table, run);
        if (layout.has("range_check")) {
            finishRangeCheckBuiltin(table, run);
        }
        finishDiluted(table);
        finishMemory(table, run);
        first = table.takeColumns();
    }
    std::map<std::string, Fp> values = publicValues(input, layout);
    const std::size_t publicCount = values.size();
    std::vector<std::vector<Fp>> firstValues; // kept for the checker only
    if (options.checkConstraints) {
        std::vector<std::span<const Fp>> columns = spansOf(first);
        columns.resize(result.traceColumns);
        const ConstraintEvaluator evaluator(*air, values);
        if (auto violation = evaluator.firstViolation(columns, false, cancel)) {
            throw ConstraintCheckFailed(std::move(*violation));
        }
        firstValues = first;
    }
    for (std::vector<Fp>& column : first) {
        inverseNtt(column);
    }
    releaseTransformTables();

    // The channel, and the trace's commitment.
    progress.begin(1);
    const Digest seed = *NamedHash::named(parameters.seedHash())
                             ->hashBytes(publicInputSeedBytes(input, layout, options.seedVariant,
                                                              parameters.verifierFriendlyLayers,
                                                              parameters.pageHash));
    const std::unique_ptr<Transcript> transcript = makeTranscript(parameters.channelHash, seed);
    ProofWriter writer(*transcript);
    if (options.annotations) {
        writer.enableAnnotations();
    }
    const EvaluationDomain lde{logDomain, fieldGenerator(), 1};
    CommittedTable traceTable(spansOf(first), lde, hashes, cancel);
    writer.setScope("STARK/Original/Commit on Trace");
    writer.writeCommitment(traceTable.commit([&](double fraction) { progress.report(fraction); }));

    // The interaction.
    progress.begin(2);
    writer.setScope("STARK/Interaction");
    for (const std::string& name : air->interactionElements()) {
        values[name] =
            writer.drawFelt("Interaction element #" + std::to_string(values.size() - publicCount));
    }
    values["memory/public_memory_prod"] =
        publicMemoryProduct(input, values.at("memory/perm/z"), values.at("memory/perm/alpha"),
                            n / layout.column("orig/public_memory/addr").step);
    if (layout.dilutedSpacing) {
        values["diluted/final_cum_val"] =
            dilutedFinalValue(*layout.dilutedSpacing, layout.dilutedBits, values.at("diluted/z"),
                              values.at("diluted/alpha"));
    }
    std::vector<std::vector<Fp>> interaction;
    {
        // The columns the interaction reads, as values: without the checker's copy, each is
        // lent by the trace (its buffer moved, so the trace table's views of it stay valid),
        // turned into values in place and back afterwards — no second copy of them in memory.
        const std::set<std::size_t> sourceColumns = interactionSources(layout);
        std::vector<std::vector<Fp>> sources(layout.columnsFirst);
        for (const std::size_t column : sourceColumns) {
            if (firstValues.empty()) {
                sources[column] = std::move(first[column]);
                valuesInPlace(sources[column]);
            } else {
                sources[column] = firstValues[column];
            }
        }
        TraceTable table(layout, n, layout.columnsInteraction, layout.columnsFirst);
        writeInteraction(table, sources, values);
        interaction = table.takeColumns();
        if (firstValues.empty()) {
            for (const std::size_t column : sourceColumns) {
                inverseNtt(sources[column]);
                first[column] = std::move(sources[column]);
            }
        }
    }
    if (options.checkConstraints) {
        std::vector<std::span<const Fp>> columns = spansOf(firstValues);
        for (const auto& column : interaction) {
            columns.emplace_back(column);
        }
        const ConstraintEvaluator evaluator(*air, values);
        if (auto violation = evaluator.firstViolation(columns, true, cancel)) {
            throw ConstraintCheckFailed(std::move(*violation));
        }
        firstValues.clear();
        firstValues.shrink_to_fit();
    }
    for (std::vector<Fp>& column : interaction) {
        inverseNtt(column);
    }
    releaseTransformTables();
    CommittedTable interactionTable(spansOf(interaction), lde, hashes, cancel);
    writer.setScope("STARK/Interaction/Commit on Trace");
    writer.writeCommitment(
        interactionTable.commit([&](double fraction) { progress.report(fraction); }));

    // The composition polynomial, evaluated on the two cosets of the trace domain that make the
    // coset 3·⟨ω_2N⟩, each column turned into its values there and back in place.
    progress.begin(3);
    writer.setScope("STARK/Original");
    const Fp alpha = writer.drawFelt("Constraint polynomial random element");
    std::vector<std::vector<Fp>*> all;
    for (auto& column : first) {
        all.push_back(&column);
    }
    for (auto& column : interaction) {
        all.push_back(&column);
    }
    // C on the cosets s_j·⟨g⟩, s_0 = 3, s_1 = 3·ω_2N, each interpolated alone: its coefficients
    // a_j[k] = s_j^k·(c_k + c_{k+N}·s_j^N), and s_1^N = −3^N, so with u_j[k] = a_j[k]/s_j^k:
    // c_k = (u_0 + u_1)/2 and c_{k+N} = (u_0 − u_1)/(2·3^N).
    std::array<std::vector<Fp>, 2> cosets;
    {
        const ConstraintEvaluator evaluator(*air, values);
        const Fp rootTwoN = rootOfUnity(logTrace + 1);
        for (std::uint64_t j = 0; j < 2; ++j) {
            const Fp offset = fieldGenerator() * rootTwoN.pow(j);
            std::vector<std::span<const Fp>> columns;
            for (std::vector<Fp>* column : all) {
                cancel.check();
                cosetValuesInPlace(*column, offset);
                columns.emplace_back(*column);
            }
            cosets[j].resize(n);
            evaluator.composition(columns, offset, alpha, cosets[j], cancel);
            for (std::vector<Fp>* column : all) {
                cancel.check();
                cosetCoefficientsInPlace(*column, offset);
            }
            cosetCoefficientsInPlace(cosets[j], offset);
            progress.report(0.4 * double(j + 1));
        }
    }
    // C(x) = C_0(x²) + x·C_1(x²): the even coefficients make the first column, the odd the second.
    // Made in the two coset buffers themselves: c_k into the first and c_{k+N} into the second,
    // each buffer's evens moved before its odds, then the first's odds swapped with the second's
    // evens — one extra half buffer at most.
    std::vector<std::vector<Fp>> split(2);
    {
        const Fp half = Fp::fromU64(2).inverse();
        const Fp highFactor = half * fieldGenerator().pow(n).inverse();
        Workers::shared().forRange(n, 1 << 12, [&](std::size_t begin, std::size_t end) {
            for (std::size_t k = begin; k < end; ++k) {
                const Fp u0 = cosets[0][k];
                const Fp u1 = cosets[1][k];
                cosets[0][k] = (u0 + u1) * half;       // c_k
                cosets[1][k] = (u0 - u1) * highFactor; // c_{k+N}
            }
        });
        std::vector<Fp> odds(n / 2);
        for (std::vector<Fp>& buffer : cosets) {
            for (std::size_t i = 0; i < n / 2; ++i) {
                odds[i] = buffer[2 * i + 1];
                buffer[i] = buffer[2 * i];
            }
            std::copy(odds.begin(), odds.end(), buffer.begin() + std::ptrdiff_t(n / 2));
        }
        std::swap_ranges(cosets[0].begin() + std::ptrdiff_t(n / 2), cosets[0].end(),
                         cosets[1].begin());
        split[0] = std::move(cosets[0]);
        split[1] = std::move(cosets[1]);
    }
    cosets = {};
    releaseTransformTables();
    // Blocks of 2^20 entries (the default is 2^21): with two columns the extra folding is cheap,
    // and this table is committed while the trace and interaction are held.
    CommittedTable compositionTable(spansOf(split), lde, hashes, cancel, 16, std::size_t(1) << 20);
    writer.setScope("STARK/Out Of Domain Sampling/Commit on Trace");
    writer.writeCommitment(
        compositionTable.commit([&](double fraction) { progress.report(0.8 + 0.2 * fraction); }));

    // Out-of-domain values.
    progress.begin(4);
    writer.setScope("STARK/Out Of Domain Sampling/OODS values");
    const Fp z = writer.drawFelt("Evaluation point");
    const std::vector<air::MaskItem>& mask = air->mask();
    // Each column at all its points in one pass (the composition's two columns at z²).
    std::vector<Fp> oods(mask.size() + 2);
    {
        std::map<std::size_t, std::vector<std::size_t>> itemsOf; // column -> mask indices
        for (std::size_t i = 0; i < mask.size(); ++i) {
            itemsOf[mask[i].column].push_back(i);
        }
        std::vector<std::pair<const std::vector<Fp>*, std::vector<std::size_t>>> work;
        for (const auto& [column, items] : itemsOf) {
            work.emplace_back(all[column], items);
        }
        work.emplace_back(&split[0], std::vector<std::size_t>{mask.size()});
        work.emplace_back(&split[1], std::vector<std::size_t>{mask.size() + 1});
        Workers::shared().forEach(work.size(), [&](std::size_t w) {
            const auto& [poly, items] = work[w];
            std::vector<Fp> points;
            for (const std::size_t i : items) {
                if (i >= mask.size()) {
                    points.push_back(z.square());
                    continue;
                }
                const std::int64_t row = mask[i].row;
                const std::uint64_t e =
                    std::uint64_t(((row % std::int64_t(n)) + std::int64_t(n)) % std::int64_t(n));
                points.push_back(z * air->traceGenerator().pow(e));
            }
            const std::vector<Fp> values = evaluatePolynomialAt(*poly, points);
            for (std::size_t q = 0; q < items.size(); ++q) {
                oods[items[q]] = values[q];
            }
        });
    }
    {
        const std::vector<Fp> maskValues(oods.begin(), oods.begin() + std::ptrdiff_t(mask.size()));
        if (air->compositionAt(z, maskValues, values, alpha) !=
            oods[mask.size()] + z * oods[mask.size() + 1]) {
            throw TraceError("the trace breaks the layout's constraints (the composition "
                             "polynomial does not match them at the out-of-domain point); prove "
                             "with --check to name the constraint and the row");
        }
    }
    writer.writeFelts(oods, parameters.verifierFriendlyChannelUpdates);
    writer.setScope("STARK/Out Of Domain Sampling");
    const Fp deepAlpha = writer.drawFelt("Constraint polynomial random element");
    std::vector<const std::vector<Fp>*> columnPointers(all.begin(), all.end());
    std::vector<Fp> deep =
        deepComposition(*air, columnPointers, {&split[0], &split[1]}, oods, z, deepAlpha, cancel);
    // FRI reads the first layer at u = x/3.
    scaleByPowers(deep, fieldGenerator());

    // FRI.
    progress.begin(5);
    FriParameters fri;
    fri.logDomain = logDomain;
    fri.steps = parameters.friSteps;
    fri.lastLayerDegreeBound = parameters.lastLayerDegreeBound;
    fri.queries = parameters.queries;
    fri.proofOfWorkBits = parameters.proofOfWorkBits;
    FriProver friProver(fri, hashes, cancel);
    friProver.commit(std::move(deep), writer, [&](double fraction) { progress.report(fraction); });

    progress.begin(6);
    writer.setScope("STARK/FRI/Proof of Work");
    writer.writeProofOfWork(*NamedHash::named(parameters.powHash), parameters.proofOfWorkBits,
                            Workers::shared().threads());
    writer.setScope("STARK/FRI/QueryIndices");
    std::size_t drawn = 0;
    const std::vector<std::uint64_t> queries = drawQueryIndices(fri, [&](std::uint64_t bound) {
        return writer.drawNumber(bound, std::to_string(drawn++));
    });
    writer.beginQueryPhase();

    progress.begin(7);
    const std::vector<std::uint64_t> indices = firstLayerIndices(fri, queries);
    const std::string oracle = "STARK/FRI/Decommitment/Layer 0/Virtual Oracle/Trace ";
    writer.setScope(oracle + "0");
    traceTable.decommit(writer, indices);
    progress.report(0.4);
    writer.setScope(oracle + "1");
    interactionTable.decommit(writer, indices);
    progress.report(0.6);
    writer.setScope(oracle + "2");
    compositionTable.decommit(writer, indices);
    progress.report(0.8);
    friProver.decommit(writer, queries);
    progress.finish();
    if (options.annotations) {
        result.annotations = writer.annotations();
    }
    result.proof = writer.takeBytes();
    return result;
}

} // namespace proofdesk::stark
