#pragma once

#include "ProofVerifier.h"

#include <nlohmann/json.hpp>

#include <string>

namespace proofdesk::stark {

// The verdict as JSON (proofdesk verify --json, the proof service's verification record):
// {valid, failedStage?, failedCheck?, layout, nSteps, stoneVersion, securityBits, parameters,
//  statement | statementError, milliseconds}.
nlohmann::json verdictJson(const Verdict& verdict);

// A human summary, one fact per line.
std::string verdictSummary(const Verdict& verdict);

} // namespace proofdesk::stark
