#include "StarkVerifier.h"

#include "air/Air.h"
#include "channel/ProofReader.h"
#include "fri/FriVerifier.h"

#include <bit>
#include <mutex>
#include <numeric>
#include <set>
#include <tuple>

namespace proofdesk::stark {
namespace {

// Building a layout's AIR is cheap but not free (the keccak layout has thousands of nodes):
// keep the last few per (layout, steps).
std::shared_ptr<const air::Air> cachedAir(const air::LayoutSpec& layout, std::uint64_t nSteps) {
    static std::mutex mutex;
    using Key = std::tuple<std::string, air::LayoutParameters, std::uint64_t>;
    static std::map<Key, std::shared_ptr<const air::Air>> cache;
    const std::lock_guard lock(mutex);
    Key key{layout.name, layout.parameters, nSteps};
    if (const auto it = cache.find(key); it != cache.end()) {
        return it->second;
    }
    if (cache.size() >= 16) {
        cache.clear();
    }
    std::shared_ptr<const air::Air> air = air::buildAir(layout, nSteps);
    cache[std::move(key)] = air;
    return air;
}

std::shared_ptr<const air::LayoutSpec> layoutOf(const PublicInput& input) {
    try {
        return air::layoutFor(input.layout, input.dynamicParams);
    } catch (const std::runtime_error& e) {
        throw Rejection(Stage::Parameters, e.what());
    }
}

// The rows each table decommitted, by query index.
struct DecommittedRows {
    const std::map<std::uint64_t, std::vector<Fp>>* trace;
    const std::map<std::uint64_t, std::vector<Fp>>* interaction;
    const std::map<std::uint64_t, std::vector<Fp>>* composition;
};

// FRI's first layer at the queried points: the DEEP composition
// Σ_i α^i (T_{c_i}(x) − v_i)/(x − z·g^{r_i}) + Σ_k α^{M+k} (C_k(x) − w_k)/(x − z²), from the
// decommitted rows and the out-of-domain values.
std::map<std::uint64_t, Fp> deepAtQueries(const air::Air& air, std::size_t columnsFirst,
                                          int logDomain, const std::vector<std::uint64_t>& indices,
                                          const DecommittedRows& tables,
                                          const std::vector<Fp>& oods, const Fp& z,
                                          const Fp& deepAlpha) {
    const std::vector<air::MaskItem>& mask = air.mask();
    const Fp& generator = air.traceGenerator();
    std::map<std::int64_t, Fp> shiftedPoints;
    for (const air::MaskItem& item : air.mask()) {
        if (!shiftedPoints.contains(item.row)) {
            const std::uint64_t n = air.traceLength();
            const std::uint64_t e =
                std::uint64_t(((item.row % std::int64_t(n)) + std::int64_t(n)) % std::int64_t(n));
            shiftedPoints[item.row] = z * generator.pow(e);
        }
    }
    const Fp zSquared = z.square();
    std::map<std::uint64_t, Fp> firstLayer;
    for (const std::uint64_t index : indices) {
        const Fp x = fieldGenerator() * friDomainElement(logDomain, 0, index);
        std::vector<Fp> inverses;
        std::map<std::int64_t, std::size_t> slot;
        for (const auto& [row, point] : shiftedPoints) {
            slot[row] = inverses.size();
            inverses.push_back(x - point);
        }
        inverses.push_back(x - zSquared);
        invertAll(inverses);
        const std::vector<Fp>& first = tables.trace->at(index);
        const std::vector<Fp>& second = tables.interaction->at(index);
        Fp sum = Fp::zero();
        Fp coefficient = Fp::one();
        for (std::size_t i = 0; i < mask.size(); ++i) {
            const air::MaskItem& item = air.mask()[i];
            const Fp& cell = item.column < columnsFirst ? first[item.column]
                                                        : second[item.column - columnsFirst];
            sum += coefficient * (cell - oods[i]) * inverses[slot[item.row]];
            coefficient *= deepAlpha;
        }
        const std::vector<Fp>& composition = tables.composition->at(index);
        for (std::size_t k = 0; k < 2; ++k) {
            sum += coefficient * (composition[k] - oods[mask.size() + k]) * inverses.back();
            coefficient *= deepAlpha;
        }
        firstLayer[index] = sum;
    }

    return firstLayer;
}

} // namespace

void checkParametersFit(const ProofParameters& parameters, const PublicInput& input) {
    const std::shared_ptr<const air::LayoutSpec> layoutSpec = layoutOf(input);
    const air::LayoutSpec& layout = *layoutSpec;
    validatePublicInput(input, layout);
    const int logTrace = std::countr_zero(input.nSteps * layout.cpuRows());
    const int logDomain = logTrace + parameters.logCosets;
    if (parameters.logCosets < 1) {
        throw Rejection(Stage::Parameters,
                        "log_n_cosets is 0: the composition of degree 2 needs at least 2 cosets");
    }
    if (logDomain > 40) {
        throw Rejection(Stage::Parameters, "the evaluation domain of 2^" +
                                               std::to_string(logDomain) + " points is too large");
    }
    const int stepSum = std::accumulate(parameters.friSteps.begin(), parameters.friSteps.end(), 0);
    const int logLast = std::countr_zero(parameters.lastLayerDegreeBound);
    if (stepSum + logLast != logTrace) {
        throw Rejection(Stage::Parameters,
                        "FRI steps sum to " + std::to_string(stepSum) +
                            " and the last layer has 2^" + std::to_string(logLast) +
                            " coefficients, but the trace needs 2^" + std::to_string(logTrace) +
                            " (steps + log2(last layer) = " + std::to_string(logTrace) + ")");
    }
}

VerificationTrace verifyStark(const ProofParameters& parameters, const PublicInput& input,
                              SeedVariant variant, std::vector<std::uint8_t> proof) {
    checkParametersFit(parameters, input);
    const std::shared_ptr<const air::LayoutSpec> layoutSpec = layoutOf(input);
    const air::LayoutSpec& layout = *layoutSpec;
    std::shared_ptr<const air::Air> air;
    try {
        air = cachedAir(layout, input.nSteps);
    } catch (const std::exception& e) {
        throw Rejection(Stage::Parameters, e.what());
    }
    const std::uint64_t traceLength = air->traceLength();
    const int logTrace = std::countr_zero(traceLength);
    const int logDomain = logTrace + parameters.logCosets;

    VerificationTrace trace;
    trace.maskSize = air->mask().size();
    trace.constraints = air->constraints().size();
    trace.proofBytes = proof.size();

    const std::vector<std::uint8_t> seedBytes = publicInputSeedBytes(
        input, layout, variant, parameters.verifierFriendlyLayers, parameters.pageHash);
    const auto seed = NamedHash::named(parameters.seedHash())->hashBytes(seedBytes);
    auto transcript = seed ? makeTranscript(parameters.channelHash, *seed) : nullptr;
    if (!transcript) {
        throw Rejection(Stage::Parameters, "the channel cannot start from the public input");
    }
    ProofReader reader(std::move(proof), *transcript);
    std::size_t sectionStart = 0;
    const auto section = [&](const std::string& name) {
        trace.sections.push_back({name, sectionStart, reader.position()});
        sectionStart = reader.position();
    };

    // Commitments, interaction, composition.
    const Digest traceRoot = reader.readCommitment("the trace commitment");
    section("trace commitment");
    std::map<std::string, Fp> values = publicValues(input, layout);
    std::vector<Fp> interaction;
    for (const std::string& name : air->interactionElements()) {
        values[name] = reader.drawFelt();
    }
    addInteractionProducts(values, input, layout, traceLength);
    const Digest interactionRoot = reader.readCommitment("the interaction trace commitment");
    section("interaction commitment");
    const Fp constraintAlpha = reader.drawFelt();
    const Digest compositionRoot = reader.readCommitment("the composition commitment");
    section("composition commitment");

    // Out-of-domain sampling.
    const Fp z = reader.drawFelt();
    const std::size_t maskSize = air->mask().size();
    const std::vector<Fp> oods = reader.readFelts(
        maskSize + 2, parameters.verifierFriendlyChannelUpdates, "the out-of-domain values");
    section("out-of-domain values");
    const std::vector<Fp> maskValues(oods.begin(), oods.begin() + std::ptrdiff_t(maskSize));
    const Fp traceSide = air->compositionAt(z, maskValues, values, constraintAlpha);
    const Fp compositionSide = oods[maskSize] + oods[maskSize + 1] * z;
    if (traceSide != compositionSide) {
        throw Rejection(Stage::OutOfDomain,
                        "out-of-domain check: the layout's constraints at the sampled point differ "
                        "from the committed composition (wrong statement, layout or seed)");
    }
    const Fp deepAlpha = reader.drawFelt();

    // FRI.
    const FriParameters fri = friParametersOf(parameters, logDomain);
    const FriCommitment friCommitment = readFriCommitment(reader, fri);
    section("FRI commitments and last layer");
    const std::vector<std::uint64_t> queries =
        drawFriQueries(reader, fri, *NamedHash::named(parameters.powHash));
    section("proof-of-work nonce");
    reader.beginQueryPhase();

    // The traces at the queried points of the evaluation domain.
    const CommitmentHashes hashes{*NamedHash::named(parameters.commitmentHash),
                                  *NamedHash::named(parameters.verifierFriendlyCommitmentHash),
                                  parameters.verifierFriendlyLayers};
    const std::vector<std::uint64_t> indices = firstLayerIndices(fri, queries);
    const std::uint64_t domainSize = std::uint64_t(1) << logDomain;
    const auto original = decommitTable(reader, {domainSize, layout.columnsFirst}, traceRoot,
                                        indices, {}, hashes, Stage::Decommitment, "the trace");
    section("trace decommitment");
    const auto interactionRows =
        decommitTable(reader, {domainSize, layout.columnsInteraction}, interactionRoot, indices, {},
                      hashes, Stage::Decommitment, "the interaction trace");
    section("interaction decommitment");
    const auto compositionRows = decommitTable(reader, {domainSize, 2}, compositionRoot, indices,
                                               {}, hashes, Stage::Decommitment, "the composition");
    section("composition decommitment");

    // The DEEP composition at each of them.
    const std::map<std::uint64_t, Fp> firstLayer =
        deepAtQueries(*air, layout.columnsFirst, logDomain, indices,
                      {&original, &interactionRows, &compositionRows}, oods, z, deepAlpha);

    verifyFriDecommitment(reader, fri, friCommitment, queries, firstLayer, hashes);
    section("FRI decommitments");
    if (reader.remaining() != 0) {
        throw Rejection(Stage::Transcript, "the proof has " + withThousands(reader.remaining()) +
                                               " bytes after its last decommitment");
    }
    return trace;
}

} // namespace proofdesk::stark
