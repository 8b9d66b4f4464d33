#pragma once

#include "ConstraintEvaluator.h"
#include "Parallel.h"
#include "proof/ProofParameters.h"
#include "proof/PublicInput.h"
#include "prover/trace/CairoRun.h"

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace proofdesk::stark {

// Where a proof run is, for progress bars: the phase and the fraction of the whole run done.
struct ProverProgress {
    std::string phase;
    double fraction = 0;
};

struct ProverOptions {
    ProofParameters parameters;
    SeedVariant seedVariant = SeedVariant::Stone6;
    // Evaluate every constraint on the trace before committing, stopping at the first violation.
    bool checkConstraints = false;
    // Keep Stone's annotations (ProverResult::annotations).
    bool annotations = false;
    CancelFlag cancel;
    std::function<void(const ProverProgress&)> progress;
};

struct PhaseTiming {
    std::string phase;
    double seconds = 0;
};

struct ProverResult {
    std::vector<std::uint8_t> proof; // proof_hex's bytes
    std::vector<std::string> annotations;
    std::vector<PhaseTiming> timings;
    std::uint64_t traceLength = 0;
    std::size_t traceColumns = 0;
};

// The run's trace breaks a constraint (found by checkConstraints).
class ConstraintCheckFailed : public std::runtime_error {
public:
    explicit ConstraintCheckFailed(ConstraintViolation violation);
    const ConstraintViolation& violation() const { return m_violation; }

private:
    ConstraintViolation m_violation;
};

// The layouts the prover builds traces for, in the order they were added.
const std::vector<std::string>& provableLayouts();

// The rows of a run's trace: its steps times its layout's rows per step (a dynamic layout's from
// its dynamic_params), 16 per step where the layout is unknown. What the parameters are chosen for.
std::uint64_t traceRows(const PublicInput& input);

// Proves a Cairo run: builds the layout's trace, commits it and the interaction trace, the
// composition polynomial, the out-of-domain values, FRI, proof of work and the decommitments, in
// the order Stone's verifier (and ours) reads them. Throws std::invalid_argument for parameters
// that do not fit the run or a layout the prover lacks, TraceError for a run the trace cannot
// hold, ConstraintCheckFailed, ProofCancelled.
ProverResult proveCairoRun(const CairoRun& run, const ProverOptions& options);

} // namespace proofdesk::stark
