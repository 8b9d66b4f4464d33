#include "FriVerifier.h"

#include "channel/ProofReader.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace proofdesk::stark {

Fp friDomainElement(int logDomain, int folds, std::uint64_t index) {
    const int logSize = logDomain - folds;
    return rootOfUnity(logSize).pow(bitReverse(index, logSize));
}

Fp friFold(const Fp& fx, const Fp& fMinusX, const Fp& evalPoint, const Fp& xInverse) {
    return fx + fMinusX + evalPoint * (fx - fMinusX) * xInverse;
}

namespace {

// Folds a coset of 2^step values of the layer that has had `folds` folds so far, whose first
// element sits at `firstIndex`, down to one value.
Fp foldCoset(std::vector<Fp> values, Fp evalPoint, int logDomain, int folds,
             std::uint64_t firstIndex) {
    while (values.size() > 1) {
        const int logSize = logDomain - folds;
        const Fp inverseRoot = inverseRootOfUnity(logSize);
        std::vector<Fp> next;
        next.reserve(values.size() / 2);
        for (std::size_t j = 0; j < values.size(); j += 2) {
            const Fp xInverse = inverseRoot.pow(bitReverse(firstIndex + j, logSize));
            next.push_back(friFold(values[j], values[j + 1], evalPoint, xInverse));
        }
        values = std::move(next);
        evalPoint = evalPoint.square();
        firstIndex /= 2;
        ++folds;
    }
    return values.front();
}

Fp horner(const std::vector<Fp>& coefficients, const Fp& x) {
    Fp value = Fp::zero();
    for (std::size_t i = coefficients.size(); i-- > 0;) {
        value = value * x + coefficients[i];
    }
    return value;
}

} // namespace

FriCommitment readFriCommitment(ProofReader& reader, const FriParameters& parameters) {
    FriCommitment commitment;
    const std::size_t layers = parameters.steps.size();
    for (std::size_t i = 0; i < layers; ++i) {
        if (i == 0) {
            if (parameters.steps[0] != 0) {
                commitment.firstEvalPoint = reader.drawFelt();
            }
        } else {
            commitment.evalPoints.push_back(reader.drawFelt());
        }
        if (i + 1 < layers) {
            commitment.layerRoots.push_back(
                reader.readCommitment("the commitment of FRI layer " + std::to_string(i + 1)));
        }
    }
    commitment.lastLayer = reader.readFelts(parameters.lastLayerDegreeBound, true,
                                            "the coefficients of the FRI last layer");
    return commitment;
}

std::vector<std::uint64_t>
drawQueryIndices(const FriParameters& parameters,
                 const std::function<std::uint64_t(std::uint64_t)>& draw) {
    const std::uint64_t bound = std::uint64_t(1)
                                << (parameters.logDomain - parameters.steps.front());
    std::vector<std::uint64_t> queries;
    queries.reserve(parameters.queries);
    for (std::uint64_t i = 0; i < parameters.queries; ++i) {
        queries.push_back(draw(bound));
    }
    std::sort(queries.begin(), queries.end());
    return queries;
}

std::vector<std::uint64_t> drawFriQueries(ProofReader& reader, const FriParameters& parameters,
                                          const NamedHash& powHash) {
    reader.readProofOfWork(powHash, parameters.proofOfWorkBits);
    return drawQueryIndices(parameters,
                            [&](std::uint64_t bound) { return reader.drawNumber(bound); });
}

std::vector<std::uint64_t> firstLayerIndices(const FriParameters& parameters,
                                             const std::vector<std::uint64_t>& queries) {
    const std::uint64_t coset = std::uint64_t(1) << parameters.steps.front();
    std::set<std::uint64_t> indices;
    for (const std::uint64_t query : queries) {
        for (std::uint64_t k = 0; k < coset; ++k) {
            indices.insert(query * coset + k);
        }
    }
    return {indices.begin(), indices.end()};
}

void verifyFriDecommitment(ProofReader& reader, const FriParameters& parameters,
                           const FriCommitment& commitment,
                           const std::vector<std::uint64_t>& queries,
                           const std::map<std::uint64_t, Fp>& firstLayer,
                           const CommitmentHashes& hashes) {
    const int firstStep = parameters.steps.front();
    const std::uint64_t firstCoset = std::uint64_t(1) << firstStep;
    std::vector<Fp> results;
    results.reserve(queries.size());
    for (const std::uint64_t query : queries) {
        std::vector<Fp> coset;
        coset.reserve(firstCoset);
        for (std::uint64_t k = 0; k < firstCoset; ++k) {
            coset.push_back(firstLayer.at(query * firstCoset + k));
        }
        results.push_back(foldCoset(std::move(coset), commitment.firstEvalPoint.value_or(Fp()),
                                    parameters.logDomain, 0, query * firstCoset));
    }

    int folds = firstStep;   // folds before the current layer
    int foldsSinceFirst = 0; // folds between the first committed layer and the current one
    for (std::size_t layer = 1; layer < parameters.steps.size(); ++layer) {
        const int step = parameters.steps[layer];
        const std::uint64_t cosetSize = std::uint64_t(1) << step;
        const std::string name = "FRI layer " + std::to_string(layer);
        std::map<Cell, Fp> known;
        std::set<std::uint64_t> rowSet;
        for (std::size_t j = 0; j < queries.size(); ++j) {
            const std::uint64_t index = queries[j] >> foldsSinceFirst;
            known.emplace(Cell{index >> step, std::size_t(index & (cosetSize - 1))}, results[j]);
            rowSet.insert(index >> step);
        }
        const TableShape shape{(std::uint64_t(1) << (parameters.logDomain - folds)) / cosetSize,
                               std::size_t(cosetSize)};
        const auto rows =
            decommitTable(reader, shape, commitment.layerRoots[layer - 1],
                          {rowSet.begin(), rowSet.end()}, known, hashes, Stage::Fri, name);
        for (std::size_t j = 0; j < queries.size(); ++j) {
            const std::uint64_t row = (queries[j] >> foldsSinceFirst) >> step;
            results[j] = foldCoset(rows.at(row), commitment.evalPoints[layer - 1],
                                   parameters.logDomain, folds, row * cosetSize);
        }
        folds += step;
        foldsSinceFirst += step;
    }

    for (std::size_t j = 0; j < queries.size(); ++j) {
        const std::uint64_t index = queries[j] >> foldsSinceFirst;
        const Fp x = friDomainElement(parameters.logDomain, folds, index);
        if (horner(commitment.lastLayer, x) != results[j]) {
            throw Rejection(Stage::Fri, "FRI last layer: query " + std::to_string(j) + " (index " +
                                            std::to_string(queries[j]) +
                                            ") does not match the last layer's polynomial");
        }
    }
}

FriParameters friParametersOf(const ProofParameters& parameters, int logDomain) {
    FriParameters fri;
    fri.logDomain = logDomain;
    fri.steps = parameters.friSteps;
    fri.lastLayerDegreeBound = parameters.lastLayerDegreeBound;
    fri.queries = parameters.queries;
    fri.proofOfWorkBits = parameters.proofOfWorkBits;
    return fri;
}

} // namespace proofdesk::stark
