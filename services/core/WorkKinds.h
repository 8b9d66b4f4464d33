#pragma once

#include <QString>
#include <QStringList>

namespace proofdesk::core {

// What a job asks of the worker that runs it: `proofdesk worker --kinds` takes only some of these
// (a machine with many cores proves, a small one traces and fetches chain data). The job engine
// stores each job's work kind (JobEngine::enqueue) and filters claims by it.
namespace work_kinds {
inline const QString kTrace = QStringLiteral("trace");         // a Cairo run (trace generation)
inline const QString kProve = QStringLiteral("prove");         // a STARK proof
inline const QString kVerify = QStringLiteral("verify");       // a proof's verification
inline const QString kAggregate = QStringLiteral("aggregate"); // a bucket's aggregation
inline const QString kRequest = QStringLiteral("request");     // a data request's action

inline QStringList all() {
    return {kTrace, kProve, kVerify, kAggregate, kRequest};
}
} // namespace work_kinds

} // namespace proofdesk::core
