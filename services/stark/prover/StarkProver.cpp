#include "StarkProver.h"

#include "Composition.h"
#include "ConstraintEvaluator.h"
#include "Rejection.h"
#include "air/Air.h"
#include "algebra/Ntt.h"
#include "algebra/Polynomials.h"
#include "channel/ProofWriter.h"
#include "commitment/CommittedTable.h"
#include "fri/FriProver.h"
#include "prover/trace/TraceComponents.h"
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
        {"range_check",
         [](TraceTable& trace, const CairoRun& run) {
             writeRangeCheckBuiltin(trace, run, "range_check");
         }},
        {"range_check96",
         [](TraceTable& trace, const CairoRun& run) {
             writeRangeCheckBuiltin(trace, run, "range_check96");
         }},
        {"ecdsa", writeEcdsa},
        {"bitwise", writeBitwise},
        {"ec_op", writeEcOp},
        {"keccak", writeKeccak},
        {"poseidon", writePoseidon},
        {"add_mod", writeAddMod},
        {"mul_mod", writeMulMod},
    };
    return writers;
}

// The first builtin of the layout whose trace cells the prover cannot fill (one the run uses and
// the layout constrains, without a writer), or nullptr.
const air::BuiltinSpec* unprovableBuiltin(const air::LayoutSpec& layout) {
    for (const air::BuiltinSpec& builtin : layout.builtins) {
        if (builtin.used && builtin.constrained && !builtinWriters().contains(builtin.name)) {
            return &builtin;
        }
    }
    return nullptr;
}

// The phases, and the share of a run's time each takes (for the overall fraction, from which
// the server estimates the time left): measured on fibonacci, small, 96 bits, with the `time`
// profile's blow-up 2 (2^16 steps; proof of work at its expected 2^24 hashes) and the `size`
// profile's 16 (2^15 steps; the larger blow-up makes the trace commitment dominate, the smaller
// composition). Issue #47: one table for both estimated a 3:47 proof at 2:25.
constexpr std::size_t kPhaseCount = 8;
constexpr const char* kPhaseNames[kPhaseCount] = {
    "trace", "trace commitment", "interaction", "composition", "out of domain",
    "fri",   "proof of work",    "decommitment"};
constexpr double kSmallBlowUpWeights[kPhaseCount] = {0.11, 0.14, 0.06, 0.47,
                                                     0.12, 0.01, 0.04, 0.05};
constexpr double kLargeBlowUpWeights[kPhaseCount] = {0.05, 0.43, 0.07, 0.25,
                                                     0.06, 0.02, 0.06, 0.06};

class ProgressReporter {
public:
    ProgressReporter(const ProverOptions& options, ProverResult& result)
        : m_options(options), m_result(result),
          m_weights(options.parameters.logCosets <= 2 ? kSmallBlowUpWeights : kLargeBlowUpWeights) {
    }

    void begin(std::size_t phase) {
        finish();
        m_phase = phase;
        m_started = Clock::now();
        report(0);
    }
    void report(double fraction) const {
        m_options.cancel.check();
        publish(fraction);
    }
    void finish() {
        if (m_phase == kNone) {
            return;
        }
        publish(1); // the phase is over, whatever its last report said
        m_result.timings.push_back(
            {kPhaseNames[m_phase],
             std::chrono::duration<double>(Clock::now() - m_started).count()});
        m_phase = kNone;
    }

private:
    void publish(double fraction) const {
        if (!m_options.progress) {
            return;
        }
        double done = 0;
        for (std::size_t i = 0; i < m_phase; ++i) {
            done += m_weights[i];
        }
        done += m_weights[m_phase] * std::clamp(fraction, 0.0, 1.0);
        m_options.progress({kPhaseNames[m_phase], done});
    }

    static constexpr std::size_t kNone = ~std::size_t(0);
    const ProverOptions& m_options;
    ProverResult& m_result;
    const double* m_weights;
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

// The layout a run's public input names (with its dynamic_params for `dynamic`), if the prover
// proves it; otherwise invalid_argument saying why and naming the layouts it proves.
std::shared_ptr<const air::LayoutSpec> provableLayout(const PublicInput& input) {
    std::string known;
    for (const std::string& provable : provableLayouts()) {
        known += (known.empty() ? "" : ", ") + provable;
    }
    std::shared_ptr<const air::LayoutSpec> layout;
    try {
        layout = air::layoutFor(input.layout, input.dynamicParams);
    } catch (const std::runtime_error& e) {
        throw std::invalid_argument(std::string(e.what()) + "; the prover proves " + known);
    }
    if (const air::BuiltinSpec* builtin = unprovableBuiltin(*layout)) {
        throw std::invalid_argument("layout " + input.layout + " with the " + builtin->name +
                                    " builtin is not proven yet; the prover proves " + known);
    }
    // A proof would say nothing about the instances of a builtin the layout leaves unconstrained.
    for (const air::BuiltinSpec& builtin : layout->builtins) {
        const MemorySegment* segment = input.segment(builtin.name);
        if (!builtin.constrained && segment && segment->stop > segment->begin) {
            throw std::invalid_argument(
                "layout " + input.layout + " does not constrain the " + builtin.name +
                " builtin (as Stone's layout), so its use by the run would go unproven; prove "
                "on layout dynamic (without a layout params file, the run takes Proofdesk's "
                "placement, which constrains it)");
        }
    }
    return layout;
}

// The trace's columns as values: the CPU, each builtin of the layout, then the pools (range
// checks with their holes filled, the diluted pool, memory with its sorted copy).
std::vector<std::vector<Fp>> traceValues(const air::LayoutSpec& layout, std::uint64_t n,
                                         const CairoRun& run) {
    TraceTable table(layout, n, layout.columnsFirst, 0, periodicColumns(layout, run, n));
    writeCpu(table, run);
    for (const air::BuiltinSpec& builtin : layout.builtins) {
        if (!builtin.constrained || !builtin.used) {
            continue; // segments only (all_cairo's add_mod and mul_mod), or a dynamic layout's
                      // builtin the run leaves out
        }
        if (const BuiltinWriter writer = builtinWriters().at(builtin.name)) {
            writer(table, run);
        }
    }
    finishRangeCheck(table, run);
    for (const char* name : {"range_check", "range_check96"}) {
        if (const air::BuiltinSpec* builtin = layout.builtin(name); builtin && builtin->used) {
            finishRangeCheckBuiltin(table, run, name);
        }
    }
    finishDiluted(table);
    finishMemory(table, run);
    return table.takeColumns();
}

// The interaction's columns as values (the grand products), from the trace's coefficients
// `first`, or from `firstValues` when the checker kept them. Without them, each column the
// interaction reads is lent by the trace (its buffer moved, so the trace table's views of it stay
// valid), turned into values in place and back afterwards — no second copy of them in memory.
std::vector<std::vector<Fp>> interactionValues(const air::LayoutSpec& layout, std::uint64_t n,
                                               std::vector<std::vector<Fp>>& first,
                                               const std::vector<std::vector<Fp>>& firstValues,
                                               const std::map<std::string, Fp>& values) {
    const std::set<std::size_t> sourceColumns = interactionSources(layout);
    std::vector<std::vector<Fp>> sources(layout.columnsFirst);
    for (const std::size_t column : sourceColumns) {
        if (first[column].size() != n) {
            throw std::logic_error("internal error: a pool column is periodic");
        }
        if (firstValues.empty()) {
            sources[column] = std::move(first[column]);
            valuesInPlace(sources[column]);
        } else {
            sources[column] = firstValues[column];
        }
    }
    TraceTable table(layout, n, layout.columnsInteraction, layout.columnsFirst);
    writeInteraction(table, sources, values);
    if (firstValues.empty()) {
        for (const std::size_t column : sourceColumns) {
            inverseNtt(sources[column]);
            first[column] = std::move(sources[column]);
        }
    }
    return table.takeColumns();
}

// --check: every constraint on every row of its domain (the interaction's with `interaction`),
// or ConstraintCheckFailed naming the first one violated.
void checkConstraints(const air::Air& air, const std::map<std::string, Fp>& values,
                      const std::vector<std::vector<Fp>>& first,
                      const std::vector<std::vector<Fp>>* interaction, std::size_t columnCount,
                      const CancelFlag& cancel) {
    std::vector<std::span<const Fp>> columns = spansOf(first);
    if (interaction) {
        for (const auto& column : *interaction) {
            columns.emplace_back(column);
        }
    } else {
        columns.resize(columnCount);
    }
    const ConstraintEvaluator evaluator(air, values);
    if (auto violation = evaluator.firstViolation(columns, interaction != nullptr, cancel)) {
        throw ConstraintCheckFailed(std::move(*violation));
    }
}

// Values become coefficients, column by column.
void interpolate(std::vector<std::vector<Fp>>& columns) {
    for (std::vector<Fp>& column : columns) {
        inverseNtt(column);
    }
    releaseTransformTables();
}

// The interaction's random elements drawn from the channel (after the trace's commitment), and
// the values they fix: the public memory's product and the diluted check's final value.
void drawInteraction(ProofWriter& writer, const air::Air& air, const air::LayoutSpec& layout,
                     const PublicInput& input, std::map<std::string, Fp>& values) {
    const std::size_t publicCount = values.size();
    for (const std::string& name : air.interactionElements()) {
        values[name] =
            writer.drawFelt("Interaction element #" + std::to_string(values.size() - publicCount));
    }
    addInteractionProducts(values, input, layout, air.traceLength());
}

// FRI on the DEEP composition, the proof of work, the query indices, and the decommitments of
// the three committed tables (trace, interaction, composition) and of FRI's layers at them.
void proveLowDegree(std::vector<Fp> deep, int logDomain, const ProofParameters& parameters,
                    const CommitmentHashes& hashes, const CancelFlag& cancel, ProofWriter& writer,
                    ProgressReporter& progress, const std::array<CommittedTable*, 3>& tables) {
    progress.begin(5);
    const FriParameters fri = friParametersOf(parameters, logDomain);
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
    tables[0]->decommit(writer, indices);
    progress.report(0.4);
    writer.setScope(oracle + "1");
    tables[1]->decommit(writer, indices);
    progress.report(0.6);
    writer.setScope(oracle + "2");
    tables[2]->decommit(writer, indices);
    progress.report(0.8);
    friProver.decommit(writer, queries);
}

// The out-of-domain point z drawn, the values there sent (after checking that they satisfy the
// constraints: a trace that does not fails here, pointing to --check), and the DEEP composition of
// every column with them, its coefficients scaled for FRI's first layer (read at u = x/3).
std::vector<Fp> outOfDomainSampling(const air::Air& air, const std::map<std::string, Fp>& values,
                                    const Fp& alpha, const std::vector<std::vector<Fp>*>& all,
                                    const std::vector<std::vector<Fp>>& halves,
                                    bool verifierFriendlyUpdates, ProofWriter& writer,
                                    const CancelFlag& cancel) {
    const Fp z = writer.drawFelt("Evaluation point");
    const std::vector<Fp> oods = outOfDomainValues(air, all, halves, z);
    const std::size_t maskSize = air.mask().size();
    const std::vector<Fp> maskValues(oods.begin(), oods.begin() + std::ptrdiff_t(maskSize));
    if (air.compositionAt(z, maskValues, values, alpha) !=
        oods[maskSize] + z * oods[maskSize + 1]) {
        throw TraceError("the trace breaks the layout's constraints (the composition "
                         "polynomial does not match them at the out-of-domain point); prove "
                         "with --check to name the constraint and the row");
    }
    writer.writeFelts(oods, verifierFriendlyUpdates);
    writer.setScope("STARK/Out Of Domain Sampling");
    const Fp deepAlpha = writer.drawFelt("Constraint polynomial random element");
    std::vector<Fp> deep =
        deepComposition(air, all, {&halves[0], &halves[1]}, oods, z, deepAlpha, cancel);
    scaleByPowers(deep, fieldGenerator());

    return deep;
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
            const air::LayoutSpec* layout = air::layoutNamed(name); // nullptr: parametric
            if (!layout || !unprovableBuiltin(*layout)) {           // `dynamic`: if its run allows
                out.push_back(name);
            }
        }
        return out;
    }();
    return names;
}

std::uint64_t traceRows(const PublicInput& input) {
    std::uint64_t stepRows = 16;
    try {
        stepRows = air::layoutFor(input.layout, input.dynamicParams)->cpuRows();
    } catch (const std::runtime_error&) {
        // the prover refuses the layout, saying why
    }
    return input.nSteps * stepRows;
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
    const std::shared_ptr<const air::LayoutSpec> provable = provableLayout(input);
    const air::LayoutSpec& layout = *provable;
    try {
        checkParametersFit(parameters, input);
    } catch (const Rejection& e) {
        throw std::invalid_argument(e.what());
    }
    const std::unique_ptr<air::Air> air = air::buildAir(layout, input.nSteps);
    const std::uint64_t n = air->traceLength();
    const int logDomain = std::countr_zero(n) + parameters.logCosets;
    result.traceLength = n;
    result.traceColumns = layout.columnsFirst + layout.columnsInteraction;
    const CommitmentHashes hashes{*NamedHash::named(parameters.commitmentHash),
                                  *NamedHash::named(parameters.verifierFriendlyCommitmentHash),
                                  parameters.verifierFriendlyLayers};
    const CancelFlag& cancel = options.cancel;
    const auto report = [&](double fraction) { progress.report(fraction); };

    // The trace.
    progress.begin(0);
    std::vector<std::vector<Fp>> first = traceValues(layout, n, run);
    std::map<std::string, Fp> values = publicValues(input, layout);
    std::vector<std::vector<Fp>> firstValues; // kept for the checker only
    if (options.checkConstraints) {
        checkConstraints(*air, values, first, nullptr, result.traceColumns, cancel);
        firstValues = first;
    }
    interpolate(first);

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
    writer.writeCommitment(traceTable.commit(report));

    // The interaction.
    progress.begin(2);
    writer.setScope("STARK/Interaction");
    drawInteraction(writer, *air, layout, input, values);
    std::vector<std::vector<Fp>> interaction =
        interactionValues(layout, n, first, firstValues, values);
    if (options.checkConstraints) {
        checkConstraints(*air, values, firstValues, &interaction, result.traceColumns, cancel);
        firstValues.clear();
        firstValues.shrink_to_fit();
    }
    interpolate(interaction);
    CommittedTable interactionTable(spansOf(interaction), lde, hashes, cancel);
    writer.setScope("STARK/Interaction/Commit on Trace");
    writer.writeCommitment(interactionTable.commit(report));

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
    const std::vector<std::vector<Fp>> halves =
        compositionHalves(*air, values, all, alpha, cancel,
                          [&](double fraction) { progress.report(0.8 * fraction); });
    releaseTransformTables();
    CommittedTable compositionTable(spansOf(halves), lde, hashes, cancel);
    writer.setScope("STARK/Out Of Domain Sampling/Commit on Trace");
    writer.writeCommitment(
        compositionTable.commit([&](double fraction) { progress.report(0.8 + 0.2 * fraction); }));

    // Out-of-domain values.
    progress.begin(4);
    writer.setScope("STARK/Out Of Domain Sampling/OODS values");
    std::vector<Fp> deep =
        outOfDomainSampling(*air, values, alpha, all, halves,
                            parameters.verifierFriendlyChannelUpdates, writer, cancel);

    // FRI, proof of work and the decommitments.
    proveLowDegree(std::move(deep), logDomain, parameters, hashes, cancel, writer, progress,
                   {&traceTable, &interactionTable, &compositionTable});
    progress.finish();
    if (options.annotations) {
        result.annotations = writer.annotations();
    }
    result.proof = writer.takeBytes();
    return result;
}

} // namespace proofdesk::stark
