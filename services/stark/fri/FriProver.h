#pragma once

#include "FriVerifier.h"
#include "commitment/CommittedTable.h"

#include <functional>
#include <memory>
#include <vector>

namespace proofdesk::stark {

class ProofWriter;

// FRI on the prover's side, in coefficient form: folding a polynomial is a linear map on its
// coefficients (2·(even + β·odd)), so every layer is kept as coefficients and only committed
// layers are evaluated (as CommittedTables over the subgroup of their size).
class FriProver {
public:
    FriProver(FriParameters parameters, CommitmentHashes hashes, CancelFlag cancel = {});

    // The commitment phase from the first layer's polynomial — in FRI's variable u, i.e. the
    // DEEP composition at 3u — drawing the evaluation points, committing layers 1 … L−1 and
    // sending the last layer's coefficients, as readFriCommitment reads them.
    void commit(std::vector<Fp> firstLayer, ProofWriter& writer,
                const std::function<void(double)>& progress = {});
    // The decommitment phase for the (sorted) queries, as verifyFriDecommitment reads it.
    void decommit(ProofWriter& writer, const std::vector<std::uint64_t>& queries) const;

private:
    FriParameters m_parameters;
    CommitmentHashes m_hashes;
    CancelFlag m_cancel;
    std::vector<std::vector<Fp>> m_layers; // layers 1 … L−1, coefficients
    std::vector<std::unique_ptr<CommittedTable>> m_tables;
};

} // namespace proofdesk::stark
