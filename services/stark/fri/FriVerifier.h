#pragma once

#include "commitment/TableCommitment.h"
#include "field/Fp.h"
#include "proof/ProofParameters.h"

#include <functional>
#include <map>
#include <vector>

namespace proofdesk::stark {

class ProofReader;

// FRI as Stone runs it. The first layer is the DEEP composition over the evaluation domain
// (2^logDomain points in bit-reversed order; FRI ignores the coset offset). Layer i is folded
// steps[i] times (each fold halves the domain, x ↦ x², evaluation point a ↦ a²) into layer i+1;
// layers 1 … L−1 are committed as tables of 2^steps[i] columns, the last one is sent as the
// coefficients of a polynomial of degree < lastLayerDegreeBound.
struct FriParameters {
    int logDomain = 0;
    std::vector<int> steps; // fri_step_list
    std::uint64_t lastLayerDegreeBound = 1;
    std::uint64_t queries = 0;
    int proofOfWorkBits = 0;
};

// FRI's parameters in a proof of these parameters over an evaluation domain of 2^logDomain.
FriParameters friParametersOf(const ProofParameters& parameters, int logDomain);

struct FriCommitment {
    std::optional<Fp> firstEvalPoint; // when steps[0] > 0
    std::vector<Fp> evalPoints;       // layers 1 … L−1
    std::vector<Digest> layerRoots;   // layers 1 … L−1
    std::vector<Fp> lastLayer;        // coefficients, constant term first
};

// The element at `index` of FRI's domain after `folds` folds (bit-reversed order, offset 1).
Fp friDomainElement(int logDomain, int folds, std::uint64_t index);
// One fold of f at x and −x with evaluation point a: f(x) + f(−x) + a·(f(x) − f(−x))/x.
Fp friFold(const Fp& fx, const Fp& fMinusX, const Fp& evalPoint, const Fp& xInverse);

// Reads the commitment phase (evaluation points drawn, layer roots and last layer read).
FriCommitment readFriCommitment(ProofReader& reader, const FriParameters& parameters);

// The query indices: proof of work, then `queries` draws below the size of the domain after the
// first layer's folds, sorted (duplicates kept, as Stone keeps them).
std::vector<std::uint64_t> drawFriQueries(ProofReader& reader, const FriParameters& parameters,
                                          const NamedHash& powHash);

// The query indices from a source of draws below a bound (the channel), sorted, duplicates kept
// — the part of drawFriQueries after the proof of work, shared with the prover.
std::vector<std::uint64_t>
drawQueryIndices(const FriParameters& parameters,
                 const std::function<std::uint64_t(std::uint64_t)>& draw);

// The evaluation-domain indices whose first-layer values FRI needs for these queries.
std::vector<std::uint64_t> firstLayerIndices(const FriParameters& parameters,
                                             const std::vector<std::uint64_t>& queries);

// Checks the decommitment phase: folds the first layer's values (one per index of
// firstLayerIndices) through every committed layer, reading and checking each layer's table,
// and compares with the last layer polynomial. Throws Rejection (Stage::Fri) naming the layer.
void verifyFriDecommitment(ProofReader& reader, const FriParameters& parameters,
                           const FriCommitment& commitment,
                           const std::vector<std::uint64_t>& queries,
                           const std::map<std::uint64_t, Fp>& firstLayer,
                           const CommitmentHashes& hashes);

} // namespace proofdesk::stark
