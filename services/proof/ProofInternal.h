#pragma once

// Shared by the proof service's translation units (ProofService, ProofPipeline, ProofBuckets);
// not part of its interface.

#include "api/ProofWire.h"
#include "core/QtText.h"
#include "crypto/Felt.h"

#include <QString>
#include <QVariant>

#include <cstdint>
#include <string>

namespace proofdesk::proof::detail {

// Job kinds on the job engine: one stage of one query, and a bucket's aggregation.
inline const QString kStageJob = QStringLiteral("proof.stage");
inline const QString kAggregateJob = QStringLiteral("proof.aggregate");

using proofdesk::qstr;
using proofdesk::str;

// 0x + 64 hex digits.
std::string bytes32Hex(const crypto::Felt& value);

// jobSize from the measured steps (XS < 2^20, S <= 13M, M <= 30M, L above) and isJobSizeValid
// against the declared size (docs/architecture.md).
void setJobSize(api::ProofQuery& query, std::uint64_t steps);

} // namespace proofdesk::proof::detail
