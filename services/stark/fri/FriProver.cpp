#include "FriProver.h"

#include "algebra/Polynomials.h"
#include "channel/ProofWriter.h"

#include <bit>
#include <stdexcept>

namespace proofdesk::stark {

FriProver::FriProver(FriParameters parameters, CommitmentHashes hashes, CancelFlag cancel)
    : m_parameters(std::move(parameters)), m_hashes(std::move(hashes)), m_cancel(cancel) {}

void FriProver::commit(std::vector<Fp> layer, ProofWriter& writer,
                       const std::function<void(double)>& progress) {
    const std::vector<int>& steps = m_parameters.steps;
    int folds = 0;
    // A committed layer is moved into m_layers (reserved, so never reallocated), not copied;
    // the next fold reads it there.
    const auto fold = [&](int times, Fp beta) {
        for (int i = 0; i < times; ++i) {
            layer = foldPolynomial(layer.empty() ? m_layers.back() : layer, beta);
            beta = beta.square();
            ++folds;
        }
    };
    m_layers.reserve(steps.size());
    for (std::size_t i = 0; i < steps.size(); ++i) {
        m_cancel.check();
        writer.setScope("STARK/FRI/Commitment/Layer " + std::to_string(i + 1));
        if (i > 0 || steps[0] != 0) {
            fold(steps[i], writer.drawFelt("Evaluation point"));
        }
        if (i + 1 < steps.size()) {
            if (layer.empty()) { // a step of 0 after the first: the same layer again
                layer = m_layers.back();
            }
            m_layers.push_back(std::move(layer));
            layer = {};
            const EvaluationDomain domain{m_parameters.logDomain - folds, Fp::one(),
                                          std::size_t(1) << steps[i + 1]};
            // One column: blocks of 2^20 entries cost little extra folding and half the memory.
            auto table = std::make_unique<CommittedTable>(
                std::vector<std::span<const Fp>>{m_layers.back()}, domain, m_hashes, m_cancel, 16,
                std::size_t(1) << 20);
            writer.writeCommitment(table->commit());
            m_tables.push_back(std::move(table));
            if (progress) {
                progress(double(i + 1) / double(steps.size()));
            }
        }
    }
    if (layer.size() != m_parameters.lastLayerDegreeBound) {
        throw std::logic_error("FRI's last layer has " + std::to_string(layer.size()) +
                               " coefficients, not the degree bound " +
                               std::to_string(m_parameters.lastLayerDegreeBound));
    }
    writer.setScope("STARK/FRI/Commitment/Last Layer");
    writer.writeFelts(layer, true, "Coefficients");
}

void FriProver::decommit(ProofWriter& writer, const std::vector<std::uint64_t>& queries) const {
    const std::vector<int>& steps = m_parameters.steps;
    int foldsSinceFirst = 0;
    for (std::size_t layer = 1; layer < steps.size(); ++layer) {
        m_cancel.check();
        const int step = steps[layer];
        const std::uint64_t width = std::uint64_t(1) << step;
        std::set<Cell> known;
        std::set<std::uint64_t> rows;
        for (const std::uint64_t query : queries) {
            const std::uint64_t index = query >> foldsSinceFirst;
            known.insert({index >> step, std::size_t(index & (width - 1))});
            rows.insert(index >> step);
        }
        writer.setScope("STARK/FRI/Decommitment/Layer " + std::to_string(layer));
        m_tables[layer - 1]->decommit(writer, {rows.begin(), rows.end()}, known);
        foldsSinceFirst += step;
    }
}

} // namespace proofdesk::stark
